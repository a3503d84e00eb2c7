"""The words players type that the records don't spell out: `card_db/words.toml`.

`load_words(root)` reads, per language, the aliases and abbreviations ("vp", "bg"), the
words naming a kind of item ("tech tiles", "rival"), the words naming a Faction or place
("emperor", "guild", "maker") and more names per item (translations, nicknames).
`Words.fold(text)` is `normalize` plus the aliases written out, for the index and the
query alike; `Words.split_kind` and `Words.split_place` find those words in a folded query.
`problems(root, keys)` lists every mistake in the file for `python -m companion.cards`.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Final, get_args

from companion.cards.index import KIND_NAMES, entries
from companion.rules.catalog import AgentIcon, Catalog

WORDS_FILE: Final[str] = "words.toml"
# Places that are not an Agent icon: the spaces with a Maker icon, the Combat spaces.
PLACE_FLAGS: Final[tuple[str, ...]] = ("maker", "combat")
LANGUAGE_KEYS: Final[frozenset[str]] = frozenset({"aliases", "kinds", "places", "names"})
# The glossaries of the game's terms per language (card_db/i18n/glossary.<locale>.toml,
# taken from the localized rulebooks): the terms that name a kind of item or a place are
# search words too, as words.toml's `kinds` and `places` ("指揮官" lists the leaders).
GLOSSARY_PATTERN: Final[str] = "i18n/glossary.*.toml"
GLOSSARY_KINDS: Final[Mapping[str, str]] = {
    "leader": "leader",
    "conflict": "conflict",
    "intrigue": "intrigue",
    "imperium_card": "imperium",
    "reserve": "reserve",
    "tech": "tech",
    "tech_tile": "tech",
    "house_hagal": "hagal",
    "rival": "hagal",
}
GLOSSARY_PLACES: Final[Mapping[str, str]] = {
    "emperor": "emperor",
    "spacing_guild": "spacing_guild",
    "bene_gesserit": "bene_gesserit",
    "fremen": "fremen",
    "landsraad": "landsraad",
    "choam": "spice_trade",
    "city": "city",
    "maker": "maker",
}


_NUMBER_WORDS: Final[Mapping[str, str]] = {
    word: str(n)
    for n, word in enumerate(
        ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    )
}
# Apostrophes dropped, and Polish ł read as l (NFKD leaves ł whole: no mark to drop).
_FOLD: Final = str.maketrans({"'": None, "\u2019": None, "\u02bc": None, "\u0142": "l"})
_APOSTROPHES: Final = str.maketrans("", "", "'\u2019\u02bc")
# The marks NFKD splits off a letter, to drop; but the voicing marks of kana stay: カ and ガ
# are different sounds, not one letter marked. (Marks beyond the BMP: `_strip_marks`.)
_KANA_MARKS: Final[frozenset[str]] = frozenset("\u3099\u309a")
_MARKS: Final = {
    code: None
    for code in range(0x300, 0x10000)
    if unicodedata.combining(chr(code)) and chr(code) not in _KANA_MARKS
}
# Han, kana, Hangul syllables and compatibility ideographs: each character becomes a word
# of its own, so any run of characters matches as a phrase (n-grams) whether or not the
# text puts spaces between words (Chinese and Japanese never do, Korean not always alike:
# "성간 거래", "성간거래"). The kana middle dot (・) separates like any punctuation.
_CJK_RANGES: Final = (
    r"\u3040-\u30fa\u30fc-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uf900-\ufaff"
)
_CJK: Final = re.compile(f"[{_CJK_RANGES}]")
# A word: one CJK character, or a run of other letters and digits.
_TOKEN: Final = re.compile(f"[{_CJK_RANGES}]|[^\\W_{_CJK_RANGES}]+")
# Roman numerals as whole words ("Conflict III"); a lone "i" only after conflict or level.
_ROMAN_AFTER: Final = re.compile(r"\b(conflict|conflicts|level) (i{1,3})\b")
_ROMAN: Final[Mapping[str, str]] = {"i": "1", "ii": "2", "iii": "3"}


def normalize(text: str) -> str:
    """Fold text for matching: accents stripped, casefolded, words split on anything else,
    number words and Roman numerals as digits, CJK characters one word each.

    >>> normalize("  Ça, c'est  DEUX Épices!")
    'ca cest deux epices'
    >>> normalize("Gain TWO water")
    'gain 2 water'
    >>> normalize("Conflict I, then Conflict III")
    'conflict 1 then conflict 3'
    >>> normalize("香料必须流动")
    '香 料 必 须 流 动'
    >>> normalize("Żołnierze, ŁĄKA")
    'zolnierze laka'
    >>> normalize("ポール・アトレイデ"), normalize("ｶﾞ"), normalize("성간 거래")
    ('ポ ー ル ア ト レ イ デ', 'ガ', '성 간 거 래')
    """
    plain = text.casefold() if text.isascii() else _strip_marks(text)
    words = [_NUMBER_WORDS.get(w, w) for w in _TOKEN.findall(plain.translate(_FOLD))]
    folded = _ROMAN_AFTER.sub(lambda m: f"{m[1]} {_ROMAN[m[2]]}", " ".join(words))
    return " ".join(w if w not in ("ii", "iii") else _ROMAN[w] for w in folded.split())


def has_cjk(text: str) -> bool:
    """True when the text holds a character of a language written without spaces (each
    such character is a word of its own for the search)."""
    return _CJK.search(text) is not None


def _strip_marks(text: str) -> str:
    """NFKD, the marks dropped (not kana voicing), recomposed (NFC), casefolded."""
    decomposed = unicodedata.normalize("NFKD", text).translate(_MARKS)
    if max(decomposed, default="") > "\uffff":
        kept = (ch for ch in decomposed if ch in _KANA_MARKS or not unicodedata.combining(ch))
        decomposed = "".join(kept)
    return unicodedata.normalize("NFC", decomposed).casefold()


def marked(text: str) -> str:
    """Text folded as `normalize` does but with its letters' marks kept, to tell an exact
    spelling ("Żołnierz") from one typed without them ("zolnierz").

    >>> marked("Żołnierz Sardaukarów"), marked("ŁĄKA")
    ('żołnierz sardaukarów', 'łąka')
    """
    plain = unicodedata.normalize("NFC", text).casefold().translate(_APOSTROPHES)
    return " ".join(_TOKEN.findall(plain))


_normalize = normalize


@dataclass(frozen=True, slots=True)
class Words:
    """Every language's words, folded, merged for matching (a player types any of them)."""

    aliases: Mapping[str, str] = field(default_factory=dict)
    kinds: tuple[tuple[str, str], ...] = ()  # (folded words, kind), longest words first
    places: tuple[tuple[str, str], ...] = ()  # (folded words, place), longest words first
    # More names of items ("kind:id" -> folded names) by the language whose table gives
    # them: a reader's own come first.
    names_by_language: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)

    def own_names(self, language: str, key: str) -> tuple[str, ...]:
        """The more names of item `key` (folded) that words.toml gives in `language`."""
        return self.names_by_language.get(language, {}).get(key, ())

    def fold(self, text: str) -> str:
        """`normalize`, then each alias (a whole word) written out in full.

        >>> Words(aliases={"vp": "victory point"}).fold("Gain 1 VP")
        'gain 1 victory point'
        """
        words = _normalize(text).split()
        return " ".join(self.aliases.get(w, w) for w in words)

    def split_kind(self, folded: str) -> tuple[str, str] | None:
        """The kind a folded query names, and the rest of the query: ('tech', '')."""
        return _split(self.kinds, folded)

    def split_place(self, folded: str) -> tuple[str, str] | None:
        """The Faction or place a folded query names, and the rest of the query."""
        return _split(self.places, folded)

    def vocabulary(self) -> Iterable[str]:
        """Every folded word of the aliases, kinds, places and names."""
        yield from self.aliases
        for phrase, _kind in (*self.kinds, *self.places):
            yield from phrase.split()
        for table in self.names_by_language.values():
            for names in table.values():
                for name in names:
                    yield from name.split()


def _split(table: tuple[tuple[str, str], ...], folded: str) -> tuple[str, str] | None:
    padded = f" {folded} "
    for phrase, value in table:
        needle = f" {phrase} "
        if needle in padded:
            rest = padded.replace(needle, " ", 1).split()
            return value, " ".join(rest)
    return None


def _table(data: Mapping[str, object], key: str) -> Mapping[str, object]:
    found = data.get(key, {})
    return found if isinstance(found, Mapping) else {}


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def words_from(data: Mapping[str, object], *more: Mapping[str, object]) -> Words:
    """Words from the parsed file and `more` tables of the same shape (languages merged;
    unusable values left out)."""
    aliases: dict[str, str] = {}
    kinds: list[tuple[str, str]] = []
    places: list[tuple[str, str]] = []
    by_language: dict[str, dict[str, tuple[str, ...]]] = {}
    for code, language in chain(data.items(), *(m.items() for m in more)):
        if not isinstance(language, Mapping):
            continue
        for short, full in _table(language, "aliases").items():
            if isinstance(full, str):
                aliases[_normalize(short)] = _normalize(full)
        for kind, said in _table(language, "kinds").items():
            kinds += [(_normalize(s), kind) for s in _strings(said)]
        for place, said in _table(language, "places").items():
            places += [(_normalize(s), place) for s in _strings(said)]
        for key, said in _table(language, "names").items():
            by_language.setdefault(code, {})[key] = tuple(_normalize(s) for s in _strings(said))
    by_length = lambda pair: (-len(pair[0]), pair[0])  # noqa: E731
    return Words(
        aliases=aliases,
        kinds=tuple(sorted(kinds, key=by_length)),
        places=tuple(sorted(places, key=by_length)),
        names_by_language=by_language,
    )


def _read(root: Path) -> dict[str, object]:
    path = root / WORDS_FILE
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        return tomllib.load(handle)


def glossary_words(root: Path) -> dict[str, dict[str, dict[str, list[str]]]]:
    """The glossaries' terms for kinds and places, in words.toml's shape:
    {locale: {"kinds": {kind: [term]}, "places": {place: [term]}}}."""
    found: dict[str, dict[str, dict[str, list[str]]]] = {}
    for path in sorted(root.glob(GLOSSARY_PATTERN)):
        with path.open("rb") as handle:
            data = tomllib.load(handle)
        terms = data.get("term", [])
        language = found.setdefault(path.stem.removeprefix("glossary."), {})
        for term in terms if isinstance(terms, list) else []:
            key, text = term.get("key"), term.get("text")
            if not isinstance(text, str) or not text.strip():
                continue
            for table, names in (("kinds", GLOSSARY_KINDS), ("places", GLOSSARY_PLACES)):
                if key in names:
                    language.setdefault(table, {}).setdefault(names[key], []).append(text)
    return found


def load_words(root: Path) -> Words:
    """The words of `root/words.toml` (none when the file is missing), with the kinds and
    places the glossaries name in each language."""
    return words_from(_read(root), glossary_words(root))


def problems(root: Path, catalog: Catalog) -> list[str]:
    """Every mistake in words.toml: unknown tables, kinds, places or item keys, bad values."""
    keys = {e.key for e in entries(catalog)}
    kinds, places = set(KIND_NAMES), {*get_args(AgentIcon), *PLACE_FLAGS}
    try:
        data = _read(root)
    except tomllib.TOMLDecodeError as error:
        return [f"{WORDS_FILE}: {error}"]
    found: list[str] = []
    for code, language in data.items():
        where = f"{WORDS_FILE} [{code}]"
        if not isinstance(language, Mapping):
            found.append(f"{where}: must be a table of {sorted(LANGUAGE_KEYS)}")
            continue
        found += [f"{where}: unknown key '{k}'" for k in language if k not in LANGUAGE_KEYS]
        for short, full in _table(language, "aliases").items():
            if not isinstance(full, str) or not _normalize(full):
                found.append(f"{where}.aliases.{short}: must be a non-empty string")
        for name, allowed, label in (("kinds", kinds, "kind"), ("places", places, "place")):
            for key, said in _table(language, name).items():
                if key not in allowed:
                    found.append(f"{where}.{name}: unknown {label} '{key}'")
                if not isinstance(said, list) or not said or len(_strings(said)) != len(said):
                    found.append(f"{where}.{name}.{key}: must be a list of strings")
        for key, more in _table(language, "names").items():
            if key not in keys:
                found.append(f"{where}.names: no item '{key}'")
            if not isinstance(more, list) or len(_strings(more)) != len(more):
                found.append(f"{where}.names.{key}: must be a list of strings")
    return found

"""The translation catalogs, the messages the code marks today, and the glossaries."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "companion" / "translations"
GLOSSARIES = ROOT / "card_db" / "i18n"
LOCALES = ("zh_Hans", "zh_Hant", "pl", "ja", "ko")
# As in babel.cfg's comment: _l is flask_babel.lazy_gettext, N_ the engine's marker, Nn_ its
# marker of a count's two wordings (one plural entry).
KEYWORDS = {**DEFAULT_KEYWORDS, "_l": None, "N_": None, "Nn_": (1, 2)}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


# The app's own words (messages) and the words of card_db (cards: companion/cards/i18n.py).
DOMAINS = ("messages", "cards")
# Each catalog on disk, as (locale, domain).
CATALOGS = tuple(
    (locale, domain)
    for domain in DOMAINS
    for locale in LOCALES
    if (TRANSLATIONS / locale / "LC_MESSAGES" / f"{domain}.po").is_file()
)
CARD_LOCALES = tuple(locale for locale, domain in CATALOGS if domain == "cards")


@cache
def catalog(locale: str, domain: str = "messages") -> Catalog:
    """A locale's catalog of one domain (messages.po or cards.po)."""
    with (TRANSLATIONS / locale / "LC_MESSAGES" / f"{domain}.po").open("rb") as po_file:
        return read_po(po_file, locale=locale)


def messages(locale: str, domain: str = "messages") -> list[Message]:
    """A catalog's messages, without its header."""
    return [m for m in catalog(locale, domain) if m.id]


@cache
def extracted_messages() -> tuple[tuple[str | tuple[str, ...], str], ...]:
    """Every message `pybabel extract -F babel.cfg` finds in the code and templates now (a
    plural entry as its ids), with where ("file:line")."""
    return tuple((m, where) for m, _context, where in extracted_entries())


def extracted_entries() -> tuple[tuple[str | tuple[str, ...], str | None, str], ...]:
    """`extracted_messages` with each entry's context (npgettext's; None for most)."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)  # type: ignore[no-untyped-call]
    found = extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS, directory_filter=_skip_venv
    )
    return tuple((m, context, f"{f}:{line}") for f, line, m, _c, context in found)


def extracted_ids() -> frozenset[str]:
    """Every message id `pybabel extract -F babel.cfg` finds in the code and templates now."""
    return frozenset(m if isinstance(m, str) else m[0] for m, _where in extracted_messages())


def _skip_venv(path: str) -> bool:
    return not Path(path).name.startswith((".", "_"))


def singular(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def forms(message: Message) -> tuple[str, ...]:
    """The translation's forms (one, or one per plural form)."""
    string = message.string
    if isinstance(string, str):
        return (string,)
    return tuple(string or ())


@dataclass(frozen=True, slots=True)
class Term:
    """A glossary entry: the English term and what a translation must contain for it."""

    key: str
    en: str
    text: str
    match: tuple[str, ...]  # any one of these
    check: bool
    origin: str
    source: str
    quote: str
    wrong: tuple[str, ...] = ()  # renderings the seed contradicts: no translation may use them

    def in_english(self, message_id: str) -> bool:
        """True where the message id uses this term (a word, maybe plural)."""
        words = PLACEHOLDER.sub(" ", message_id)
        pattern = r"(?<![\w-])" + re.escape(self.en) + r"(?:s|es)?(?![\w-])"
        return re.search(pattern, words, re.IGNORECASE) is not None

    def in_translation(self, text: str) -> bool:
        """True where a translation uses this term (or one of its accepted forms)."""
        return any(m.lower() in text.lower() for m in self.match)


@cache
def glossary(locale: str) -> tuple[Term, ...]:
    data = tomllib.loads((GLOSSARIES / f"glossary.{locale}.toml").read_text(encoding="utf-8"))
    return tuple(
        Term(
            key=t["key"],
            en=t["en"],
            text=t["text"],
            match=_alternatives(t.get("match", t["text"])),
            check=t.get("check", True),
            origin=t["origin"],
            source=t.get("source", ""),
            quote=t.get("quote", ""),
            wrong=tuple(t.get("wrong", ())),
        )
        for t in data["term"]
    )


def _alternatives(match: str | list[str]) -> tuple[str, ...]:
    return (match,) if isinstance(match, str) else tuple(match)

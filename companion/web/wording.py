"""How a filled-in value sits in a sentence of each language (issue 28).

Three rules, applied where a Message is filled in (`language.translated`), to the wording
of the reader's catalog before its values go in:

- Korean: a particle written after a placeholder in its fallback form (`%(house)s이(가)`,
  `%(card)s을(를)`, `%(space)s(으)로`) becomes the one the filled-in value's last syllable
  takes (`final_consonant`): 왼쪽 라이벌이, 아라킨을, 카르타그로.
- A name of card_db (a `Name`) wears the marks the language's seed rulebook puts around
  such a name in running text (`MARKS`); marks a translation wrote around the placeholder
  itself are taken off first, so a name is never marked twice.
- Chinese and Japanese: no space between a CJK character and a filled-in name (a
  player's, a `Name`, a list of them) that starts (or ends) with one ("%(house)s 支付"
  filled with 左方對手 reads 左方對手支付); a phrase of the engine keeps its spaces.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from companion.rules.i18n import Name, NameKind

# The seeds' marks around a name in running text, by language and kind of name
# (/work/shared/reference/seeds, the rulebooks the glossaries cite):
# - ja (004): cards 〈砂丘〉〈声〉, leaders 〈ヘレナ・リチェス〉 (1118), spaces 《カルタゴ》.
# - zh_Hans (000): cards 『折叠空间』 (199, 466, 573), spaces “集结部队” (605, 852), leaders
#   plain (189).
# - zh_Hant (001): cards 「鄧肯·艾德侯」 (526, 534, 540), spaces 「合謀」「財富」 (470, 472),
#   leaders plain (223).
# - ko (003) and pl (002) mark none: the Korean rulebook says the kind after the name
#   (길드 최고 관리자 카드를 플레이, 밀수 장소에: lines 382, 418), which the translation says.
# Tech tiles come with Rise of Ix, which no seed of ja or zh covers: they are marked as cards.
MARKS: Mapping[str, Mapping[NameKind, tuple[str, str]]] = {
    "ja": {
        "card": ("〈", "〉"),
        "hagal": ("〈", "〉"),
        "tile": ("〈", "〉"),
        "leader": ("〈", "〉"),
        "space": ("《", "》"),
    },
    "zh_Hans": {
        "card": ("『", "』"),
        "hagal": ("『", "』"),
        "tile": ("『", "』"),
        "space": ("“", "”"),
    },
    "zh_Hant": {
        "card": ("「", "」"),
        "hagal": ("「", "」"),
        "tile": ("「", "」"),
        "space": ("「", "」"),
    },
}
# Every pair of marks a translation may have put around a placeholder by hand.
_PAIRS = (("〈", "〉"), ("《", "》"), ("「", "」"), ("『", "』"), ("“", "”"))
# The languages that set no space between their words and a name.
NO_SPACES = frozenset({"ja", "zh_Hans", "zh_Hant"})

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")

# --- Korean particles -------------------------------------------------------------------

_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3
_NONE, _GIYEOK, _NIEUN, _RIEUL, _MIEUM, _BIEUP, _IEUNG = 0, 1, 4, 8, 16, 17, 21
# The final consonant of each digit read the Sino-Korean way: 영 일 이 삼 사 오 육 칠 팔 구.
_DIGITS = (_IEUNG, _RIEUL, _NONE, _MIEUM, _NONE, _NONE, _GIYEOK, _RIEUL, _RIEUL, _NONE)
# A number ending in zeros ends in its unit: 십 백 천 (10, 100, 1000) or 만 억 조 (10^4k).
_SMALL_UNITS = (_BIEUP, _GIYEOK, _NIEUN)  # 십, 백, 천
_LARGE_UNITS = (_NIEUN, _GIYEOK, _NONE)  # 만, 억, 조
# A Latin letter read by its name: 엘 엠 엔 알 end in a consonant, the others (에이, 비, 씨...)
# in a vowel.
_LETTERS = {"l": _RIEUL, "m": _MIEUM, "n": _NIEUN, "r": _RIEUL}
# What may stand between a name and its particle: a closing mark, a quote, a bracket
# (and the right single quote, the full-width parenthesis, the ellipsis of 승자에게…).
_CLOSING = "」』〉》”\u2019\"')]\uff09\u2026"
# A particle's fallback form as the catalogs write it, and its forms after a final
# consonant and after a vowel.
PARTICLES: Mapping[str, tuple[str, str]] = {
    "을(를)": ("을", "를"),
    "를(을)": ("을", "를"),
    "이(가)": ("이", "가"),
    "가(이)": ("이", "가"),
    "은(는)": ("은", "는"),
    "는(은)": ("은", "는"),
    "과(와)": ("과", "와"),
    "와(과)": ("과", "와"),
    "아(야)": ("아", "야"),
    "야(아)": ("아", "야"),
    "(으)로": ("으로", "로"),  # after ㄹ too: 로 (아라킨으로, 카르타그로, 셀로)
    "(이)": ("이", ""),  # the copula before an ending: (이)라, (이)나, (이)며
}
_FALLBACK = re.compile(
    r"%\((?P<key>\w+)\)[sd](?P<closing>["
    + re.escape(_CLOSING)
    + r"]*)(?P<fallback>"
    + "|".join(re.escape(f) for f in PARTICLES if f != "(이)")
    + r"|\(이\)(?=[\uac00-\ud7a3]))"
)
_LATIN_END = re.compile(r"[A-Za-z]+$")
_DIGITS_END = re.compile(r"[0-9][0-9,]*$")


def final_consonant(text: str) -> int | None:
    """The final consonant (jongseong, 1 to 27; 0 for none) of the last syllable of `text`
    read aloud in Korean; None where it can't be told (an empty text, a Chinese character).

    Closing marks and spaces at the end are passed over; a number is read the Sino-Korean
    way (1 일 ends in ㄹ, 2 이 in none, 10 십 in ㅂ); a Latin letter by its name (L 엘, N 엔)
    and a Latin word the way its Korean spelling most often ends (Alice 앨리스: no final
    consonant; a word ending in l, m, n or ng keeps it: Paul 폴, Adam 애덤, Dune 듄)."""
    stripped = text.rstrip().rstrip(_CLOSING).rstrip()
    if not stripped:
        return None
    last = ord(stripped[-1])
    if _HANGUL_FIRST <= last <= _HANGUL_LAST:
        return (last - _HANGUL_FIRST) % 28
    digits = _DIGITS_END.search(stripped)
    if digits is not None:
        return _number_final(int(digits.group().replace(",", "")))
    word = _LATIN_END.search(stripped)
    if word is not None:
        return _latin_final(word.group())
    return None


def _number_final(number: int) -> int:
    if number == 0:
        return _IEUNG  # 영
    zeros = 0
    while number % 10 == 0:
        number //= 10
        zeros += 1
    if zeros == 0:
        return _DIGITS[number % 10]
    if zeros % 4 == 0:
        return _LARGE_UNITS[min(zeros // 4, 3) - 1]
    return _SMALL_UNITS[zeros % 4 - 1]


def _latin_final(word: str) -> int:
    if len(word) == 1 or word.isupper():  # a letter, or letters read one by one (VP, AI)
        return _LETTERS.get(word[-1].lower(), _NONE)
    lower = word.lower()
    if lower.endswith("ng"):
        return _IEUNG
    if lower[-1] == "e" and lower[-2:-1] in ("l", "m", "n"):  # a silent e: Dune 듄, Michelle 미셸
        return _LETTERS[lower[-2]]
    return _LETTERS[lower[-1]] if lower[-1] in "lmn" else _NONE


def particle(text: str, fallback: str) -> str:
    """The particle for `fallback` (a catalog's form: "이(가)", "(으)로", "(이)") after
    `text`; the fallback itself where the last syllable can't be told."""
    forms = PARTICLES.get(fallback)
    final = final_consonant(text)
    if forms is None or final is None:
        return fallback
    after_consonant, after_vowel = forms
    if fallback == "(으)로" and final == _RIEUL:
        return after_vowel
    return after_consonant if final else after_vowel


def with_particles(wording: str, shown: Mapping[str, object]) -> str:
    """`wording` with each particle after a placeholder chosen for the value it is filled
    with (`shown`: the values as they will be filled in)."""

    def chosen(match: re.Match[str]) -> str:
        key = match.group("key")
        if key not in shown:
            return match.group()
        fallback = match.group("fallback")
        head = match.group()[: -len(fallback)]
        return head + particle(str(shown[key]), fallback)

    return _FALLBACK.sub(chosen, wording)


# --- Marks around names -----------------------------------------------------------------


def marks(locale: str, kind: NameKind) -> tuple[str, str] | None:
    """The marks around a name of `kind` in running text of `locale`, or None."""
    return MARKS.get(locale, {}).get(kind)


def unmarked(wording: str, names: Mapping[str, Name]) -> str:
    """`wording` without marks a translation put by hand around a placeholder filled with a
    name of card_db (`names`), which gets its language's own marks where it is filled."""
    for key in names:
        for opening, closing in _PAIRS:
            wording = wording.replace(f"{opening}%({key})s{closing}", f"%({key})s")
    return wording


def marked(text: str, locale: str, kind: NameKind) -> str:
    """A name (in the reader's language) in the marks of running text, where the language
    has some; a name that wears them already is left as it is."""
    found = marks(locale, kind)
    if found is None or not text or (text.startswith(found[0]) and text.endswith(found[1])):
        return text
    return f"{found[0]}{text}{found[1]}"


# --- Spaces around names in Chinese and Japanese -----------------------------------------

# The characters of Chinese and Japanese writing: the curly quotes (full-width in Chinese
# text: “集结部队”), CJK punctuation and marks, kana, the ideographs, the full-width forms.
_CJK = (
    "\u2018\u2019\u201c\u201d\u2e80-\u2fdf\u3000-\u30ff\u3100-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
)
_IS_CJK = re.compile(f"[{_CJK}]")
_SPACED = re.compile(
    rf"(?P<before>(?<=[{_CJK}]) +)?(?P<placeholder>%\((?P<key>\w+)\)[sd])(?P<after> +(?=[{_CJK}]))?"
)


def is_cjk(char: str) -> bool:
    """True for a character of Chinese or Japanese writing (a kana, an ideograph, a mark)."""
    return bool(char) and _IS_CJK.fullmatch(char[0]) is not None


def unspaced(wording: str, shown: Mapping[str, object]) -> str:
    """`wording` without the spaces between a CJK character and a placeholder whose value
    (`shown`) starts, or ends, with a CJK character: "%(house)s 支付 3 香料" filled with
    左方對手 says 左方對手支付 3 香料, with Alice it keeps its space."""

    def tight(match: re.Match[str]) -> str:
        key = match.group("key")
        value = str(shown.get(key, "")) if key in shown else ""
        before = match.group("before") or ""
        after = match.group("after") or ""
        if value and is_cjk(value[0]):
            before = ""
        if value and is_cjk(value[-1]):
            after = ""
        return before + match.group("placeholder") + after

    return _SPACED.sub(tight, wording)

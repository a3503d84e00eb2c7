"""Amounts of a resource in a rules text ('2 water', '+1 Persuasion'), for the pages to
show each with its resource's badge, in English and in each language of the `cards`
catalogs (the words those catalogs use, the game terms of card_db/i18n/glossary.<lang>.toml)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final, NamedTuple

AMOUNT: Final = re.compile(
    r"(?<![\w.])(\(?)([+-]?)(\d+)(\+?) (Solari|spice|water|Persuasion|[Ss]words?|troops?|"
    r"Victory Points?|VP|Intrigue cards?|Intrigue)\b"
)
RESOURCES: Final[Mapping[str, str]] = {
    "solari": "solari",
    "spice": "spice",
    "water": "water",
    "persuasion": "persuasion",
    "sword": "swords",
    "swords": "swords",
    "troop": "troops",
    "troops": "troops",
    "victory point": "vp",
    "victory points": "vp",
    "vp": "vp",
    "intrigue card": "intrigue",
    "intrigue cards": "intrigue",
    "intrigue": "intrigue",
}


class Amount(NamedTuple):
    """One amount as written: '(' before it or not, its sign, number, a '+' after the
    number ('2+'), the resource's word, and the resource it is; `lead` is what the amount
    writes before its sign (the word, where a language writes it first: '솔라리 ' of
    '솔라리 +2'), `tail` what it writes after its number (' Solari', 'ソラリ', ' 个部队')."""

    paren: str
    sign: str
    number: str
    plus: str
    word: str
    resource: str
    lead: str = ""
    tail: str = ""


# Each language's words for the resources, as its cards.po writes them (regular expressions,
# one per resource of the badges: companion/web/cards.py's `res` kinds). The glossary's
# terms: ja ソラリ 香料 水 説得力 剣 部隊 勝利点 策謀カード; ko 솔라리 스파이스 물 설득 검
# 병력 승점 책략 카드; pl solarisy przyprawa woda perswazja miecz żołnierz PZ karta
# intrygi; zh_Hans 索货币 香料 水 说服力 武器 部队 胜利点 秘牌; zh_Hant 太陽幣 香料 水 招募點數
# 劍刃 軍隊 勝利點 密謀 (and 徵兵N次 for recruiting N troops).
WORDS: Final[Mapping[str, Mapping[str, str]]] = {
    "ja": {
        "solari": "ソラリ",
        "spice": "香料(?!こそ)",  # 〈香料こそ流るるべし〉 is a card's name
        "water": "水",
        "persuasion": "説得力",
        "swords": "剣",
        "troops": "部隊",
        "vp": "勝利点",
        "intrigue": "策謀カード",
    },
    "ko": {
        "solari": "솔라리",
        "spice": "스파이스(?!는 흘러야)",  # 스파이스는 흘러야 한다: a card's name
        "water": "물",
        "persuasion": "설득",
        "swords": "검",
        "troops": "병력",
        "vp": "승점",
        "intrigue": "책략 카드",
    },
    "pl": {
        "solari": "[Ss]olaris(?:y|ów|a|em)?",
        "spice": "przypraw(?:a|y|ę|ą|ie)?(?! musi)",  # „Przyprawa musi płynąć”: a card
        "water": "wod(?:a|y|ę|ą|zie)|wód",
        "persuasion": "(?:punkt(?:y|ów)? )?perswazj(?:a|i|ę|ą)",
        "swords": "miecz(?:e|y|a|om|ami)?",
        "troops": "żołnierz(?:a|e|y|om|ami)?",
        "vp": "punkt(?:y|ów)? zwycięstwa|PZ",
        "intrigue": "kart(?:a|y|ę|ami)? intryg(?:i)?",
    },
    "zh_Hans": {
        "solari": "索货币",
        "spice": "香料(?!永流传)",  # 香料永流传: a card's name
        "water": "水",
        "persuasion": "说服力",
        "swords": "武器|剑",
        "troops": "部队",
        "vp": "胜利点",
        "intrigue": "秘牌",
    },
    "zh_Hant": {
        "solari": "太陽幣",
        "spice": "香料(?!永流傳)",
        "water": "水",
        "persuasion": "招募點數",
        "swords": "劍刃|劍",
        "troops": "軍隊|部隊",
        "vp": "勝利點",
        "intrigue": "密謀牌|密謀",
    },
}
# a sign, a whole number (not the start of a longer one, nor of a decimal) and a "+" ('2+')
NUMBER: Final = r"(?P<sign>[+-]?)(?P<number>\d+)(?![.,]?\d)(?P<plus>\+?)"


def _words(language: str) -> str:
    """The language's resource words, each in the group named after its resource."""
    return "|".join(f"(?P<{res}>{word})" for res, word in WORDS[language].items())


def _plain(language: str) -> str:
    return "|".join(WORDS[language].values())


def _patterns(language: str) -> tuple[re.Pattern[str], ...]:
    """How `language` writes an amount, number first ('2ソラリ', '+2 剑', '3 solarisy',
    '2 个部队') or word first ('剣+2', '説得力1', '策謀カードを1枚', '솔라리 +2',
    '책략 카드 1장')."""
    words = _words(language)
    if language in ("zh_Hans", "zh_Hant"):
        measure = r"(?:[个個支张張点點把名枚] ?)?(?:额外|額外)?"
        # '2 个部队', '2 支軍隊', '1 张秘牌', '2 把剑', '2 个额外香料': a measure word between
        found = re.compile(rf"(?<![\d.,]){NUMBER}(?P<tail> ?{measure}(?:{words}))")
        if language == "zh_Hant":
            # the seed's recruiting: '徵兵3次' (recruit 3 troops, 001:488)
            return found, re.compile(rf"(?P<lead>(?P<troops>徵兵)){NUMBER}(?P<tail>次)")
        return (found,)
    if language == "pl":
        return (re.compile(rf"(?<![\w.,])(?P<paren>\(?){NUMBER}(?P<tail> (?:{words}))(?!\w)"),)
    if language == "ja":
        return (
            re.compile(rf"(?<![\d.,A-Za-z]){NUMBER}(?P<tail>{words})"),
            # a word first, its number not the next amount's ('香料2ソラリ'): '剣+2', '勝利点10',
            # '策謀カードを1枚'
            re.compile(rf"(?P<lead>(?:{words})を?){NUMBER}(?!{_plain(language)})(?P<tail>枚?)"),
        )
    # ko: the word first, then the number and a particle ('솔라리 2를') or '장' of cards
    return (re.compile(rf"(?<!\w)(?P<lead>(?:{words}) ?){NUMBER}(?P<tail>장?)"),)


PATTERNS: Final[Mapping[str, tuple[re.Pattern[str], ...]]] = {
    language: _patterns(language) for language in WORDS
}


def amounts(text: str, language: str = "en") -> list[tuple[str, Amount | None]]:
    """`text` cut before and after each amount: (text before, the amount) pairs, the last
    with the text after the last amount and None. `language` (a catalog's locale code)
    adds its own way of writing amounts to the English (a text it does not translate)."""
    found = [(m.start(), m.end(), _english(m)) for m in AMOUNT.finditer(text)]
    for pattern in PATTERNS.get(language, ()):
        found += [(m.start(), m.end(), _local(m)) for m in pattern.finditer(text)]
    if len(found) > 1:
        found.sort(key=lambda hit: hit[0])
    pieces: list[tuple[str, Amount | None]] = []
    start = 0
    for begin, end, amount in found:
        if begin < start:  # overlaps the amount before
            continue
        pieces.append((text[start:begin], amount))
        start = end
    pieces.append((text[start:], None))
    return pieces


def _english(found: re.Match[str]) -> Amount:
    paren, sign, number, plus, word = found.groups()
    return Amount(paren, sign, number, plus, word, RESOURCES[word.lower()], "", " " + word)


def _local(found: re.Match[str]) -> Amount:
    parts = found.groupdict()
    resource = next(res for res in RESOURCES.values() if parts.get(res))
    lead, tail = parts.get("lead") or "", parts.get("tail") or ""
    return Amount(
        parts.get("paren") or "",
        parts["sign"],
        parts["number"],
        parts["plus"],
        parts[resource],
        resource,
        lead,
        tail,
    )

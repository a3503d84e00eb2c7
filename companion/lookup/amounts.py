"""Amounts of a resource in a rules text ('2 water', '+1 Persuasion'), for the pages to
show each with its resource's badge."""

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
    number ('2+'), the resource's word, and the resource it is."""

    paren: str
    sign: str
    number: str
    plus: str
    word: str
    resource: str


def amounts(text: str) -> list[tuple[str, Amount | None]]:
    """`text` cut before and after each amount: (text before, the amount) pairs, the last
    with the text after the last amount and None."""
    pieces: list[tuple[str, Amount | None]] = []
    start = 0
    for found in AMOUNT.finditer(text):
        paren, sign, number, plus, word = found.groups()
        amount = Amount(paren, sign, number, plus, word, RESOURCES[word.lower()])
        pieces.append((text[start : found.start()], amount))
        start = found.end()
    pieces.append((text[start:], None))
    return pieces

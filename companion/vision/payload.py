"""Sticker payloads: URLs whose path ends in `/c/<card-id>/<copy>`, on any host.

Pure: standard library and `companion.rules.catalog` only. The host is whatever server
printed the sheet, so a phone's own camera opens the card's rules page, while the scanner
reads only the path and ignores host, port, query string and fragment.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from companion.rules.catalog import Catalog

__all__ = [
    "DECKS_IN_BOX",
    "MAX_COPY",
    "CardRef",
    "DecodeResult",
    "ScannedCode",
    "build_payload",
    "identify",
    "known_copies",
    "parse_payload",
]

# Card ids as card_db writes them (validate.py): lowercase words joined by underscores.
_ID = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")
# A copy is a positive decimal without leading zeros, so each copy has one spelling.
_COPY = re.compile(r"[1-9][0-9]{0,2}")
_PATH = re.compile(r"(?:.*/)?c/([^/]+)/([^/]+)/?")
MAX_COPY = 999
# Starting-deck cards count copies per player; the box holds one starting deck per colour.
DECKS_IN_BOX = 4


@dataclass(frozen=True, slots=True, order=True)
class CardRef:
    """One physical card: its catalog id and which copy of it (1-based)."""

    card_id: str
    copy: int


Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class ScannedCode:
    """One code read in a photo: its text, the card it names (None: unknown), its corners.

    `corners` are image pixels, clockwise from the code's own top-left corner.
    """

    payload: str
    card: CardRef | None
    corners: tuple[Point, ...]

    @property
    def card_id(self) -> str | None:
        return None if self.card is None else self.card.card_id

    @property
    def copy(self) -> int | None:
        return None if self.card is None else self.card.copy

    @property
    def known(self) -> bool:
        return self.card is not None


@dataclass(frozen=True, slots=True)
class DecodeResult:
    """Every code read in one photo, known cards and unknown payloads alike."""

    codes: tuple[ScannedCode, ...]
    width: int
    height: int
    # The reductions each way at which the photo's pixels were decoded, in turn (1: full
    # size; an upload may stop at a quarter: (4,)).
    decoded: tuple[int, ...] = (1,)

    @property
    def cards(self) -> tuple[ScannedCode, ...]:
        return tuple(c for c in self.codes if c.card is not None)

    @property
    def unknown(self) -> tuple[ScannedCode, ...]:
        return tuple(c for c in self.codes if c.card is None)


def build_payload(base_url: str, card_id: str, copy: int) -> str:
    """The sticker URL for this copy: `<base_url>/c/<card_id>/<copy>`."""
    if not _ID.fullmatch(card_id):
        raise ValueError(f"not a card id: {card_id!r}")
    if not 1 <= copy <= MAX_COPY:
        raise ValueError(f"copy must be 1..{MAX_COPY}, not {copy}")
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"base URL needs http(s)://host: {base_url!r}")
    if parts.query or parts.fragment:
        raise ValueError(f"base URL must not have a query or fragment: {base_url!r}")
    return f"{base_url.rstrip('/')}/c/{card_id}/{copy}"


def parse_payload(text: str) -> CardRef | None:
    """The card a payload names, or None when it is not one of our sticker URLs."""
    text = text.strip()
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    match = _PATH.fullmatch(parts.path)
    if match is None:
        return None
    card_id, copy = unquote(match.group(1)), unquote(match.group(2))
    if not _ID.fullmatch(card_id) or not _COPY.fullmatch(copy):
        return None
    return CardRef(card_id, int(copy))


def identify(text: str, known: Mapping[str, int] | None = None) -> CardRef | None:
    """Parse a payload and, given `known` (id -> copies), keep it only if that copy exists."""
    ref = parse_payload(text)
    if ref is None or known is None:
        return ref
    copies = known.get(ref.card_id)
    if copies is None or ref.copy > copies:
        return None
    return ref


def known_copies(catalog: Catalog) -> dict[str, int]:
    """Physical copies in the box of every card a sticker can name, by card id."""
    known: dict[str, int] = {}
    for card in catalog.cards.values():
        known[card.id] = card.copies * (DECKS_IN_BOX if card.per_player else 1)
    for intrigue in catalog.intrigue.values():
        known[intrigue.id] = intrigue.copies
    # Tech tiles, Conflict cards and leaders are one of a kind.
    for one in (*catalog.tech, *catalog.conflicts, *catalog.leaders):
        known[one] = 1
    return known

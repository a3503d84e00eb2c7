"""Links between items of the rules lookup, and the names an item's texts use."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from companion.cards.index import KIND_NAMES
from companion.cards.search import SearchIndex, normalize
from companion.rules.i18n import Message


@dataclass(frozen=True, slots=True)
class Link:
    """A link to another item, with a short note on how it relates: the name is card_db's,
    the note a Message of the app's words or a text of card_db (the web layer shows both in
    the reader's language)."""

    kind: str
    id: str
    name: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Related:
    """A group of related items on a detail page, or a search that lists them (its words are
    Messages)."""

    title: str
    links: tuple[Link, ...] = ()
    note: str = ""
    search: Mapping[str, str] | None = None
    search_label: str = ""


Mentions = Mapping[tuple[str, str], tuple[Link, ...]]

# Names too common in effect text to mean the item of that name.
_NOT_MENTIONS: Final[frozenset[tuple[str, str]]] = frozenset(
    {
        ("space", "wealth"),
        ("space", "secrets"),
        ("space", "dreadnought"),
        ("space", "conspire"),
        ("starter", "diplomacy"),
        ("starter", "reconnaissance"),
        ("imperium", "appropriate"),
        ("imperium", "treachery"),
        ("imperium", "scout"),
        ("imperium", "opulence"),
        ("intrigue", "ambush"),
        ("intrigue", "infiltrate"),
        ("intrigue", "bribery"),
        ("intrigue", "finesse"),
        ("intrigue", "diversion"),
        ("intrigue", "expedite"),
        ("intrigue", "cull"),
        ("intrigue", "blackmail"),
        ("intrigue", "strongarm"),
        ("intrigue", "reinforcements"),
        ("intrigue", "tiebreaker"),
        ("intrigue", "windfall"),
        ("tech", "artillery"),
        ("tech", "flagship"),
        ("tech", "spaceport"),
    }
)
_MENTION_KINDS: Final[tuple[str, ...]] = (
    "imperium",
    "starter",
    "reserve",
    "control_the_spice",
    "intrigue",
    "leader",
    "tech",
    "space",
    "track",
)


def mentions(index: SearchIndex) -> dict[tuple[str, str], tuple[Link, ...]]:
    """For each item, the other items whose full name its texts use."""
    targets = [
        (" " + normalize(i.entry.name) + " ", i)
        for i in index.items
        if i.kind in _MENTION_KINDS and (i.kind, i.id) not in _NOT_MENTIONS
    ]
    found: dict[tuple[str, str], tuple[Link, ...]] = {}
    for item in index.items:
        if item.kind == "hagal":  # its texts name spaces, already linked
            found[(item.kind, item.id)] = ()
            continue
        text = " ".join(t.folded for t in item.texts) + " "
        own = normalize(item.entry.name)
        links = [
            Link(other.kind, other.id, other.entry.name, Message(KIND_NAMES[other.kind]))
            for needle, other in targets
            if other is not item and needle.strip() != own and needle in text
        ]
        found[(item.kind, item.id)] = tuple(links)
    return found

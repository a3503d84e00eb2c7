"""Which items each rules concept touches, and the concepts each item's page links back to.

`ConceptLinks(index)` works out, once, the items of every concept of the index: those its
selectors pick from their fields (`SELECT`), those whose texts use one of its `mentions`,
and its explicit `links`. `touched(concept)` lists them grouped by kind; `of(item)` gives
the concepts an item's page and its in-game dialog link to.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

from companion.cards.concepts import ConceptDef
from companion.cards.index import CONCEPT, KIND_NAMES
from companion.cards.search import Item, SearchIndex
from companion.lookup.links import Link, Related
from companion.rules.catalog import ConflictDef, HagalCardDef, IntrigueDef, LeaderDef, SpaceDef
from companion.rules.i18n import Message


def _space(test: Callable[[SpaceDef], bool]) -> Callable[[Item], bool]:
    def pick(item: Item) -> bool:
        record = item.entry.record
        return isinstance(record, SpaceDef) and test(record)

    return pick


def _dreadnought(item: Item) -> bool:
    record = item.entry.record
    if isinstance(record, SpaceDef | HagalCardDef):
        return record.dreadnought > 0
    return item.kind != CONCEPT and " dreadnought" in item.haystack


def _control_conflict(item: Item) -> bool:
    record = item.entry.record
    return isinstance(record, ConflictDef) and record.controlled_space is not None


def _endgame(item: Item) -> bool:
    record = item.entry.record
    return isinstance(record, IntrigueDef) and "endgame" in record.types


def _rival_leader(item: Item) -> bool:
    record = item.entry.record
    return isinstance(record, LeaderDef) and record.rival_allowed


# The selectors of concepts.toml's `touches` (companion.cards.concepts.SELECTORS).
SELECT: Final[Mapping[str, Callable[[Item], bool]]] = {
    "control_space": _space(lambda s: s.control_bonus is not None),
    "control_conflict": _control_conflict,
    "conflict_card": lambda item: isinstance(item.entry.record, ConflictDef),
    "combat_space": _space(lambda s: s.combat),
    "maker_space": _space(lambda s: s.maker),
    "faction_space": _space(lambda s: s.faction is not None),
    "dreadnought_icon": _dreadnought,
    "endgame_intrigue": _endgame,
    "intrigue_card": lambda item: isinstance(item.entry.record, IntrigueDef),
    "rival_leader": _rival_leader,
}


def _link(item: Item) -> Link:
    return Link(item.kind, item.id, item.entry.name)


def _touches(index: SearchIndex, concept: ConceptDef) -> list[Item]:
    picks = [SELECT[s] for s in concept.touches if s in SELECT]
    words = [f" {index.words.fold(m)}" for m in concept.mentions]
    found = [
        i
        for i in index.items
        if i.kind != CONCEPT
        and (any(p(i) for p in picks) or any(w in t.folded for w in words for t in i.texts))
    ]
    listed = {(i.kind, i.id) for i in found}
    for key in concept.links:
        kind, _, item_id = key.partition(":")
        item = index.get(kind, item_id)
        if item is not None and (kind, item_id) not in listed:
            found.append(item)
    return sorted(found, key=lambda i: i.order)


@dataclass(slots=True)
class ConceptLinks:
    """Both directions of the links between concepts and items."""

    index: SearchIndex
    items: dict[str, tuple[Item, ...]] = field(default_factory=dict)
    back: dict[tuple[str, str], tuple[Link, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        back: dict[tuple[str, str], list[Link]] = {}
        for concept in self.index.concepts:
            touched = tuple(_touches(self.index, concept))
            self.items[concept.id] = touched
            for item in touched:
                back.setdefault((item.kind, item.id), []).append(
                    Link(CONCEPT, concept.id, concept.title, concept.summary)
                )
        self.back = {key: tuple(links) for key, links in back.items()}

    def of(self, item: Item) -> tuple[Link, ...]:
        """The concepts that apply to this item."""
        return self.back.get((item.kind, item.id), ())

    def touched(self, concept: ConceptDef) -> tuple[Related, ...]:
        """The items a concept touches, one group per kind, in kind order."""
        groups: dict[str, list[Link]] = {}
        for item in self.items.get(concept.id, ()):
            groups.setdefault(item.kind, []).append(_link(item))
        return tuple(
            Related(Message(KIND_NAMES[kind]), tuple(links)) for kind, links in groups.items()
        )

"""Rules knowledge the rules lookup shows, away from the web layer.

`load_lookup(root)` reads a card_db folder (base and Rise of Ix) into a `Lookup`: its
search index, the rulings of `card_db/rulings.toml` and the names each item's texts use.
`detail(lookup, item)` gathers one item's page: its facts, the related items
(`related.py`) and the rulings that apply to it (`item_rulings.py`). The set-up checklist
for the table is in `checklist.py`.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from companion.cards import load_catalog
from companion.cards.concepts import load_concepts
from companion.cards.index import KIND_NAMES
from companion.cards.languages import TRANSLATIONS, load_card_languages
from companion.cards.languages import stamp as languages_stamp
from companion.cards.search import (
    PLAYERS_NAMES,
    ROMAN,
    SET_NAMES,
    Item,
    SearchIndex,
    space_facts,
)
from companion.cards.words import load_words
from companion.lookup.concepts import ConceptLinks
from companion.lookup.item_rulings import item_rulings
from companion.lookup.links import Link, Related, mentions
from companion.lookup.related import related
from companion.lookup.rulings import Ruling, Rulings, load_rulings
from companion.rules.catalog import (
    CardDef,
    Catalog,
    ConflictDef,
    HagalCardDef,
    IntrigueDef,
    SpaceDef,
    TechDef,
)
from companion.rules.i18n import N_, Message, Name, Nn_, counted, joined

__all__ = ["SETS", "Detail", "Link", "Lookup", "Related", "Ruling", "detail", "load_lookup"]

SETS: Final[tuple[str, ...]] = ("base", "ix")
TIMINGS: Final[Mapping[str, str]] = {
    "reveal": N_("During your Reveal turn"),
    "after_conflict": N_("After you win a Conflict"),
    "round_start": N_("At the start of each round"),
    "once_per_round": N_("Once per round (flip the tile)"),
    "one_time": N_("Once (then trash the tile)"),
    "any_turn": N_("On any of your turns"),
    "passive": N_("Always on"),
    "endgame": N_("At the end of the game"),
}


@dataclass(slots=True)
class Lookup:
    """The search index plus what detail pages need: rulings, mentions of other items."""

    index: SearchIndex
    rulings: Rulings
    mentions: dict[tuple[str, str], tuple[Link, ...]] = field(default_factory=dict)
    space_names: dict[str, str] = field(default_factory=dict)
    concept_links: ConceptLinks | None = None

    @property
    def catalog(self) -> Catalog:
        return self.index.catalog

    def __post_init__(self) -> None:
        self.mentions = mentions(self.index)
        self.space_names = {s.id: s.name for s in self.catalog.spaces.values()}
        self.concept_links = ConceptLinks(self.index)

    @property
    def concepts(self) -> ConceptLinks:
        assert self.concept_links is not None  # set by __post_init__
        return self.concept_links


_LOADED: dict[str, tuple[tuple[int, ...], Lookup]] = {}
_LOCK = threading.Lock()


def _stamp(root: Path, translations: Path) -> tuple[int, ...]:
    found = tuple(p.stat().st_mtime_ns for p in sorted(root.rglob("*.toml")))
    return found + languages_stamp(translations)


def load_lookup(root: Path, translations: Path = TRANSLATIONS) -> Lookup:
    """The lookup for this card_db folder, its search in every language whose `cards`
    catalog is under `translations`, shared by every app of the process until a file
    changes (tests build many apps)."""
    key = f"{root.resolve()} {translations.resolve()}"
    stamp = _stamp(root, translations)
    with _LOCK:
        found = _LOADED.get(key)
        if found is not None and found[0] == stamp:
            return found[1]
    catalog = load_catalog(root, SETS)
    languages = load_card_languages(translations)
    index = SearchIndex(catalog, load_words(root), load_concepts(root), languages)
    lookup = Lookup(index, load_rulings(root, catalog))
    with _LOCK:
        _LOADED[key] = (stamp, lookup)
    return lookup


@dataclass(frozen=True, slots=True)
class Detail:
    """Everything a detail page (or rules panel) shows for one item."""

    item: Item
    kind_name: str
    facts: tuple[tuple[str, str], ...]
    related: tuple[Related, ...]
    rulings: tuple[Ruling, ...]
    copy: int | None = None
    concepts: tuple[Link, ...] = ()


def _copies(count: int, per_player: bool = False) -> str:
    if per_player:
        return counted(Nn_("%(n)s copy per player", "%(n)s copies per player"), count)
    return counted(Nn_("%(n)s copy", "%(n)s copies"), count)


def _facts(catalog: Catalog, item: Item) -> list[tuple[str, str]]:
    """Short labelled facts shown under the title (texts get their own boxes): Messages,
    which the web layer shows in the reader's language."""
    record = item.entry.record
    facts: list[tuple[str, str]] = [(Message(N_("Set")), Message(SET_NAMES[item.entry.set]))]
    copies = Message(N_("Copies"))
    if isinstance(record, CardDef):
        facts.append((copies, _copies(record.copies, record.per_player)))
    elif isinstance(record, HagalCardDef | IntrigueDef):
        facts.append((copies, _copies(record.copies)))
    if isinstance(record, HagalCardDef):
        facts.append((Message(N_("Games")), Message(PLAYERS_NAMES[record.players])))
    if isinstance(record, SpaceDef):
        facts += [("", fact) for fact in space_facts(record)]
    if isinstance(record, ConflictDef):
        level = Message(N_("Conflict %(level)s"), level=ROMAN[record.level])
        facts.append((Message(N_("Level")), level))
        if record.controlled_space:
            space = catalog.spaces.get(record.controlled_space)
            name = space.name if space else record.controlled_space
            shown = Message("%(space)s", space=Name(name, "space"))
            facts.append((Message(N_("Control of")), shown))
    if isinstance(record, TechDef):
        timing = joined([Message(TIMINGS[t]) for t in record.timing], N_("%(first)s; %(second)s"))
        facts.append((Message(N_("When")), timing))
    return facts


def detail(lookup: Lookup, item: Item, copy: int | None = None) -> Detail:
    """The page for one item (`copy`: the physical copy a sticker named)."""
    return Detail(
        item=item,
        kind_name=Message(KIND_NAMES[item.kind]),
        facts=tuple(_facts(lookup.catalog, item)),
        related=tuple(related(lookup.index, lookup.mentions, item)),
        rulings=tuple(item_rulings(lookup.catalog, lookup.rulings, item)),
        copy=copy,
        concepts=lookup.concepts.of(item),
    )

"""One flat list of everything in a Catalog, for the rules lookup (search, filters, pages).

`entries(catalog)` gives one `Entry` per record of every kind, with the text to search and
the doubts to show; the typed record itself rides along for kind-specific rendering.
Ids are unique within a kind; `key` ("kind:id") is unique across the whole catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.cards.concepts import ConceptDef
from companion.rules.catalog import (
    CardDef,
    CardSet,
    Catalog,
    ConflictDef,
    HagalCardDef,
    IntrigueDef,
    LeaderDef,
    SpaceDef,
    TechDef,
    TrackDef,
)
from companion.rules.i18n import N_

Record = (
    SpaceDef
    | TrackDef
    | HagalCardDef
    | LeaderDef
    | ConflictDef
    | CardDef
    | IntrigueDef
    | TechDef
    | ConceptDef
)

# The order kinds are listed in, and their names for people (marked with N_: the web layer
# shows them in the reader's language).
KIND_NAMES: Mapping[str, str] = {
    "imperium": N_("Imperium card"),
    "starter": N_("Starting card"),
    "reserve": N_("Reserve card"),
    "control_the_spice": N_("Epic starting card"),
    "intrigue": N_("Intrigue card"),
    "conflict": N_("Conflict card"),
    "leader": N_("Leader"),
    "tech": N_("Tech tile"),
    "space": N_("Board space"),
    "track": N_("Track"),
    "hagal": N_("House Hagal card"),
    "concept": N_("Rules concept"),
}
# Kinds that are not records of the catalog: the rules concepts of concepts.toml.
CONCEPT: str = "concept"


@dataclass(frozen=True, slots=True)
class Entry:
    """One record as the rules lookup lists it."""

    kind: str
    id: str
    name: str
    set: CardSet
    # Every text of the record, for searching: effects, abilities, explanation.
    text: str
    explanation: str
    uncertain: tuple[str, ...]
    record: Record

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"


def _doubts(catalog: Catalog, kind: str, record_id: str) -> tuple[str, ...]:
    found = catalog.extra.get("uncertain")
    table = found.get(kind) if isinstance(found, Mapping) else None
    doubts = table.get(record_id) if isinstance(table, Mapping) else None
    return tuple(str(d) for d in doubts) if isinstance(doubts, tuple) else ()


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def entries(catalog: Catalog) -> list[Entry]:
    """Every record of the catalog as an Entry, cards first, in KIND_NAMES order."""
    found: list[Entry] = []
    for c in catalog.cards.values():
        text = _join(c.agent, c.reveal, c.acquire, c.special, c.explanation)
        found.append(Entry(c.kind, c.id, c.name, c.set, text, c.explanation, c.uncertain, c))
    for i in catalog.intrigue.values():
        text = _join(i.plot, i.combat, i.endgame, i.explanation)
        found.append(Entry("intrigue", i.id, i.name, i.set, text, i.explanation, i.uncertain, i))
    for k in catalog.conflicts.values():
        found.append(
            Entry("conflict", k.id, k.name, k.set, k.explanation, k.explanation, k.uncertain, k)
        )
    for x in catalog.leaders.values():
        text = _join(x.ability_name, x.ability_text, x.signet_name, x.signet_text)
        text = _join(text, x.rival_explanation)
        doubts = _doubts(catalog, "leaders", x.id)
        found.append(Entry("leader", x.id, x.name, x.set, text, x.rival_explanation, doubts, x))
    for t in catalog.tech.values():
        text = _join(t.acquire, t.ability, t.rival_rule, t.explanation)
        found.append(Entry("tech", t.id, t.name, t.set, text, t.explanation, t.uncertain, t))
    for s in catalog.spaces.values():
        text = _join(s.effects, s.explanation)
        doubts = _doubts(catalog, "spaces", s.id)
        found.append(Entry("space", s.id, s.name, s.set, text, s.explanation, doubts, s))
    for r in catalog.tracks.values():
        text = _join(r.effects, *(step.effects for step in r.steps), r.rival_rule, r.explanation)
        found.append(Entry("track", r.id, r.name, r.set, text, r.explanation, r.uncertain, r))
    for h in catalog.hagal.values():
        found.append(
            Entry("hagal", h.id, h.name, h.set, h.explanation, h.explanation, h.uncertain, h)
        )
    order = {kind: n for n, kind in enumerate(KIND_NAMES)}
    return sorted(found, key=lambda e: order[e.kind])


def concept_entries(concepts: tuple[ConceptDef, ...]) -> list[Entry]:
    """The rules concepts as entries (both sets: they hold for the base game and Ix)."""
    return [
        Entry(CONCEPT, c.id, c.title, "base", _join(c.summary, c.rule), c.summary, (), c)
        for c in concepts
    ]

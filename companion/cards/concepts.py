"""Rules concepts (`card_db/concepts.toml`): the rules players look up most, in our words.

`load_concepts(root)` reads them into `ConceptDef`s; `problems(root, catalog)` lists every
mistake of the file for `python -m companion.cards`. Which items a concept touches is
worked out by `companion.lookup.concepts` from the selectors named here (`SELECTORS`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from companion.rules.catalog import Catalog

CONCEPTS_FILE: Final[str] = "concepts.toml"
# Item selectors a concept may name in `touches` (companion/lookup/concepts.py).
SELECTORS: Final[tuple[str, ...]] = (
    "control_space",
    "control_conflict",
    "conflict_card",
    "combat_space",
    "maker_space",
    "faction_space",
    "dreadnought_icon",
    "endgame_intrigue",
    "intrigue_card",
    "rival_leader",
)
# Amounts a figure may draw (static/cards.css draws each as a token).
FIGURE_RES: Final[tuple[str, ...]] = (
    "troops",
    "swords",
    "dreadnought",
    "spice",
    "solari",
    "water",
    "vp",
    "intrigue",
)
KEYS: Final[frozenset[str]] = frozenset(
    {"id", "title", "aliases", "summary", "rule", "sources", "touches", "mentions", "links"}
    | {"pictured", "figure", "ruling"}
)
REQUIRED: Final[tuple[str, ...]] = ("id", "title", "summary", "rule", "sources")
MAX_PICTURED: Final[int] = 4


@dataclass(frozen=True, slots=True)
class Figure:
    """One amount drawn at the top of a concept page: a token and what it stands for."""

    res: str
    amount: str
    label: str


@dataclass(frozen=True, slots=True)
class ConceptRuling:
    text: str
    source: str


@dataclass(frozen=True, slots=True)
class ConceptDef:
    """One rules concept."""

    id: str
    title: str
    aliases: tuple[str, ...]
    summary: str
    rule: str
    sources: tuple[str, ...]
    touches: tuple[str, ...] = ()
    mentions: tuple[str, ...] = ()
    links: tuple[str, ...] = ()
    pictured: tuple[str, ...] = ()
    figures: tuple[Figure, ...] = ()
    rulings: tuple[ConceptRuling, ...] = ()

    @property
    def paragraphs(self) -> tuple[str, ...]:
        return paragraphs(self.rule)


def paragraphs(text: str) -> tuple[str, ...]:
    """A rule's paragraphs (split by a blank line in concepts.toml)."""
    return tuple(p.strip() for p in text.split("\n\n") if p.strip())


def _strs(raw: Mapping[str, object], key: str) -> tuple[str, ...]:
    value = raw.get(key, [])
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def _tables(raw: Mapping[str, object], key: str) -> list[Mapping[str, object]]:
    value = raw.get(key, [])
    return [t for t in value if isinstance(t, Mapping)] if isinstance(value, list) else []


def _concept(raw: Mapping[str, object]) -> ConceptDef:
    return ConceptDef(
        id=str(raw["id"]),
        title=str(raw["title"]),
        aliases=_strs(raw, "aliases"),
        summary=str(raw["summary"]),
        rule=str(raw["rule"]),
        sources=_strs(raw, "sources"),
        touches=_strs(raw, "touches"),
        mentions=_strs(raw, "mentions"),
        links=_strs(raw, "links"),
        pictured=_strs(raw, "pictured"),
        figures=tuple(
            Figure(str(f.get("res")), str(f.get("amount")), str(f.get("label")))
            for f in _tables(raw, "figure")
        ),
        rulings=tuple(
            ConceptRuling(str(r.get("text")), str(r.get("source"))) for r in _tables(raw, "ruling")
        ),
    )


def _raw(root: Path) -> list[Mapping[str, object]]:
    path = root / CONCEPTS_FILE
    if not path.exists():
        return []
    with path.open("rb") as handle:
        return _tables(tomllib.load(handle), "concept")


def load_concepts(root: Path) -> tuple[ConceptDef, ...]:
    """The concepts of `root/concepts.toml`, in file order (none when it is missing)."""
    return tuple(_concept(raw) for raw in _raw(root) if not _record_problems(raw, None))


def _record_problems(raw: Mapping[str, object], item_keys: set[str] | None) -> list[str]:
    found = [f"unknown key '{k}'" for k in raw if k not in KEYS]
    found += [f"missing '{k}'" for k in REQUIRED if not isinstance(raw.get(k), str | list)]
    if found or item_keys is None:
        return found
    concept = _concept(raw)
    found += [f"unknown selector '{s}' in touches" for s in concept.touches if s not in SELECTORS]
    for key in (*concept.links, *concept.pictured):
        if key not in item_keys:
            found.append(f"no item '{key}'")
    if len(concept.pictured) > MAX_PICTURED:
        found.append(f"at most {MAX_PICTURED} pictured items")
    found += [f"figure res '{f.res}' unknown" for f in concept.figures if f.res not in FIGURE_RES]
    if not concept.sources:
        found.append("no source")
    return found


def problems(root: Path, catalog: Catalog) -> list[str]:
    """Every problem of concepts.toml (empty when all is well)."""
    from companion.cards.index import entries

    try:
        records = _raw(root)
    except tomllib.TOMLDecodeError as error:
        return [f"{CONCEPTS_FILE}: {error}"]
    item_keys = {e.key for e in entries(catalog)}
    found: list[str] = []
    seen: set[str] = set()
    for number, raw in enumerate(records, 1):
        where = f"{CONCEPTS_FILE}: {raw.get('id') or f'concept #{number}'}"
        if raw.get("id") in seen:
            found.append(f"{where}: the id is used twice")
        seen.add(str(raw.get("id")))
        found += [f"{where}: {p}" for p in _record_problems(raw, item_keys)]
    return found

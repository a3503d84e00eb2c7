"""The card_db schema, read from the record classes of `companion.rules.catalog`.

Each kind of record (`spaces`, `hagal`, ...) is one dataclass; `columns` turns its fields
into the keys a TOML record holds: the kind of value from the field's type, the rest from
its `DbField` metadata. The loader builds records from these columns (`build`) and the
validator checks them, so a field is declared once, in the dataclass.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields, is_dataclass
from typing import (
    Final,
    Literal,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)

from companion.rules import catalog
from companion.rules.catalog import CARD_DB, DbField, Resources, Reward
from companion.rules.hagal import SIGNETS

R = TypeVar("R")
# What a key holds: text, a whole number, true or false, a list of texts (of set names), a
# table of Solari/spice/water or of Faction -> amount, a reward table, a reward's list of
# options, or a list of tables of another record class (an offer, a track step).
ValueKind = Literal[
    "str",
    "int",
    "bool",
    "str_list",
    "set_list",
    "resources",
    "influence",
    "reward",
    "options",
    "tables",
]

# Each kind: the TOML array-of-tables name in its file (`[[space]]`, `[[card]]`, ...) and
# the record class. The four kinds of deck card share CardDef, told apart by their file.
RECORDS: Final[Mapping[str, tuple[str, type]]] = {
    "spaces": ("space", catalog.SpaceDef),
    "hagal": ("hagal", catalog.HagalCardDef),
    "leaders": ("leader", catalog.LeaderDef),
    "conflicts": ("conflict", catalog.ConflictDef),
    "imperium": ("card", catalog.CardDef),
    "starter": ("card", catalog.CardDef),
    "reserve": ("card", catalog.CardDef),
    "control_the_spice": ("card", catalog.CardDef),
    "intrigue": ("intrigue", catalog.IntrigueDef),
    "tech": ("tech", catalog.TechDef),
    "track": ("track", catalog.TrackDef),
}
KINDS: Final[tuple[str, ...]] = tuple(RECORDS)


# The kinds of deck card: one record type (CardDef), told apart by the file they are in.
CARD_KINDS: Final[tuple[str, ...]] = tuple(k for k in KINDS if RECORDS[k][1] is catalog.CardDef)


# The TOML array-of-tables name used in each kind's file: `[[space]]`, `[[card]]`, ...
TABLES: Final[Mapping[str, str]] = {kind: table for kind, (table, _) in RECORDS.items()}


FILES: Final[Mapping[str, str]] = {kind: f"{kind}.toml" for kind in KINDS}
SETS: Final[tuple[catalog.CardSet, ...]] = get_args(catalog.CardSet)
# What a solo Rival does for a Signet icon (HAGAL.md §7): the engine's own list, plus the
# two Rise of Ix Rivals (Ix rulebook p.8), which the engine learns with the expansion.
IX_SIGNETS: Final[tuple[str, ...]] = ("rhombur_tech", "hundro_freighter")
RIVAL_SIGNETS: Final[tuple[str, ...]] = SIGNETS + tuple(s for s in IX_SIGNETS if s not in SIGNETS)
# Lists of allowed values a field names by `DbField.vocabulary`.
VOCABULARIES: Final[Mapping[str, tuple[object, ...]]] = {"rival_signets": RIVAL_SIGNETS}
_SCALARS: Final[Mapping[object, ValueKind]] = {str: "str", int: "int", bool: "bool"}


@dataclass(frozen=True, slots=True)
class Column:
    """One key of a card_db record: the value it holds and how it is checked."""

    key: str
    kind: ValueKind
    required: bool
    # A missing key means None (else the kind's empty value: "", 0, an empty table).
    nullable: bool = False
    values: tuple[object, ...] = ()
    minimum: int = 0
    ix: bool = False
    # The record class of a table ("reward") or of each table in a list.
    item: type | None = None


# Keys a record keeps beyond its class's fields: SpaceDef and LeaderDef have no
# `uncertain`; the loader puts their doubts in `Catalog.extra["uncertain"]`.
UNCERTAIN: Final = Column("uncertain", "str_list", required=False)
EXTRA_COLUMNS: Final[Mapping[type, tuple[Column, ...]]] = {
    catalog.SpaceDef: (UNCERTAIN,),
    catalog.LeaderDef: (UNCERTAIN,),
}


def _without_none(hint: object) -> tuple[object, bool]:
    """The hint with `| None` taken off, and whether it was there."""
    if get_origin(hint) in (Union, types.UnionType):
        rest = [arg for arg in get_args(hint) if arg is not type(None)]
        if len(rest) == 1:
            return rest[0], len(rest) < len(get_args(hint))
    return hint, False


def _list_kind(item: object) -> tuple[ValueKind, tuple[object, ...], type | None]:
    if item is Reward:
        return "options", (), Reward
    if isinstance(item, type) and is_dataclass(item):
        return "tables", (), item
    if get_origin(item) is Literal:
        allowed = get_args(item)
        return ("set_list" if allowed == SETS else "str_list"), allowed, None
    return "str_list", (), None


def _value_kind(hint: object) -> tuple[ValueKind, tuple[object, ...], type | None]:
    """The kind of value a field of this type holds, its allowed values, its record class."""
    origin = get_origin(hint)
    if hint in _SCALARS:
        return _SCALARS[hint], (), None
    if origin is Literal:
        return "str", get_args(hint), None
    if hint is Resources:
        return "resources", (), Resources
    if hint is Reward:
        return "reward", (), Reward
    if origin is Mapping:
        return "influence", (), None
    if origin is tuple:
        return _list_kind(get_args(hint)[0])
    raise TypeError(f"card_db has no kind of value for {hint!r}")


@functools.cache
def columns(record_class: type) -> tuple[Column, ...]:
    """The keys a record of this class holds, in field order (`read=False` fields left out)."""
    hints = get_type_hints(record_class)
    found: list[Column] = []
    for item in fields(record_class):
        meta = item.metadata.get(CARD_DB, DbField())
        if not meta.read:
            continue
        hint, nullable = _without_none(hints[item.name])
        kind, allowed, record = _value_kind(hint)
        has_default = item.default is not MISSING or item.default_factory is not MISSING
        required = not has_default if meta.required is None else meta.required
        allowed = meta.values or VOCABULARIES.get(meta.vocabulary, ()) or allowed
        found.append(
            Column(item.name, kind, required, nullable, allowed, meta.minimum, meta.ix, record)
        )
    return tuple(found)


def record_columns(kind: str) -> tuple[Column, ...]:
    """Every key a record of this kind may hold."""
    record_class = RECORDS[kind][1]
    return columns(record_class) + EXTRA_COLUMNS.get(record_class, ())


def column(record_class: type, key: str) -> Column:
    """One column of a record class."""
    found = [c for c in columns(record_class) if c.key == key]
    if not found:
        raise KeyError(f"{record_class.__name__} has no card_db key {key!r}")
    return found[0]


_EMPTY: Final[Mapping[ValueKind, object]] = {
    "str": "",
    "int": 0,
    "bool": False,
    "str_list": (),
    "set_list": (),
    "options": (),
    "tables": (),
}


def _convert(spec: Column, value: object) -> object:
    """The field value for what a validated TOML key holds (`value` is None: the key is missing)."""
    if value is None:
        if spec.nullable:
            return None
        if spec.kind in _EMPTY:
            return _EMPTY[spec.kind]
        value = {}
    if spec.kind in ("str_list", "set_list"):
        return tuple(_items(value))
    if spec.kind == "influence" and isinstance(value, Mapping):
        return types.MappingProxyType(dict(value))
    if spec.item is not None and isinstance(value, Mapping):
        return build(spec.item, value)
    if spec.item is not None:
        return tuple(build(spec.item, table) for table in _items(value))
    return value


def _items(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def build(record_class: type[R], record: object, **given: object) -> R:
    """A record of this class from a validated TOML table; `given` fills unread fields."""
    table = record if isinstance(record, Mapping) else {}
    specs = columns(cast(type, record_class))
    values = {spec.key: _convert(spec, table.get(spec.key)) for spec in specs}
    return record_class(**values, **given)

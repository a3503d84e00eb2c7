"""Load card_db TOML files into the typed records of `companion.rules.catalog`.

Layout: `card_db/catalog.toml` pins the data version; `card_db/<set>/` holds one file per
kind the set has (`counts.set_kinds`): spaces, hagal, leaders, conflicts, imperium,
starter, reserve, intrigue in base; spaces, hagal, leaders, conflicts, imperium, intrigue,
tech, control_the_spice, track in ix. Every file is read with stdlib `tomllib`, then
`validate` checks all of them together, so one run reports every problem; only clean data
becomes a `Catalog`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.cards.counts import set_kinds
from companion.cards.problems import Problem
from companion.cards.schema import (
    CARD_KINDS,
    EXTRA_COLUMNS,
    FILES,
    KINDS,
    RECORDS,
    SETS,
    TABLES,
    UNCERTAIN,
    build,
)
from companion.cards.validate import validate
from companion.rules.catalog import CardDef, Catalog

__all__ = [
    "CATALOG_FILE",
    "CardDbError",
    "Problem",
    "collect_problems",
    "default_root",
    "load_catalog",
    "present_sets",
    "validate",
]

CATALOG_FILE = "catalog.toml"
_CATALOG_KEYS = ("version",)


class CardDbError(Exception):
    """card_db has problems; `.problems` lists every one of them."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: list[Problem] = list(problems)
        lines = "\n".join(f"  {p}" for p in self.problems)
        super().__init__(f"{len(self.problems)} problem(s) in card_db:\n{lines}")


# Folders of card_db that hold no cards: the glossaries of the translations.
NOT_SETS = ("i18n",)


def default_root() -> Path:
    """The repository's top-level card_db folder."""
    return Path(__file__).resolve().parents[2] / "card_db"


def present_sets(root: Path | None = None) -> tuple[str, ...]:
    """Set folders under `root`: known sets in their usual order, then any others."""
    folder = root or default_root()
    if not folder.is_dir():
        return ()
    names = {p.name for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}
    names -= set(NOT_SETS)
    return tuple(s for s in SETS if s in names) + tuple(sorted(names - set(SETS)))


@dataclass(slots=True)
class _RawDb:
    """What the TOML files hold, before validation."""

    version: str | None = None
    raw: dict[str, list[object]] = field(default_factory=lambda: {k: [] for k in KINDS})
    origins: dict[str, list[str]] = field(default_factory=lambda: {k: [] for k in KINDS})
    problems: list[Problem] = field(default_factory=list)


def _read_toml(path: Path, label: str, problems: list[Problem]) -> dict[str, object] | None:
    try:
        with path.open("rb") as handle:
            data: dict[str, object] = tomllib.load(handle)
    except FileNotFoundError:
        problems.append(Problem(label, None, "file not found"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        problems.append(Problem(label, None, f"invalid TOML: {exc}"))
    except OSError as exc:
        problems.append(Problem(label, None, f"can't read the file: {exc.strerror}"))
    else:
        return data
    return None


def _read_catalog_file(root: Path, db: _RawDb) -> None:
    data = _read_toml(root / CATALOG_FILE, CATALOG_FILE, db.problems)
    if data is None:
        return
    for key in data:
        if key not in _CATALOG_KEYS:
            db.problems.append(Problem(CATALOG_FILE, None, f"unknown key '{key}'"))
    version = data.get("version")
    if version is None:
        db.problems.append(Problem(CATALOG_FILE, None, "missing required key 'version'"))
    elif not isinstance(version, str) or not version.strip():
        db.problems.append(Problem(CATALOG_FILE, None, "'version' must be a non-empty string"))
    else:
        db.version = version


def _read_kind_file(folder: Path, card_set: str, kind: str, db: _RawDb) -> None:
    label = f"{card_set}/{FILES[kind]}"
    data = _read_toml(folder / FILES[kind], label, db.problems)
    if data is None:
        return
    table = TABLES[kind]
    for key in data:
        if key != table:
            msg = f"unknown top-level key '{key}' (records go in [[{table}]] tables)"
            db.problems.append(Problem(label, None, msg))
    records = data.get(table, [])
    if not isinstance(records, list):
        msg = f"'{table}' must be an array of tables ([[{table}]])"
        db.problems.append(Problem(label, None, msg))
        return
    for record in records:
        if isinstance(record, Mapping):
            rid, rset = record.get("id"), record.get("set")
            if isinstance(rset, str) and rset in SETS and rset != card_set:
                msg = f"'set' is '{rset}' but the file is in the '{card_set}' folder"
                db.problems.append(Problem(label, rid if isinstance(rid, str) else None, msg))
        db.raw[kind].append(record)
        db.origins[kind].append(label)


def _read(root: Path, sets: Sequence[str]) -> _RawDb:
    db = _RawDb()
    _read_catalog_file(root, db)
    for card_set in dict.fromkeys(sets):
        if card_set not in SETS:
            msg = f"unknown set '{card_set}', expected one of: {', '.join(SETS)}"
            db.problems.append(Problem(f"{card_set}/", None, msg))
            continue
        folder = root / card_set
        if not folder.is_dir():
            db.problems.append(Problem(f"{card_set}/", None, "set folder not found"))
            continue
        kinds = set_kinds(card_set)
        names = [FILES[kind] for kind in kinds]
        for path in sorted(folder.glob("*.toml")):
            if path.name not in names:
                msg = f"unexpected file (set '{card_set}' holds only: {', '.join(names)})"
                db.problems.append(Problem(f"{card_set}/{path.name}", None, msg))
        for kind in kinds:
            _read_kind_file(folder, card_set, kind, db)
    return db


def _checked(root: Path | None, sets: Sequence[str]) -> tuple[_RawDb, list[Problem]]:
    db = _read(root or default_root(), sets)
    known = [s for s in dict.fromkeys(sets) if s in SETS]
    return db, db.problems + validate(db.raw, origins=db.origins, sets=known)


def collect_problems(root: Path | None = None, sets: Sequence[str] = ("base",)) -> list[Problem]:
    """Every problem in catalog.toml and the files of these sets (empty when all is well)."""
    return _checked(root, sets)[1]


# --- building typed records from validated tables -------------------------------------


def _records(db: _RawDb, kind: str) -> list[Mapping[str, object]]:
    return [{str(k): v for k, v in r.items()} for r in db.raw[kind] if isinstance(r, Mapping)]


def _by_id(db: _RawDb, kind: str, /, **given: object) -> dict[str, Any]:
    """The records of one kind (`given` fills their unread fields), by id."""
    record_class: type[Any] = RECORDS[kind][1]
    built = [build(record_class, record, **given) for record in _records(db, kind)]
    return {record.id: record for record in built}


def _uncertain(db: _RawDb, kind: str) -> Mapping[str, tuple[str, ...]]:
    """The doubts of records whose class has no `uncertain` field, by id."""
    found = {str(r["id"]): r.get("uncertain") for r in _records(db, kind)}
    return MappingProxyType(
        {
            rid: tuple(map(str, doubts))
            for rid, doubts in found.items()
            if isinstance(doubts, list) and doubts
        }
    )


def _build(db: _RawDb) -> Catalog:
    cards: dict[str, CardDef] = {}
    for card_kind in CARD_KINDS:
        cards.update(_by_id(db, card_kind, kind=card_kind))
    # SpaceDef and LeaderDef have no `uncertain` field; keep their doubts visible here.
    uncertain = {
        kind: _uncertain(db, kind)
        for kind, (_, record_class) in RECORDS.items()
        if UNCERTAIN in EXTRA_COLUMNS.get(record_class, ())
    }
    return Catalog(
        version=db.version or "",
        spaces=MappingProxyType(_by_id(db, "spaces")),
        hagal=MappingProxyType(_by_id(db, "hagal")),
        leaders=MappingProxyType(_by_id(db, "leaders")),
        conflicts=MappingProxyType(_by_id(db, "conflicts")),
        extra=MappingProxyType({"uncertain": MappingProxyType(uncertain)}),
        cards=MappingProxyType(cards),
        intrigue=MappingProxyType(_by_id(db, "intrigue")),
        tech=MappingProxyType(_by_id(db, "tech")),
        tracks=MappingProxyType(_by_id(db, "track")),
    )


def load_catalog(root: Path | None = None, sets: tuple[str, ...] = ("base",)) -> Catalog:
    """Read, validate and build the catalog of these sets; raise CardDbError on any problem."""
    # sets=("base", "ix") loads Rise of Ix too. catalog.extra["uncertain"] maps
    # "spaces"/"leaders" to {id: doubts}: those records have no `uncertain` field.
    db, problems = _checked(root, sets)
    if problems:
        raise CardDbError(problems)
    return _build(db)

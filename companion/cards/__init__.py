"""Load card_db TOML files into the typed records of `companion.rules.catalog`.

Layout: `card_db/catalog.toml` pins the data version; `card_db/<set>/` holds one file per
kind the set has (`validate.set_kinds`): spaces, hagal, leaders, conflicts, imperium,
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
from typing import TypeVar, get_args

from companion.cards.validate import (
    AGENT_ICONS,
    CARD_KINDS,
    FILES,
    INTRIGUE_TYPES,
    KINDS,
    PLAYERS,
    SETS,
    TABLES,
    TECH_TIMINGS,
    Problem,
    is_int,
    set_kinds,
    validate,
)
from companion.rules.catalog import (
    FACTIONS,
    AgentIcon,
    CardDef,
    CardKind,
    CardSet,
    Catalog,
    ConflictDef,
    Faction,
    HagalCardDef,
    IntrigueDef,
    LeaderDef,
    Offer,
    Players,
    Resources,
    Reward,
    SpaceDef,
    TechDef,
    TrackDef,
    TrackStep,
)

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
CARD_KIND_NAMES: tuple[CardKind, ...] = get_args(CardKind)
_CATALOG_KEYS = ("version",)

L = TypeVar("L", bound=str)


class CardDbError(Exception):
    """card_db has problems; `.problems` lists every one of them."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: list[Problem] = list(problems)
        lines = "\n".join(f"  {p}" for p in self.problems)
        super().__init__(f"{len(self.problems)} problem(s) in card_db:\n{lines}")


def default_root() -> Path:
    """The repository's top-level card_db folder."""
    return Path(__file__).resolve().parents[2] / "card_db"


def present_sets(root: Path | None = None) -> tuple[str, ...]:
    """Set folders under `root`: known sets in their usual order, then any others."""
    folder = root or default_root()
    if not folder.is_dir():
        return ()
    names = {p.name for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}
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


def _literal(value: object, allowed: tuple[L, ...]) -> L:
    for item in allowed:
        if item == value:
            return item
    raise TypeError(f"{value!r} is not one of {allowed}")


def _text(record: Mapping[str, object], key: str, default: str | None = None) -> str:
    value = record.get(key, default)
    if not isinstance(value, str):
        raise TypeError(f"{key}: expected a string, got {value!r}")
    return value


def _opt_text(record: Mapping[str, object], key: str) -> str | None:
    return _text(record, key) if key in record else None


def _num(record: Mapping[str, object], key: str) -> int:
    value = record.get(key, 0)
    if not is_int(value):
        raise TypeError(f"{key}: expected an integer, got {value!r}")
    return value


def _flag(record: Mapping[str, object], key: str) -> bool:
    value = record.get(key, False)
    if not isinstance(value, bool):
        raise TypeError(f"{key}: expected true or false, got {value!r}")
    return value


def _texts(record: Mapping[str, object], key: str) -> tuple[str, ...]:
    value = record.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"{key}: expected a list of strings, got {value!r}")
    return tuple(str(v) for v in value)


def _table(record: Mapping[str, object], key: str) -> Mapping[str, object] | None:
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError(f"{key}: expected a table, got {value!r}")
    return {str(k): v for k, v in value.items()}


def _tables(record: Mapping[str, object], key: str) -> list[Mapping[str, object]]:
    value = record.get(key, [])
    if not isinstance(value, list):
        raise TypeError(f"{key}: expected a list of tables, got {value!r}")
    return [{str(k): v for k, v in item.items()} for item in value if isinstance(item, Mapping)]


def _resources(table: Mapping[str, object] | None) -> Resources:
    table = table or {}
    return Resources(
        solari=_num(table, "solari"), spice=_num(table, "spice"), water=_num(table, "water")
    )


def _influence(table: Mapping[str, object] | None) -> Mapping[str, int]:
    table = table or {}
    return MappingProxyType({faction: _num(table, faction) for faction in table})


def _faction(record: Mapping[str, object], key: str) -> Faction | None:
    value = _opt_text(record, key)
    return None if value is None else _literal(value, FACTIONS)


def _sets(record: Mapping[str, object], key: str) -> tuple[CardSet, ...]:
    return tuple(_literal(s, SETS) for s in _texts(record, key))


def _space(r: Mapping[str, object]) -> SpaceDef:
    control = _table(r, "control_bonus")
    icon: AgentIcon = _literal(_text(r, "icon"), AGENT_ICONS)
    return SpaceDef(
        id=_text(r, "id"),
        name=_text(r, "name"),
        set=_literal(_text(r, "set"), SETS),
        icon=icon,
        faction=_faction(r, "faction"),
        cost=_resources(_table(r, "cost")),
        cost_note=_text(r, "cost_note", ""),
        requires_influence=_influence(_table(r, "requires_influence")),
        effects=_text(r, "effects"),
        combat=_flag(r, "combat"),
        maker=_flag(r, "maker"),
        base_spice=_num(r, "base_spice"),
        control_bonus=None if control is None else _resources(control),
        once_per_game=_flag(r, "once_per_game"),
        gives_intrigue=_flag(r, "gives_intrigue"),
        explanation=_text(r, "explanation"),
        removed_with=_sets(r, "removed_with"),
        freighter=_num(r, "freighter"),
        dreadnought=_num(r, "dreadnought"),
        acquire_tech=_flag(r, "acquire_tech"),
        tech_discount=_num(r, "tech_discount"),
        negotiator=_num(r, "negotiator"),
        ix_choose_one=_flag(r, "ix_choose_one"),
    )


def _hagal(r: Mapping[str, object]) -> HagalCardDef:
    players: Players = _literal(_text(r, "players"), PLAYERS)
    return HagalCardDef(
        id=_text(r, "id"),
        name=_text(r, "name"),
        set=_literal(_text(r, "set"), SETS),
        copies=_num(r, "copies"),
        players=players,
        space=_opt_text(r, "space"),
        influence=_faction(r, "influence"),
        troops=_num(r, "troops"),
        signet=_flag(r, "signet"),
        swords=_num(r, "swords"),
        harvest=_flag(r, "harvest"),
        reshuffle=_flag(r, "reshuffle"),
        explanation=_text(r, "explanation"),
        removed_with=_sets(r, "removed_with"),
        uncertain=_texts(r, "uncertain"),
        freighter=_num(r, "freighter"),
        dreadnought=_num(r, "dreadnought"),
        acquire_tech=_flag(r, "acquire_tech"),
        tech_discount=_num(r, "tech_discount"),
        negotiator=_num(r, "negotiator"),
        space_if_guild_2=_opt_text(r, "space_if_guild_2"),
        influence_if_guild_2=_faction(r, "influence_if_guild_2"),
        freighter_if_guild_2=_num(r, "freighter_if_guild_2"),
    )


def _leader(r: Mapping[str, object]) -> LeaderDef:
    return LeaderDef(
        id=_text(r, "id"),
        name=_text(r, "name"),
        set=_literal(_text(r, "set"), SETS),
        rival_allowed=_flag(r, "rival_allowed"),
        rival_signet=_text(r, "rival_signet"),
        signet_name=_text(r, "signet_name"),
        signet_text=_text(r, "signet_text"),
        ability_name=_text(r, "ability_name"),
        ability_text=_text(r, "ability_text"),
        rival_explanation=_text(r, "rival_explanation"),
    )


def _reward(table: Mapping[str, object] | None) -> Reward:
    table = table or {}
    return Reward(
        vp=_num(table, "vp"),
        solari=_num(table, "solari"),
        spice=_num(table, "spice"),
        water=_num(table, "water"),
        intrigue=_num(table, "intrigue"),
        troops=_num(table, "troops"),
        influence=_num(table, "influence"),
        influence_factions=_num(table, "influence_factions"),
        control=_opt_text(table, "control"),
        mentat=_flag(table, "mentat"),
        trash=_flag(table, "trash"),
        choose=_num(table, "choose"),
        options=tuple(_reward(option) for option in _tables(table, "options")),
        freighter=_num(table, "freighter"),
        offers=tuple(
            Offer(cost=_resources(_table(o, "cost")), vp=_num(o, "vp"))
            for o in _tables(table, "offers")
        ),
    )


def _conflict(r: Mapping[str, object]) -> ConflictDef:
    return ConflictDef(
        id=_text(r, "id"),
        name=_text(r, "name"),
        set=_literal(_text(r, "set"), SETS),
        level=_num(r, "level"),
        controlled_space=_opt_text(r, "controlled_space"),
        first=_reward(_table(r, "first")),
        second=_reward(_table(r, "second")),
        third=_reward(_table(r, "third")),
        explanation=_text(r, "explanation"),
        uncertain=_texts(r, "uncertain"),
    )


def _literals(record: Mapping[str, object], key: str, allowed: tuple[L, ...]) -> tuple[L, ...]:
    return tuple(_literal(v, allowed) for v in _texts(record, key))


def _card(kind: CardKind, r: Mapping[str, object]) -> CardDef:
    cost = r.get("cost")
    return CardDef(
        id=_text(r, "id"),
        name=_text(r, "name"),
        set=_literal(_text(r, "set"), SETS),
        kind=kind,
        copies=_num(r, "copies"),
        cost=cost if is_int(cost) else None,
        factions=_literals(r, "factions", FACTIONS),
        icons=_literals(r, "icons", AGENT_ICONS),
        agent=_text(r, "agent", ""),
        persuasion=_num(r, "persuasion"),
        swords=_num(r, "swords"),
        reveal=_text(r, "reveal", ""),
        acquire=_text(r, "acquire", ""),
        special=_text(r, "special", ""),
        explanation=_text(r, "explanation"),
        infiltration=_flag(r, "infiltration"),
        unload=_flag(r, "unload"),
        acquire_vp=_num(r, "acquire_vp"),
        acquire_influence=_influence(_table(r, "acquire_influence")),
        replaces=_opt_text(r, "replaces"),
        removed_with=_sets(r, "removed_with"),
        uncertain=_texts(r, "uncertain"),
    )


def _intrigue(r: Mapping[str, object]) -> IntrigueDef:
    return IntrigueDef(
        id=_text(r, "id"),
        name=_text(r, "name"),
        set=_literal(_text(r, "set"), SETS),
        copies=_num(r, "copies"),
        types=_literals(r, "types", INTRIGUE_TYPES),
        plot=_text(r, "plot", ""),
        combat=_text(r, "combat", ""),
        endgame=_text(r, "endgame", ""),
        explanation=_text(r, "explanation"),
        uncertain=_texts(r, "uncertain"),
    )


def _tech(r: Mapping[str, object]) -> TechDef:
    return TechDef(
        id=_text(r, "id"),
        name=_text(r, "name"),
        set=_literal(_text(r, "set"), SETS),
        cost=_num(r, "cost"),
        hagal_ok=_flag(r, "hagal_ok"),
        timing=_literals(r, "timing", TECH_TIMINGS),
        acquire=_text(r, "acquire", ""),
        acquire_reward=_reward(_table(r, "acquire_reward")),
        ability=_text(r, "ability"),
        rival_rule=_text(r, "rival_rule", ""),
        explanation=_text(r, "explanation"),
        uncertain=_texts(r, "uncertain"),
    )


def _step(r: Mapping[str, object]) -> TrackStep:
    return TrackStep(
        step=_num(r, "step"),
        effects=_text(r, "effects"),
        reward=_reward(_table(r, "reward")),
        dividends=_flag(r, "dividends"),
        acquire_tech=_flag(r, "acquire_tech"),
        tech_discount=_num(r, "tech_discount"),
    )


def _track(r: Mapping[str, object]) -> TrackDef:
    return TrackDef(
        id=_text(r, "id"),
        name=_text(r, "name"),
        set=_literal(_text(r, "set"), SETS),
        effects=_text(r, "effects"),
        steps=tuple(_step(step) for step in _tables(r, "steps")),
        rival_rule=_text(r, "rival_rule"),
        explanation=_text(r, "explanation"),
        uncertain=_texts(r, "uncertain"),
    )


def _records(db: _RawDb, kind: str) -> list[Mapping[str, object]]:
    return [{str(k): v for k, v in r.items()} for r in db.raw[kind] if isinstance(r, Mapping)]


def _build(db: _RawDb) -> Catalog:
    spaces = {s.id: s for s in map(_space, _records(db, "spaces"))}
    hagal = {h.id: h for h in map(_hagal, _records(db, "hagal"))}
    leaders = {x.id: x for x in map(_leader, _records(db, "leaders"))}
    conflicts = {c.id: c for c in map(_conflict, _records(db, "conflicts"))}
    cards = {
        c.id: c
        for kind in CARD_KINDS
        for c in (_card(_literal(kind, CARD_KIND_NAMES), r) for r in _records(db, kind))
    }
    intrigue = {i.id: i for i in map(_intrigue, _records(db, "intrigue"))}
    tech = {t.id: t for t in map(_tech, _records(db, "tech"))}
    tracks = {t.id: t for t in map(_track, _records(db, "track"))}
    # SpaceDef and LeaderDef have no `uncertain` field; keep their doubts visible here.
    uncertain = {
        kind: MappingProxyType(
            {
                _text(r, "id"): _texts(r, "uncertain")
                for r in _records(db, kind)
                if r.get("uncertain")
            }
        )
        for kind in ("spaces", "leaders")
    }
    return Catalog(
        version=db.version or "",
        spaces=MappingProxyType(spaces),
        hagal=MappingProxyType(hagal),
        leaders=MappingProxyType(leaders),
        conflicts=MappingProxyType(conflicts),
        extra=MappingProxyType({"uncertain": MappingProxyType(uncertain)}),
        cards=MappingProxyType(cards),
        intrigue=MappingProxyType(intrigue),
        tech=MappingProxyType(tech),
        tracks=MappingProxyType(tracks),
    )


def load_catalog(root: Path | None = None, sets: tuple[str, ...] = ("base",)) -> Catalog:
    """Read, validate and build the catalog of these sets; raise CardDbError on any problem."""
    # sets=("base", "ix") loads Rise of Ix too. catalog.extra["uncertain"] maps
    # "spaces"/"leaders" to {id: doubts}: those records have no `uncertain` field.
    db, problems = _checked(root, sets)
    if problems:
        raise CardDbError(problems)
    return _build(db)

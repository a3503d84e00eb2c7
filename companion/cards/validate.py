"""Check raw card_db records and report every problem in one run.

`validate` never stops at the first problem: it walks every record of every kind and
returns the full list, so a designer fixes a file once instead of once per error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypeGuard, get_args

from companion.rules.catalog import FACTIONS, RESOURCES, AgentIcon, CardSet, Players
from companion.rules.hagal import SIGNETS

Report = Callable[[str], None]
FieldType = Literal[
    "str", "int", "bool", "str_list", "set_list", "resources", "influence", "reward", "options"
]

KINDS: Final[tuple[str, ...]] = ("spaces", "hagal", "leaders", "conflicts")
# The TOML array-of-tables name used in each kind's file: `[[space]]`, `[[hagal]]`, ...
TABLES: Final[Mapping[str, str]] = {
    "spaces": "space",
    "hagal": "hagal",
    "leaders": "leader",
    "conflicts": "conflict",
}
FILES: Final[Mapping[str, str]] = {kind: f"{kind}.toml" for kind in KINDS}
SETS: Final[tuple[CardSet, ...]] = get_args(CardSet)
AGENT_ICONS: Final[tuple[AgentIcon, ...]] = get_args(AgentIcon)
PLAYERS: Final[tuple[Players, ...]] = get_args(Players)
# What a solo Rival does for a Signet icon (HAGAL.md §7): the engine's own list.
RIVAL_SIGNETS: Final[tuple[str, ...]] = SIGNETS
LEVELS: Final[tuple[int, ...]] = (1, 2, 3)

# Expected counts per set, the one table every count check reads. "hagal" counts physical
# cards (copies), "hagal_1P"/"hagal_2P" the cards marked for one mode only.
# base: rulebook p.3 components (18 Conflict cards 4/10/4, 8 Leaders, 31 House Hagal cards),
#   the 22 spaces of the Board Space Guide, p.19-20 (three 1P Arrakeen; Reshuffle + three 2P).
# ix: Rise of Ix rulebook p.2 (4 Conflict cards 2/1/1, 6 Leaders, 9 House Hagal cards) and
#   p.8 (four 1P cards, two 2P Dreadnought cards); 4 new spaces (Ix board, CHOAM overlay).
EXPECTED_COUNTS: Final[Mapping[str, Mapping[str, int]]] = {
    "base": {
        "spaces": 22,
        "hagal": 31,
        "hagal_1P": 3,
        "hagal_2P": 4,
        "leaders": 8,
        "conflicts": 18,
        "conflicts_level_1": 4,
        "conflicts_level_2": 10,
        "conflicts_level_3": 4,
    },
    "ix": {
        "spaces": 4,
        "hagal": 9,
        "hagal_1P": 4,
        "hagal_2P": 2,
        "leaders": 6,
        "conflicts": 4,
        "conflicts_level_1": 2,
        "conflicts_level_2": 1,
        "conflicts_level_3": 1,
    },
}


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong in card_db: which file, which record (if any), and what."""

    file: str
    record: str | None
    message: str

    def __str__(self) -> str:
        if self.record is None:
            return f"{self.file}: {self.message}"
        return f"{self.file}: {self.record}: {self.message}"


@dataclass(frozen=True, slots=True)
class Field:
    """How one key of a record is checked."""

    type: FieldType
    required: bool = True
    enum: tuple[object, ...] = ()


SPACE_FIELDS: Final[Mapping[str, Field]] = {
    "id": Field("str"),
    "name": Field("str"),
    "set": Field("str", enum=SETS),
    "icon": Field("str", enum=AGENT_ICONS),
    "faction": Field("str", required=False, enum=FACTIONS),
    "cost": Field("resources"),
    "cost_note": Field("str", required=False),
    "requires_influence": Field("influence", required=False),
    "effects": Field("str"),
    "combat": Field("bool"),
    "maker": Field("bool"),
    "base_spice": Field("int"),
    "control_bonus": Field("resources", required=False),
    "once_per_game": Field("bool"),
    "gives_intrigue": Field("bool"),
    "explanation": Field("str"),
    "removed_with": Field("set_list", required=False),
    "uncertain": Field("str_list", required=False),
}

HAGAL_FIELDS: Final[Mapping[str, Field]] = {
    "id": Field("str"),
    "name": Field("str"),
    "set": Field("str", enum=SETS),
    "copies": Field("int"),
    "players": Field("str", enum=PLAYERS),
    "space": Field("str", required=False),
    "influence": Field("str", required=False, enum=FACTIONS),
    "troops": Field("int"),
    "signet": Field("bool"),
    "swords": Field("int"),
    "harvest": Field("bool"),
    "reshuffle": Field("bool"),
    "explanation": Field("str"),
    "removed_with": Field("set_list", required=False),
    "uncertain": Field("str_list", required=False),
}

LEADER_FIELDS: Final[Mapping[str, Field]] = {
    "id": Field("str"),
    "name": Field("str"),
    "set": Field("str", enum=SETS),
    "rival_allowed": Field("bool"),
    "rival_signet": Field("str", enum=RIVAL_SIGNETS),
    "signet_name": Field("str"),
    "signet_text": Field("str"),
    "ability_name": Field("str"),
    "ability_text": Field("str"),
    "rival_explanation": Field("str"),
    "uncertain": Field("str_list", required=False),
}

CONFLICT_FIELDS: Final[Mapping[str, Field]] = {
    "id": Field("str"),
    "name": Field("str"),
    "set": Field("str", enum=SETS),
    "level": Field("int", enum=LEVELS),
    "controlled_space": Field("str", required=False),
    "first": Field("reward"),
    "second": Field("reward"),
    "third": Field("reward"),
    "explanation": Field("str"),
    "uncertain": Field("str_list", required=False),
}

# Keys of a reward table; they map one to one onto `companion.rules.catalog.Reward`.
REWARD_FIELDS: Final[Mapping[str, Field]] = {
    "vp": Field("int", required=False),
    "solari": Field("int", required=False),
    "spice": Field("int", required=False),
    "water": Field("int", required=False),
    "intrigue": Field("int", required=False),
    "troops": Field("int", required=False),
    "influence": Field("int", required=False),
    "influence_factions": Field("int", required=False),
    "control": Field("str", required=False),
    "mentat": Field("bool", required=False),
    "trash": Field("bool", required=False),
    "choose": Field("int", required=False),
    "options": Field("options", required=False),
}
CHOICE_KEYS: Final[tuple[str, ...]] = ("choose", "options")

FIELDS: Final[Mapping[str, Mapping[str, Field]]] = {
    "spaces": SPACE_FIELDS,
    "hagal": HAGAL_FIELDS,
    "leaders": LEADER_FIELDS,
    "conflicts": CONFLICT_FIELDS,
}

_TYPE_NAMES: Final[Mapping[str, str]] = {
    "str": "a string",
    "int": "an integer",
    "bool": "true or false",
    "str_list": "a list of strings",
    "set_list": "a list of set names",
    "resources": "a table of solari/spice/water amounts",
    "influence": "a table of faction -> amount",
    "reward": "a table",
    "options": "a list of tables",
}


def is_int(value: object) -> TypeGuard[int]:
    """True for a TOML integer (bool is not an integer here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _choices(values: Sequence[object]) -> str:
    return ", ".join(str(v) for v in values)


def _wrong_type(path: str, field_type: FieldType, value: object) -> str:
    return f"'{path}' must be {_TYPE_NAMES[field_type]}, not {type(value).__name__}"


def _check_str(value: str, path: str, enum: tuple[object, ...], report: Report) -> None:
    if not value.strip():
        report(f"'{path}' must not be empty")
    elif enum and value not in enum:
        report(f"'{path}' is '{value}', expected one of: {_choices(enum)}")


def _check_int(value: int, path: str, enum: tuple[object, ...], report: Report) -> None:
    if value < 0:
        report(f"'{path}' must not be negative (got {value})")
    elif enum and value not in enum:
        report(f"'{path}' is {value}, expected one of: {_choices(enum)}")


def _check_amounts(
    value: Mapping[object, object], path: str, allowed: Sequence[str], report: Report
) -> None:
    for key, amount in value.items():
        if key not in allowed:
            report(f"'{path}' has unknown key '{key}', expected one of: {_choices(allowed)}")
        elif not is_int(amount):
            report(_wrong_type(f"{path}.{key}", "int", amount))
        elif amount < 0:
            report(f"'{path}.{key}' must not be negative (got {amount})")


def _check_value(value: object, field: Field, path: str, report: Report) -> None:
    kind = field.type
    if kind == "str":
        if isinstance(value, str):
            _check_str(value, path, field.enum, report)
        else:
            report(_wrong_type(path, kind, value))
    elif kind == "int":
        if is_int(value):
            _check_int(value, path, field.enum, report)
        else:
            report(_wrong_type(path, kind, value))
    elif kind == "bool":
        if not isinstance(value, bool):
            report(_wrong_type(path, kind, value))
    elif kind in ("str_list", "set_list"):
        if not isinstance(value, list):
            report(_wrong_type(path, kind, value))
            return
        enum: tuple[object, ...] = SETS if kind == "set_list" else ()
        for i, item in enumerate(value):
            if isinstance(item, str):
                _check_str(item, f"{path}[{i}]", enum, report)
            else:
                report(_wrong_type(f"{path}[{i}]", "str", item))
    elif kind in ("resources", "influence"):
        if isinstance(value, Mapping):
            allowed = RESOURCES if kind == "resources" else FACTIONS
            _check_amounts(value, path, allowed, report)
        else:
            report(_wrong_type(path, kind, value))
    elif kind == "reward":
        if isinstance(value, Mapping):
            _check_reward(value, f"{path}.", report, allow_choices=True)
        else:
            report(_wrong_type(path, kind, value))
    elif kind == "options":
        if not isinstance(value, list):
            report(_wrong_type(path, kind, value))
            return
        for i, option in enumerate(value):
            if isinstance(option, Mapping):
                _check_reward(option, f"{path}[{i}].", report, allow_choices=False)
            else:
                report(_wrong_type(f"{path}[{i}]", "reward", option))


def _check_table(
    table: Mapping[str, object], spec: Mapping[str, Field], prefix: str, report: Report
) -> None:
    for key in table:
        if key not in spec:
            report(f"unknown key '{prefix}{key}'")
    for key, field in spec.items():
        if key in table:
            _check_value(table[key], field, f"{prefix}{key}", report)
        elif field.required:
            report(f"missing required key '{prefix}{key}'")


def _check_reward(
    reward: Mapping[str, object], prefix: str, report: Report, *, allow_choices: bool
) -> None:
    if not allow_choices:
        for key in CHOICE_KEYS:
            if key in reward:
                report(f"option '{prefix.rstrip('.')}' must not contain '{key}'")
        if not reward:
            report(f"option '{prefix.rstrip('.')}' must not be empty")
        spec = {k: f for k, f in REWARD_FIELDS.items() if k not in CHOICE_KEYS}
        rest = {k: v for k, v in reward.items() if k not in CHOICE_KEYS}
        _check_table(rest, spec, prefix, report)
    else:
        _check_table(reward, REWARD_FIELDS, prefix, report)
    influence, factions = reward.get("influence", 0), reward.get("influence_factions", 0)
    if is_int(influence) and is_int(factions) and (influence == 0) != (factions == 0):
        report(
            f"'{prefix}influence' and '{prefix}influence_factions' must both be set or both be 0"
        )
    if not allow_choices:
        return
    choose, options = reward.get("choose"), reward.get("options")
    if options is None and choose is not None:
        report(f"'{prefix}choose' is set but '{prefix}options' is missing")
    elif isinstance(options, list):
        if choose is None:
            report(f"'{prefix}options' is set but '{prefix}choose' is missing")
        elif is_int(choose) and not 1 <= choose <= len(options):
            report(
                f"'{prefix}choose' is {choose}, must be between 1 and "
                f"{len(options)} (the number of options)"
            )


def _record_id(record: Mapping[str, object]) -> str | None:
    value = record.get("id")
    return value if isinstance(value, str) and value else None


def _str_or_none(record: Mapping[str, object], key: str) -> str | None:
    value = record.get(key)
    return value if isinstance(value, str) else None


@dataclass(slots=True)
class _Run:
    """Collects problems while the checks walk the records."""

    raw: Mapping[str, Sequence[object]]
    origins: Mapping[str, Sequence[str]]
    problems: list[Problem]

    def file(self, kind: str, index: int) -> str:
        files = self.origins.get(kind, ())
        return files[index] if index < len(files) else FILES.get(kind, f"{kind}.toml")

    def records(self, kind: str) -> list[tuple[int, Mapping[str, object]]]:
        return [(i, r) for i, r in enumerate(self.raw.get(kind, ())) if isinstance(r, Mapping)]

    def reporter(self, kind: str, index: int, record: Mapping[str, object]) -> Report:
        file, rid = self.file(kind, index), _record_id(record)
        return lambda message: self.problems.append(Problem(file, rid, message))


def _check_shapes(run: _Run) -> None:
    for kind in run.raw:
        if kind not in KINDS:
            run.problems.append(Problem(FILES.get(kind, kind), None, f"unknown kind '{kind}'"))
    for kind in KINDS:
        for index, record in enumerate(run.raw.get(kind, ())):
            file = run.file(kind, index)
            if not isinstance(record, Mapping):
                msg = f"record #{index + 1} must be a table, not {type(record).__name__}"
                run.problems.append(Problem(file, None, msg))
                continue
            _check_table(record, FIELDS[kind], "", run.reporter(kind, index, record))


def _check_duplicates(run: _Run) -> None:
    for kind in KINDS:
        seen: dict[str, str] = {}
        for index, record in run.records(kind):
            rid = _record_id(record)
            if rid is None:
                continue
            file = run.file(kind, index)
            if rid in seen:
                msg = f"duplicate id '{rid}' (first defined in {seen[rid]})"
                run.problems.append(Problem(file, rid, msg))
            else:
                seen[rid] = file


def _check_spaces(run: _Run) -> None:
    for index, record in run.records("spaces"):
        report = run.reporter("spaces", index, record)
        maker, base_spice = record.get("maker"), record.get("base_spice")
        if isinstance(maker, bool) and is_int(base_spice):
            if maker and base_spice == 0:
                report("a maker space must have 'base_spice' above 0")
            elif not maker and base_spice != 0:
                report(f"'base_spice' is {base_spice} but the space is not a maker space")


def _check_hagal(run: _Run, spaces: Mapping[str, Mapping[str, object]]) -> None:
    for index, record in run.records("hagal"):
        report = run.reporter("hagal", index, record)
        space = _str_or_none(record, "space")
        special = [k for k in ("harvest", "reshuffle") if record.get(k) is True]
        if len(special) > 1:
            report("a card can't be both 'harvest' and 'reshuffle'")
        if special and "space" in record:
            report(f"a '{special[0]}' card must not name a 'space'")
        if not special and "space" not in record:
            report("missing 'space' (only harvest and reshuffle cards have none)")
        copies = record.get("copies")
        if is_int(copies) and copies == 0:
            report("'copies' must be at least 1")
        if space is None or not space:
            continue
        target = spaces.get(space)
        if target is None:
            report(f"'space' refers to unknown space '{space}'")
            continue
        covered_by, removed = target.get("removed_with", []), record.get("removed_with", [])
        if isinstance(covered_by, list) and isinstance(removed, list):
            for card_set in (s for s in covered_by if s not in removed):
                report(f"space '{space}' is removed with '{card_set}' but this card is not")
        influence, faction = record.get("influence"), target.get("faction")
        if isinstance(influence, str) and influence != faction:
            where = f"faction '{faction}'" if isinstance(faction, str) else "no faction"
            report(f"'influence' is '{influence}' but space '{space}' has {where}")


def _check_leaders(run: _Run) -> None:
    for index, record in run.records("leaders"):
        allowed, signet = record.get("rival_allowed"), record.get("rival_signet")
        if not isinstance(allowed, bool) or not isinstance(signet, str):
            continue
        report = run.reporter("leaders", index, record)
        if allowed and signet == "none":
            report("'rival_signet' is 'none' but 'rival_allowed' is true")
        elif not allowed and signet != "none":
            report(f"'rival_signet' is '{signet}' but 'rival_allowed' is false (use 'none')")


def _check_conflicts(run: _Run, spaces: Mapping[str, Mapping[str, object]]) -> None:
    for index, record in run.records("conflicts"):
        report = run.reporter("conflicts", index, record)
        controlled = _str_or_none(record, "controlled_space")
        if controlled:
            target = spaces.get(controlled)
            if target is None:
                report(f"'controlled_space' refers to unknown space '{controlled}'")
            elif not isinstance(target.get("control_bonus"), Mapping):
                report(f"'controlled_space' '{controlled}' is a space without a control_bonus")
        granted: list[str] = []
        for place in ("first", "second", "third"):
            reward = record.get(place)
            if not isinstance(reward, Mapping):
                continue
            rewards: list[tuple[str, Mapping[str, object]]] = [(place, reward)]
            options = reward.get("options")
            if isinstance(options, list):
                rewards += [
                    (f"{place}.options[{i}]", o)
                    for i, o in enumerate(options)
                    if isinstance(o, Mapping)
                ]
            for path, box in rewards:
                control = _str_or_none(box, "control")
                if not control:
                    continue
                granted.append(control)
                if control not in spaces:
                    report(f"'{path}.control' refers to unknown space '{control}'")
                elif control != controlled:
                    report(
                        f"'{path}.control' gives '{control}' but 'controlled_space' is "
                        f"{repr(controlled) if controlled else 'not set'}"
                    )
        if controlled and controlled not in granted:
            report(f"'controlled_space' is '{controlled}' but no reward grants its control")


def _count(records: list[Mapping[str, object]], key: str, value: object) -> int:
    return sum(1 for r in records if r.get(key) == value)


def _copies(records: list[Mapping[str, object]]) -> int:
    total = 0
    for record in records:
        copies = record.get("copies")
        if is_int(copies):
            total += copies
    return total


def _actual_counts(run: _Run, card_set: str) -> dict[str, int]:
    def of(kind: str) -> list[Mapping[str, object]]:
        return [r for _, r in run.records(kind) if r.get("set") == card_set]

    hagal, conflicts = of("hagal"), of("conflicts")
    counts = {
        "spaces": len(of("spaces")),
        "hagal": _copies(hagal),
        "leaders": len(of("leaders")),
        "conflicts": len(conflicts),
    }
    for players in ("1P", "2P"):
        counts[f"hagal_{players}"] = _copies([r for r in hagal if r.get("players") == players])
    for level in LEVELS:
        counts[f"conflicts_level_{level}"] = _count(conflicts, "level", level)
    return counts


def _count_label(key: str, value: int) -> str:
    if key.startswith("hagal"):
        mark = key.partition("_")[2]
        return f"{value} {mark} House Hagal cards" if mark else f"{value} House Hagal cards"
    if key.startswith("conflicts_level_"):
        return f"{value} level {key.rpartition('_')[2]} conflicts"
    return f"{value} {key}"


def _check_counts(run: _Run, sets: Sequence[str]) -> None:
    for card_set in sets:
        expected = EXPECTED_COUNTS.get(card_set)
        if expected is None:
            continue
        actual = _actual_counts(run, card_set)
        for key, want in expected.items():
            got = actual.get(key, 0)
            if got != want:
                kind = key.partition("_")[0]
                msg = f"set '{card_set}' has {_count_label(key, got)}, expected {want}"
                run.problems.append(Problem(f"{card_set}/{FILES[kind]}", None, msg))


def _present_sets(run: _Run) -> list[str]:
    found = {r.get("set") for kind in KINDS for _, r in run.records(kind)}
    return [s for s in SETS if s in found]


def validate(
    raw: Mapping[str, Sequence[object]],
    *,
    origins: Mapping[str, Sequence[str]] | None = None,
    sets: Sequence[str] | None = None,
) -> list[Problem]:
    """Every problem in the raw records of each kind (`{"spaces": [...], "hagal": [...]}`)."""
    # origins[kind][i] names the file record i came from (default: "<kind>.toml").
    # Counts are checked for `sets` (default: every known set that has a record).
    run = _Run(raw, origins or {}, [])
    _check_shapes(run)
    _check_duplicates(run)
    spaces: dict[str, Mapping[str, object]] = {}
    for _, record in run.records("spaces"):
        rid = _record_id(record)
        if rid is not None:
            spaces.setdefault(rid, record)
    _check_spaces(run)
    _check_hagal(run, spaces)
    _check_leaders(run)
    _check_conflicts(run, spaces)
    _check_counts(run, _present_sets(run) if sets is None else sets)
    return run.problems


def count_summary(raw: Mapping[str, Sequence[object]], card_set: str) -> dict[str, int]:
    """Records per kind in one set (House Hagal cards counted by copies)."""
    counts = _actual_counts(_Run(raw, {}, []), card_set)
    return {kind: counts[kind] for kind in KINDS}

"""Check raw card_db records and report every problem in one run.

`validate` never stops at the first problem: it walks every record of every kind and
returns the full list, so a designer fixes a file once instead of once per error.

What it checks: unknown keys, missing keys, wrong types and bad values, from the record
classes' fields (`companion.cards.schema`); duplicate ids within an id namespace;
references to records that don't exist (House Hagal target spaces, controlled spaces, the
card Control the Spice replaces); rules between fields of one record; Rise of Ix fields
used by base records; and the copies per set and kind against EXPECTED_COUNTS.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from companion.cards.counts import (
    COPIES_KINDS,
    COUNT_NOUNS,
    EXPECTED_COUNTS,
    check_counts,
    count_label,
    count_summary,
    present_sets,
    set_kinds,
)
from companion.cards.crosscheck import check_across
from companion.cards.problems import Problem, Report, Run, choices, is_int, record_id
from companion.cards.schema import (
    CARD_KINDS,
    FILES,
    KINDS,
    RIVAL_SIGNETS,
    SETS,
    TABLES,
    Column,
    ValueKind,
    columns,
    record_columns,
)
from companion.rules.catalog import FACTIONS, RESOURCES, Reward

__all__ = [
    "CARD_KINDS",
    "COPIES_KINDS",
    "COUNT_NOUNS",
    "EXPECTED_COUNTS",
    "FILES",
    "ID_NAMESPACES",
    "KINDS",
    "RIVAL_SIGNETS",
    "SETS",
    "TABLES",
    "Problem",
    "count_label",
    "count_summary",
    "is_int",
    "set_kinds",
    "validate",
]

# Ids are unique within a namespace, across kinds and sets. House Hagal cards share the
# ids of the spaces they target (hagal "conspire" -> space "conspire"), and the Reserve
# card Foldspace shares its id with the space, so those live in separate namespaces; every
# card a player can hold or look up by id (`/c/<id>`) is in "cards".
ID_NAMESPACES: Final[Mapping[str, tuple[str, ...]]] = {
    "board": ("spaces", "track"),
    "hagal": ("hagal",),
    "cards": ("leaders", "conflicts", *CARD_KINDS, "intrigue", "tech"),
}

CHOICE_KEYS: Final[tuple[str, ...]] = ("choose", "options")

# Keys an option of a choice can't hold: a choice inside a choice, or purchases.
NOT_IN_OPTIONS: Final[tuple[str, ...]] = (*CHOICE_KEYS, "offers")

OPTION_COLUMNS: Final = tuple(c for c in columns(Reward) if c.key not in NOT_IN_OPTIONS)

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
    "tables": "a list of tables",
}


def _wrong_type(path: str, kind: ValueKind, value: object) -> str:
    return f"'{path}' must be {_TYPE_NAMES[kind]}, not {type(value).__name__}"


def _check_str(value: str, path: str, allowed: tuple[object, ...], report: Report) -> None:
    if not value.strip():
        report(f"'{path}' must not be empty")
    elif allowed and value not in allowed:
        report(f"'{path}' is '{value}', expected one of: {choices(allowed)}")


def _check_int(value: int, spec: Column, path: str, report: Report) -> None:
    if value < 0:
        report(f"'{path}' must not be negative (got {value})")
    elif spec.values and value not in spec.values:
        report(f"'{path}' is {value}, expected one of: {choices(spec.values)}")
    elif value < spec.minimum:
        report(f"'{path}' must be at least {spec.minimum}")


def _check_amounts(value: Mapping[object, object], spec: Column, path: str, report: Report) -> None:
    allowed = RESOURCES if spec.kind == "resources" else FACTIONS
    if len([amount for amount in value.values() if amount]) < spec.minimum:
        report(f"'{path}' must not be empty")
    for key, amount in value.items():
        if key not in allowed:
            report(f"'{path}' has unknown key '{key}', expected one of: {choices(allowed)}")
        elif not is_int(amount):
            report(_wrong_type(f"{path}.{key}", "int", amount))
        elif amount < 0:
            report(f"'{path}.{key}' must not be negative (got {amount})")


def _check_length(value: list[object], spec: Column, path: str, report: Report) -> None:
    if len(value) >= spec.minimum:
        return
    if spec.values:
        report(f"'{path}' must name at least one of: {choices(spec.values)}")
    else:
        report(f"'{path}' must list at least one {spec.key.removesuffix('s')}")


def _check_list(value: list[object], spec: Column, path: str, report: Report) -> None:
    _check_length(value, spec, path, report)
    seen: set[str] = set()
    for i, item in enumerate(value):
        if not isinstance(item, str):
            report(_wrong_type(f"{path}[{i}]", "str", item))
            continue
        _check_str(item, f"{path}[{i}]", spec.values, report)
        if spec.values and item in seen:
            report(f"'{path}' lists '{item}' twice")
        seen.add(item)


def _check_tables(value: list[object], spec: Column, path: str, report: Report) -> None:
    _check_length(value, spec, path, report)
    for i, item in enumerate(value):
        if not isinstance(item, Mapping):
            report(_wrong_type(f"{path}[{i}]", "reward", item))
        elif spec.kind == "options":
            _check_option(item, f"{path}[{i}].", report)
        else:
            _check_table(item, columns(spec.item or Reward), f"{path}[{i}].", report)


# Per kind of value: the Python type a TOML value of that kind has, and how its content is
# checked once the type is right.
Checker = Callable[[Any, Column, str, Report], None]

_VALUE_CHECKS: Final[Mapping[ValueKind, tuple[type, Checker | None]]] = {
    "str": (str, lambda value, spec, path, report: _check_str(value, path, spec.values, report)),
    "int": (int, _check_int),
    "bool": (bool, None),
    "str_list": (list, _check_list),
    "set_list": (list, _check_list),
    "resources": (Mapping, _check_amounts),
    "influence": (Mapping, _check_amounts),
    "reward": (
        Mapping,
        lambda value, _spec, path, report: _check_reward(value, f"{path}.", report),
    ),
    "options": (list, _check_tables),
    "tables": (list, _check_tables),
}


def _check_value(value: object, spec: Column, path: str, report: Report) -> None:
    python_type, check = _VALUE_CHECKS[spec.kind]
    if not isinstance(value, python_type) or (python_type is int and isinstance(value, bool)):
        report(_wrong_type(path, spec.kind, value))
    elif check is not None:
        check(value, spec, path, report)


def _check_table(
    table: Mapping[str, object], specs: Sequence[Column], prefix: str, report: Report
) -> None:
    keys = {spec.key for spec in specs}
    for key in table:
        if key not in keys:
            report(f"unknown key '{prefix}{key}'")
    for spec in specs:
        if spec.key in table:
            _check_value(table[spec.key], spec, f"{prefix}{spec.key}", report)
        elif spec.required:
            report(f"missing required key '{prefix}{spec.key}'")


def _check_influence(reward: Mapping[str, object], prefix: str, report: Report) -> None:
    """Influence points and the number of Factions that get them come together."""
    influence, factions = reward.get("influence", 0), reward.get("influence_factions", 0)
    if is_int(influence) and is_int(factions) and (influence == 0) != (factions == 0):
        report(
            f"'{prefix}influence' and '{prefix}influence_factions' must both be set or both be 0"
        )


def _check_choice(reward: Mapping[str, object], prefix: str, report: Report) -> None:
    """`choose` and `options` come together, and one can't choose more than there is."""
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


def _check_reward(reward: Mapping[str, object], prefix: str, report: Report) -> None:
    _check_table(reward, columns(Reward), prefix, report)
    _check_influence(reward, prefix, report)
    _check_choice(reward, prefix, report)


def _check_option(option: Mapping[str, object], prefix: str, report: Report) -> None:
    """An option of a choice is a reward without a choice or purchases, and not empty."""
    for key in NOT_IN_OPTIONS:
        if key in option:
            report(f"option '{prefix.rstrip('.')}' must not contain '{key}'")
    if not option:
        report(f"option '{prefix.rstrip('.')}' must not be empty")
    rest = {k: v for k, v in option.items() if k not in NOT_IN_OPTIONS}
    _check_table(rest, OPTION_COLUMNS, prefix, report)
    _check_influence(option, prefix, report)


def _check_shapes(run: Run) -> None:
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
            _check_table(record, record_columns(kind), "", run.reporter(kind, index, record))


def _check_duplicates(run: Run) -> None:
    for kinds in ID_NAMESPACES.values():
        seen: dict[str, str] = {}
        for kind in kinds:
            for index, record in run.records(kind):
                rid = record_id(record)
                if rid is None:
                    continue
                file = run.file(kind, index)
                if rid in seen:
                    msg = f"duplicate id '{rid}' (first defined in {seen[rid]})"
                    run.problems.append(Problem(file, rid, msg))
                else:
                    seen[rid] = file


def validate(
    raw: Mapping[str, Sequence[object]],
    *,
    origins: Mapping[str, Sequence[str]] | None = None,
    sets: Sequence[str] | None = None,
) -> list[Problem]:
    """Every problem in the raw records of each kind (`{"spaces": [...], "hagal": [...]}`)."""
    # origins[kind][i] names the file record i came from (default: "<kind>.toml").
    # Counts are checked for `sets` (default: every known set that has a record).
    run = Run(raw, origins or {}, [])
    _check_shapes(run)
    _check_duplicates(run)
    check_across(run)
    check_counts(run, present_sets(run) if sets is None else sets)
    return run.problems

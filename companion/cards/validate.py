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
from dataclasses import dataclass
from typing import Any, Final, TypeGuard

from companion.cards.schema import (
    RECORDS,
    RIVAL_SIGNETS,
    SETS,
    Column,
    ValueKind,
    column,
    columns,
    record_columns,
)
from companion.rules.catalog import (
    FACTIONS,
    RESOURCES,
    CardDef,
    ConflictDef,
    IntrigueDef,
    Reward,
)

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

Report = Callable[[str], None]

KINDS: Final[tuple[str, ...]] = tuple(RECORDS)
# The kinds of deck card: one record type (CardDef), told apart by the file they are in.
CARD_KINDS: Final[tuple[str, ...]] = tuple(k for k in KINDS if RECORDS[k][1] is CardDef)
# The TOML array-of-tables name used in each kind's file: `[[space]]`, `[[card]]`, ...
TABLES: Final[Mapping[str, str]] = {kind: table for kind, (table, _) in RECORDS.items()}
FILES: Final[Mapping[str, str]] = {kind: f"{kind}.toml" for kind in KINDS}
# Ids are unique within a namespace, across kinds and sets. House Hagal cards share the
# ids of the spaces they target (hagal "conspire" -> space "conspire"), and the Reserve
# card Foldspace shares its id with the space, so those live in separate namespaces; every
# card a player can hold or look up by id (`/c/<id>`) is in "cards".
ID_NAMESPACES: Final[Mapping[str, tuple[str, ...]]] = {
    "board": ("spaces", "track"),
    "hagal": ("hagal",),
    "cards": ("leaders", "conflicts", *CARD_KINDS, "intrigue", "tech"),
}
# Kinds whose records carry `copies`; a record of any other kind is one physical item.
COPIES_KINDS: Final[tuple[str, ...]] = tuple(
    kind for kind in KINDS if any(c.key == "copies" for c in record_columns(kind))
)
INTRIGUE_TYPES: Final = column(IntrigueDef, "types").values
LEVELS: Final = column(ConflictDef, "level").values
# The reward boxes of a Conflict card.
PLACES: Final = tuple(c.key for c in columns(ConflictDef) if c.kind == "reward")
# Expected copies per set and kind, the one table every count check reads. Kinds with
# `copies` count physical cards; the others count records. A set holds exactly the kinds
# listed here (one file each). Extra keys check a part of a kind:
#   hagal_1P / hagal_2P: House Hagal cards marked for one mode only;
#   conflicts_level_N: Conflict cards of level N; leaders_rival: leaders a Rival may play;
#   tech_hagal_ok: Tech tiles with the Rival mark.
# base: rulebook p.3 components (67 Imperium Deck cards; a 10-card starting deck per player;
#   24 Reserve cards: 8 Arrakis Liaison, 10 The Spice Must Flow, 6 Foldspace; 40 Intrigue
#   cards; 18 Conflict cards 4/10/4; 8 Leaders; 31 House Hagal cards), the 22 spaces of the
#   Board Space Guide, pp.19-20 (three 1P Arrakeen; Reshuffle + three 2P), p.20 (Paul and
#   Helena can't be Rivals).
# ix: Rise of Ix rulebook p.2 (35 Imperium Deck cards, 17 Intrigue cards, 18 Tech tiles,
#   4 Conflict cards 2/1/1, 6 Leaders, 9 House Hagal cards; one Control the Spice per player
#   colour, Epic mode p.10), p.8 (four 1P cards, two 2P Dreadnought cards; Rhombur and
#   Hundro are the only new Rivals), p.12 (4 new spaces); p.5 the Shipping Track; the 12
#   Rival-marked tiles per SOURCES-cards.md §5.6.
EXPECTED_COUNTS: Final[Mapping[str, Mapping[str, int]]] = {
    "base": {
        "spaces": 22,
        "hagal": 31,
        "hagal_1P": 3,
        "hagal_2P": 4,
        "leaders": 8,
        "leaders_rival": 6,
        "conflicts": 18,
        "conflicts_level_1": 4,
        "conflicts_level_2": 10,
        "conflicts_level_3": 4,
        "imperium": 67,
        "starter": 10,
        "reserve": 24,
        "intrigue": 40,
    },
    "ix": {
        "spaces": 4,
        "hagal": 9,
        "hagal_1P": 4,
        "hagal_2P": 2,
        "leaders": 6,
        "leaders_rival": 2,
        "conflicts": 4,
        "conflicts_level_1": 2,
        "conflicts_level_2": 1,
        "conflicts_level_3": 1,
        "imperium": 35,
        "intrigue": 17,
        "tech": 18,
        "tech_hagal_ok": 12,
        "control_the_spice": 1,
        "track": 1,
    },
}


def set_kinds(card_set: str) -> tuple[str, ...]:
    """The kinds (and so the files) a set holds, in KINDS order."""
    expected = EXPECTED_COUNTS.get(card_set, {})
    return tuple(kind for kind in KINDS if kind in expected)


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


# Rise of Ix adds keys to the kinds it shares with the base game; a base record of such a
# kind must not use them (nor a base Conflict card's rewards the Ix reward keys).
IX_ONLY_KEYS: Final[Mapping[str, tuple[str, ...]]] = {
    kind: keys
    for kind in set_kinds("base")
    if kind in set_kinds("ix") and (keys := tuple(c.key for c in record_columns(kind) if c.ix))
}
IX_REWARD_KEYS: Final = tuple(c.key for c in columns(Reward) if c.ix)
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

# How the count checks name what they counted, e.g. "30 House Hagal cards".
COUNT_NOUNS: Final[Mapping[str, str]] = {
    "spaces": "spaces",
    "hagal": "House Hagal cards",
    "hagal_1P": "1P House Hagal cards",
    "hagal_2P": "2P House Hagal cards",
    "leaders": "leaders",
    "leaders_rival": "leaders a Rival may play",
    "conflicts": "conflicts",
    "conflicts_level_1": "level 1 conflicts",
    "conflicts_level_2": "level 2 conflicts",
    "conflicts_level_3": "level 3 conflicts",
    "imperium": "Imperium cards",
    "starter": "starting-deck cards per player",
    "reserve": "Reserve cards",
    "control_the_spice": "Control the Spice cards per player",
    "intrigue": "Intrigue cards",
    "tech": "Tech tiles",
    "tech_hagal_ok": "Tech tiles with the Rival mark",
    "track": "tracks",
}


_SINGULARS: Final[tuple[tuple[str, str], ...]] = (
    ("spaces", "space"),
    ("cards", "card"),
    ("leaders", "leader"),
    ("conflicts", "conflict"),
    ("tiles", "tile"),
    ("tracks", "track"),
)


def is_int(value: object) -> TypeGuard[int]:
    """True for a TOML integer (bool is not an integer here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _choices(values: Sequence[object]) -> str:
    return ", ".join(str(v) for v in values)


def _wrong_type(path: str, kind: ValueKind, value: object) -> str:
    return f"'{path}' must be {_TYPE_NAMES[kind]}, not {type(value).__name__}"


def _check_str(value: str, path: str, allowed: tuple[object, ...], report: Report) -> None:
    if not value.strip():
        report(f"'{path}' must not be empty")
    elif allowed and value not in allowed:
        report(f"'{path}' is '{value}', expected one of: {_choices(allowed)}")


def _check_int(value: int, spec: Column, path: str, report: Report) -> None:
    if value < 0:
        report(f"'{path}' must not be negative (got {value})")
    elif spec.values and value not in spec.values:
        report(f"'{path}' is {value}, expected one of: {_choices(spec.values)}")
    elif value < spec.minimum:
        report(f"'{path}' must be at least {spec.minimum}")


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


def _check_length(value: list[object], spec: Column, path: str, report: Report) -> None:
    if len(value) >= spec.minimum:
        return
    if spec.values:
        report(f"'{path}' must name at least one of: {_choices(spec.values)}")
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
            _check_reward(item, f"{path}[{i}].", report, allow_choices=False)
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
    "resources": (
        Mapping,
        lambda value, _spec, path, report: _check_amounts(value, path, RESOURCES, report),
    ),
    "influence": (
        Mapping,
        lambda value, _spec, path, report: _check_amounts(value, path, FACTIONS, report),
    ),
    "reward": (
        Mapping,
        lambda value, _spec, path, report: _check_reward(
            value, f"{path}.", report, allow_choices=True
        ),
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


def _check_options_keys(reward: Mapping[str, object], prefix: str, report: Report) -> None:
    """An option of a choice holds neither a choice nor purchases, and is not empty."""
    for key in NOT_IN_OPTIONS:
        if key in reward:
            report(f"option '{prefix.rstrip('.')}' must not contain '{key}'")
    if not reward:
        report(f"option '{prefix.rstrip('.')}' must not be empty")
    rest = {k: v for k, v in reward.items() if k not in NOT_IN_OPTIONS}
    _check_table(rest, OPTION_COLUMNS, prefix, report)


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


def _check_reward(
    reward: Mapping[str, object], prefix: str, report: Report, *, allow_choices: bool
) -> None:
    if allow_choices:
        _check_table(reward, columns(Reward), prefix, report)
    else:
        _check_options_keys(reward, prefix, report)
    influence, factions = reward.get("influence", 0), reward.get("influence_factions", 0)
    if is_int(influence) and is_int(factions) and (influence == 0) != (factions == 0):
        report(
            f"'{prefix}influence' and '{prefix}influence_factions' must both be set or both be 0"
        )
    if not allow_choices:
        return
    offers = reward.get("offers")
    if isinstance(offers, list):
        for i, offer in enumerate(offers):
            cost = offer.get("cost") if isinstance(offer, Mapping) else None
            if isinstance(cost, Mapping) and not any(cost.values()):
                report(f"'{prefix}offers[{i}].cost' must not be empty")
    _check_choice(reward, prefix, report)


def _record_id(record: Mapping[str, object]) -> str | None:
    value = record.get("id")
    return value if isinstance(value, str) and value else None


def _str_or_none(record: Mapping[str, object], key: str) -> str | None:
    value = record.get(key)
    return value if isinstance(value, str) else None


def _int_or_zero(record: Mapping[str, object], key: str) -> int:
    value = record.get(key, 0)
    return value if is_int(value) else 0


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

    def each(self, kind: str) -> list[tuple[Mapping[str, object], Report]]:
        """The records of one kind, each with the function that reports its problems."""
        return [(r, self.reporter(kind, i, r)) for i, r in self.records(kind)]

    def ids(self, kind: str) -> dict[str, Mapping[str, object]]:
        found: dict[str, Mapping[str, object]] = {}
        for _, record in self.records(kind):
            rid = _record_id(record)
            if rid is not None:
                found.setdefault(rid, record)
        return found


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
            _check_table(record, record_columns(kind), "", run.reporter(kind, index, record))


def _check_duplicates(run: _Run) -> None:
    for kinds in ID_NAMESPACES.values():
        seen: dict[str, str] = {}
        for kind in kinds:
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


def _reward_boxes(record: Mapping[str, object]) -> list[tuple[str, Mapping[str, object]]]:
    """A Conflict card's reward boxes and the options inside them, each with its path."""
    boxes: list[tuple[str, Mapping[str, object]]] = []
    for place in PLACES:
        reward = record.get(place)
        if not isinstance(reward, Mapping):
            continue
        boxes.append((place, reward))
        options = reward.get("options")
        if isinstance(options, list):
            boxes += [
                (f"{place}.options[{i}]", o)
                for i, o in enumerate(options)
                if isinstance(o, Mapping)
            ]
    return boxes


def _check_ix_only(run: _Run) -> None:
    for kind, keys in IX_ONLY_KEYS.items():
        for record, report in run.each(kind):
            if record.get("set") != "base":
                continue
            for key in keys:
                if key in record:
                    report(f"'{key}' is a Rise of Ix field; a 'base' record can't use it")
    for record, report in run.each("conflicts"):
        if record.get("set") != "base":
            continue
        for path, box in _reward_boxes(record):
            for key in IX_REWARD_KEYS:
                if key in box:
                    report(f"'{path}.{key}' is a Rise of Ix reward; a 'base' card can't use it")


def _check_ix_icons(record: Mapping[str, object], report: Report) -> None:
    """A Tech Discount only makes sense with Acquire Tech."""
    tech = record.get("acquire_tech") is True
    if _int_or_zero(record, "tech_discount") and not tech:
        report("'tech_discount' is set but 'acquire_tech' is not")


def _check_spaces(run: _Run) -> None:
    for record, report in run.each("spaces"):
        maker, base_spice = record.get("maker"), record.get("base_spice")
        if isinstance(maker, bool) and is_int(base_spice):
            if maker and base_spice == 0:
                report("a maker space must have 'base_spice' above 0")
            elif not maker and base_spice != 0:
                report(f"'base_spice' is {base_spice} but the space is not a maker space")
        _check_ix_icons(record, report)
        if record.get("ix_choose_one") is True:
            icons = [k for k in ("freighter", "dreadnought", "negotiator") if record.get(k)]
            icons += ["acquire_tech"] if record.get("acquire_tech") is True else []
            if len(icons) < 2:
                report("'ix_choose_one' needs at least two Rise of Ix icons to choose from")


def _check_target(
    record: Mapping[str, object],
    key: str,
    influence_key: str,
    spaces: Mapping[str, Mapping[str, object]],
    report: Report,
) -> None:
    """A House Hagal card's target space exists, is covered with the card, matches its faction."""
    space = _str_or_none(record, key)
    if not space:
        return
    target = spaces.get(space)
    if target is None:
        report(f"'{key}' refers to unknown space '{space}'")
        return
    covered_by, removed = target.get("removed_with", []), record.get("removed_with", [])
    if isinstance(covered_by, list) and isinstance(removed, list):
        for card_set in (s for s in covered_by if s not in removed):
            report(f"space '{space}' is removed with '{card_set}' but this card is not")
    influence, faction = record.get(influence_key), target.get("faction")
    if isinstance(influence, str) and influence != faction:
        where = f"faction '{faction}'" if isinstance(faction, str) else "no faction"
        report(f"'{influence_key}' is '{influence}' but space '{space}' has {where}")


def _check_hagal(run: _Run, spaces: Mapping[str, Mapping[str, object]]) -> None:
    for record, report in run.each("hagal"):
        special = [k for k in ("harvest", "reshuffle") if record.get(k) is True]
        if len(special) > 1:
            report("a card can't be both 'harvest' and 'reshuffle'")
        if special and "space" in record:
            report(f"a '{special[0]}' card must not name a 'space'")
        if not special and "space" not in record:
            report("missing 'space' (only harvest and reshuffle cards have none)")
        _check_ix_icons(record, report)
        if _int_or_zero(record, "negotiator") and record.get("acquire_tech") is not True:
            report("'negotiator' is the fallback of 'acquire_tech', which is not set")
        alt = _str_or_none(record, "space_if_guild_2")
        for key in ("influence_if_guild_2", "freighter_if_guild_2"):
            if key in record and "space_if_guild_2" not in record:
                report(f"'{key}' is set but 'space_if_guild_2' is not")
        if alt is not None and "space" not in record:
            report("'space_if_guild_2' needs a 'space' for 0-1 Spacing Guild Influence")
        if alt is not None and alt == record.get("space"):
            report(f"'space_if_guild_2' is '{alt}', the same as 'space'")
        _check_target(record, "space", "influence", spaces, report)
        _check_target(record, "space_if_guild_2", "influence_if_guild_2", spaces, report)


def _check_leaders(run: _Run) -> None:
    for record, report in run.each("leaders"):
        allowed, signet = record.get("rival_allowed"), record.get("rival_signet")
        if not isinstance(allowed, bool) or not isinstance(signet, str):
            continue
        if allowed and signet == "none":
            report("'rival_signet' is 'none' but 'rival_allowed' is true")
        elif not allowed and signet != "none":
            report(f"'rival_signet' is '{signet}' but 'rival_allowed' is false (use 'none')")


def _check_conflicts(run: _Run, spaces: Mapping[str, Mapping[str, object]]) -> None:
    for record, report in run.each("conflicts"):
        controlled = _str_or_none(record, "controlled_space")
        if controlled:
            target = spaces.get(controlled)
            if target is None:
                report(f"'controlled_space' refers to unknown space '{controlled}'")
            elif not isinstance(target.get("control_bonus"), Mapping):
                report(f"'controlled_space' '{controlled}' is a space without a control_bonus")
        granted: list[str] = []
        for path, box in _reward_boxes(record):
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


def _check_cards(run: _Run) -> None:
    starters = run.ids("starter")
    for kind in CARD_KINDS:
        bought = kind in ("imperium", "reserve")
        for record, report in run.each(kind):
            if bought and "cost" not in record:
                report(f"missing 'cost' (every {kind} card has a Persuasion cost)")
            elif not bought and "cost" in record:
                report(f"'cost' is set but {kind} cards are never bought")
            icons = record.get("icons")
            if isinstance(icons, list) and not icons and record.get("agent"):
                report("'agent' is set but the card has no Agent icons to play it with")
            if record.get("infiltration") is True and not icons:
                report("'infiltration' is set but the card has no Agent icons")
            replaces = _str_or_none(record, "replaces")
            if kind != "control_the_spice":
                if "replaces" in record:
                    report("only Control the Spice replaces a starting card ('replaces')")
            elif replaces is None:
                report("missing 'replaces' (the starting card Control the Spice takes over)")
            elif replaces not in starters:
                report(f"'replaces' refers to unknown starter card '{replaces}'")


def _check_intrigue(run: _Run) -> None:
    for record, report in run.each("intrigue"):
        types = record.get("types")
        if not isinstance(types, list):
            continue
        for kind in INTRIGUE_TYPES:
            if kind in types and kind not in record:
                report(f"'types' lists '{kind}' but the card has no '{kind}' effect")
            elif kind in record and kind not in types:
                report(f"'{kind}' effect is set but 'types' doesn't list '{kind}'")


def _check_tech(run: _Run) -> None:
    for record, report in run.each("tech"):
        if record.get("rival_rule") and record.get("hagal_ok") is False:
            report("'rival_rule' is set but a Rival can't acquire this tile ('hagal_ok')")
        reward = record.get("acquire_reward")
        if isinstance(reward, Mapping) and reward and not record.get("acquire"):
            report("'acquire_reward' is set but 'acquire' (the text) is not")


def _check_tracks(run: _Run) -> None:
    for record, report in run.each("track"):
        steps = record.get("steps")
        if not isinstance(steps, list):
            continue
        for i, step in enumerate(steps):
            if not isinstance(step, Mapping):
                continue
            number = step.get("step")
            if is_int(number) and number != i + 1:
                report(f"'steps[{i}].step' is {number}, expected {i + 1} (steps go bottom up)")
            if _int_or_zero(step, "tech_discount") and step.get("acquire_tech") is not True:
                report(f"'steps[{i}].tech_discount' is set but 'acquire_tech' is not")


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

    counts = {kind: _copies(of(kind)) if kind in COPIES_KINDS else len(of(kind)) for kind in KINDS}
    hagal, conflicts = of("hagal"), of("conflicts")
    for players in ("1P", "2P"):
        counts[f"hagal_{players}"] = _copies([r for r in hagal if r.get("players") == players])
    for level in LEVELS:
        counts[f"conflicts_level_{level}"] = sum(1 for r in conflicts if r.get("level") == level)
    counts["leaders_rival"] = sum(1 for r in of("leaders") if r.get("rival_allowed") is True)
    counts["tech_hagal_ok"] = sum(1 for r in of("tech") if r.get("hagal_ok") is True)
    return counts


def count_label(key: str, value: int) -> str:
    """`value` with the noun COUNT_NOUNS gives `key`, singular for one: "1 Tech tile"."""
    noun = COUNT_NOUNS.get(key, key)
    if value == 1:
        for plural, singular in _SINGULARS:
            noun = noun.replace(plural, singular)
    return f"{value} {noun}"


def _file_of(card_set: str, key: str) -> str:
    kind = next((k for k in KINDS if key == k or key.startswith(f"{k}_")), key)
    return f"{card_set}/{FILES.get(kind, f'{kind}.toml')}"


def _check_counts(run: _Run, sets: Sequence[str]) -> None:
    for card_set in sets:
        expected = EXPECTED_COUNTS.get(card_set)
        if expected is None:
            continue
        actual = _actual_counts(run, card_set)
        for key, want in expected.items():
            got = actual.get(key, 0)
            if got != want:
                msg = f"set '{card_set}' has {count_label(key, got)}, expected {want}"
                run.problems.append(Problem(_file_of(card_set, key), None, msg))
        for kind in KINDS:
            if kind not in expected and actual[kind]:
                msg = f"set '{card_set}' has {count_label(kind, actual[kind])}, expected none"
                run.problems.append(Problem(_file_of(card_set, kind), None, msg))


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
    _check_ix_only(run)
    spaces = run.ids("spaces")
    _check_spaces(run)
    _check_hagal(run, spaces)
    _check_leaders(run)
    _check_conflicts(run, spaces)
    _check_cards(run)
    _check_intrigue(run)
    _check_tech(run)
    _check_tracks(run)
    _check_counts(run, _present_sets(run) if sets is None else sets)
    return run.problems


def count_summary(raw: Mapping[str, Sequence[object]], card_set: str) -> dict[str, int]:
    """Copies per kind in one set (records, for kinds without `copies`)."""
    counts = _actual_counts(_Run(raw, {}, []), card_set)
    return {kind: counts[kind] for kind in set_kinds(card_set)}

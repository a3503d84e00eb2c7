"""The card_db checks that span fields or records: references, and rules tying two fields.

Each key on its own is checked from the schema (`companion.cards.validate`); these run
after it, on the same raw records, and skip values of the wrong type (already reported).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from companion.cards.counts import set_kinds
from companion.cards.problems import Report, Run, int_or_zero, is_int, str_or_none
from companion.cards.schema import CARD_KINDS, column, columns, record_columns
from companion.rules.catalog import ConflictDef, IntrigueDef, Reward

INTRIGUE_TYPES: Final = column(IntrigueDef, "types").values

# The reward boxes of a Conflict card.
PLACES: Final = tuple(c.key for c in columns(ConflictDef) if c.kind == "reward")

# Rise of Ix adds keys to the kinds it shares with the base game; a base record of such a
# kind must not use them (nor a base Conflict card's rewards the Ix reward keys).
IX_ONLY_KEYS: Final[Mapping[str, tuple[str, ...]]] = {
    kind: keys
    for kind in set_kinds("base")
    if kind in set_kinds("ix") and (keys := tuple(c.key for c in record_columns(kind) if c.ix))
}

IX_REWARD_KEYS: Final = tuple(c.key for c in columns(Reward) if c.ix)


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


def _check_ix_only(run: Run) -> None:
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


def _check_ix_icons(table: Mapping[str, object], report: Report, prefix: str = "") -> None:
    """A Tech Discount only makes sense with Acquire Tech (a space, a card, a track step)."""
    if int_or_zero(table, "tech_discount") and table.get("acquire_tech") is not True:
        report(f"'{prefix}tech_discount' is set but 'acquire_tech' is not")


def _check_spaces(run: Run) -> None:
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
    space = str_or_none(record, key)
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


def _check_hagal(run: Run, spaces: Mapping[str, Mapping[str, object]]) -> None:
    for record, report in run.each("hagal"):
        special = [k for k in ("harvest", "reshuffle") if record.get(k) is True]
        if len(special) > 1:
            report("a card can't be both 'harvest' and 'reshuffle'")
        if special and "space" in record:
            report(f"a '{special[0]}' card must not name a 'space'")
        if not special and "space" not in record:
            report("missing 'space' (only harvest and reshuffle cards have none)")
        _check_ix_icons(record, report)
        if int_or_zero(record, "negotiator") and record.get("acquire_tech") is not True:
            report("'negotiator' is the fallback of 'acquire_tech', which is not set")
        alt = str_or_none(record, "space_if_guild_2")
        for key in ("influence_if_guild_2", "freighter_if_guild_2"):
            if key in record and "space_if_guild_2" not in record:
                report(f"'{key}' is set but 'space_if_guild_2' is not")
        if alt is not None and "space" not in record:
            report("'space_if_guild_2' needs a 'space' for 0-1 Spacing Guild Influence")
        if alt is not None and alt == record.get("space"):
            report(f"'space_if_guild_2' is '{alt}', the same as 'space'")
        _check_target(record, "space", "influence", spaces, report)
        _check_target(record, "space_if_guild_2", "influence_if_guild_2", spaces, report)


def _check_leaders(run: Run) -> None:
    for record, report in run.each("leaders"):
        allowed, signet = record.get("rival_allowed"), record.get("rival_signet")
        if not isinstance(allowed, bool) or not isinstance(signet, str):
            continue
        if allowed and signet == "none":
            report("'rival_signet' is 'none' but 'rival_allowed' is true")
        elif not allowed and signet != "none":
            report(f"'rival_signet' is '{signet}' but 'rival_allowed' is false (use 'none')")


def _check_conflicts(run: Run, spaces: Mapping[str, Mapping[str, object]]) -> None:
    for record, report in run.each("conflicts"):
        controlled = str_or_none(record, "controlled_space")
        if controlled:
            target = spaces.get(controlled)
            if target is None:
                report(f"'controlled_space' refers to unknown space '{controlled}'")
            elif not isinstance(target.get("control_bonus"), Mapping):
                report(f"'controlled_space' '{controlled}' is a space without a control_bonus")
        granted: list[str] = []
        for path, box in _reward_boxes(record):
            control = str_or_none(box, "control")
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


def _check_cards(run: Run) -> None:
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
            replaces = str_or_none(record, "replaces")
            if kind != "control_the_spice":
                if "replaces" in record:
                    report("only Control the Spice replaces a starting card ('replaces')")
            elif replaces is None:
                report("missing 'replaces' (the starting card Control the Spice takes over)")
            elif replaces not in starters:
                report(f"'replaces' refers to unknown starter card '{replaces}'")


def _check_intrigue(run: Run) -> None:
    for record, report in run.each("intrigue"):
        types = record.get("types")
        if not isinstance(types, list):
            continue
        for kind in INTRIGUE_TYPES:
            if kind in types and kind not in record:
                report(f"'types' lists '{kind}' but the card has no '{kind}' effect")
            elif kind in record and kind not in types:
                report(f"'{kind}' effect is set but 'types' doesn't list '{kind}'")


def _check_tech(run: Run) -> None:
    for record, report in run.each("tech"):
        if record.get("rival_rule") and record.get("hagal_ok") is False:
            report("'rival_rule' is set but a Rival can't acquire this tile ('hagal_ok')")
        reward = record.get("acquire_reward")
        if isinstance(reward, Mapping) and reward and not record.get("acquire"):
            report("'acquire_reward' is set but 'acquire' (the text) is not")


def _check_tracks(run: Run) -> None:
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
            _check_ix_icons(step, report, f"steps[{i}].")


def check_across(run: Run) -> None:
    """Every check that spans fields or records, in order."""
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

"""Each kind of problem the card_db validator and loader detect, on deliberately broken data."""

from __future__ import annotations

import json
import runpy
import shutil
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.cli import cli as flask_command_line

from companion.cards import CardDbError, collect_problems, default_root, load_catalog
from companion.cards.__main__ import main
from companion.cards.cli import cards_cli
from companion.cards.validate import (
    EXPECTED_COUNTS,
    FILES,
    KINDS,
    TABLES,
    Problem,
    count_summary,
    set_kinds,
    validate,
)

CARD_DB = default_root()
COUNTS = {
    "base": {
        "spaces": 22,
        "hagal": 31,
        "leaders": 8,
        "conflicts": 18,
        "imperium": 67,
        "starter": 10,
        "reserve": 24,
        "intrigue": 40,
    },
    "ix": {
        "spaces": 4,
        "hagal": 9,
        "leaders": 6,
        "conflicts": 4,
        "imperium": 35,
        "control_the_spice": 1,
        "intrigue": 17,
        "tech": 18,
        "track": 1,
    },
}
Record = dict[str, Any]
Raw = dict[str, list[Any]]
Change = Callable[[Record], None]


def real_raw(sets: tuple[str, ...] = ("base",)) -> Raw:
    """A fresh copy of these sets' records, as tomllib reads them."""
    raw: Raw = {}
    for card_set in sets:
        for kind in set_kinds(card_set):
            with (CARD_DB / card_set / FILES[kind]).open("rb") as handle:
                raw.setdefault(kind, []).extend(tomllib.load(handle)[TABLES[kind]])
    return raw


def full_raw() -> Raw:
    return real_raw(("base", "ix"))


def find(raw: Raw, kind: str, record_id: str) -> Record:
    matches: list[Record] = [r for r in raw[kind] if r.get("id") == record_id]
    assert len(matches) == 1, record_id
    return matches[0]


def put(key: str, value: object) -> Change:
    return lambda record: record.__setitem__(key, value)


def drop(key: str) -> Change:
    return lambda record: record.__delitem__(key)


def messages(problems: list[Problem], record_id: str | None = None) -> list[str]:
    return [p.message for p in problems if record_id is None or p.record == record_id]


def assert_reported(problems: list[Problem], record_id: str | None, expected: str) -> None:
    found = messages(problems, record_id)
    assert any(expected in m for m in found), f"{expected!r} not in {found}"


def test_the_unchanged_base_data_has_no_problems() -> None:
    assert validate(real_raw()) == []


def test_the_unchanged_base_and_ix_data_have_no_problems() -> None:
    assert validate(full_raw()) == []


def test_problem_prints_file_record_and_message() -> None:
    assert str(Problem("base/spaces.toml", "wealth", "bad")) == "base/spaces.toml: wealth: bad"
    assert str(Problem("catalog.toml", None, "bad")) == "catalog.toml: bad"


# Each case breaks one thing in one record and names the message that must appear.
RECORD_CASES: list[tuple[str, str, str, Change, str]] = [
    # (case, kind, record id, change, expected message fragment)
    ("unknown key", "spaces", "wealth", put("colour", "red"), "unknown key 'colour'"),
    ("missing key", "spaces", "wealth", drop("effects"), "missing required key 'effects'"),
    ("string of wrong type", "spaces", "wealth", put("name", 3), "'name' must be a string"),
    ("bool of wrong type", "spaces", "wealth", put("combat", "yes"), "'combat' must be true or"),
    ("bool given as integer", "spaces", "wealth", put("base_spice", True), "must be an integer"),
    ("empty text", "spaces", "wealth", put("explanation", "  "), "must not be empty"),
    ("bad agent icon", "spaces", "wealth", put("icon", "desert"), "'icon' is 'desert'"),
    ("bad faction", "spaces", "wealth", put("faction", "harkonnen"), "'faction' is 'harkonnen'"),
    ("bad set", "spaces", "wealth", put("set", "immortality"), "'set' is 'immortality'"),
    (
        "bad set in removed_with",
        "spaces",
        "sell_melange",
        put("removed_with", ["uprising"]),
        "'removed_with[0]' is 'uprising'",
    ),
    ("cost not a table", "spaces", "conspire", put("cost", 4), "'cost' must be a table"),
    (
        "unknown resource",
        "spaces",
        "conspire",
        put("cost", {"persuasion": 1}),
        "'cost' has unknown key 'persuasion'",
    ),
    (
        "resource not an integer",
        "spaces",
        "conspire",
        put("cost", {"spice": "4"}),
        "'cost.spice' must be an integer",
    ),
    (
        "negative resource",
        "spaces",
        "conspire",
        put("cost", {"spice": -4}),
        "'cost.spice' must not be negative",
    ),
    (
        "unknown faction in requirement",
        "spaces",
        "sietch_tabr",
        put("requires_influence", {"harkonnen": 2}),
        "'requires_influence' has unknown key 'harkonnen'",
    ),
    (
        "maker space without base spice",
        "spaces",
        "hagga_basin",
        put("base_spice", 0),
        "a maker space must have 'base_spice' above 0",
    ),
    (
        "base spice on a non-maker space",
        "spaces",
        "wealth",
        put("base_spice", 2),
        "'base_spice' is 2 but the space is not a maker space",
    ),
    (
        "uncertain not a list",
        "spaces",
        "wealth",
        put("uncertain", "one doubt"),
        "'uncertain' must be a list of strings",
    ),
    ("uncertain item not text", "spaces", "wealth", put("uncertain", [1]), "'uncertain[0]'"),
    ("bad players mark", "hagal", "wealth", put("players", "3P"), "'players' is '3P'"),
    ("negative swords", "hagal", "wealth", put("swords", -1), "'swords' must not be negative"),
    ("zero copies", "hagal", "wealth", put("copies", 0), "'copies' must be at least 1"),
    (
        "unknown hagal target space",
        "hagal",
        "wealth",
        put("space", "arrakis"),
        "'space' refers to unknown space 'arrakis'",
    ),
    (
        "hagal influence not the space's faction",
        "hagal",
        "conspire",
        put("influence", "fremen"),
        "'influence' is 'fremen' but space 'conspire' has faction 'emperor'",
    ),
    (
        "hagal influence on a space without faction",
        "hagal",
        "carthag",
        put("influence", "fremen"),
        "space 'carthag' has no faction",
    ),
    (
        "card kept while its space is removed",
        "hagal",
        "rally_troops",
        drop("removed_with"),
        "space 'rally_troops' is removed with 'ix' but this card is not",
    ),
    (
        "harvest card naming a space",
        "hagal",
        "harvest_spice",
        put("space", "hagga_basin"),
        "a 'harvest' card must not name a 'space'",
    ),
    (
        "card both harvest and reshuffle",
        "hagal",
        "reshuffle",
        put("harvest", True),
        "can't be both 'harvest' and 'reshuffle'",
    ),
    (
        "ordinary card without a space",
        "hagal",
        "wealth",
        drop("space"),
        "missing 'space' (only harvest and reshuffle cards have none)",
    ),
    (
        "bad rival signet",
        "leaders",
        "leto_atreides",
        put("rival_signet", "steal"),
        "'rival_signet' is 'steal'",
    ),
    (
        "rival leader without a signet kind",
        "leaders",
        "leto_atreides",
        put("rival_signet", "none"),
        "'rival_signet' is 'none' but 'rival_allowed' is true",
    ),
    (
        "banned leader with a signet kind",
        "leaders",
        "paul_atreides",
        put("rival_signet", "gain_spice"),
        "'rival_signet' is 'gain_spice' but 'rival_allowed' is false",
    ),
    ("level out of range", "conflicts", "skirmish_a", put("level", 4), "'level' is 4"),
    ("negative level", "conflicts", "skirmish_a", put("level", -1), "must not be negative"),
    (
        "unknown controlled space",
        "conflicts",
        "siege_of_arrakeen",
        put("controlled_space", "arrakis"),
        "'controlled_space' refers to unknown space 'arrakis'",
    ),
    (
        "controlled space without control bonus",
        "conflicts",
        "raid_stockpiles",
        put("controlled_space", "hagga_basin"),
        "'controlled_space' 'hagga_basin' is a space without a control_bonus",
    ),
    (
        "reward controlling an unknown space",
        "conflicts",
        "skirmish_a",
        put("first", {"vp": 1, "control": "arrakis"}),
        "'first.control' refers to unknown space 'arrakis'",
    ),
    (
        "reward controlling another space than the card",
        "conflicts",
        "siege_of_arrakeen",
        put("first", {"vp": 1, "control": "carthag"}),
        "'first.control' gives 'carthag' but 'controlled_space' is 'arrakeen'",
    ),
    (
        "reward control on a card without controlled space",
        "conflicts",
        "skirmish_a",
        put("first", {"vp": 1, "control": "carthag"}),
        "'first.control' gives 'carthag' but 'controlled_space' is not set",
    ),
    (
        "controlled space no reward grants",
        "conflicts",
        "siege_of_arrakeen",
        put("first", {"vp": 1}),
        "'controlled_space' is 'arrakeen' but no reward grants its control",
    ),
    (
        "unknown reward key",
        "conflicts",
        "skirmish_a",
        put("first", {"vp": 1, "persuasion": 2}),
        "unknown key 'first.persuasion'",
    ),
    ("reward not a table", "conflicts", "skirmish_a", put("first", 1), "'first' must be a table"),
    ("missing reward", "conflicts", "skirmish_a", drop("third"), "missing required key 'third'"),
    (
        "negative reward",
        "conflicts",
        "skirmish_a",
        put("third", {"solari": -2}),
        "'third.solari' must not be negative",
    ),
    (
        "influence without a faction count",
        "conflicts",
        "skirmish_c",
        put("first", {"influence": 1, "spice": 1}),
        "'first.influence' and 'first.influence_factions' must both be set or both be 0",
    ),
    (
        "option containing a choice",
        "conflicts",
        "cloak_and_dagger",
        put(
            "third",
            {"choose": 1, "options": [{"choose": 1, "options": [{"spice": 1}]}, {"spice": 1}]},
        ),
        "option 'third.options[0]' must not contain 'choose'",
    ),
    (
        "choose more than the options",
        "conflicts",
        "cloak_and_dagger",
        put("third", {"choose": 3, "options": [{"intrigue": 1}, {"spice": 1}]}),
        "'third.choose' is 3, must be between 1 and 2",
    ),
    (
        "choose zero",
        "conflicts",
        "cloak_and_dagger",
        put("third", {"choose": 0, "options": [{"intrigue": 1}, {"spice": 1}]}),
        "'third.choose' is 0, must be between 1 and 2",
    ),
    (
        "choose without options",
        "conflicts",
        "skirmish_a",
        put("third", {"solari": 2, "choose": 1}),
        "'third.choose' is set but 'third.options' is missing",
    ),
    (
        "options without choose",
        "conflicts",
        "skirmish_a",
        put("third", {"options": [{"solari": 2}, {"spice": 1}]}),
        "'third.options' is set but 'third.choose' is missing",
    ),
    (
        "empty option",
        "conflicts",
        "cloak_and_dagger",
        put("third", {"choose": 1, "options": [{}, {"spice": 1}]}),
        "option 'third.options[0]' must not be empty",
    ),
    (
        "option not a table",
        "conflicts",
        "cloak_and_dagger",
        put("third", {"choose": 1, "options": [1, {"spice": 1}]}),
        "'third.options[0]' must be a table",
    ),
    (
        "options not a list",
        "conflicts",
        "cloak_and_dagger",
        put("third", {"choose": 1, "options": {"spice": 1}}),
        "'third.options' must be a list of tables",
    ),
    (
        "option controlling an unknown space",
        "conflicts",
        "battle_for_arrakeen",
        put(
            "second",
            {"choose": 1, "options": [{"spice": 2}, {"control": "arrakis"}]},
        ),
        "'second.options[1].control' refers to unknown space 'arrakis'",
    ),
    # --- Rise of Ix spaces, House Hagal cards, conflicts and leaders
    (
        "choose one between fewer than two icons",
        "spaces",
        "tech_negotiation",
        put("negotiator", 0),
        "'ix_choose_one' needs at least two Rise of Ix icons",
    ),
    (
        "rise of ix icon on a base space",
        "spaces",
        "wealth",
        put("freighter", 1),
        "'freighter' is a Rise of Ix field; a 'base' record can't use it",
    ),
    (
        "space tech discount without acquire tech",
        "spaces",
        "tech_negotiation",
        put("acquire_tech", False),
        "'tech_discount' is set but 'acquire_tech' is not",
    ),
    (
        "unknown guild-2 space",
        "hagal",
        "smuggling_or_interstellar_shipping",
        put("space_if_guild_2", "ix"),
        "'space_if_guild_2' refers to unknown space 'ix'",
    ),
    (
        "guild-2 influence not the faction of its space",
        "hagal",
        "foldspace_or_interstellar_shipping",
        put("influence_if_guild_2", "spacing_guild"),
        "'influence_if_guild_2' is 'spacing_guild' but space 'interstellar_shipping' has no",
    ),
    (
        "bad guild-2 influence",
        "hagal",
        "foldspace_or_interstellar_shipping",
        put("influence_if_guild_2", "harkonnen"),
        "'influence_if_guild_2' is 'harkonnen', expected one of",
    ),
    (
        "guild-2 freighter without a guild-2 space",
        "hagal",
        "interstellar_shipping",
        put("freighter_if_guild_2", 1),
        "'freighter_if_guild_2' is set but 'space_if_guild_2' is not",
    ),
    (
        "guild-2 space equal to the space",
        "hagal",
        "smuggling_or_interstellar_shipping",
        put("space_if_guild_2", "smuggling"),
        "'space_if_guild_2' is 'smuggling', the same as 'space'",
    ),
    (
        "guild-2 space without a space",
        "hagal",
        "smuggling_or_interstellar_shipping",
        drop("space"),
        "'space_if_guild_2' needs a 'space' for 0-1 Spacing Guild Influence",
    ),
    (
        "hagal tech discount without acquire tech",
        "hagal",
        "tech_negotiation",
        put("acquire_tech", False),
        "'tech_discount' is set but 'acquire_tech' is not",
    ),
    (
        "hagal negotiator without acquire tech",
        "hagal",
        "tech_negotiation",
        drop("acquire_tech"),
        "'negotiator' is the fallback of 'acquire_tech', which is not set",
    ),
    (
        "rise of ix icon on a base hagal card",
        "hagal",
        "wealth",
        put("dreadnought", 1),
        "'dreadnought' is a Rise of Ix field; a 'base' record can't use it",
    ),
    (
        "freighter reward on a base conflict",
        "conflicts",
        "skirmish_a",
        put("first", {"vp": 1, "freighter": 1}),
        "'first.freighter' is a Rise of Ix reward; a 'base' card can't use it",
    ),
    (
        "offers inside an option",
        "conflicts",
        "trade_monopoly",
        put("third", {"choose": 1, "options": [{"intrigue": 1}, {"offers": []}]}),
        "option 'third.options[1]' must not contain 'offers'",
    ),
    (
        "offer without a cost",
        "conflicts",
        "economic_supremacy",
        put("first", {"vp": 1, "offers": [{"cost": {}, "vp": 1}]}),
        "'first.offers[0].cost' must not be empty",
    ),
    (
        "offer without victory points",
        "conflicts",
        "economic_supremacy",
        put("first", {"vp": 1, "offers": [{"cost": {"spice": 4}}]}),
        "missing required key 'first.offers[0].vp'",
    ),
    (
        "offers not a list",
        "conflicts",
        "economic_supremacy",
        put("first", {"offers": {"cost": {"spice": 4}, "vp": 1}}),
        "'first.offers' must be a list of tables",
    ),
    (
        "offer not a table",
        "conflicts",
        "economic_supremacy",
        put("first", {"offers": [4]}),
        "'first.offers[0]' must be a table",
    ),
    (
        "ix rival signet on a leader who can't be a rival",
        "leaders",
        "armand_ecaz",
        put("rival_signet", "rhombur_tech"),
        "'rival_signet' is 'rhombur_tech' but 'rival_allowed' is false",
    ),
    # --- deck cards: Imperium, starter, Reserve, Control the Spice
    ("unknown card key", "imperium", "stilgar", put("colour", "blue"), "unknown key 'colour'"),
    (
        "missing card explanation",
        "imperium",
        "stilgar",
        drop("explanation"),
        "missing required key 'explanation'",
    ),
    (
        "bad card faction",
        "imperium",
        "stilgar",
        put("factions", ["harkonnen"]),
        "'factions[0]' is 'harkonnen'",
    ),
    ("bad card icon", "imperium", "stilgar", put("icons", ["desert"]), "'icons[0]' is 'desert'"),
    (
        "icon listed twice",
        "imperium",
        "stilgar",
        put("icons", ["city", "city"]),
        "'icons' lists 'city' twice",
    ),
    ("icons not a list", "imperium", "stilgar", put("icons", "city"), "'icons' must be a list"),
    ("imperium card without cost", "imperium", "stilgar", drop("cost"), "missing 'cost'"),
    ("negative card cost", "imperium", "stilgar", put("cost", -5), "'cost' must not be negative"),
    ("card with no copies", "imperium", "stilgar", put("copies", 0), "'copies' must be at least 1"),
    (
        "agent box without icons",
        "imperium",
        "sardaukar_infantry",
        put("agent", "Draw 1 card."),
        "'agent' is set but the card has no Agent icons",
    ),
    (
        "infiltration without icons",
        "imperium",
        "water_peddler",
        put("infiltration", True),
        "'infiltration' is set but the card has no Agent icons",
    ),
    (
        "rise of ix field on a base card",
        "imperium",
        "stilgar",
        put("unload", True),
        "'unload' is a Rise of Ix field; a 'base' record can't use it",
    ),
    (
        "bad acquire influence",
        "imperium",
        "liet_kynes",
        put("acquire_influence", {"harkonnen": 1}),
        "'acquire_influence' has unknown key 'harkonnen'",
    ),
    (
        "starting card with a cost",
        "starter",
        "dagger",
        put("cost", 0),
        "'cost' is set but starter cards are never bought",
    ),
    (
        "reserve card replacing a starting card",
        "reserve",
        "foldspace",
        put("replaces", "dagger"),
        "only Control the Spice replaces a starting card",
    ),
    (
        "unknown replaced starting card",
        "control_the_spice",
        "control_the_spice",
        put("replaces", "dune"),
        "'replaces' refers to unknown starter card 'dune'",
    ),
    (
        "control the spice replacing nothing",
        "control_the_spice",
        "control_the_spice",
        drop("replaces"),
        "missing 'replaces'",
    ),
    # --- Intrigue cards
    ("bad intrigue type", "intrigue", "ambush", put("types", ["trap"]), "'types[0]' is 'trap'"),
    (
        "intrigue without a type",
        "intrigue",
        "ambush",
        put("types", []),
        "'types' must name at least one of: plot, combat, endgame",
    ),
    (
        "listed type without its effect",
        "intrigue",
        "ambush",
        put("types", ["combat", "endgame"]),
        "'types' lists 'endgame' but the card has no 'endgame' effect",
    ),
    (
        "effect of an unlisted type",
        "intrigue",
        "ambush",
        put("plot", "Gain 1 spice."),
        "'plot' effect is set but 'types' doesn't list 'plot'",
    ),
    # --- Tech tiles
    ("bad tech timing", "tech", "flagship", put("timing", ["midnight"]), "'timing[0]' is"),
    ("no tech timing", "tech", "flagship", put("timing", []), "'timing' must name at least one"),
    (
        "rival rule on an unmarked tile",
        "tech",
        "flagship",
        put("hagal_ok", False),
        "'rival_rule' is set but a Rival can't acquire this tile ('hagal_ok')",
    ),
    ("rival mark not a bool", "tech", "flagship", put("hagal_ok", "yes"), "'hagal_ok' must be"),
    ("missing tech cost", "tech", "flagship", drop("cost"), "missing required key 'cost'"),
    (
        "acquire reward without its text",
        "tech",
        "flagship",
        drop("acquire"),
        "'acquire_reward' is set but 'acquire' (the text) is not",
    ),
    (
        "unknown acquire reward key",
        "tech",
        "flagship",
        put("acquire_reward", {"cards": 2}),
        "unknown key 'acquire_reward.cards'",
    ),
    # --- the Shipping Track
    (
        "steps not a list",
        "track",
        "shipping_track",
        put("steps", {"step": 1}),
        "'steps' must be a list of tables",
    ),
    ("no steps", "track", "shipping_track", put("steps", []), "'steps' must list at least one"),
    (
        "steps out of order",
        "track",
        "shipping_track",
        put("steps", [{"step": 2, "effects": "Two troops."}]),
        "'steps[0].step' is 2, expected 1 (steps go bottom up)",
    ),
    (
        "step discount without acquire tech",
        "track",
        "shipping_track",
        put("steps", [{"step": 1, "effects": "Tech.", "tech_discount": 2}]),
        "'steps[0].tech_discount' is set but 'acquire_tech' is not",
    ),
    (
        "unknown step key",
        "track",
        "shipping_track",
        put("steps", [{"step": 1, "effects": "Cards.", "cards": 1}]),
        "unknown key 'steps[0].cards'",
    ),
    (
        "step without effects",
        "track",
        "shipping_track",
        put("steps", [{"step": 1}]),
        "missing required key 'steps[0].effects'",
    ),
]


@pytest.mark.parametrize(
    ("kind", "record_id", "change", "expected"),
    [case[1:] for case in RECORD_CASES],
    ids=[case[0] for case in RECORD_CASES],
)
def test_validator_reports_a_broken_record(
    kind: str, record_id: str, change: Change, expected: str
) -> None:
    raw = full_raw()
    change(find(raw, kind, record_id))
    assert_reported(validate(raw), record_id, expected)


def test_every_kind_has_at_least_one_broken_record_case() -> None:
    assert {case[1] for case in RECORD_CASES} == set(KINDS)


def test_problems_name_the_file_each_record_came_from() -> None:
    raw = real_raw()
    find(raw, "hagal", "wealth")["swords"] = -1
    origins = {kind: [f"base/{FILES[kind]}"] * len(raw[kind]) for kind in raw}
    problems = validate(raw, origins=origins)
    assert [str(p) for p in problems] == [
        "base/hagal.toml: wealth: 'swords' must not be negative (got -1)"
    ]


def test_duplicate_ids_within_a_kind_are_reported() -> None:
    raw = real_raw()
    raw["leaders"].append(dict(find(raw, "leaders", "paul_atreides")))
    assert_reported(validate(raw), "paul_atreides", "duplicate id 'paul_atreides'")


def test_the_same_id_in_two_kinds_is_not_a_duplicate() -> None:
    raw = real_raw()
    assert find(raw, "spaces", "conspire") and find(raw, "hagal", "conspire")
    assert not any("duplicate" in m for m in messages(validate(raw)))


def test_duplicate_ids_across_card_kinds_are_reported() -> None:
    """Cards, Intrigue, Tech tiles, leaders and conflicts share one id namespace (`/c/<id>`)."""
    raw = full_raw()
    find(raw, "intrigue", "ambush")["id"] = "stilgar"
    find(raw, "tech", "flagship")["id"] = "paul_atreides"
    find(raw, "reserve", "arrakis_liaison")["id"] = "skirmish_a"
    problems = validate(raw)
    assert_reported(problems, "stilgar", "duplicate id 'stilgar' (first defined in imperium.toml)")
    assert_reported(problems, "paul_atreides", "duplicate id 'paul_atreides' (first defined in")
    assert_reported(problems, "skirmish_a", "duplicate id 'skirmish_a' (first defined in")


def test_duplicate_ids_across_sets_are_reported() -> None:
    raw = full_raw()
    find(raw, "imperium", "jamis")["id"] = "stilgar"
    origins = {kind: [f"{r['set']}/{FILES[kind]}" for r in raw[kind]] for kind in raw}
    found = [str(p) for p in validate(raw, origins=origins)]
    assert "ix/imperium.toml: stilgar: duplicate id 'stilgar' (first defined in " in "".join(found)
    assert any(m.endswith("(first defined in base/imperium.toml)") for m in found)


def test_the_track_shares_the_board_namespace_with_spaces() -> None:
    raw = full_raw()
    find(raw, "track", "shipping_track")["id"] = "smuggling"
    assert_reported(validate(raw), "smuggling", "duplicate id 'smuggling'")


def test_the_reserve_card_and_the_space_may_both_be_called_foldspace() -> None:
    raw = full_raw()
    assert find(raw, "reserve", "foldspace") and find(raw, "spaces", "foldspace")
    assert find(raw, "hagal", "foldspace")
    assert validate(raw) == []


def test_a_record_that_is_not_a_table_is_reported() -> None:
    raw = real_raw()
    raw["spaces"].append("oops")
    assert_reported(validate(raw), None, "record #23 must be a table, not str")


def test_an_unknown_kind_is_reported() -> None:
    raw = real_raw()
    raw["promos"] = []
    assert_reported(validate(raw), None, "unknown kind 'promos'")


def test_missing_space_is_reported_as_a_wrong_count() -> None:
    raw = real_raw()
    raw["spaces"] = [r for r in raw["spaces"] if r["id"] != "secure_contract"]
    problems = validate(raw)
    assert [str(p) for p in problems] == ["base/spaces.toml: set 'base' has 21 spaces, expected 22"]


def test_wrong_hagal_copies_and_mode_marks_are_counted() -> None:
    raw = real_raw()
    find(raw, "hagal", "arrakeen_2p")["copies"] = 2
    find(raw, "hagal", "arrakeen_1p")["players"] = "both"
    found = messages(validate(raw))
    assert "set 'base' has 30 House Hagal cards, expected 31" in found
    assert "set 'base' has 3 2P House Hagal cards, expected 4" in found
    assert "set 'base' has 0 1P House Hagal cards, expected 3" in found


def test_missing_leader_is_reported_as_a_wrong_count() -> None:
    raw = real_raw()
    raw["leaders"].pop()
    assert "set 'base' has 7 leaders, expected 8" in messages(validate(raw))


def test_wrong_conflict_levels_are_counted() -> None:
    raw = real_raw()
    find(raw, "conflicts", "skirmish_a")["level"] = 2
    raw["conflicts"] = [r for r in raw["conflicts"] if r["id"] != "grand_vision"]
    found = messages(validate(raw))
    assert "set 'base' has 17 conflicts, expected 18" in found
    assert "set 'base' has 3 level 1 conflicts, expected 4" in found
    assert "set 'base' has 11 level 2 conflicts, expected 10" in found
    assert "set 'base' has 3 level 3 conflicts, expected 4" in found


def test_wrong_copies_of_deck_cards_are_counted() -> None:
    raw = full_raw()
    find(raw, "imperium", "bene_gesserit_sister")["copies"] = 2
    find(raw, "reserve", "foldspace")["copies"] = 5
    find(raw, "starter", "dagger")["copies"] = 3
    find(raw, "intrigue", "master_tactician")["copies"] = 4
    find(raw, "control_the_spice", "control_the_spice")["copies"] = 4
    found = [str(p) for p in validate(raw)]
    assert found == [
        "base/imperium.toml: set 'base' has 66 Imperium cards, expected 67",
        "base/starter.toml: set 'base' has 11 starting-deck cards per player, expected 10",
        "base/reserve.toml: set 'base' has 23 Reserve cards, expected 24",
        "base/intrigue.toml: set 'base' has 41 Intrigue cards, expected 40",
        "ix/control_the_spice.toml: set 'ix' has 4 Control the Spice cards per player, expected 1",
    ]


def test_missing_tech_tiles_rival_marks_and_rivals_are_counted() -> None:
    raw = full_raw()
    raw["tech"] = [r for r in raw["tech"] if r["id"] != "artillery"]
    find(raw, "tech", "windtraps")["hagal_ok"] = False
    find(raw, "leaders", "hundro_moritani").update(rival_allowed=False, rival_signet="none")
    found = messages(validate(raw))
    assert "set 'ix' has 17 Tech tiles, expected 18" in found
    assert "set 'ix' has 11 Tech tiles with the Rival mark, expected 12" in found
    assert "set 'ix' has 1 leader a Rival may play, expected 2" in found


def test_a_kind_a_set_does_not_have_is_reported() -> None:
    raw = full_raw()
    tile = dict(find(raw, "tech", "flagship"), id="base_flagship", set="base")
    raw["tech"].append(tile)
    found = [str(p) for p in validate(raw)]
    assert found == ["base/tech.toml: set 'base' has 1 Tech tile, expected none"]


def test_count_summary_lists_the_kinds_of_one_set() -> None:
    assert count_summary(full_raw(), "ix") == COUNTS["ix"]
    assert count_summary(full_raw(), "base") == COUNTS["base"]


def test_counts_are_checked_for_a_requested_set_without_records() -> None:
    problems = validate(real_raw(), sets=["base", "ix"])
    assert {p.file for p in problems} == {f"ix/{FILES[k]}" for k in set_kinds("ix")}
    assert "set 'ix' has 0 spaces, expected 4" in messages(problems)
    assert "set 'ix' has 0 Tech tiles, expected 18" in messages(problems)


def test_expected_counts_cover_every_known_set() -> None:
    assert set(EXPECTED_COUNTS) == {"base", "ix"}
    assert EXPECTED_COUNTS["base"]["hagal"] == 31
    assert set(set_kinds("base")) | set(set_kinds("ix")) == set(KINDS)


def test_several_problems_are_all_reported_in_one_run() -> None:
    raw = full_raw()
    find(raw, "spaces", "wealth")["icon"] = "desert"
    find(raw, "hagal", "wealth")["space"] = "arrakis"
    find(raw, "leaders", "paul_atreides")["rival_allowed"] = "no"
    find(raw, "conflicts", "cloak_and_dagger")["third"]["choose"] = 5
    raw["leaders"] = [r for r in raw["leaders"] if r["id"] != "helena_richese"]
    find(raw, "imperium", "stilgar")["icons"] = ["fremen", "sietch"]
    find(raw, "intrigue", "ambush")["types"] = ["plot"]
    find(raw, "tech", "flagship")["cost"] = -8
    find(raw, "hagal", "smuggling_or_interstellar_shipping")["space_if_guild_2"] = "ix"
    find(raw, "track", "shipping_track")["steps"].pop(0)
    found = [str(p) for p in validate(raw)]
    expected = [
        "spaces.toml: wealth: 'icon' is 'desert'",
        "hagal.toml: wealth: 'space' refers to unknown space 'arrakis'",
        "leaders.toml: paul_atreides: 'rival_allowed' must be true or false",
        "conflicts.toml: cloak_and_dagger: 'third.choose' is 5",
        "set 'base' has 7 leaders, expected 8",
        "imperium.toml: stilgar: 'icons[1]' is 'sietch'",
        "intrigue.toml: ambush: 'types' lists 'plot' but the card has no 'plot' effect",
        "intrigue.toml: ambush: 'combat' effect is set but 'types' doesn't list 'combat'",
        "tech.toml: flagship: 'cost' must not be negative (got -8)",
        "smuggling_or_interstellar_shipping: 'space_if_guild_2' refers to unknown space 'ix'",
        "track.toml: shipping_track: 'steps[0].step' is 2, expected 1",
        "track.toml: shipping_track: 'steps[1].step' is 3, expected 2",
    ]
    for fragment in expected:
        assert any(fragment in m for m in found), (fragment, found)
    assert len(found) == len(expected), found


# --- the loader: files, folders and catalog.toml ---------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A writable copy of the real card_db."""
    root = tmp_path / "card_db"
    shutil.copytree(CARD_DB, root)
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_copy_of_the_real_card_db_loads(db: Path) -> None:
    catalog = load_catalog(db)
    assert catalog.version == "2026.11.3"
    assert len(catalog.spaces) == 22
    assert len(load_catalog(db, ("base", "ix")).spaces) == 26


def test_load_catalog_raises_with_every_problem(db: Path) -> None:
    edit(db / "base" / "spaces.toml", 'icon = "emperor"', 'icon = "throne"')
    edit(db / "base" / "leaders.toml", 'rival_signet = "gain_water"', 'rival_signet = "rain"')
    with pytest.raises(CardDbError) as caught:
        load_catalog(db)
    found = [str(p) for p in caught.value.problems]
    assert any(m.startswith("base/spaces.toml: conspire: 'icon' is 'throne'") for m in found)
    assert any(m.startswith("base/leaders.toml: ariana_thorvald: 'rival_signet'") for m in found)
    assert "2 problem(s) in card_db" in str(caught.value)


def test_invalid_toml_is_reported_and_other_files_still_checked(db: Path) -> None:
    edit(db / "base" / "hagal.toml", "copies = 2", "copies = = 2")
    edit(db / "base" / "leaders.toml", 'rival_signet = "gain_water"', 'rival_signet = "rain"')
    found = [str(p) for p in collect_problems(db)]
    assert any(m.startswith("base/hagal.toml: invalid TOML") for m in found)
    assert any("'rival_signet' is 'rain'" in m for m in found)


def test_a_missing_file_is_reported(db: Path) -> None:
    (db / "base" / "leaders.toml").unlink()
    found = [str(p) for p in collect_problems(db)]
    assert "base/leaders.toml: file not found" in found
    assert "base/leaders.toml: set 'base' has 0 leaders, expected 8" in found


def test_an_unexpected_file_in_a_set_folder_is_reported(db: Path) -> None:
    (db / "base" / "tech.toml").write_text("", encoding="utf-8")
    assert any(str(p).startswith("base/tech.toml: unexpected file") for p in collect_problems(db))


def test_an_unknown_top_level_table_is_reported(db: Path) -> None:
    edit(db / "base" / "leaders.toml", "[[leader]]", "[[leaders]]")
    found = [str(p) for p in collect_problems(db)]
    assert any("unknown top-level key 'leaders'" in m for m in found)


def test_records_that_are_not_an_array_of_tables_are_reported(db: Path) -> None:
    path = db / "base" / "leaders.toml"
    path.write_text('leader = "paul"\n', encoding="utf-8")
    found = [str(p) for p in collect_problems(db)]
    assert "base/leaders.toml: 'leader' must be an array of tables ([[leader]])" in found


def test_a_record_in_the_wrong_set_folder_is_reported(db: Path) -> None:
    edit(db / "base" / "conflicts.toml", 'set = "base"', 'set = "ix"')
    found = [str(p) for p in collect_problems(db)]
    expected = "skirmish_a: 'set' is 'ix' but the file is in the 'base' folder"
    assert f"base/conflicts.toml: {expected}" in found


def test_an_unknown_or_missing_set_is_reported(db: Path) -> None:
    shutil.rmtree(db / "ix")
    found = [str(p) for p in collect_problems(db, ("base", "uprising", "ix"))]
    assert "uprising/: unknown set 'uprising', expected one of: base, ix" in found
    assert "ix/: set folder not found" in found


def test_ix_files_are_checked_like_base_files(db: Path) -> None:
    (db / "ix" / "tech.toml").unlink()
    (db / "ix" / "starter.toml").write_text("", encoding="utf-8")
    edit(db / "ix" / "hagal.toml", 'space = "smuggling"', 'space = "smugglers_den"')
    found = [str(p) for p in collect_problems(db, ("base", "ix"))]
    assert "ix/tech.toml: file not found" in found
    assert any(
        m.startswith("ix/starter.toml: unexpected file (set 'ix' holds only:") for m in found
    )
    assert any(
        m.startswith("ix/hagal.toml: smuggling_or_interstellar_shipping: 'space' refers to")
        for m in found
    )
    assert "ix/tech.toml: set 'ix' has 0 Tech tiles, expected 18" in found


def test_load_catalog_builds_the_new_kinds(db: Path) -> None:
    catalog = load_catalog(db, ("base", "ix"))
    assert catalog.cards["stilgar"].kind == "imperium"
    assert catalog.cards["control_the_spice"].kind == "control_the_spice"
    assert catalog.intrigue["tiebreaker"].types == ("combat", "endgame")
    assert catalog.tech["flagship"].acquire_reward.vp == 1
    assert [s.step for s in catalog.tracks["shipping_track"].steps] == [1, 2, 3]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "catalog.toml: missing required key 'version'"),
        ("version = 3\n", "catalog.toml: 'version' must be a non-empty string"),
        ('version = "x"\nsets = ["base"]\n', "catalog.toml: unknown key 'sets'"),
    ],
    ids=["missing version", "version not a string", "unknown key"],
)
def test_catalog_file_problems_are_reported(db: Path, text: str, expected: str) -> None:
    (db / "catalog.toml").write_text(text, encoding="utf-8")
    assert expected in [str(p) for p in collect_problems(db)]


def test_a_missing_card_db_folder_is_reported(tmp_path: Path) -> None:
    found = [str(p) for p in collect_problems(tmp_path / "nowhere")]
    assert "catalog.toml: file not found" in found
    assert "base/: set folder not found" in found


# --- the command line ----------------------------------------------------------------


def test_cli_json_prints_the_counts_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--json"]) == 0
    assert json.loads(capsys.readouterr().out) == COUNTS


def test_cli_text_prints_version_and_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "card_db 2026.11.3: no problems" in out
    assert (
        "base: 22 spaces, 31 House Hagal cards, 8 leaders, 18 conflicts, 67 Imperium cards, "
        "10 starting-deck cards per player, 24 Reserve cards, 40 Intrigue cards"
    ) in out
    assert "1 Control the Spice card per player, 17 Intrigue cards, 18 Tech tiles, 1 track" in out


def test_cli_prints_every_problem_and_exits_one(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(db / "base" / "spaces.toml", 'icon = "emperor"', 'icon = "throne"')
    (db / "base" / "hagal.toml").unlink()
    assert main(["--root", str(db)]) == 1
    captured = capsys.readouterr()
    assert "base/hagal.toml: file not found" in captured.out
    assert "base/spaces.toml: conspire: 'icon' is 'throne'" in captured.out
    assert "problem(s)" in captured.err


def test_cli_json_lists_problems(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (db / "base" / "hagal.toml").unlink()
    assert main(["--json", "--root", str(db)]) == 1
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert "base/hagal.toml: file not found" in problems


def test_python_dash_m_companion_cards_json_runs_as_a_program(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m companion.cards --json`, run as `-m` runs it (the module as `__main__`),
    in this process: a subprocess cost seconds of start-up for the same code path."""
    monkeypatch.setattr(sys, "argv", ["companion.cards", "--json"])
    monkeypatch.delitem(sys.modules, "companion.cards.__main__")  # as in a fresh process
    with pytest.raises(SystemExit) as exited:
        runpy.run_module("companion.cards", run_name="__main__", alter_sys=True)
    assert exited.value.code == 0
    assert json.loads(capsys.readouterr().out) == COUNTS


# --- the Flask command: flask --app wsgi cards check [--json] ------------------------


def flask_app(root: Path | None = None) -> Flask:
    app = Flask("cards_cli_test")
    if root is not None:
        app.config["CARD_DB_PATH"] = str(root)
    app.cli.add_command(cards_cli)
    return app


def test_flask_cards_check_json_prints_the_counts() -> None:
    result = flask_app().test_cli_runner().invoke(args=["cards", "check", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == COUNTS


def test_flask_cards_check_prints_the_counts_as_text() -> None:
    result = flask_app().test_cli_runner().invoke(args=["cards", "check"])
    assert result.exit_code == 0, result.output
    assert "card_db 2026.11.3: no problems" in result.stdout
    assert "ix: 4 spaces, 9 House Hagal cards, 6 leaders, 4 conflicts" in result.stdout


def test_flask_cards_check_reads_the_apps_card_db_and_exits_one(db: Path) -> None:
    edit(db / "ix" / "tech.toml", "cost = 8", "cost = -8")
    (db / "base" / "reserve.toml").unlink()
    result = flask_app(db).test_cli_runner().invoke(args=["cards", "check", "--json"])
    assert result.exit_code == 1
    problems = json.loads(result.stdout)["problems"]
    assert "ix/tech.toml: flagship: 'cost' must not be negative (got -8)" in problems
    assert "base/reserve.toml: file not found" in problems
    assert "problem(s)" in result.stderr


def test_flask_cards_check_root_option(db: Path) -> None:
    edit(db / "base" / "intrigue.toml", 'types = ["combat"]', 'types = ["ambush"]')
    result = flask_app().test_cli_runner().invoke(args=["cards", "check", "--root", str(db)])
    assert result.exit_code == 1
    assert "base/intrigue.toml: allied_armada: 'types[0]' is 'ambush'" in result.stdout


def test_flask_command_line_runs_cards_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`flask --app ... cards check --json` through Flask's own command line (app
    discovery included), on an app that registers the group, in this process."""
    (tmp_path / "cards_app.py").write_text(
        "from flask import Flask\n"
        "from companion.cards.cli import cards_cli\n"
        "app = Flask(__name__)\n"
        "app.cli.add_command(cards_cli)\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        flask_command_line, ["--app", "cards_app", "cards", "check", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == COUNTS

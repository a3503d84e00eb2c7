"""Malformed event-log data is refused with IllegalAction and a message a person can read."""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules.actions import Adjust, CornerTheMarket, IllegalAction, PlaceAgent
from companion.rules.codec import decode, decode_setup, encode, encode_setup
from tests.rules.helpers import solo, two_player


def refused(data: Any) -> str:
    with pytest.raises(IllegalAction) as info:
        decode(data)
    return str(info.value)


def refused_setup(data: Any) -> str:
    with pytest.raises(IllegalAction) as info:
        decode_setup(data)
    return str(info.value)


def adjust(**changes: Any) -> dict[str, Any]:
    return {"type": "Adjust", "house": "r1", "field": "spice", "delta": 1, **changes}


def tiebreak(**changes: Any) -> dict[str, Any]:
    data = {"type": "SetTiebreak", "house": "p1", "spice": 1, "solari": 2, "water": 0}
    return {**data, "garrison": 3, **changes}


def good_setup() -> dict[str, Any]:
    return encode_setup(solo().setup)


# -- actions ---------------------------------------------------------------------------


@pytest.mark.parametrize("data", [None, [], ["PlaceAgent", "p1"], "PlaceAgent", 7, True, b"{}"])
def test_an_action_that_is_not_an_object_is_refused(data):
    assert refused(data) == "An action must be an object."


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"type": "Teleport", "house": "p1"},
        {"type": "placeagent", "house": "p1", "space": "carthag"},
        {"type": None},
        {"type": ["PlaceAgent"], "house": "p1", "space": "carthag"},
        {"type": "IllegalAction"},
        {"house": "p1", "space": "carthag"},
    ],
    ids=["empty", "unknown", "wrong-case", "none", "list", "not-an-action", "no-type"],
)
def test_an_unknown_action_type_is_refused(data):
    assert refused(data) == "Unknown action type."


@pytest.mark.parametrize(
    ("data", "missing"),
    [
        ({"type": "PlaceAgent", "house": "p1"}, "space"),
        ({"type": "PlaceAgent", "space": "carthag"}, "house"),
        ({"type": "Reveal"}, "house"),
        ({"type": "Choose"}, "option"),
        ({"type": "Adjust", "house": "r1", "field": "spice"}, "delta"),
        ({"type": "Adjust", "house": "r1", "delta": 1}, "field"),
        ({"type": "SetTiebreak", "house": "p1", "spice": 1, "solari": 2, "water": 3}, "garrison"),
        ({"type": "CornerTheMarket", "house": "p1"}, "own"),
    ],
)
def test_a_missing_field_is_named(data, missing):
    assert refused(data) == f"Missing {missing}."


def test_fields_with_a_default_may_be_left_out():
    assert decode({"type": "Adjust", "house": "r1", "field": "spice", "delta": 2}) == Adjust(
        "r1", "spice", 2, "manual"
    )
    assert decode({"type": "CornerTheMarket", "house": "p1", "own": 3}) == CornerTheMarket(
        "p1", 3, 0
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "PlaceAgent", "house": 1, "space": "carthag"}, "house must be text."),
        ({"type": "PlaceAgent", "house": "p1", "space": None}, "space must be text."),
        ({"type": "PlaceAgent", "house": "p1", "space": ["carthag"]}, "space must be text."),
        ({"type": "Choose", "option": 3}, "option must be text."),
        (adjust(delta="1"), "delta must be a whole number."),
        (adjust(delta=1.0), "delta must be a whole number."),
        (adjust(delta=None), "delta must be a whole number."),
        (adjust(field="vp", reason=2), "reason must be text."),
        (adjust(field=None), "field must be text."),
        (
            {"type": "CornerTheMarket", "house": "p1", "own": 2, "other": "1"},
            "other must be a whole number.",
        ),
    ],
)
def test_a_field_of_the_wrong_type_is_named(data, message):
    assert refused(data) == message


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (adjust(delta=True), "delta"),
        (adjust(delta=False), "delta"),
        (tiebreak(solari=True), "solari"),
        (tiebreak(garrison=False), "garrison"),
        ({"type": "CornerTheMarket", "house": "p1", "own": True}, "own"),
    ],
)
def test_a_bool_is_not_a_whole_number(data, field):
    assert refused(data) == f"{field} must be a whole number."


def test_extra_fields_are_listed():
    data = {"type": "Reveal", "house": "p1", "space": "carthag", "actor": "player"}
    assert refused(data) == "Unexpected fields: actor, space."


def test_a_well_formed_action_comes_back_unchanged():
    action = PlaceAgent("p1", "carthag")
    assert decode(dict(encode(action))) == action


# -- setups ----------------------------------------------------------------------------


@pytest.mark.parametrize("setup", [solo(), two_player()], ids=["solo", "2p"])
def test_a_stored_setup_comes_back_unchanged(setup):
    assert decode_setup(encode_setup(setup.setup)) == setup.setup


@pytest.mark.parametrize("data", [None, [], "solo", 3])
def test_a_setup_that_is_not_an_object_is_refused(data):
    assert refused_setup(data).startswith("Malformed game setup")


@pytest.mark.parametrize("key", ["mode", "seed", "humans", "rivals"])
def test_a_setup_missing_a_required_field_is_refused(key):
    data = good_setup()
    del data[key]
    assert refused_setup(data) == f"Malformed game setup ('{key}')."


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("seed", "1"),
        ("seed", 1.5),
        ("seed", None),
        ("seed", True),
        ("first_player", "0"),
        ("first_player", True),
        ("first_player", None),
    ],
)
def test_seed_and_first_player_must_be_whole_numbers(key, value):
    data = good_setup()
    data[key] = value
    assert refused_setup(data) == "Seed and first player must be whole numbers."


@pytest.mark.parametrize("difficulty", ["easy", "Mentat", 3])
def test_an_unknown_difficulty_is_refused(difficulty):
    data = good_setup()
    data["difficulty"] = difficulty
    assert refused_setup(data) == "Unknown difficulty."


@pytest.mark.parametrize(
    "options",
    [{"nightmare": True}, {"churn": 1}, {"churn": "yes"}, "churn"],
    ids=["unknown", "int", "text", "string"],
)
def test_unknown_or_malformed_options_are_refused(options):
    data = good_setup()
    data["options"] = options
    assert refused_setup(data) == "Unknown or malformed options."


def test_options_as_a_list_of_known_names_are_refused():
    data = good_setup()
    data["options"] = ["churn"]
    assert refused_setup(data).startswith("Malformed game setup")


@pytest.mark.parametrize(
    "seat",
    [
        {"name": 1, "leader": "paul_atreides", "color": "green"},
        {"name": "You", "leader": None, "color": "green"},
        {"name": "You", "leader": "paul_atreides", "color": ["green"]},
    ],
)
def test_seat_fields_must_be_text(seat):
    data = good_setup()
    data["humans"] = [seat]
    assert refused_setup(data) == "Seat names, leaders and colors must be text."


@pytest.mark.parametrize(
    "humans",
    [[{"name": "You", "color": "green"}], 5, [None], ["You"]],
    ids=["seat-without-leader", "not-a-list", "null-seat", "text-seat"],
)
def test_malformed_seats_are_refused(humans):
    data = good_setup()
    data["humans"] = humans
    assert refused_setup(data).startswith("Malformed game setup")


@pytest.mark.parametrize("mode", [5, "5p", None])
def test_an_unknown_mode_is_refused(mode):
    data = good_setup()
    data["mode"] = mode
    assert refused_setup(data) == "Unknown mode."


@pytest.mark.parametrize("sets", ["base", [1], 7, None], ids=["string", "int-item", "int", "null"])
def test_malformed_sets_are_refused(sets):
    data = good_setup()
    data["sets"] = sets
    assert refused_setup(data) == "Malformed game setup: card sets must be a list of names."

"""Corrections and end-of-game entries: Adjust, SetControl, SetTiebreak, CornerTheMarket.

Sources: issue 2 §3 ("Manual corrections for every number a human may need to fix ... as
actions in the log"; "VP ledger (each point with its source)"); base rulebook (RB) p.5
(16 troop cubes, 4 of them on the Influence tracks: 12 troops), p.12 Endgame tie-breaks,
p.19 (House Hagal has no resources and scores no VP), p.20 Corner the Market and Spending
Resources; FAQ "Corner the Market".
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.rules.actions import (
    Adjust,
    CornerTheMarket,
    IllegalAction,
    Reveal,
    SetControl,
    SetTiebreak,
)
from companion.rules.engine import apply
from companion.rules.state import GameState
from tests.rules.helpers import (
    answer,
    entries,
    house,
    idle_rivals,
    reveal,
    settle,
    solo,
    two_player,
)


def ended(s: GameState) -> GameState:
    """Play the current round as the last one (empty Conflict deck): the game ends."""
    s = replace(idle_rivals(s), conflict_deck=())
    while s.phase != "ended":
        s = settle(s) if s.prompt is not None else reveal(s)
    return s


def ended_2p() -> GameState:
    s = replace(two_player(), conflict_deck=())
    s = apply(apply(s, Reveal("p1")), Reveal("p2"))
    return settle(s)


# -- Adjust --------------------------------------------------------------------------------


RIVAL_FIELDS = [
    ("solari", 2),
    ("spice", 3),
    ("water", 1),
    ("intrigue", 1),
    ("garrison", 2),
    ("troops", -1),
    ("swords", 3),
]


@pytest.mark.parametrize(("field", "delta"), RIVAL_FIELDS)
def test_rival_resources_troops_and_swords_can_be_corrected(field, delta):
    """Issue 2 §3: corrections for "rival troops, resources"; each is a log entry."""
    s = house(solo(), "r2", solari=0, spice=0, water=1, intrigue=1, garrison=1, troops=3)
    before = getattr(s.house("r2"), field)
    s = apply(s, Adjust("r2", field, delta))
    assert getattr(s.house("r2"), field) == before + delta
    assert entries(s, "adjust", "r2") == [{"field": field, "delta": delta, "reason": "manual"}]
    assert s.ledger == solo().ledger


@pytest.mark.parametrize("faction", ["emperor", "spacing_guild", "bene_gesserit", "fremen"])
def test_rival_influence_can_be_corrected_with_its_vp(faction):
    """Issue 2 §3 (influence corrections) with FAQ Solo Play (a Rival scores the VP at 2)."""
    s = apply(solo(), Adjust("r2", f"influence:{faction}", 2))
    assert s.house("r2").inf(faction) == 2
    assert [(v.house, v.delta, v.source) for v in s.ledger] == [("r2", 1, "influence")]


@pytest.mark.parametrize("reason", ["manual", "card", "endgame"])
@pytest.mark.parametrize("hid", ["p1", "r1"])
def test_vp_correction_is_recorded_with_its_source(hid, reason):
    """Issue 2 §3: "a VP ledger (each point with its source ... manual fix)"."""
    s = apply(solo(), Adjust(hid, "vp", 2, reason))
    assert s.house(hid).vp == 2
    assert [(v.house, v.delta, v.source) for v in s.ledger] == [(hid, 2, reason)]
    s = apply(s, Adjust(hid, "vp", -1, reason))
    assert s.house(hid).vp == 1
    assert sum(v.delta for v in s.ledger if v.house == hid) == 1


def test_human_influence_can_be_corrected():
    """Issue 2 §3: influence corrections (a card's Influence the engine can't see); RB p.7."""
    s = apply(solo(), Adjust("p1", "influence:bene_gesserit", 2, "card"))
    assert s.house("p1").inf("bene_gesserit") == 2
    assert s.house("p1").vp == 1
    assert entries(s, "adjust", "p1") == [
        {"field": "influence:bene_gesserit", "delta": 2, "reason": "card"}
    ]


def test_human_strength_can_be_corrected_before_combat_is_resolved():
    """Issue 2 §3: "human strength entered (and correctable)"; RB p.12 Combat Intrigue cards
    change strength before resolution."""
    s = replace(two_player(), conflict="guild_bank_raid", conflict_deck=())
    s = apply(apply(s, Reveal("p1")), Reveal("p2"))
    s = answer(s, 5)
    s = apply(s, Adjust("p1", "strength", 2))
    assert s.house("p1").strength == 7
    assert s.prompt is not None and s.prompt.house == "p2"
    s = answer(s, 6)
    combat = entries(s, "combat")[0]
    assert combat["strengths"] == {"p1": 7, "p2": 6, "hagal": 0}
    assert combat["places"] == {"p1": "first", "p2": "second"}


def test_rival_troops_can_be_corrected_while_a_question_is_open():
    """Issue 2 §3: corrections of rival troops at any time (here during the strength
    question)."""
    s = reveal(idle_rivals(solo()))
    assert s.prompt is not None and s.prompt.kind == "strength"
    s = apply(s, Adjust("r1", "troops", 1))
    assert s.prompt is not None and s.prompt.kind == "strength"


def test_rival_spends_resources_as_soon_as_a_correction_gives_them():
    """Rulebook p.20 Spending Resources: "At any time, when a Rival has the indicated
    resources, they'll spend them to earn a Victory Point"."""
    s = house(solo(), "r1", water=1, vp=0)
    s = apply(s, Adjust("r1", "water", 2))
    r1 = s.house("r1")
    assert (r1.water, r1.vp) == (0, 1)


# -- refused corrections -------------------------------------------------------------------


def _solo() -> GameState:
    return house(solo(), "r1", solari=0, garrison=1, troops=4)


BAD_ADJUSTMENTS = {
    "unknown rival field": (Adjust("r1", "persuasion", 1), "can't be corrected"),
    "unknown human field": (Adjust("p1", "persuasion", 1), "Players keep their own"),
    "rival below zero": (Adjust("r1", "solari", -1), "below 0"),
    "human vp below zero": (Adjust("p1", "vp", -1), "below 0"),
    "influence below zero": (Adjust("p1", "influence:emperor", -1), "from 0 to 6"),
    "influence above six": (Adjust("p1", "influence:emperor", 7), "from 0 to 6"),
    "garrison beyond twelve troops": (Adjust("r1", "garrison", 8), "12 troops in all"),
    "troops beyond twelve troops": (Adjust("r1", "troops", 8), "12 troops in all"),
    "troops below zero": (Adjust("r1", "troops", -5), "12 troops in all"),
    "rival strength": (Adjust("r1", "strength", 2), "troops and swords"),
    "human solari": (Adjust("p1", "solari", 1), "Players keep their own"),
    "human spice": (Adjust("p1", "spice", 1), "Players keep their own"),
    "human troops": (Adjust("p1", "troops", 1), "Players keep their own"),
    "zero delta": (Adjust("p1", "vp", 0), "by 1 to 50"),
    "huge delta": (Adjust("p1", "vp", 51), "by 1 to 50"),
    "unknown house": (Adjust("p9", "vp", 1), "Unknown house"),
    "unknown faction": (Adjust("r1", "influence:landsraad", 1), "Unknown Faction"),
    "unknown vp reason": (Adjust("p1", "vp", 1, "bribe"), "Unknown reason"),
}


@pytest.mark.parametrize("case", list(BAD_ADJUSTMENTS))
def test_bad_adjustment_is_refused_and_changes_nothing(case):
    """Issue 2 §3 corrections keep the counts legal: no negative counts, 12 troops per house
    (RB p.5), Influence 0-6 (FAQ Plans Within Plans), players keep their own resources."""
    action, message = BAD_ADJUSTMENTS[case]
    s = _solo()
    with pytest.raises(IllegalAction, match=message):
        apply(s, action)
    assert s == _solo()  # an independently built copy: nothing was changed in place


@pytest.mark.parametrize("field", ["vp", "solari", "spice", "water", "intrigue", "strength"])
def test_house_hagal_vp_and_resources_cannot_be_adjusted(field):
    """Rulebook p.19: House Hagal "doesn't collect resources ... or score Victory Points"."""
    s = two_player()
    with pytest.raises(IllegalAction, match="House Hagal"):
        apply(s, Adjust("hagal", field, 1))


@pytest.mark.parametrize("field", ["garrison", "troops", "swords", "influence:fremen"])
def test_house_hagal_troops_swords_and_influence_can_be_adjusted(field):
    """Rulebook p.19: House Hagal recruits, deploys, fights and moves on Influence tracks."""
    s = apply(two_player(), Adjust("hagal", field, 1))
    assert entries(s, "adjust", "hagal") == [{"field": field, "delta": 1, "reason": "manual"}]


def test_influence_cannot_be_corrected_while_a_question_is_open():
    """Engine rule: an Influence change can move an Alliance and ask a question itself, so it
    waits for the open question (HAGAL.md §5 Choices)."""
    s = reveal(idle_rivals(solo()))
    assert s.prompt is not None
    with pytest.raises(IllegalAction, match="First answer"):
        apply(s, Adjust("r1", "influence:emperor", 1))


# -- SetControl ----------------------------------------------------------------------------


def test_control_marker_can_be_set_moved_and_removed():
    """Rulebook p.10 Control Bonuses (one marker per space); issue 2 §3 corrections."""
    s = apply(solo(), SetControl("arrakeen", "p1"))
    assert s.control == {"arrakeen": "p1"}
    s = apply(s, SetControl("arrakeen", "r2"))
    assert s.control == {"arrakeen": "r2"}
    s = apply(s, SetControl("arrakeen", ""))
    assert s.control == {}
    assert [e.kind for e in s.log[-3:]] == ["set_control"] * 3


@pytest.mark.parametrize(
    ("space", "holder", "message"),
    [
        ("wealth", "p1", "Only Arrakeen, Carthag and Imperial Basin"),
        ("nowhere", "p1", "Only Arrakeen, Carthag and Imperial Basin"),
        ("carthag", "hagal", "House Hagal never controls"),
        ("carthag", "p9", None),
    ],
)
def test_bad_control_correction_is_refused(space, holder, message):
    """Rulebook p.10: only Arrakeen, Carthag and Imperial Basin have Control markers; p.19:
    House Hagal "can never claim control of a board space"."""
    s = two_player()
    with pytest.raises(IllegalAction, match=message):
        apply(s, SetControl(space, holder))


# -- SetTiebreak ---------------------------------------------------------------------------


def test_tiebreak_counts_are_entered_only_at_the_end():
    """Rulebook p.12 Endgame: "tiebreakers are, in order: amount of spice, Solari, water, and
    garrisoned troops"; the app asks humans at the end."""
    s = solo()
    with pytest.raises(IllegalAction, match="end of the game"):
        apply(s, SetTiebreak("p1", 1, 2, 3, 4))
    s = ended(s)
    s = apply(s, SetTiebreak("p1", 1, 2, 3, 4))
    assert s.house("p1").tiebreak == (1, 2, 3, 4)


@pytest.mark.parametrize(
    "action",
    [SetTiebreak("r1", 1, 1, 1, 1), SetTiebreak("p1", -1, 0, 0, 0), SetTiebreak("p1", 0, 0, 0, 13)],
)
def test_bad_tiebreak_is_refused(action):
    """Rulebook p.12 Endgame: humans count their own spice, Solari, water and garrison (at
    most 12 troops, RB p.5); Rivals' counts are known."""
    s = ended(solo())
    with pytest.raises(IllegalAction):
        apply(s, action)


# -- Corner the Market ---------------------------------------------------------------------


@pytest.mark.parametrize(("own", "gained"), [(1, 0), (2, 1), (3, 2), (5, 2)])
def test_corner_the_market_counts_each_rival_as_two_spice_must_flow(own, gained):
    """Rulebook p.20: "treat each Rival as though they have two The Spice Must Flow cards.
    (You'll need three yourself to get 2 Victory Points.)"; FAQ Corner the Market (as many as
    you denies the second VP)."""
    s = ended(solo())
    before = s.house("p1").vp
    s = apply(s, CornerTheMarket("p1", own))
    assert s.house("p1").vp == before + gained
    assert [(v.delta, v.source, v.note) for v in s.ledger if v.note == "corner_the_market"] == [
        (gained, "endgame", "corner_the_market")
    ]


@pytest.mark.parametrize(("own", "other", "gained"), [(3, 3, 1), (3, 2, 2), (2, 0, 2), (1, 0, 0)])
def test_corner_the_market_in_two_player_compares_with_the_other_player(own, other, gained):
    """FAQ Corner the Market: "if any one of them has more than you (or the same number as
    you), you don't meet the second requirement"; the card needs 2+ for any VP."""
    s = ended_2p()
    s = apply(s, CornerTheMarket("p1", own, other))
    assert s.house("p1").vp == gained


def test_corner_the_market_is_played_only_at_the_end_and_only_once():
    """Corner the Market is an Endgame Intrigue card (RB p.12 Endgame: play Endgame Intrigue
    cards); there is one copy."""
    s = solo()
    with pytest.raises(IllegalAction, match="Endgame card"):
        apply(s, CornerTheMarket("p1", 3))
    s = apply(ended(s), CornerTheMarket("p1", 3))
    with pytest.raises(IllegalAction, match="already played"):
        apply(s, CornerTheMarket("p1", 3))
    with pytest.raises(IllegalAction, match="Only a player"):
        apply(ended(solo()), CornerTheMarket("r1", 3))

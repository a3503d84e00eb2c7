"""The round-end step: after Phase 5 the game waits for the table's "Start round" tap.

Sources: base rulebook (RB) p.12 Phases 3-5 (rewards, Makers, Recall, First Player marker
passes clockwise), p.8 Phase 1 (a new round reveals a Conflict card); p.20 (solo Rivals).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.rules.actions import Adjust, IllegalAction, PlaceAgent
from companion.rules.codec import decode_setup, encode_setup
from companion.rules.engine import action_problem, apply, new_game
from companion.rules.state import GameState
from tests.rules.helpers import (
    answer,
    catalog,
    house,
    idle_rivals,
    place,
    reveal,
    solo,
    vacate,
)


def to_round_end(s: GameState) -> GameState:
    """Play the round's Combat with strength 0 up to the waiting round-end step."""
    s = reveal(s)
    while s.prompt is not None and s.prompt.kind != "round_end":
        s = answer(s, 0 if s.prompt.number else s.prompt.options[0])
    return s


def test_after_the_recall_the_game_waits_for_the_start_tap():
    """RB p.12 Phase 5: recall, pass the First Player marker; the next round (RB p.8 Phase 1)
    starts only when the table taps: its Conflict and Rival turns come after the chores."""
    s = idle_rivals(solo())
    s = place(vacate(s, "carthag"), "carthag")
    s = to_round_end(s)
    assert s.prompt is not None and s.prompt.kind == "round_end"
    assert s.prompt.options == ("start",) and s.prompt.decider == "p1"
    assert s.round == 1 and s.phase == "recall"
    assert s.first == "r2"  # passed clockwise from r1 [RB p.12]
    recall = next(e for e in s.log if e.kind == "recall")
    agents = recall.data["agents"]
    assert isinstance(agents, dict) and agents["p1"] == ["carthag"]
    assert not any(e.kind == "rival_agent" and e.round == 2 for e in s.log)


def test_the_start_tap_reveals_the_next_conflict_and_plays_the_rival_turns():
    """RB p.8 Phase 1: a new Conflict card; the First Player (r2) then acts first."""
    s = to_round_end(idle_rivals(solo()))
    started = answer(s, "start")
    assert started.round == 2
    kinds = [e.kind for e in started.last_entries]
    assert kinds[0] == "conflict"
    assert "rival_agent" in kinds
    assert all(e.round == 2 for e in started.last_entries)


def test_only_the_start_tap_is_taken_at_the_round_end():
    s = to_round_end(idle_rivals(solo()))
    with pytest.raises(IllegalAction):
        apply(s, PlaceAgent("p1", "carthag"))
    with pytest.raises(IllegalAction, match="not one of the choices"):
        answer(s, "later")


def test_the_last_round_ends_the_game_without_the_step():
    """RB p.12 Phase 5: the game ends at the Recall when the Conflict deck is empty."""
    s = replace(idle_rivals(solo()), conflict_deck=())
    s = to_round_end(s)
    assert s.phase == "ended" and s.prompt is None


def test_a_game_stored_before_the_step_plays_on_without_the_tap():
    """Old logs have no tap: their setup has no round_end option and replays as recorded."""
    stored = encode_setup(solo().setup)
    del stored["options"]["round_end"]
    setup = decode_setup(stored)
    assert not setup.options.round_end
    s = to_round_end(idle_rivals(new_game(setup, catalog())))
    assert s.round == 2 and (s.prompt is None or s.prompt.kind != "round_end")
    assert decode_setup(encode_setup(solo().setup)).options.round_end


def test_influence_can_be_corrected_during_the_round_end_chores():
    """The End of Round card waits between rounds with no task under way, so a cube moved
    by hand (Fix a number, a card effect) is recorded; reaching 4 takes the Alliance and
    its VP [RB p.7], and the card then waits again for the start tap."""
    s = to_round_end(idle_rivals(solo()))
    s = house(s, "p1", influence=(3, 0, 0, 0))
    assert s.prompt is not None
    fixed = apply(s, Adjust("p1", "influence:emperor", 1, "manual"))
    assert fixed.house("p1").inf("emperor") == 4
    assert fixed.alliances.get("emperor") == "p1"
    assert fixed.house("p1").vp == s.house("p1").vp + 1  # the Alliance's VP
    assert fixed.prompt is not None and fixed.prompt.kind == "round_end"
    assert fixed.prompt.decider == s.prompt.decider and fixed.round == s.round
    assert answer(fixed, "start").round == s.round + 1


def test_a_cube_dropped_at_the_round_end_asks_its_alliance_question_first():
    """FAQ Alliance: a holder that drops while tied with others loses the Alliance, and
    the tied players choose who takes it; that question comes before the start tap."""
    s = to_round_end(idle_rivals(solo()))
    s = house(s, "p1", influence=(5, 0, 0, 0))
    s = house(s, "r1", influence=(5, 0, 0, 0))
    s = house(s, "r2", influence=(5, 0, 0, 0))
    s = replace(s, alliances={"emperor": "p1"})
    dropped = apply(s, Adjust("p1", "influence:emperor", -1, "manual"))
    assert dropped.prompt is not None and dropped.prompt.kind == "alliance"
    chosen = answer(dropped, dropped.prompt.options[0])
    assert chosen.alliances["emperor"] == dropped.prompt.options[0]
    assert chosen.prompt is not None and chosen.prompt.kind == "round_end"


def test_influence_is_still_refused_while_a_question_is_under_way():
    s = idle_rivals(solo())
    s = reveal(s)
    assert s.prompt is not None and s.prompt.kind != "round_end"
    assert action_problem(s, Adjust("p1", "influence:emperor", 1, "manual")) == (
        "First answer the question on screen."
    )

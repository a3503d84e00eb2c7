"""Undo and redo (issue 2, "Event log and undo"; STYLE.md §2.4): undo removes the last human
intent together with the rival turns and phase changes it triggered; redo restores it."""

from __future__ import annotations

import random

import pytest

from companion import sim
from companion.rules.actions import Action, Adjust, Choose, IllegalAction, PlaceAgent, Reveal
from companion.rules.engine import legal_actions, replay
from companion.rules.history import History
from companion.rules.state import GameState
from tests.rules.helpers import solo, two_player


def first_space(state: GameState) -> PlaceAgent:
    return next(a for a in legal_actions(state) if isinstance(a, PlaceAgent))


def rival_agents(state: GameState) -> list[tuple[str | None, object]]:
    return [(e.house, e.data["space"]) for e in state.last_entries if e.kind == "rival_agent"]


def played(history: History, n: int, seed: int = 7) -> History:
    """`n` more actions of the scripted human."""
    rng = random.Random(seed)
    for _ in range(n):
        history = history.do(sim.choose_action(history.state, rng))
    return history


def test_undo_removes_the_agent_turn_and_the_rival_turns_it_triggered():
    start = History(solo("mercenary"))
    before = start.state
    done = start.do(first_space(before))
    triggered = rival_agents(done.state)
    assert {house for house, _ in triggered} == {"r1", "r2"}

    undone = done.undo()

    assert undone.state == before
    assert undone.state.log == before.log
    assert not [e for e in undone.state.log if e.step > before.step]
    for _, space in triggered:
        assert space not in undone.state.occupants
    assert undone.state.hagal_deck == before.hagal_deck
    assert undone.state.turn == "p1"
    assert undone.actions == ()
    assert undone.undone == (first_space(before),)


def test_undo_in_two_player_removes_house_hagals_turn_after_the_first_player():
    start = History(two_player())
    before = start.state
    done = start.do(first_space(before))
    assert [house for house, _ in rival_agents(done.state)] == ["hagal"]

    undone = done.undo()

    assert undone.state == before
    assert undone.state.house("hagal").placed == 0
    assert not any(e.kind == "rival_agent" for e in undone.state.log)


def test_undo_of_the_last_strength_removes_the_combat_and_the_next_round():
    history = History(solo("mentat", seed=3))
    rng = random.Random(3)
    while history.state.prompt is None or history.state.prompt.kind != "strength":
        history = history.do(sim.choose_action(history.state, rng))
    before = history.state
    done = history.do(Choose("9"))
    assert done.state.prompt is not None and done.state.prompt.kind == "round_end"
    assert any(e.kind == "combat" for e in done.state.last_entries)
    started = done.do(Choose("start"))
    assert started.state.round == before.round + 1
    assert started.undo().state == done.state

    undone = done.undo()

    assert undone.state == before
    assert undone.state.prompt == before.prompt
    assert undone.state.phase == "combat"
    assert undone.state.ledger == before.ledger


def test_redo_restores_the_identical_state():
    history = played(History(solo("kwisatz")), 12)
    done = history.do(legal_actions(history.state)[0])
    redone = done.undo().redo()
    assert redone.state == done.state
    assert repr(redone.state) == repr(done.state)
    assert redone.actions == done.actions
    assert redone.undone == ()


def test_a_correction_is_undone_like_any_intent():
    start = History(solo())
    done = start.do(Adjust("p1", "influence:fremen", 1, "card"))
    assert done.state.house("p1").inf("fremen") == 1
    assert done.undo().state == start.state
    assert done.undo().redo().state == done.state


def test_a_new_action_after_undo_clears_redo():
    history = History(solo())
    undone = history.do(first_space(history.state)).undo()
    assert len(undone.undone) == 1
    other = undone.do(Reveal("p1"))
    assert other.undone == ()
    with pytest.raises(IllegalAction, match="Nothing to redo"):
        other.redo()


def test_undo_and_redo_walk_back_and_forth_through_the_log():
    history = History(two_player(seed=5))
    states = [history.state]
    rng = random.Random(5)
    for _ in range(30):
        history = history.do(sim.choose_action(history.state, rng))
        states.append(history.state)
    for expected in reversed(states[:-1]):
        history = history.undo()
        assert history.state == expected
    with pytest.raises(IllegalAction, match="Nothing to undo"):
        history.undo()
    for expected in states[1:]:
        history = history.redo()
        assert history.state == expected
    with pytest.raises(IllegalAction, match="Nothing to redo"):
        history.redo()


def test_undo_with_nothing_to_undo_raises():
    with pytest.raises(IllegalAction, match=r"^Nothing to undo\.$"):
        History(solo()).undo()


def test_redo_with_nothing_to_redo_raises():
    history = History(solo())
    with pytest.raises(IllegalAction, match=r"^Nothing to redo\.$"):
        history.redo()
    with pytest.raises(IllegalAction, match=r"^Nothing to redo\.$"):
        history.do(first_space(history.state)).redo()


def test_a_refused_action_leaves_the_history_as_it_was():
    history = played(History(solo()), 3)
    state, actions = history.state, history.actions
    with pytest.raises(IllegalAction):
        history.do(PlaceAgent("p1", "the_moon"))
    assert history.state is state
    assert history.actions == actions


def test_a_history_rebuilt_from_the_stored_log_has_the_same_state():
    live = played(History(two_player(seed=9)), 25)
    stored: tuple[Action, ...] = live.actions
    assert History(live.initial, stored).state == live.state
    assert replay(live.initial, stored) == live.state

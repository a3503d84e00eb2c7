"""Undo and Redo in words: what to change on the physical board between two states.

Undo takes back the last intent and every rival turn it triggered (DESIGN §3.1); the
table must then take back those pieces by hand.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.actions import Adjust
from companion.rules.changes import board_changes
from companion.rules.engine import apply
from companion.rules.state import GameState
from companion.rules.text import sentence
from tests.rules.helpers import answer, idle_rivals, place, solo, vacate
from tests.rules.test_round_end import to_round_end


def words(before: GameState, after: GameState) -> list[tuple[str | None, str]]:
    return [(e.house, sentence(e, after)) for e in board_changes(before, after)]


def test_nothing_changed_means_nothing_to_do():
    s = solo()
    assert board_changes(s, s) == []


def test_undo_of_an_agent_turn_takes_back_its_agent_and_the_rival_turn_after_it():
    """The undone intent's rival turn goes too: its Agent and its troops [HAGAL §2]."""
    before_turn = vacate(solo(), "carthag")
    after_turn = place(before_turn, "carthag")
    undo = words(after_turn, before_turn)
    assert ("p1", "take the Agent back from Carthag") in undo
    rival_agents = [
        (h, t) for h, t in undo if h in ("r1", "r2") and t.startswith("take the Agent back")
    ]
    assert rival_agents, undo
    for h in ("r1", "r2"):
        extra = after_turn.house(h).troops - before_turn.house(h).troops
        if extra > 1:
            assert (h, f"remove {extra} troops from the Conflict") in undo


def test_redo_puts_the_same_pieces_back():
    before_turn = vacate(solo(), "carthag")
    after_turn = place(before_turn, "carthag")
    redo = words(before_turn, after_turn)
    assert ("p1", "put an Agent on Carthag") in redo
    undo = words(after_turn, before_turn)
    assert len(redo) == len(undo)


def test_markers_cubes_and_counts_are_named():
    s = solo()
    after = apply(s, Adjust("p1", "influence:emperor", 2, "card"))
    after = apply(after, Adjust("r1", "spice", 3))
    after = replace(after, control={"arrakeen": "r1"}, first="p1")
    lines = words(after, s)
    assert ("p1", "move the Emperor Influence cube from 2 to 0") in lines
    assert ("r1", "spice 3 → 0") in lines
    assert ("r1", "remove the Control marker from Arrakeen") in lines
    assert (s.first, "take the First Player marker") in lines


def test_a_revealed_conflict_goes_back_on_its_deck():
    s = solo()
    earlier = replace(s, conflict=None, round=0)
    lines = words(s, earlier)
    assert (None, "Back to Round 0.") in lines
    card = s.catalog.conflicts[s.conflict or ""].name
    assert (None, f"Put the Conflict card {card} back on top of the Conflict deck.") in lines


def test_undo_of_the_start_tap_puts_the_round_back():
    """The round-end step's tap reveals the next Conflict and plays the Rival turns
    [RB p.8 Phase 1]; undoing it takes all of that back, Swordmasters included [RB p.20]."""
    s = to_round_end(idle_rivals(solo()))  # Mentat difficulty: Swordmasters in round 3
    s = to_round_end(idle_rivals(answer(s, "start")))
    started = answer(s, "start")
    assert started.round == 3
    lines = words(started, s)
    assert (None, "Back to Round 2.") in lines
    card = s.catalog.conflicts[started.conflict or ""].name
    assert (None, f"Put the Conflict card {card} back on top of the Conflict deck.") in lines
    assert ("r1", "put the Swordmaster back") in lines
    assert ("r2", "put the Swordmaster back") in lines


def test_a_council_seat_is_a_piece_to_take_back():
    s = solo()
    seated = replace(s, houses=tuple(replace(h, council_seat=h.id == "p1") for h in s.houses))
    assert ("p1", "take the High Council seat marker back") in words(seated, s)

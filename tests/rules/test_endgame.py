"""End of the game: why it ended, what is still allowed, the final ranking and tie-breaks.

Sources: base rulebook (RB) p.12 Phase 5 and "Endgame" (tie-breakers spice, Solari, water,
garrisoned troops), p.19 (House Hagal scores no VP), p.20 Solo Play (a Rival at 10 VP
triggers the end and may win).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.rules.actions import Adjust, IllegalAction, PlaceAgent, Reveal, SetTiebreak
from companion.rules.engine import apply
from companion.rules.scoring import final_ranking
from companion.rules.state import GameState
from tests.rules.helpers import finish_round, house, idle_rivals, reveal, settle, solo, two_player


def play_out(s: GameState) -> GameState:
    while s.phase != "ended":
        s = finish_round(s)
    return s


def end_now(s: GameState) -> GameState:
    """Finish the current round as the last one (empty Conflict deck)."""
    s = replace(idle_rivals(s), conflict_deck=())
    return settle(reveal(s))


def test_game_ends_by_vp_when_a_rival_reaches_ten():
    """Rulebook p.20 Solo Play: "If either reaches 10 or more Victory Points, they will trigger
    the end of the game"; p.12 Phase 5."""
    s = play_out(solo("kwisatz"))
    assert s.end_reason == "vp"
    assert max(h.vp for h in s.rivals) >= 10
    assert s.round < 10 and s.conflict_deck != ()
    assert [e.data["reason"] for e in s.log if e.kind == "game_end"] == ["vp"]


def test_game_ends_by_the_conflict_deck_when_nobody_reaches_ten():
    """Rulebook p.12 Phase 5: "or if the Conflict Deck is empty, the Endgame is triggered"."""
    s = end_now(solo())
    assert s.phase == "ended"
    assert s.end_reason == "conflict_deck"
    assert all(h.vp < 10 for h in s.scoring)


def test_ten_vp_on_the_last_round_ends_by_vp():
    """Rulebook p.12 Phase 5: 10 VP triggers the Endgame whatever the Conflict deck holds."""
    s = apply(solo(), Adjust("p1", "vp", 10, "card"))
    s = end_now(s)
    assert s.end_reason == "vp"


def test_a_human_at_ten_vp_ends_the_game_at_phase_5():
    """Rulebook p.12 Phase 5: "If any player is at 10 or more Victory Points"."""
    s = apply(idle_rivals(solo()), Adjust("p1", "vp", 10, "card"))
    assert s.phase == "agents"
    s = settle(reveal(s))
    assert (s.phase, s.end_reason, s.round) == ("ended", "vp", 1)


def test_house_hagal_never_ends_the_game_by_vp():
    """Rulebook p.19: House Hagal does not score Victory Points, so only the players' VP end a
    two-player game early."""
    s = play_out(two_player())
    assert s.end_reason == "conflict_deck"
    assert s.house("hagal").vp == 0


def test_after_the_end_no_turn_can_be_taken():
    """Rulebook p.12 Endgame: after Phase 5 triggers the Endgame no new round begins."""
    s = end_now(solo())
    assert s.turn is None and s.prompt is None and s.queue == ()
    for action in (PlaceAgent("p1", "wealth"), Reveal("p1")):
        with pytest.raises(IllegalAction, match="Phase 2 only"):
            apply(s, action)
    assert s.round == 1


# -- final ranking -------------------------------------------------------------------------


def test_most_vp_wins_and_house_hagal_is_not_ranked():
    """Rulebook p.12 Endgame: "whoever has the most Victory Points is declared the winner";
    p.19: House Hagal doesn't score."""
    s = end_now(apply(two_player(), Adjust("p2", "vp", 3)))
    ranking = final_ranking(s)
    assert [(r.house, r.rank) for r in ranking] == [("p2", 1), ("p1", 2)]


def test_rival_ties_are_broken_by_spice_solari_water_then_garrison():
    """Rulebook p.12 Endgame: "tiebreakers are, in order: amount of spice, Solari, water, and
    garrisoned troops"."""
    s = end_now(solo())
    s = house(s, "p1", vp=0)
    s = house(s, "r1", vp=5, spice=2, solari=0, water=0, garrison=0)
    s = house(s, "r2", vp=5, spice=2, solari=1, water=0, garrison=0)
    ranking = final_ranking(s)
    assert [(r.house, r.rank) for r in ranking] == [("r2", 1), ("r1", 2), ("p1", 3)]


def test_a_tied_human_is_asked_for_tiebreak_counts():
    """Rulebook p.12 Endgame tie-breakers; the app asks humans their counts at the end."""
    s = end_now(solo())
    s = house(s, "p1", vp=4)
    s = house(s, "r1", vp=4, spice=1, solari=0, water=0, garrison=0)
    s = house(s, "r2", vp=1)
    ranking = final_ranking(s)
    assert [(r.house, r.rank, r.needs_tiebreak) for r in ranking[:2]] == [
        ("p1", 1, True),
        ("r1", 1, False),
    ]
    s = apply(s, SetTiebreak("p1", 1, 0, 0, 3))
    ranking = final_ranking(s)
    assert [(r.house, r.rank) for r in ranking] == [("p1", 1), ("r1", 2), ("r2", 3)]


def test_completely_tied_houses_share_the_rank():
    """Rulebook p.12 Endgame: when every tie-breaker is equal the houses stay tied."""
    s = end_now(solo())
    s = house(s, "p1", vp=3)
    s = house(s, "r1", vp=3, spice=1, solari=2, water=0, garrison=1)
    s = house(s, "r2", vp=0)
    s = apply(s, SetTiebreak("p1", 1, 2, 0, 1))
    ranking = final_ranking(s)
    assert [(r.house, r.rank) for r in ranking] == [("p1", 1), ("r1", 1), ("r2", 3)]

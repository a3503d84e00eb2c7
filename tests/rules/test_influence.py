"""Influence tracks: the VP at 2, the 4-Influence bonus, Alliances and how they move.

Sources: base rulebook (RB) p.7 "Factions"; FAQ "Alliance", "Solo Play", "Plans Within
Plans"; RB p.19 (House Hagal takes Alliances, scores no VP).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.rules.actions import Adjust, IllegalAction
from companion.rules.engine import apply
from companion.rules.state import GameState
from tests.rules.helpers import (
    answer,
    entries,
    house,
    idle_rivals,
    kinds,
    place,
    run,
    solo,
    two_player,
    vacate,
)


def emperor(s: GameState, **deltas: int) -> GameState:
    """Move Emperor Influence by these deltas, in order, with corrections (p1=+4, r1=+4...)."""
    for hid, delta in deltas.items():
        s = apply(s, Adjust(hid, "influence:emperor", delta))
    return s


def vp(s: GameState) -> dict[str, int]:
    return {h.id: h.vp for h in s.scoring}


def ledger_vp(s: GameState) -> dict[str, int]:
    out = dict.fromkeys((h.id for h in s.scoring), 0)
    for v in s.ledger:
        out[v.house] += v.delta
    return out


def alliance_moves(s: GameState) -> list[tuple[str, int, str]]:
    return [(v.house, v.delta, v.source) for v in s.ledger if v.source == "alliance"]


@pytest.fixture
def start() -> GameState:
    """A solo game at your first Agent turn, rivals out of Agents, nobody with Influence."""
    s = idle_rivals(solo())
    for h in s.houses:
        s = house(s, h.id, influence=(0, 0, 0, 0), vp=0)
    return replace(s, ledger=(), alliances={})


# -- VP at 2 -------------------------------------------------------------------------------


def test_reaching_two_influence_scores_a_vp(start):
    """Rulebook p.7: "When you reach 2 Influence with a Faction, you gain a Victory Point"."""
    s = emperor(start, p1=1)
    assert s.house("p1").vp == 0
    s = emperor(s, p1=1)
    assert s.house("p1").vp == 1
    assert [(v.house, v.delta, v.source, v.note) for v in s.ledger] == [
        ("p1", 1, "influence", "emperor")
    ]


def test_dropping_below_two_influence_loses_the_vp(start):
    """Rulebook p.7: "If you drop back below 2 Influence, you lose that Victory Point"."""
    s = emperor(start, p1=3)
    assert s.house("p1").vp == 1
    s = emperor(s, p1=-1)
    assert s.house("p1").vp == 1
    s = emperor(s, p1=-1)
    assert s.house("p1").vp == 0
    assert [v.delta for v in s.ledger] == [1, -1]


def test_faction_space_at_six_influence_gains_nothing_more(start):
    """FAQ Plans Within Plans: "There are six spaces on each Influence track"."""
    s = house(start, "p1", influence=(6, 0, 0, 0))
    s = place(vacate(s, "wealth"), "wealth")
    assert s.house("p1").inf("emperor") == 6
    with pytest.raises(IllegalAction, match="Influence goes from 0 to 6"):
        emperor(s, p1=1)


# -- the 4-Influence bonus -----------------------------------------------------------------


def test_human_reaching_four_is_told_to_take_the_track_bonus(start):
    """Rulebook p.7: "When you reach 4 Influence, you earn the bonus shown on that space of the
    track"."""
    s = house(start, "p1", influence=(3, 0, 0, 0))
    s = place(vacate(s, "wealth"), "wealth")
    assert entries(s, "influence_bonus", "p1") == [{"faction": "emperor"}]


def test_human_earns_the_track_bonus_again_after_dropping_back(start):
    """Rulebook p.7: "It's possible ... to earn the same bonus more than once, if you move back
    then advance again"."""
    s = emperor(start, p1=4)
    s = emperor(s, p1=-1)
    assert "influence_bonus" not in kinds(s)
    s = emperor(s, p1=1)
    assert entries(s, "influence_bonus", "p1") == [{"faction": "emperor"}]


def test_rivals_never_get_the_track_bonus(start):
    """FAQ Solo Play: Rivals "do not receive the bonus for reaching 4 Influence"; RB p.19 "It
    earns no bonuses from an Influence track"."""
    s = emperor(start, r1=4)
    assert "influence_bonus" not in kinds(s)
    s = house(two_player(), "hagal", influence=(3, 0, 0, 0))
    s = apply(s, Adjust("hagal", "influence:emperor", 1))
    assert "influence_bonus" not in kinds(s)


# -- Alliances -----------------------------------------------------------------------------


def test_first_to_four_takes_the_alliance_and_its_vp(start):
    """Rulebook p.7: "The first player to reach 4 Influence with a Faction also earns an
    Alliance ... and gain the Victory Point shown on the Alliance token"."""
    s = emperor(start, p1=3)
    assert s.alliances == {}
    s = emperor(s, p1=1)
    assert s.alliances == {"emperor": "p1"}
    assert alliance_moves(s) == [("p1", 1, "alliance")]
    assert vp(s)["p1"] == 2 == ledger_vp(s)["p1"]


def test_reaching_four_second_does_not_take_the_alliance(start):
    """Rulebook p.7: only the first to 4 earns the Alliance; an opponent must rise higher."""
    s = emperor(start, p1=4, r1=4)
    assert s.alliances == {"emperor": "p1"}
    assert vp(s) == {"p1": 2, "r1": 1, "r2": 0}


def test_passed_by_a_higher_opponent_the_alliance_moves_with_its_vp(start):
    """Rulebook p.7: "If they are ever passed by an opponent rising to a higher space on the
    track, they must give the Alliance token to that opponent; they lose that Victory Point
    and the opponent gains it"."""
    s = emperor(start, p1=4, r1=4)
    s = emperor(s, r1=1)
    assert s.alliances == {"emperor": "r1"}
    assert alliance_moves(s) == [
        ("p1", 1, "alliance"),
        ("p1", -1, "alliance"),
        ("r1", 1, "alliance"),
    ]
    assert vp(s) == {"p1": 1, "r1": 2, "r2": 0} == ledger_vp(s)
    assert entries(s, "alliance", "r1") == [{"faction": "emperor", "previous": "p1"}]


def test_holder_dropping_from_a_tie_gives_the_alliance_to_the_tied_player(start):
    """FAQ Alliance: "You were previously tied for Influence with another player; the player
    you were tied with now takes the Alliance token"."""
    s = emperor(start, p1=5, r1=5)
    assert s.alliances == {"emperor": "p1"}
    s = emperor(s, p1=-1)  # 5 -> 4: still 4, but it was tied
    assert s.alliances == {"emperor": "r1"}
    assert vp(s) == {"p1": 1, "r1": 2, "r2": 0} == ledger_vp(s)


def test_holder_dropping_below_four_gives_the_alliance_to_an_opponent_at_four(start):
    """FAQ Alliance: lose the token "If you have fallen to 3 Influence or lower"; a player
    with 4 Influence or higher takes it."""
    s = emperor(start, p1=5, r2=4)
    s = emperor(s, p1=-2)
    assert s.alliances == {"emperor": "r2"}
    assert vp(s) == {"p1": 1, "r1": 0, "r2": 2} == ledger_vp(s)


def test_holder_dropping_to_three_with_nobody_at_four_returns_the_alliance(start):
    """FAQ Alliance: "(If no player has 4 Influence or higher to take the Alliance token,
    return it to the game board.)"."""
    s = emperor(start, r1=4, p1=3)
    s = emperor(s, r1=-1)
    assert s.alliances == {}
    assert alliance_moves(s) == [("r1", 1, "alliance"), ("r1", -1, "alliance")]
    assert entries(s, "alliance") == [{"faction": "emperor", "previous": "r1"}]
    assert vp(s) == {"p1": 1, "r1": 1, "r2": 0} == ledger_vp(s)


def test_returned_alliance_goes_to_the_next_to_reach_four(start):
    """Rulebook p.7 with FAQ Alliance: a token back on the board is earned again by reaching
    4 Influence."""
    s = emperor(start, r1=4, p1=3)
    s = emperor(s, r1=-1, p1=1)
    assert s.alliances == {"emperor": "p1"}


def test_holder_dropping_but_staying_ahead_or_untied_keeps_the_alliance(start):
    """FAQ Alliance: the token is lost only in the two listed cases (previously tied, or
    fallen to 3 or lower)."""
    s = emperor(start, p1=5, r1=4)
    s = emperor(s, p1=-1)  # 5 -> 4, now tied but not tied before
    assert s.alliances == {"emperor": "p1"}
    assert vp(s) == {"p1": 2, "r1": 1, "r2": 0}
    s = emperor(start, p1=5, r1=3)
    s = emperor(s, p1=-1)  # 5 -> 4, still alone at the top
    assert s.alliances == {"emperor": "p1"}


def test_several_tied_players_are_offered_the_dropped_alliance(start):
    """FAQ Alliance: "(If you were tied with more than one other player, choose one to take
    it.)"."""
    s = emperor(start, p1=4, r1=4, r2=4)
    s = emperor(s, p1=-1)
    assert s.prompt is not None
    assert (s.prompt.kind, s.prompt.house, s.prompt.decider) == ("alliance", "p1", "p1")
    assert s.prompt.options == ("r1", "r2")
    s = answer(s, "r2")
    assert s.alliances == {"emperor": "r2"}
    assert vp(s) == {"p1": 1, "r1": 1, "r2": 2} == ledger_vp(s)


def test_you_choose_for_a_rival_holder_between_tied_players(start):
    """FAQ Alliance (the holder chooses) with rulebook p.20 Choices: for a Rival's choice not
    about Influence, "you decide for the Rival"."""
    s = emperor(start, r1=4, p1=4, r2=4)
    s = emperor(s, r1=-1)
    assert s.prompt is not None
    assert (s.prompt.kind, s.prompt.house, s.prompt.decider) == ("alliance", "r1", "p1")
    assert s.prompt.options == ("p1", "r2")
    s = answer(s, "p1")
    assert s.alliances == {"emperor": "p1"}


def test_passing_house_hagal_takes_its_alliance_and_gains_the_vp():
    """Rulebook p.7 (the Alliance passes to a higher opponent) and p.19 (House Hagal takes
    Alliances but scores no VP)."""
    s = two_player()
    s = run(
        s,
        Adjust("hagal", "influence:fremen", 4),
        Adjust("p2", "influence:fremen", 4),
    )
    assert s.alliances == {"fremen": "hagal"}
    s = apply(s, Adjust("p2", "influence:fremen", 1))
    assert s.alliances == {"fremen": "p2"}
    assert [(v.house, v.delta, v.source) for v in s.ledger] == [
        ("p2", 1, "influence"),
        ("p2", 1, "alliance"),
    ]
    assert s.house("hagal").vp == 0

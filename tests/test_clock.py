"""The turn clock's counting (companion/clock.py) on fixed logs of (time, action, state):
real engine states, times written out, no wall clock."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from companion.clock import MAX_THINK, Mark, clock, mark, thinker, turn_of
from companion.rules import codec
from companion.rules.actions import Action, Adjust, Choose, PlaceAgent, Reveal
from companion.rules.engine import apply, legal_actions, new_game
from companion.rules.state import GameState, Options, SeatSetup, Setup
from tests.rules.helpers import catalog, solo, two_player

T0 = datetime(2026, 3, 7, 20, 0, 0)


def at(minutes: int, seconds: int = 0) -> datetime:
    return T0 + timedelta(minutes=minutes, seconds=seconds)


def three_players(**options: bool) -> GameState:
    setup = Setup(
        mode="3p",
        seed=1,
        humans=(
            SeatSetup("Ann", "paul_atreides", "green"),
            SeatSetup("Ben", "ilban_richese", "blue"),
            SeatSetup("Cat", "glossu_rabban", "red"),
        ),
        rivals=(),
        first_player=0,
        options=Options(**options),
    )
    return new_game(setup, catalog())


def played(state: GameState, log: Sequence[tuple[datetime, Action]]) -> list[Mark]:
    """The marks of a log of (time, action) played from `state`."""
    marks = []
    for moment, action in log:
        state = apply(state, action)
        marks.append(mark(moment, action, state))
    return marks


def secs(value: timedelta) -> float:
    return value.total_seconds()


# A whole first round of a three-player game with physical Conflict cards: every Agent
# and Reveal turn, a card effect typed in the middle of Ben's turn, the Combat's strengths,
# the End of Round card and the next Conflict card turned over.
ROUND: list[tuple[datetime, Action]] = [
    (at(0, 0), Choose("skirmish_a")),  # the table turns over the Conflict: p1 thinks
    (at(0, 50), PlaceAgent("p1", "conspire")),  # p1 50 s
    (at(1, 30), PlaceAgent("p2", "wealth")),  # p2 40 s
    (at(1, 40), PlaceAgent("p3", "heighliner")),  # p3 10 s
    (at(3, 10), PlaceAgent("p1", "foldspace")),  # p1 90 s
    (at(3, 15), Adjust("p2", "vp", 1, "card")),  # p2 5 s, and still p2's turn
    (at(3, 45), PlaceAgent("p2", "selective_breeding")),  # p2 30 s
    (at(4, 0), PlaceAgent("p3", "secrets")),  # p3 15 s
    (at(5, 0), Reveal("p1")),  # p1 60 s
    (at(6, 0), Reveal("p2")),  # p2 60 s
    (at(7, 0), Reveal("p3")),  # p3 60 s; the Combat asks p1's strength
    (at(7, 20), Choose("0")),  # p1 20 s
    (at(7, 30), Choose("0")),  # p2 10 s
    (at(7, 35), Choose("0")),  # p3 5 s; the End of Round card: nobody's
    (at(12, 35), Choose("start")),  # 5 min of chores; the next Conflict card: nobody's
    (at(13, 0), Choose("conflict_ii_placeholder")),  # replaced below by a legal card
]


def round_log() -> list[tuple[datetime, Action]]:
    """ROUND with the second Conflict card the engine offers."""
    state = three_players(physical_conflicts=True)
    for _, action in ROUND[:-1]:
        state = apply(state, action)
    assert state.prompt is not None and state.prompt.kind == "conflict_card"
    return [*ROUND[:-1], (ROUND[-1][0], Choose(state.prompt.options[0]))]


def test_a_round_of_three_players_counts_each_players_thinking():
    marks = played(three_players(physical_conflicts=True), round_log())
    result = clock(["p1", "p2", "p3"], marks)
    assert {h: secs(t) for h, t in result.thinking.items()} == {
        "p1": 50 + 90 + 60 + 20,
        "p2": 40 + 5 + 30 + 60 + 10,
        "p3": 10 + 15 + 60 + 5,
    }
    # Two Agent turns and a Reveal turn each; the card effect and the answers are not turns.
    assert result.turns == {"p1": 3, "p2": 3, "p3": 3}
    # The second round's First Player (p2, RB p.12 Phase 5) thinks since the card came up.
    assert (result.thinker, result.since) == ("p2", at(13, 0))


def test_the_table_chores_are_nobodys_thinking():
    """The End of Round card and the physical Conflict card stop the clock: the 5 min
    before "Start round 2" and the 25 s before the card is tapped count for nobody."""
    marks = played(three_players(physical_conflicts=True), round_log())
    assert [m.thinker for m in marks[-3:]] == [None, None, "p2"]
    without_chores = clock(["p1", "p2", "p3"], marks[:-2])
    assert clock(["p1", "p2", "p3"], marks).thinking == without_chores.thinking


def test_the_clock_starts_with_the_first_tap():
    """Before the first tap the table sets up the board: nobody is timed yet."""
    start = three_players()
    assert thinker(start) == "p1"  # the game waits for p1...
    empty = clock(["p1", "p2", "p3"], [])
    assert (empty.thinker, empty.since) == (None, None)  # ...but the clock hasn't started
    assert secs(empty.total("p1", at(30))) == 0
    first = clock(["p1", "p2", "p3"], played(start, [(at(2), PlaceAgent("p1", "conspire"))]))
    assert secs(first.thinking["p1"]) == 0
    assert (first.thinker, first.since) == ("p2", at(2))


def test_a_long_pause_counts_the_most_one_think_counts():
    """A game left overnight on p2's turn: the stretch counts MAX_THINK (10 minutes)."""
    log = [
        (at(0), PlaceAgent("p1", "conspire")),
        (at(0) + timedelta(hours=14), PlaceAgent("p2", "wealth")),
    ]
    result = clock(["p1", "p2", "p3"], played(three_players(), log))
    assert result.thinking["p2"] == MAX_THINK == timedelta(minutes=10)


def test_the_current_think_runs_until_the_cap():
    log = [(at(0), PlaceAgent("p1", "conspire")), (at(1), PlaceAgent("p2", "wealth"))]
    result = clock(["p1", "p2", "p3"], played(three_players(), log))
    assert result.thinker == "p3"
    assert secs(result.current(at(1, 45))) == 45
    assert secs(result.total("p3", at(1, 45))) == 45
    assert secs(result.total("p2", at(1, 45))) == 60  # p2's finished stretch, not running
    assert result.current(at(1) + timedelta(hours=3)) == MAX_THINK
    assert secs(result.current(at(0, 30))) == 0  # a server clock set back: never negative


def test_an_undone_tap_gives_its_time_to_the_player_whose_turn_comes_back():
    """p2 taps the wrong space at 1:00, undoes it at 1:20 and taps again at 1:50: the
    log keeps the second tap only, so p2 thought from p1's tap (0:30) to 1:50."""
    log = [(at(0, 30), PlaceAgent("p1", "conspire")), (at(1, 50), PlaceAgent("p2", "heighliner"))]
    result = clock(["p1", "p2", "p3"], played(three_players(), log))
    assert secs(result.thinking["p2"]) == 80
    assert result.turns["p2"] == 1


def test_a_card_effect_in_a_turn_is_part_of_the_turn():
    assert turn_of(Adjust("p1", "vp", 1, "card")) is None
    assert turn_of(PlaceAgent("p1", "conspire")) == "p1"
    assert turn_of(Reveal("p2")) == "p2"
    assert turn_of(Choose("0")) is None


def test_the_average_is_per_agent_or_reveal_turn():
    marks = played(three_players(physical_conflicts=True), round_log())
    result = clock(["p1", "p2", "p3"], marks)
    assert result.average("p1") == timedelta(seconds=220 / 3)
    assert clock(["p1"], []).average("p1") is None


@pytest.mark.parametrize("mode", ["solo", "2p"])
def test_only_humans_think_the_rivals_play_at_once(mode):
    """Solo: the Rivals' turns run inside the player's tap; two players: House Hagal's."""
    state = solo() if mode == "solo" else two_player()
    humans = [h.id for h in state.humans]
    assert thinker(state) in humans
    seen = set()
    for step in range(12):
        options = [a for a in legal_actions(state) if not isinstance(a, Adjust)]
        state = apply(state, options[0])
        who = thinker(state)
        seen.add(who)
        assert who is None or who in humans, (step, who)
    assert seen & set(humans)


def test_a_question_for_a_rival_is_asked_of_the_human_who_decides():
    """Solo physical House Hagal cards are a chore; the strength question is the player's."""
    state = solo(physical_hagal=True)
    for _ in range(40):
        if state.prompt is not None and state.prompt.kind == "hagal_card":
            assert thinker(state) is None
            return
        state = apply(state, legal_actions(state)[0])
    pytest.fail("no House Hagal card was asked for")


def test_the_end_of_the_game_stops_the_clock():
    ended = replace(three_players(), phase="ended", turn=None)
    assert thinker(ended) is None


def test_a_setup_stored_before_the_turn_clock_loads_with_it_off():
    stored = codec.encode_setup(three_players().setup)
    del stored["options"]["turn_clock"]
    assert codec.decode_setup(stored).options.turn_clock is False
    assert codec.encode_setup(three_players(turn_clock=True).setup)["options"]["turn_clock"]

"""Statistics over three finished games built through the engine (tests/stats/games.py):
every figure here is worked out by hand from those games.

Game 1 (day 1): solo, Mentat, base; "You" (Paul Atreides) win 10 to 1 (margin +9), 2 rounds.
Game 2 (day 2): solo, Kwisatz Haderach; "You" lose 2 to 10 (margin -8), 1 round.
Game 3 (day 3): two players; Ann (Paul Atreides) wins 10 to 4 against Ben (Ilban Richese).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from companion.stats import aggregate
from companion.stats.summary import summarize
from tests.stats.games import (
    DAY,
    four_player_game,
    solo_loss,
    solo_win,
    three_player_game,
    two_player_game,
)


@pytest.fixture(scope="module")
def records():
    games = (solo_win(), solo_loss(), two_player_game())
    minutes = (84, 30, 45)
    return [
        summarize(
            n + 1, state, DAY + timedelta(days=n), DAY + timedelta(days=n, minutes=minutes[n])
        )
        for n, state in enumerate(games)
    ]


def test_every_human_seat_is_a_result_in_the_order_the_games_ended(records):
    seats = aggregate.results(reversed(records))
    assert [(s.game_id, s.player, s.won, s.vp, s.margin) for s in seats] == [
        (1, "You", True, 10, 9),
        (2, "You", False, 2, -8),
        (3, "Ann", True, 10, 6),
        (3, "Ben", False, 4, -6),
    ]
    assert seats[0].rivals == ("glossu_rabban", "memnon_thorvald")
    assert seats[2].rivals == (aggregate.HAGAL,)  # House Hagal is a two-player game's rival


def test_overall_statistics(records):
    stats = aggregate.statistics(aggregate.results(records))
    # Three games; a player won game 1 and game 3 (Ann), lost game 2.
    assert (stats.games, stats.wins, stats.rate) == (3, 2, 2 / 3)
    assert stats.streaks == aggregate.Streaks(1, True, 1, 1)
    assert stats.average_vp == (10 + 2 + 10 + 4) / 4
    assert stats.average_margin == (9 - 8 + 6 - 6) / 4
    assert stats.average_rounds == (2 + 1 + 1 + 1) / 4
    assert stats.average_minutes == (84 + 30 + 45 + 45) / 4
    # 26 VP in all: 9 + 2 + 10 + 4 from cards, 1 from Influence.
    assert stats.shares == {"card": 25 / 26, "influence": 1 / 26}
    assert stats.best is not None and (stats.best.game_id, stats.best.player) == (1, "You")
    assert stats.worst is not None and (stats.worst.game_id, stats.worst.player) == (2, "You")


def test_breakdowns_count_games_and_wins(records):
    by = aggregate.statistics(aggregate.results(records)).by
    tallies = {name: [(t.key, t.games, t.wins) for t in rows] for name, rows in by.items()}
    assert tallies["mode"] == [("solo", 2, 1), ("2p", 1, 1)]
    # most played first, then most won
    assert tallies["difficulty"] == [("mentat", 1, 1), ("kwisatz", 1, 0)]
    assert tallies["expansion"] == [("base", 3, 2)]
    assert tallies["leader"] == [("paul_atreides", 3, 2), ("ilban_richese", 1, 0)]
    assert tallies["rival"] == [
        ("glossu_rabban", 2, 1),
        ("memnon_thorvald", 2, 1),
        ("hagal", 1, 1),
    ]


def test_one_players_statistics_and_streaks(records):
    seats = [s for s in aggregate.results(records) if s.player == "You"]
    stats = aggregate.statistics(seats)
    assert (stats.games, stats.wins, stats.average_vp, stats.average_margin) == (2, 1, 6.0, 0.5)
    assert stats.streaks == aggregate.Streaks(1, False, 1, 1)  # a win, then a loss
    assert aggregate.players(aggregate.results(records)) == ["You", "Ann", "Ben"]


def test_difficulty_rates_per_expansion(records):
    rates = aggregate.difficulty_rates(aggregate.results(records))
    assert {k: (t.games, t.wins) for k, t in rates.items()} == {
        "mentat/base": (1, 1),
        "kwisatz/base": (1, 0),
    }


@pytest.mark.parametrize(
    ("outcomes", "expected"),
    [
        ((), aggregate.Streaks(0, False, 0, 0)),
        ((True, True, False, True, True, True), aggregate.Streaks(3, True, 3, 1)),
        ((False, False, True, False), aggregate.Streaks(1, False, 1, 2)),
    ],
)
def test_streaks_count_runs_in_order(records, outcomes, expected):
    base = aggregate.results(records)[0]
    seats = [replace(base, game_id=n, won=won) for n, won in enumerate(outcomes)]
    assert aggregate.outcomes(seats) == list(outcomes)
    assert aggregate.streaks(aggregate.outcomes(seats)) == expected


def test_no_games_give_empty_statistics():
    stats = aggregate.statistics([])
    assert (stats.games, stats.wins, stats.rate, stats.average_vp, stats.best) == (
        0,
        0,
        0.0,
        0.0,
        None,
    )
    assert stats.shares == {} and all(rows == [] for rows in stats.by.values())


@pytest.fixture(scope="module")
def table_records():
    """Game 4 (day 4): three players; Ann 10, Ben 3, Cal 0 (tests/stats/games.py).
    Game 5 (day 5): four players; Ben 10, Dee 5 (second on water), Cal 5, Ann 1."""
    return [
        summarize(
            4, three_player_game(), DAY + timedelta(days=3), DAY + timedelta(days=3, hours=1)
        ),
        summarize(5, four_player_game(), DAY + timedelta(days=4), DAY + timedelta(days=4, hours=2)),
    ]


def test_three_and_four_player_seats_have_their_places_and_margins(table_records):
    seats = aggregate.results(table_records)
    assert [(s.game_id, s.player, s.mode, s.rank, s.won, s.vp, s.margin) for s in seats] == [
        (4, "Ann", "3p", 1, True, 10, 7),
        (4, "Ben", "3p", 2, False, 3, -7),
        (4, "Cal", "3p", 3, False, 0, -10),
        (5, "Ann", "4p", 4, False, 1, -9),
        (5, "Ben", "4p", 1, True, 10, 5),
        (5, "Cal", "4p", 3, False, 5, -5),
        (5, "Dee", "4p", 2, False, 5, -5),
    ]
    assert all(s.rivals == () and s.multiplayer for s in seats)


def test_a_players_statistics_across_three_and_four_player_games(table_records):
    seats = aggregate.results(table_records)
    ann = aggregate.statistics([s for s in seats if s.player == "Ann"])
    assert (ann.games, ann.wins, ann.rate) == (2, 1, 0.5)
    assert (ann.average_vp, ann.average_margin) == (5.5, -1.0)
    assert ann.places == ((1, 1), (4, 1)) and ann.average_place == 2.5
    assert ann.streaks == aggregate.Streaks(1, False, 1, 1)
    # Ann's start VP: 1 of her 11 [RB p.4, G2].
    assert ann.shares == {"start": 1 / 11, "card": 10 / 11}
    cal = aggregate.statistics([s for s in seats if s.player == "Cal"])
    assert (cal.games, cal.wins, cal.places, cal.average_place) == (2, 0, ((3, 2),), 3.0)


def test_statistics_per_player_count(table_records, records):
    seats = aggregate.results([*records, *table_records])
    assert aggregate.modes(seats) == ["solo", "2p", "3p", "4p"]
    tallies = aggregate.statistics(seats).by
    assert [(t.key, t.games, t.wins) for t in tallies["mode"]] == [
        ("solo", 2, 1),
        ("2p", 1, 1),
        ("3p", 1, 1),
        ("4p", 1, 1),
    ]
    four = aggregate.statistics(aggregate.in_mode(seats, "4p"))
    assert (four.games, four.average_vp, four.average_rounds) == (1, 21 / 4, 2.0)
    assert [(t.key, t.games, t.wins) for t in four.by["player"]] == [  # the winner first
        ("Ben", 1, 1),
        ("Ann", 1, 0),
        ("Cal", 1, 0),
        ("Dee", 1, 0),
    ]
    assert four.places == ((1, 1), (2, 1), (3, 1), (4, 1))
    # Solo and two-player seats have no place to count.
    solo = aggregate.statistics(aggregate.in_mode(seats, "solo"))
    assert (solo.places, solo.average_place) == ((), None)
    assert aggregate.in_mode(seats, None) == seats

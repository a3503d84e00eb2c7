"""A finished game's summary, checked against games built through the engine whose
results are known by hand (tests/stats/games.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from companion.rules.scoring import final_ranking
from companion.stats.summary import VP_SOURCES, Record, summarize
from tests.stats.games import (
    DAY,
    four_player_game,
    played_game,
    solo_loss,
    solo_win,
    two_player_game,
)


def _houses(record: Record) -> dict[str, dict[str, Any]]:
    return {h["id"]: h for h in record["houses"]}


def test_a_won_solo_game_is_summarized_with_standings_sources_and_rounds():
    record = summarize(7, solo_win(), DAY, DAY + timedelta(minutes=83, seconds=40))
    assert (record["game_id"], record["mode"], record["difficulty"]) == (7, "solo", "mentat")
    assert (record["ix"], record["epic"], record["sets"]) == (False, False, ["base"])
    assert record["started_at"] == "2026-11-20T18:00:00Z"
    assert record["ended_at"] == "2026-11-20T19:23:40Z"
    assert record["minutes"] == 84  # 83 min 40 s, rounded
    assert (record["rounds"], record["end_reason"]) == (2, "vp")
    p1, r1, r2 = (_houses(record)[h] for h in ("p1", "r1", "r2"))
    # Most VP wins [RB p.12 Endgame].
    assert [(h["vp"], h["rank"], h["winner"]) for h in (p1, r2, r1)] == [
        (10, 1, True),
        (1, 2, False),
        (0, 3, False),
    ]
    # 9 VP from cards, 1 VP at 2 Influence with the Emperor [RB p.7].
    assert {k: v for k, v in p1["sources"].items() if v} == {"card": 9, "influence": 1}
    assert {k: v for k, v in r2["sources"].items() if v} == {"conflict": 1}
    assert p1["vp_by_round"] == [3, 10]
    assert r2["vp_by_round"] == [0, 1]
    assert p1["influence_by_round"] == [0, 2]
    assert r1["influence_by_round"] == [1, 1]  # Skirmish's Influence reward in round 1
    assert p1["influence"] == {"emperor": 2, "spacing_guild": 0, "bene_gesserit": 0, "fremen": 0}
    assert (r1["conflicts"], r2["conflicts"], p1["conflicts"]) == (
        ["skirmish_c"],
        ["desert_power"],
        [],
    )
    # In solo the Rival on your left takes the First Player marker [RB p.20].
    assert (r1["start"], p1["start"], record["first"]) == (True, False, "r1")
    assert p1["purchases"] == [] and p1["leader"] == "paul_atreides" and p1["name"] == "You"


def test_a_lost_solo_game_ranks_the_rival_first():
    record = summarize(8, solo_loss(), DAY, DAY + timedelta(minutes=30))
    houses = _houses(record)
    assert (houses["r1"]["rank"], houses["r1"]["winner"]) == (1, True)
    assert (houses["p1"]["vp"], houses["p1"]["winner"]) == (2, False)
    assert houses["r1"]["sources"]["manual"] == 10
    assert (record["difficulty"], record["rounds"], record["minutes"]) == ("kwisatz", 1, 30)


def test_house_hagal_has_no_rank_and_no_vp_in_a_two_player_summary():
    """House Hagal scores no VP [RB p.19]: it is listed without a rank."""
    record = summarize(9, two_player_game(), DAY, DAY)
    houses = _houses(record)
    assert (houses["hagal"]["rank"], houses["hagal"]["vp"], houses["hagal"]["winner"]) == (
        None,
        0,
        False,
    )
    assert [(houses[h]["rank"], houses[h]["vp"]) for h in ("p1", "p2")] == [(1, 10), (2, 4)]
    assert (record["mode"], record["difficulty"], record["first"]) == ("2p", None, "p1")
    assert houses["p1"]["start"] and not houses["p2"]["start"]
    assert record["minutes"] == 0


def test_a_four_player_summary_has_the_starting_vp_the_tie_break_and_the_first_player():
    record = summarize(10, four_player_game(), DAY, DAY + timedelta(minutes=95))
    assert (record["mode"], record["players"], record["difficulty"]) == ("4p", 4, None)
    assert (record["rounds"], record["end_reason"], record["first"]) == (2, "vp", "p3")
    houses = _houses(record)
    assert [h["kind"] for h in houses.values()] == ["human"] * 4
    # Ben reached 10 VP; Dee is ahead of Cal on equal VP by water [RB p.12 Endgame].
    assert [(h["name"], h["vp"], h["rank"], h["winner"]) for h in houses.values()] == [
        ("Ann", 1, 4, False),
        ("Ben", 10, 1, True),
        ("Cal", 5, 3, False),
        ("Dee", 5, 2, False),
    ]
    assert (houses["p3"]["tiebreak"], houses["p4"]["tiebreak"]) == ([3, 2, 1, 0], [3, 2, 2, 0])
    assert houses["p1"]["tiebreak"] is None
    # Each Score marker starts on 1 in a four-player game [RB p.4, G2]: the source "start".
    assert all(h["sources"]["start"] == 1 for h in houses.values())
    assert {k: v for k, v in houses["p3"]["sources"].items() if v} == {
        "start": 1,
        "influence": 1,
        "card": 3,
    }
    assert [houses[h]["vp_by_round"] for h in ("p1", "p2", "p3", "p4")] == [
        [1, 1],
        [5, 10],
        [2, 5],
        [3, 5],
    ]
    assert houses["p3"]["influence_by_round"] == [2, 2]
    # The First Player marker of round 1 [RB p.4]: the setup chose Cal.
    assert [h["id"] for h in houses.values() if h["start"]] == ["p3"]
    assert list(houses["p2"]["sources"]) == list(VP_SOURCES)


def test_a_three_player_game_played_to_the_end_is_ranked_as_the_engine_ranks_it():
    """Seed 8: the three players end level on VP and the spice they counted breaks the tie
    [RB p.12 Endgame]; the summary ranks as the engine does. Nobody starts with VP in a
    three-player game [RB p.4, G2]."""
    final = played_game("3p", 8)
    record = summarize(11, final, DAY, DAY)
    houses = _houses(record)
    assert (record["mode"], record["players"]) == ("3p", 3)
    standings = final_ranking(final)
    assert standings[0].vp == standings[1].vp and standings[0].rank < standings[1].rank
    ranked = {s.house: (s.name, s.vp, s.rank) for s in standings}
    assert [(h["name"], h["vp"], h["rank"]) for h in houses.values()] == [
        ranked[hid] for hid in houses
    ]
    assert all(h["sources"]["start"] == 0 for h in houses.values())
    assert all(sum(h["sources"].values()) == h["vp"] for h in houses.values())
    assert [h["id"] for h in houses.values() if h["start"]] == [f"p{final.setup.first_player + 1}"]

"""A finished game's summary, checked against games built through the engine whose
results are known by hand (tests/stats/games.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from companion.stats.summary import Record, summarize
from tests.stats.games import DAY, solo_loss, solo_win, two_player_game


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

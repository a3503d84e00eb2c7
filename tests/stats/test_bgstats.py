"""The "Log in BG Stats" link: BG Stats' createPlay format, every field present with its
type (its Android app fails on a missing winner, startPlayer, highestWins or noPoints)."""

from __future__ import annotations

import json
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

from companion.rules.scoring import final_ranking
from companion.stats.bgstats import create_play, create_play_url, play_date
from companion.stats.summary import summarize
from tests.stats.games import DAY, four_player_game, played_game, solo_win, two_player_game

PLAYER_FIELDS = {
    "name": str,
    "sourcePlayerId": str,
    "score": int,
    "winner": bool,
    "startPlayer": bool,
    "rank": int,
    "role": str,
}
GAME_FIELDS = {
    "name": str,
    "sourceGameId": str,
    "bggId": int,
    "highestWins": bool,
    "noPoints": bool,
}


def _names(leader: str) -> str:
    return {"paul_atreides": "Paul Atreides"}.get(leader, leader.upper())


def test_every_field_is_there_with_its_type():
    play = create_play(summarize(7, solo_win(), DAY, DAY + timedelta(minutes=84)), _names)
    assert set(play) == {"sourceName", "sourcePlayId", "playDate", "durationMin", "game", "players"}
    assert all(isinstance(play[k], str) for k in ("sourceName", "sourcePlayId", "playDate"))
    assert play["durationMin"] == 84
    assert {k: type(v) for k, v in play["game"].items()} == GAME_FIELDS
    assert play["game"]["bggId"] == 316554 and play["game"]["name"] == "Dune: Imperium"
    assert play["game"]["highestWins"] is True and play["game"]["noPoints"] is False
    for player in play["players"]:
        assert {k: type(v) for k, v in player.items()} == PLAYER_FIELDS


def test_the_players_scores_ranks_winner_start_player_and_leaders():
    play = create_play(summarize(7, solo_win(), DAY, DAY), _names)
    rows = [
        (p["name"], p["score"], p["rank"], p["winner"], p["startPlayer"], p["role"])
        for p in play["players"]
    ]
    assert rows == [
        ("You", 10, 1, True, False, "Paul Atreides"),
        ("Rival A", 0, 3, False, True, "GLOSSU_RABBAN"),  # first player in solo [RB p.20]
        ("Rival B", 1, 2, False, False, "MEMNON_THORVALD"),
    ]
    assert play["players"][0]["sourcePlayerId"] == "player:you"
    assert play["players"][1]["sourcePlayerId"] == "rival:glossu_rabban"


def test_the_play_date_is_utc_in_bg_stats_format():
    assert play_date("2026-11-20T18:00:05Z") == "2026-11-20 18:00:05"
    play = create_play(summarize(7, solo_win(), DAY, DAY), _names)
    assert play["playDate"] == "2026-11-20 18:00:00"
    assert play["sourcePlayId"] == "7-2026-11-20T18:00:00Z"


def test_house_hagal_is_not_a_player():
    """House Hagal scores nothing [RB p.19]: BG Stats gets the two players only."""
    play = create_play(summarize(9, two_player_game(), DAY, DAY), _names)
    assert [(p["name"], p["rank"], p["winner"]) for p in play["players"]] == [
        ("Ann", 1, True),
        ("Ben", 2, False),
    ]


def test_the_link_carries_the_play_as_url_encoded_json():
    record = summarize(7, solo_win(), DAY, DAY)
    url = create_play_url(record, _names)
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path) == (
        "https",
        "app.bgstatsapp.com",
        "/createPlay.html",
    )
    assert json.loads(parse_qs(parts.query)["data"][0]) == create_play(record, _names)


def test_a_four_player_play_has_every_player_with_rank_score_winner_and_start_player():
    """Ben wins with 10 VP [RB p.12 Phase 5]; Dee is second ahead of Cal on equal VP by
    water [RB p.12 Endgame]; each started on 1 VP [RB p.4, G2]; Cal held the First Player
    marker in round 1."""
    record = summarize(12, four_player_game(), DAY, DAY + timedelta(minutes=95))
    url = create_play_url(record, _names)
    play = json.loads(parse_qs(urlsplit(url).query)["data"][0])
    rows = [
        (p["name"], p["sourcePlayerId"], p["score"], p["rank"], p["winner"], p["startPlayer"])
        for p in play["players"]
    ]
    assert rows == [
        ("Ann", "player:ann", 1, 4, False, False),
        ("Ben", "player:ben", 10, 1, True, False),
        ("Cal", "player:cal", 5, 3, False, True),
        ("Dee", "player:dee", 5, 2, False, False),
    ]
    assert [p["role"] for p in play["players"]] == [
        "Paul Atreides",
        "ILBAN_RICHESE",
        "GLOSSU_RABBAN",
        "MEMNON_THORVALD",
    ]
    assert play["durationMin"] == 95 and play["sourcePlayId"] == "12-2026-11-20T18:00:00Z"
    for player in play["players"]:
        assert {k: type(v) for k, v in player.items()} == PLAYER_FIELDS


def test_a_three_player_play_has_one_winner_and_one_start_player():
    final = played_game("3p", 2)
    play = create_play(summarize(13, final, DAY, DAY), _names)
    assert [p["name"] for p in play["players"]] == ["Ann", "Ben", "Cal"]
    assert sorted(p["rank"] for p in play["players"]) == [1, 2, 3]
    # The winner is the engine's rank 1 (RB p.12, tie-breakers included), whoever it is.
    best = [s.name for s in final_ranking(final) if s.rank == 1]
    assert len(best) == 1
    assert [p["name"] for p in play["players"] if p["winner"]] == best
    starter = final.setup.humans[final.setup.first_player].name
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == [starter]

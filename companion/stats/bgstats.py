"""The "Log in BG Stats" link: BG Stats' documented `createPlay` format.

https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>. Every field is
present: BG Stats' Android app fails on a missing winner, startPlayer, highestWins or
noPoints.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import quote

from companion.stats.summary import Record

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Dune: Imperium table companion"
GAME_NAME = "Dune: Imperium"
BGG_ID = 316554  # Dune: Imperium on BoardGameGeek


def play_date(iso: str) -> str:
    """`2026-11-25T15:04:05Z` as BG Stats reads it: `2026-11-25 15:04:05` (UTC)."""
    return datetime.fromisoformat(iso.removesuffix("Z")).strftime("%Y-%m-%d %H:%M:%S")


def create_play(record: Record, leader_name: Callable[[str], str]) -> dict[str, Any]:
    """The play of one finished game; House Hagal (which never scores) is left out."""
    players = [
        {
            "name": house["name"],
            "sourcePlayerId": _player_id(house),
            "score": house["vp"],
            "winner": bool(house["winner"]),
            "startPlayer": bool(house["start"]),
            "rank": house["rank"],
            "role": leader_name(house["leader"]),
        }
        for house in record["houses"]
        if house["kind"] != "hagal"
    ]
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"{record['game_id']}-{record['started_at']}",
        "playDate": play_date(record["started_at"]),
        "durationMin": record["minutes"],
        "game": {
            "name": GAME_NAME,
            "sourceGameId": "dune-imperium",
            "bggId": BGG_ID,
            "highestWins": True,
            "noPoints": False,
        },
        "players": players,
    }


def _player_id(house: dict[str, Any]) -> str:
    """The same person keeps one id across plays; a Rival is its leader."""
    if house["kind"] == "human":
        return "player:" + str(house["name"]).strip().casefold()
    return "rival:" + str(house["leader"])


def create_play_url(record: Record, leader_name: Callable[[str], str]) -> str:
    """The link that opens BG Stats' import dialog with this play."""
    data = json.dumps(create_play(record, leader_name), separators=(",", ":"))
    return CREATE_PLAY + quote(data, safe="")

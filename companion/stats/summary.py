"""A finished game's summary, made from its final state alone.

The final state holds everything a summary needs: the VP ledger (each line with its
source and round), the log (every Influence change with its round, every Conflict's
places) and the purchases. The record is plain JSON, so it is stored as it is and the
statistics never replay a game.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from companion.rules.catalog import FACTIONS
from companion.rules.scoring import final_ranking
from companion.rules.setup import starting_houses
from companion.rules.state import GameState, House

RECORD_VERSION = 1
VP_SOURCES = ("conflict", "influence", "alliance", "exchange", "card", "tech", "endgame", "manual")

Record = dict[str, Any]


def iso_utc(moment: datetime) -> str:
    """A stored UTC time (naive) as ISO 8601 with its zone: `2026-11-25T15:04:05Z`."""
    return moment.replace(tzinfo=None, microsecond=0).isoformat() + "Z"


def summarize(game_id: int, state: GameState, started: datetime, ended: datetime) -> Record:
    """The summary of a finished game: setup, standings and per-house series."""
    setup = state.setup
    ranks = {standing.house: standing.rank for standing in final_ranking(state)}
    rounds = max(state.round, 1)
    start = starting_houses(setup)[1]  # the First Player marker's holder in round 1
    houses = [_house(state, h, ranks.get(h.id), rounds, start) for h in state.houses]
    return {
        "v": RECORD_VERSION,
        "game_id": game_id,
        "mode": setup.mode,
        "difficulty": setup.difficulty,
        "sets": list(setup.sets),
        "ix": state.ix,
        "epic": setup.options.epic,
        "started_at": iso_utc(started),
        "ended_at": iso_utc(ended),
        "minutes": max(0, round((ended - started).total_seconds() / 60)),
        "rounds": rounds,
        "end_reason": state.end_reason,
        "first": start,
        "houses": houses,
    }


def _house(state: GameState, house: House, rank: int | None, rounds: int, start: str) -> Record:
    """One house's line: standing, VP by source and by round, Influence by round."""
    sources = dict.fromkeys(VP_SOURCES, 0)
    per_round = [0] * (rounds + 1)
    for entry in state.ledger:
        if entry.house == house.id:
            sources[entry.source] += entry.delta
            per_round[min(max(entry.round, 0), rounds)] += entry.delta
    return {
        "id": house.id,
        "kind": house.kind,
        "name": house.name,
        "leader": house.leader,
        "color": house.color,
        "vp": house.vp,
        "rank": rank,
        "winner": rank == 1,
        "start": house.id == start,
        "sources": sources,
        "vp_by_round": _running_totals(per_round),
        "influence_by_round": _influence_by_round(state, house.id, rounds),
        "influence": dict(zip(FACTIONS, house.influence, strict=True)),
        "conflicts": _conflicts_won(state, house.id),
        "purchases": [a.card for a in state.acquisitions if a.house == house.id],
    }


def _running_totals(per_round: list[int]) -> list[int]:
    """The totals at the end of each round 1..n (round 0's entries count in round 1)."""
    totals: list[int] = []
    running = per_round[0]
    for delta in per_round[1:]:
        running += delta
        totals.append(running)
    return totals


def _influence_by_round(state: GameState, house_id: str, rounds: int) -> list[int]:
    """Influence on all four tracks together at the end of each round, from the log."""
    change: defaultdict[int, int] = defaultdict(int)
    for entry in state.log:
        if entry.kind == "influence" and entry.house == house_id:
            old, new = entry.data.get("old"), entry.data.get("new")
            if isinstance(old, int) and isinstance(new, int):
                change[min(max(entry.round, 0), rounds)] += new - old
    return _running_totals([change[r] for r in range(rounds + 1)])


def _conflicts_won(state: GameState, house_id: str) -> list[str]:
    """The Conflict cards this house took first place in [RB p.12]."""
    won: list[str] = []
    for entry in state.log:
        places = entry.data.get("places") if entry.kind == "combat" else None
        if isinstance(places, dict) and places.get(house_id) == "first":
            won.append(str(entry.data.get("card", "")))
    return won

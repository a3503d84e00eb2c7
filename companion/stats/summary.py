"""A finished game's summary, made from its final state alone.

The final state holds everything a summary needs: the VP ledger (each line with its
source and round), the log (every Influence change with its round, every Conflict's
places) and the purchases. The record is plain JSON, so it is stored as it is and the
statistics never replay a game.

A house's line is put together from the parts in `HOUSE_PARTS`, each a function of the
final state and the house returning some of the line's fields: a new part (a turn clock's
totals, say) is one more function there, and the readers of older records treat a field
they don't find as absent.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion.rules.catalog import FACTIONS
from companion.rules.scoring import Standing, final_ranking
from companion.rules.setup import starting_houses
from companion.rules.state import GameState, House

RECORD_VERSION = 1
# Where VP come from, in the order the pages and the CSV list them. "start": the Score
# marker starts on 1 in a four-player game [RB p.4, G2]; records written before that
# source existed have no "start" in their `sources`.
VP_SOURCES = (
    "start",
    "conflict",
    "influence",
    "alliance",
    "exchange",
    "card",
    "tech",
    "endgame",
    "manual",
)

Record = dict[str, Any]


def iso_utc(moment: datetime) -> str:
    """A stored UTC time (naive) as ISO 8601 with its zone: `2026-11-25T15:04:05Z`."""
    return moment.replace(tzinfo=None, microsecond=0).isoformat() + "Z"


def summarize(game_id: int, state: GameState, started: datetime, ended: datetime) -> Record:
    """The summary of a finished game: setup, standings and per-house series."""
    setup = state.setup
    standings = {standing.house: standing for standing in final_ranking(state)}
    start = starting_houses(setup)[1]  # the First Player marker's holder in round 1
    context = _Context(state, standings, max(state.round, 1), start)
    houses = [_house(context, house) for house in state.houses]
    return {
        "v": RECORD_VERSION,
        "game_id": game_id,
        "mode": setup.mode,
        "players": setup.players,
        "difficulty": setup.difficulty,
        "sets": list(setup.sets),
        "ix": state.ix,
        "epic": setup.options.epic,
        "started_at": iso_utc(started),
        "ended_at": iso_utc(ended),
        "minutes": max(0, round((ended - started).total_seconds() / 60)),
        "rounds": context.rounds,
        "end_reason": state.end_reason,
        "first": start,
        "houses": houses,
    }


@dataclass(frozen=True, slots=True)
class _Context:
    """What every part of a house's line may need besides the house."""

    state: GameState
    standings: dict[str, Standing]
    rounds: int
    start: str  # the house holding the First Player marker in round 1


HousePart = Callable[[_Context, House], Record]


def _identity(context: _Context, house: House) -> Record:
    return {
        "id": house.id,
        "kind": house.kind,
        "name": house.name,
        "leader": house.leader,
        "color": house.color,
    }


def _standing(context: _Context, house: House) -> Record:
    """Final VP and place [RB p.12 Endgame: most VP, then spice, Solari, water, garrisoned
    troops]; House Hagal, which never scores [RB p.19], has no rank. `tiebreak`: the
    counts a human entered at the end (spice, Solari, water, garrison), if any."""
    standing = context.standings.get(house.id)
    rank = standing.rank if standing else None
    return {
        "vp": house.vp,
        "rank": rank,
        "winner": rank == 1,
        "start": house.id == context.start,
        "tiebreak": list(standing.tiebreak) if standing and standing.tiebreak else None,
    }


def _scores(context: _Context, house: House) -> Record:
    """VP by source and by round, Influence by round and at the end."""
    sources = dict.fromkeys(VP_SOURCES, 0)
    per_round = [0] * (context.rounds + 1)
    for entry in context.state.ledger:
        if entry.house == house.id:
            sources[entry.source] = sources.get(entry.source, 0) + entry.delta
            per_round[min(max(entry.round, 0), context.rounds)] += entry.delta
    return {
        "sources": sources,
        "vp_by_round": _running_totals(per_round),
        "influence_by_round": _influence_by_round(context.state, house.id, context.rounds),
        "influence": dict(zip(FACTIONS, house.influence, strict=True)),
    }


def _gains(context: _Context, house: House) -> Record:
    return {
        "conflicts": _conflicts_won(context.state, house.id),
        "purchases": [a.card for a in context.state.acquisitions if a.house == house.id],
    }


HOUSE_PARTS: tuple[HousePart, ...] = (_identity, _standing, _scores, _gains)


def _house(context: _Context, house: House) -> Record:
    """One house's line: every part's fields."""
    line: Record = {}
    for part in HOUSE_PARTS:
        line.update(part(context, house))
    return line


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

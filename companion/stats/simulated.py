"""The simulated difficulty table the statistics page shows beside the player's own rates.

Written by `python -m companion.sim --report --games 200 --out companion/stats/simulated.json`
(two Rivals against the simulator's scripted human, per difficulty and expansion).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

TABLE = Path(__file__).with_name("simulated.json")


@dataclass(frozen=True, slots=True)
class SimulatedRow:
    """How often, and by which round, the Rivals reached 10 VP at one difficulty."""

    expansion: str
    difficulty: str
    games: int
    rivals_reach_rate: float
    reach_round_mean: float | None
    human_win_rate: float


@dataclass(frozen=True, slots=True)
class SimulatedTable:
    games_per_row: int
    seed: int
    rows: tuple[SimulatedRow, ...]


@cache
def table(path: Path = TABLE) -> SimulatedTable | None:
    """The table as the simulator wrote it; None if there is none."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    rows = tuple(
        SimulatedRow(
            r["expansion"],
            r["difficulty"],
            r["games"],
            r["rivals_reach_rate"],
            r["reach_round_mean"],
            r["human_win_rate"],
        )
        for r in data["rows"]
    )
    return SimulatedTable(data["games_per_row"], data["seed"], rows)

"""The turn clock as the table screen and the summary show it (companion/clock.py counts)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from companion import services
from companion.clock import MAX_THINK, Clock
from companion.clock_store import clock_of
from companion.rules.catalog import Catalog
from companion.rules.state import GameState


def duration(spent: timedelta) -> str:
    """A time as m:ss, or h:mm:ss from an hour on (static/clock.js writes the same)."""
    seconds = max(0, int(spent.total_seconds()))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


def iso_duration(spent: timedelta) -> str:
    """A time as an HTML <time> element's machine-readable duration: PT125S."""
    return f"PT{max(0, int(spent.total_seconds()))}S"


@dataclass(frozen=True, slots=True)
class ClockCell:
    """A human's clock beside their name: the total (the current stretch included, whole
    seconds), and while they are thinking, the current stretch."""

    total: int
    thinking: bool
    current: int  # 0 unless thinking

    @property
    def total_text(self) -> str:
        return duration(timedelta(seconds=self.total))

    @property
    def current_text(self) -> str:
        return duration(timedelta(seconds=self.current))

    @property
    def total_iso(self) -> str:
        return iso_duration(timedelta(seconds=self.total))

    @property
    def cap(self) -> int:
        """The most one stretch counts, in seconds (the page's ticking stops there)."""
        return int(MAX_THINK.total_seconds())


def cells(clock: Clock | None, state: GameState, now: datetime) -> tuple[ClockCell | None, ...]:
    """One cell per house of the state, in its order (None for Rivals and House Hagal);
    () without a clock."""
    if clock is None:
        return ()
    current = int(clock.current(now).total_seconds())
    found: list[ClockCell | None] = []
    for house in state.houses:
        if house.id not in clock.thinking:
            found.append(None)
            continue
        thinking = house.id == clock.thinker
        total = int(clock.thinking[house.id].total_seconds()) + (current if thinking else 0)
        found.append(ClockCell(total, thinking, current if thinking else 0))
    return tuple(found)


@dataclass(frozen=True, slots=True)
class SummaryLine:
    """A player's line of the summary's thinking times."""

    name: str
    color: str
    total: str
    turns: int
    average: str  # "" without a turn


def summary_lines(clock: Clock | None, state: GameState) -> list[SummaryLine]:
    """Each human's thinking time and average per Agent or Reveal turn, in seat order (a
    finished game: no stretch is running)."""
    if clock is None:
        return []
    lines = []
    for house in state.humans:
        spent = clock.thinking.get(house.id, timedelta(0))
        average = clock.average(house.id)
        lines.append(
            SummaryLine(
                house.name,
                house.color,
                duration(spent),
                clock.turns.get(house.id, 0),
                duration(average) if average is not None else "",
            )
        )
    return lines


@dataclass(frozen=True, slots=True)
class SummaryView:
    """The summary page's thinking times, and the most one stretch counted (minutes)."""

    lines: list[SummaryLine]
    cap_minutes: int = int(MAX_THINK.total_seconds()) // 60


def game_summary(game_id: int, catalog: Catalog) -> SummaryView:
    """The summary page's thinking times of a stored game; no line when it has no turn
    clock (or was deleted, or is changing, while its summary was read)."""
    try:
        view = services.load(game_id, catalog)
    except (services.GameNotFound, services.StaleVersion):
        return SummaryView([])
    return SummaryView(summary_lines(clock_of(view, catalog), view.state))

"""The turn clock: how long each player has been thinking, from the event log's times.

A player thinks from the tap that hands them the turn or asks them a question (the event
after which the game waits for them: `thinker`) until the next tap, whoever makes it.
Each stretch between two taps of the active log counts for the player the game waited
for during it, so:

- Undo: an undone tap is not in the log, so the time it took goes to the player the game
  waits for once it is undone (the player who takes the turn again); Redo puts the tap
  back with its own time.
- Table chores are nobody's thinking: the End of Round card (`round_end`) and the
  physical cards the table reveals and taps (Conflict, House Hagal, Tech tiles).
- Pauses: a stretch counts at most MAX_THINK. Longer means the table stopped (a break, a
  game left overnight), so the clock stops when nobody has tapped for MAX_THINK.
- The clock starts with the game's first tap: the time before it is the physical set-up
  (the checklist), which no stored event tells from the First Player's first turn, so that
  first turn is not counted.

Only humans think: Rivals and House Hagal play at once. The module is pure: the times
come with the marks, never from the wall clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from companion.rules.actions import Action, PlaceAgent, Reveal
from companion.rules.state import GameState

MAX_THINK = timedelta(minutes=10)
# Questions the table answers by looking at a card or doing the chores, not by thinking.
TABLE_CHORES = frozenset({"round_end", "conflict_card", "hagal_card", "tech_tile"})
ZERO = timedelta(0)


def thinker(state: GameState) -> str | None:
    """The human the game waits for: the decider of its question, else whose Agent turn
    it is; None during the table's chores, a Rival's turn and after the end."""
    if state.phase == "ended":
        return None
    if state.prompt is not None:
        return None if state.prompt.kind in TABLE_CHORES else state.prompt.decider
    if state.turn is not None and state.house(state.turn).is_human:
        return state.turn
    return None


def turn_of(action: Action) -> str | None:
    """The house whose Agent or Reveal turn the action is [RB p.8], else None."""
    return action.house if isinstance(action, PlaceAgent | Reveal) else None


@dataclass(frozen=True, slots=True)
class Mark:
    """An active event as the clock sees it: when it was stored, whose turn it was (if it
    was an Agent or Reveal turn) and whom the game waits for after it."""

    at: datetime
    thinker: str | None
    turn: str | None = None


def mark(at: datetime, action: Action, after: GameState) -> Mark:
    """The clock's mark of an event stored `at`, whose action led to `after`."""
    return Mark(at, thinker(after), turn_of(action))


def think(start: datetime, end: datetime) -> timedelta:
    """The time a stretch from `start` to `end` counts: at most MAX_THINK, never below 0
    (a server clock set back)."""
    return min(max(end - start, ZERO), MAX_THINK)


@dataclass(frozen=True, slots=True)
class Clock:
    """Each human's thinking time in the finished stretches and their Agent and Reveal
    turns; who thinks now, since when (the last tap's time; None before the first tap)."""

    thinking: dict[str, timedelta]
    turns: dict[str, int]
    thinker: str | None
    since: datetime | None

    def current(self, now: datetime) -> timedelta:
        """How long the player thinking now has been at it (capped like any stretch)."""
        if self.thinker is None or self.since is None:
            return ZERO
        return think(self.since, now)

    def total(self, house: str, now: datetime) -> timedelta:
        """The house's thinking time, the current stretch included."""
        spent = self.thinking.get(house, ZERO)
        return spent + self.current(now) if house == self.thinker else spent

    def average(self, house: str) -> timedelta | None:
        """Thinking time per Agent or Reveal turn (finished stretches); None without turns."""
        turns = self.turns.get(house, 0)
        return self.thinking.get(house, ZERO) / turns if turns else None


def start(humans: Iterable[str]) -> Clock:
    """The clock of a game with these humans before its first tap."""
    thinking = dict.fromkeys(humans, ZERO)
    return Clock(thinking, dict.fromkeys(thinking, 0), None, None)


def advance(before: Clock, marks: Iterable[Mark]) -> Clock:
    """The clock after more active events `marks`, in order: each stretch since the
    previous tap goes to whom the game waited for."""
    thinking, turns = dict(before.thinking), dict(before.turns)
    who, since = before.thinker, before.since
    for m in marks:
        if who is not None and since is not None:
            thinking[who] += think(since, m.at)
        if m.turn in turns:
            turns[m.turn] += 1
        who = m.thinker if m.thinker in thinking else None
        since = m.at
    return Clock(thinking, turns, who, since)


def clock(humans: Iterable[str], marks: Sequence[Mark]) -> Clock:
    """The clock after the active events `marks` (in order) of a game with these humans."""
    return advance(start(humans), marks)

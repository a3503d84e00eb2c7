"""The turn clock of stored games: each active event's mark (companion/clock.py), kept per
game so that a tap reads the times of the few events that changed, not the whole log.

A change moves the log's end by one event (a tap adds one, Undo takes the last back,
Redo puts it back), so a game `n` versions on from the marks kept shares all but the
last `n` of them. Their times are read from the database; whom the game waits for after
them comes from the states the state cache keeps (the latest and the ones before the
latest intents); only when those are not enough is the log replayed, once. The totals
start from the clock kept after the unchanged marks, so a tap adds up one stretch, not
the whole game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask import current_app

from companion import services, state_cache
from companion.clock import Clock, Mark, advance, clock, mark
from companion.db import repository
from companion.lru import LRU
from companion.rules.catalog import Catalog
from companion.rules.engine import apply
from companion.rules.state import GameState
from companion.state_cache import CachedGame

GAMES_KEPT = 64  # as many as the state cache keeps
CLOCKS_KEPT = 8  # as many states as the state cache keeps for Undo


@dataclass(frozen=True, slots=True)
class Marked:
    """A game's marks at one version, one per active event in order, and its clock after
    them, after all but the last, ... (newest first, CLOCKS_KEPT of them): Undo and the
    next tap start from one of those instead of adding up the whole game again."""

    created_at: datetime  # tells the game from a deleted one that had the same id
    version: int
    marks: tuple[Mark, ...]
    clocks: tuple[Clock, ...]


class MarkCache(LRU[int, Marked]):
    """The marks of one app's recently shown games, by game id."""

    def __init__(self, size: int = GAMES_KEPT) -> None:
        super().__init__(size)


def _cache() -> MarkCache:
    cache = current_app.extensions.get("clock_marks")
    if cache is None:
        cache = current_app.extensions.setdefault("clock_marks", MarkCache())
    return cache  # type: ignore[no-any-return]


def _times(game_id: int, after: int) -> list[tuple[int, datetime]]:
    """The seq and time of each active event after the first `after`."""
    return repository.for_app().event_times(game_id, after)


def _states_after(game: CachedGame, first: int) -> list[GameState]:
    """The states after the active events `first`..n (1-based), from the cache's states
    when it holds them, else by replaying the log."""
    n = len(game.actions)
    kept = (game.state, *game.previous)  # after event n, n-1, ...
    if n - first < len(kept):
        return [kept[n - seq] for seq in range(first, n + 1)]
    states: list[GameState] = []
    state = game.initial
    for seq, action in enumerate(game.actions, start=1):
        state = apply(state, action)
        if seq >= first:
            states.append(state)
    return states


def _clock_after(humans: list[str], kept: Marked | None, keep: int) -> Clock:
    """The clock after the first `keep` kept marks: kept, or added up again."""
    if kept is not None and len(kept.marks) - keep < len(kept.clocks):
        return kept.clocks[len(kept.marks) - keep]
    return clock(humans, kept.marks[:keep] if kept is not None else ())


def kept_clock(game_id: int, game: CachedGame) -> Clock | None:
    """The clock after the cached game's active events; None if the database has moved
    on from that version meanwhile (another process changed the game)."""
    cache = _cache()
    kept = cache.get(game_id)
    if kept is not None and kept.created_at != game.created_at:
        kept = None
    if kept is not None and kept.version == game.version:
        return kept.clocks[0]
    # Each change since the kept version may have changed one event at the log's end.
    keep = 0
    if kept is not None and kept.version < game.version:
        keep = max(0, min(len(kept.marks) - (game.version - kept.version), len(game.actions)))
    times = _times(game_id, keep)
    n = len(game.actions)
    if [seq for seq, _ in times] != list(range(keep + 1, n + 1)):
        return None
    states = _states_after(game, keep + 1)
    new = [
        mark(at, game.actions[seq - 1], state)
        for (seq, at), state in zip(times, states, strict=True)
    ]
    base = _clock_after([h.id for h in game.state.humans], kept, keep)
    clocks = [base]
    for one in new:
        clocks.append(advance(clocks[-1], (one,)))
    # The kept clocks before `base`, which is the one after the first `keep` marks.
    older = kept.clocks[len(kept.marks) - keep + 1 :] if kept is not None else ()
    found = (*(kept.marks[:keep] if kept is not None else ()), *new)
    newest = (*reversed(clocks), *older)[:CLOCKS_KEPT]
    cache.put(game_id, Marked(game.created_at, game.version, found, newest))
    return newest[0]


def clock_of(view: services.GameView, catalog: Catalog) -> Clock | None:
    """The game's turn clock as of its latest version this process knows; None when the
    game has it off (or changed on another server process while being read)."""
    state = view.state
    if not state.setup.options.turn_clock:
        return None
    game = state_cache.for_app().get(view.id)
    if game is None or game.created_at.isoformat() != view.created:
        services.load(view.id, catalog)  # puts it in the cache
        game = state_cache.for_app().get(view.id)
        if game is None or game.created_at.isoformat() != view.created:
            return None
    return kept_clock(view.id, game)

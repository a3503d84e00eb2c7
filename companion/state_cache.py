"""The latest state of recently used games, so that a tap neither reads nor replays the log.

An entry holds a game at one version, with the states before its latest intents, so that
Undo answers without replaying. The services keep it current after each change they
store; the version check of the next change proves a cached entry still current.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from flask import current_app, has_app_context

from companion.lru import LRU
from companion.rules.actions import Action
from companion.rules.engine import replay
from companion.rules.state import GameState

CACHE_SIZE = 64  # games kept per app
UNDO_DEPTH = 8  # states kept per game so that Undo answers without replaying


@dataclass(frozen=True)
class CachedGame:
    """A game at one version: its log's active intents and the state they lead to."""

    created_at: datetime  # tells the game from a deleted one that had the same id
    version: int
    title: str
    initial: GameState
    actions: tuple[Action, ...]
    state: GameState
    undone: int  # undone intents kept for Redo
    # The states before the latest actions, newest first.
    previous: tuple[GameState, ...] = ()

    def then(self, action: Action, state: GameState, undone: int) -> CachedGame:
        """The game one version on, after `action` led to `state`."""
        return replace(
            self,
            version=self.version + 1,
            actions=(*self.actions, action),
            state=state,
            undone=undone,
            previous=(self.state, *self.previous[: UNDO_DEPTH - 1]),
        )

    def taken_back(self) -> CachedGame:
        """The game one version on, with its last intent undone."""
        actions = self.actions[:-1]
        return replace(
            self,
            version=self.version + 1,
            actions=actions,
            state=self.previous[0] if self.previous else replay(self.initial, actions),
            undone=self.undone + 1,
            previous=self.previous[1:],
        )


class StateCache(LRU[int, CachedGame]):
    """The cached games of one app (each app has its own database), by game id."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        super().__init__(size)


def for_app() -> StateCache:
    """The current app's cache."""
    return current_app.extensions["state_cache"]  # type: ignore[no-any-return]


def forget_app_cache() -> None:
    """Drop the current app's cached states; outside an app context there is nothing to
    drop (each app keeps its own cache)."""
    if has_app_context():
        for_app().clear()

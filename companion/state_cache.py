"""The latest state of recently used games, so that a tap neither reads nor replays the log.

An entry holds a game at one version, with the states before its latest intents, so that
Undo answers without replaying. The services keep it current after each change they
store; the version check of the next change proves a cached entry still current.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from threading import Event, Lock

from flask import current_app, has_app_context

from companion.lru import LRU
from companion.rules.actions import Action
from companion.rules.engine import replay
from companion.rules.state import GameState

CACHE_SIZE = 64  # games kept per app
# How long a change waits for another request's change of the same game (a stuck one
# cannot hold the others: they go on and the version check decides).
CHANGE_WAIT_SECONDS = 2.0
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
    """The cached games of one app (each app has its own database), by game id; and
    which games a request of this process is changing."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        super().__init__(size)
        self._changing: dict[int, Event] = {}
        self._changing_lock = Lock()

    @contextmanager
    def changing(self, game_id: int) -> Iterator[None]:
        """One change of a game at a time in this process: a tap that comes while
        another request changes the game waits until that change is stored (or refused),
        then reads the game as it is. Four devices tapping at once: the first applies
        its intent and the others, instead of applying theirs too and learning at the
        commit that they were late, find the game moved on and get the first one's answer
        (issue 29). Other processes' changes are kept apart by the version check alone."""
        while True:
            with self._changing_lock:
                other = self._changing.get(game_id)
                if other is None:
                    mine = self._changing[game_id] = Event()
                    break
            if not other.wait(CHANGE_WAIT_SECONDS):
                mine = Event()  # not registered: the stuck change keeps its mark
                break
        try:
            yield
        finally:
            with self._changing_lock:
                if self._changing.get(game_id) is mine:
                    del self._changing[game_id]
            mine.set()


def for_app() -> StateCache:
    """The current app's cache."""
    return current_app.extensions["state_cache"]  # type: ignore[no-any-return]


def forget_app_cache() -> None:
    """Drop the current app's cached states; outside an app context there is nothing to
    drop (each app keeps its own cache)."""
    if has_app_context():
        for_app().clear()

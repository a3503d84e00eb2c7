"""The table screen's htmx answer, made once per game version and served to every device.

Four devices at one table all need the same screen after each change: the three whose
tap came too late get it with the 409 (their tap is refused by the version check), and a
screen that follows the game fetches it when its poll sees the new version. Rendering it
is most of a request's CPU, and a server's threads share one interpreter, so the last of
four answers used to wait for four renders. Here the first request of a version renders
it; the others of that version that arrive meanwhile wait for that render instead of
making their own, and later ones find it made.

What the answer depends on is its key: the game (its id and creation stamp: a deleted
game's id may be another game's later), its version (every change, Undo and Redo
included, makes a new one; the answer of an older version is never served again: each
game keeps only its newest version's answers), and per request the language, the app's
root and the turn clock's cells (time-dependent; equal within the second). Two parts
differ between requests of one version and are rendered as marks, filled in per request
(`filled`): the session's CSRF token in each form, and the message the screen shows (a
stale tap's "The game changed on another screen", a refusal, or none). So the following
screens' fetches are one render. The tap that made the version is answered with only the
regions it changed (web/present/regions.py); that answer is kept too, by the version the
tapping screen showed, and the stale taps of screens that showed the same version (the
three 409s of four devices tapping at once) get it with their message: web/table.py.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from markupsafe import escape

from companion.lru import LRU

GAMES_KEPT = 64  # games whose newest answers are kept
ANSWERS_PER_VERSION = 8  # per game: languages x messages; beyond that rendered, not kept
WAIT_SECONDS = 10.0  # for another request's render of the same answer, then render anyway

# Stand for the CSRF token and the message while rendering: letters only, so escaping
# leaves them as they are.
CSRF_MARK = "csrfTokenOfTheRequestQz7Kx3"
ERROR_MARK = "messageOfTheRequestVb5Jw8"

Game = tuple[int, str]  # the game's id and creation stamp
V = TypeVar("V")


def filled(html: str, token: Callable[[], str], error: str | None) -> str:
    """A shared render made this request's: its CSRF token (`token`, called only when a
    form needs it) and its message (the element rendered around ERROR_MARK, which shows
    the message, is left out when there is none)."""
    at = html.find(ERROR_MARK)
    if at >= 0:
        if error is not None:
            html = html.replace(ERROR_MARK, str(escape(error)), 1)
        else:
            start = html.rfind("<", 0, at)  # the element's start tag: <p class="error" ...>
            closing = f"</{html[start + 1 : at].split(None, 1)[0].rstrip('>')}>"
            html = html[:start] + html[html.index(closing, at) + len(closing) :]
    return html.replace(CSRF_MARK, token()) if CSRF_MARK in html else html


class Answers(Generic[V]):
    """The newest version's answers of the games used last, made once each."""

    def __init__(self, games: int = GAMES_KEPT, per_version: int = ANSWERS_PER_VERSION) -> None:
        self._games: LRU[Game, tuple[int, dict[Hashable, V]]] = LRU(games)
        self._per_version = per_version
        self._lock = threading.Lock()
        self._making: dict[tuple[Game, int, Hashable], threading.Event] = {}

    def get(self, game: Game, version: int, key: Hashable) -> V | None:
        """The answer made for `key` at `version`, if kept."""
        made = self._games.get(game)
        if made is None or made[0] != version:
            return None
        return made[1].get(key)

    def put(self, game: Game, version: int, key: Hashable, answer: V) -> None:
        """Keep `answer`; a newer version's answers replace the game's older ones, and an
        answer of an older version than the kept one is not kept."""
        with self._lock:
            made = self._games.get(game)
            if made is None or made[0] < version:
                self._games.put(game, (version, {key: answer}))
            elif made[0] == version and len(made[1]) < self._per_version:
                made[1][key] = answer

    def answer(self, game: Game, version: int, key: Hashable, make: Callable[[], V]) -> V:
        """The answer for `key` at `version`: kept, or being made by another request (then
        waited for), or made now by `make` and kept."""
        found = self.get(game, version, key)
        if found is not None:
            return found
        making = (game, version, key)
        with self._lock:
            found = self.get(game, version, key)
            if found is not None:
                return found
            other = self._making.get(making)
            if other is None:
                mine = self._making[making] = threading.Event()
        if other is not None:
            other.wait(WAIT_SECONDS)
            found = self.get(game, version, key)
            return found if found is not None else make()
        try:
            found = make()
            self.put(game, version, key, found)
            return found
        finally:
            with self._lock:
                del self._making[making]
            mine.set()

    def wait(self, game: Game, version: int, key: Hashable) -> V | None:
        """The answer for `key` at `version` when it is kept or being made by another
        request (then waited for), else None: made by none."""
        found = self.get(game, version, key)
        if found is not None:
            return found
        with self._lock:
            other = self._making.get((game, version, key))
        if other is not None:
            other.wait(WAIT_SECONDS)
        return self.get(game, version, key)

    def clear(self) -> None:
        self._games.clear()

"""One function per user intent; each is one database transaction.

The state of a game is never stored: it is rebuilt by replaying the game's active events
over `new_game(setup)`. A small per-process cache keeps the latest state of each game,
keyed by the game's version, so a request rarely replays. Every change bumps the version
with a conditional UPDATE: a submit made from a stale page (double tap, second device)
is refused and nothing is applied twice.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import NoReturn

from flask import current_app, has_app_context
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from companion.db import db
from companion.db.models import Game, GameEvent
from companion.rules import codec
from companion.rules.actions import Action, IllegalAction
from companion.rules.catalog import Catalog
from companion.rules.engine import apply, new_game, replay
from companion.rules.state import GameState, Setup

CACHE_SIZE = 64
UNDO_DEPTH = 8  # states kept per game so that Undo answers without replaying


class GameNotFound(LookupError):
    """No game with this id."""


class StaleVersion(RuntimeError):
    """The page was made from an older version of the game."""


@dataclass(frozen=True)
class GameView:
    """A game as a page shows it."""

    id: int
    version: int
    state: GameState
    can_undo: bool
    can_redo: bool
    title: str
    # Tells a game from a deleted one that had the same id (caches key on it).
    created: str = ""


@dataclass(frozen=True)
class _Loaded:
    created: str
    version: int
    initial: GameState
    actions: tuple[Action, ...]
    state: GameState
    undone: int
    # The states before the latest actions, newest first, so that Undo needs no replay.
    previous: tuple[GameState, ...] = ()


class _StateCache:
    """The latest state of recently used games, per app (each app has its own database)."""

    def __init__(self) -> None:
        self.items: OrderedDict[int, _Loaded] = OrderedDict()
        self.lock = threading.Lock()


def _states() -> _StateCache:
    cache = current_app.extensions.get("state_cache")
    if cache is None:
        cache = current_app.extensions.setdefault("state_cache", _StateCache())
    return cache  # type: ignore[no-any-return]


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _remember(game_id: int, loaded: _Loaded) -> None:
    cache = _states()
    with cache.lock:
        cache.items[game_id] = loaded
        cache.items.move_to_end(game_id)
        while len(cache.items) > CACHE_SIZE:
            cache.items.popitem(last=False)


def forget_cache() -> None:
    """Drop the app's cached states (tests use it to prove a restart rebuilds the state).

    Outside an app context there is nothing to drop: each app keeps its own cache.
    """
    if not has_app_context():
        return
    cache = _states()
    with cache.lock:
        cache.items.clear()


def title_for(setup: Setup, catalog: Catalog) -> str:
    def leader(lid: str) -> str:
        found = catalog.leaders.get(lid)
        return found.name if found else lid

    players = " & ".join(s.name for s in setup.humans)
    if setup.mode == "solo":
        rivals = " and ".join(leader(s.leader) for s in setup.rivals)
        return f"{players} vs {rivals} ({setup.difficulty})"
    return f"{players} vs House Hagal"


def create_game(setup: Setup, catalog: Catalog) -> int:
    """Check the setup by building the first state, then store the game."""
    state = new_game(setup, catalog)
    game = Game(
        mode=setup.mode,
        ruleset=catalog.version,
        setup=codec.encode_setup(setup),
        title=title_for(setup, catalog),
        round=state.round,
        status="ended" if state.phase == "ended" else "active",
    )
    db.session.add(game)
    db.session.commit()
    _remember(game.id, _Loaded(_created(game), game.version, state, (), state, 0))
    return game.id


MAX_ID = 2**63 - 1  # larger ids can't be stored in any SQL integer column


def _game(game_id: int) -> Game:
    if not 0 < game_id <= MAX_ID:
        raise GameNotFound(game_id)
    game = db.session.get(Game, game_id)
    if game is None:
        raise GameNotFound(game_id)
    return game


def _created(game: Game) -> str:
    return game.created_at.isoformat()


def _load(game: Game, catalog: Catalog) -> _Loaded:
    """The game's state at `game.version`; StaleVersion if it changed while reading."""
    game_id, created, version = game.id, _created(game), game.version
    cached = _states().items.get(game_id)
    if cached is not None and cached.version == version and cached.created == created:
        return cached
    events = db.session.scalars(
        select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.seq)
    ).all()
    # Another request may have committed between reading the game and its events.
    now = db.session.scalar(select(Game.version).where(Game.id == game_id))
    if now is None:
        raise GameNotFound(game_id)
    if now != version:
        raise StaleVersion(game_id)
    actions = tuple(codec.decode(e.action) for e in events if not e.undone)
    initial = new_game(codec.decode_setup(game.setup), catalog)
    undone = sum(1 for e in events if e.undone)
    loaded = _Loaded(created, version, initial, actions, replay(initial, actions), undone)
    _remember(game_id, loaded)
    return loaded


def _view(game: Game, loaded: _Loaded) -> GameView:
    return GameView(
        game.id,
        loaded.version,
        loaded.state,
        bool(loaded.actions),
        loaded.undone > 0,
        game.title,
        loaded.created,
    )


def load(game_id: int, catalog: Catalog) -> GameView:
    """The current state of a game."""
    for _ in range(5):
        game = _game(game_id)
        try:
            return _view(game, _load(game, catalog))
        except StaleVersion:
            db.session.expire_all()  # it changed while we read it: read it again
    raise StaleVersion(game_id)


def current_version(game_id: int) -> int:
    """The game's version, cheaply (for live views polling for changes)."""
    if not 0 < game_id <= MAX_ID:
        raise GameNotFound(game_id)
    version = db.session.scalar(select(Game.version).where(Game.id == game_id))
    if version is None:
        raise GameNotFound(game_id)
    return version


def _commit_version(game_id: int, expected: int, state: GameState) -> int:
    """Bump the version only if nobody else did first; raise StaleVersion otherwise."""
    try:
        db.session.flush()
    except IntegrityError:  # another request stored the same (game, seq) first
        db.session.rollback()
        _gone_or_stale(game_id)
    result = db.session.execute(
        update(Game)
        .where(Game.id == game_id, Game.version == expected)
        .values(
            version=expected + 1,
            round=state.round,
            updated_at=_now(),
            status="ended" if state.phase == "ended" else "active",
        )
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        db.session.rollback()
        _gone_or_stale(game_id)
    db.session.commit()
    return expected + 1


def _gone_or_stale(game_id: int) -> NoReturn:
    """After a refused write: the game was deleted meanwhile, or changed."""
    if db.session.scalar(select(Game.id).where(Game.id == game_id)) is None:
        raise GameNotFound(game_id)
    raise StaleVersion(game_id)


def _refused(game_id: int, expected: int) -> None:
    """An intent the state refused may only have been refused because the game moved on
    meanwhile (a double tap, a second device): then it is a stale submit, not a mistake."""
    db.session.rollback()
    if current_version(game_id) != expected:
        raise StaleVersion(game_id)


def _check_version(game: Game, expected: int | None) -> None:
    if expected is None or expected != game.version:
        raise StaleVersion(game.id)


def act(game_id: int, action: Action, expected_version: int | None, catalog: Catalog) -> GameView:
    """Apply one user intent (with every rival turn it triggers) and store it."""
    game = _game(game_id)
    _check_version(game, expected_version)
    assert expected_version is not None
    title = game.title
    loaded = _load(game, catalog)
    try:
        state = apply(loaded.state, action)  # IllegalAction: nothing stored
    except IllegalAction:
        _refused(game_id, expected_version)
        raise
    db.session.execute(delete(GameEvent).where(GameEvent.game_id == game_id, GameEvent.undone))
    db.session.add(
        GameEvent(game_id=game_id, seq=len(loaded.actions) + 1, action=codec.encode(action))
    )
    version = _commit_version(game_id, expected_version, state)
    kept = (loaded.state, *loaded.previous[: UNDO_DEPTH - 1])
    done = _Loaded(
        loaded.created, version, loaded.initial, (*loaded.actions, action), state, 0, kept
    )
    _remember(game_id, done)
    return GameView(game_id, version, state, True, False, title, loaded.created)


def undo(game_id: int, expected_version: int | None, catalog: Catalog) -> GameView:
    """Take back the last intent and everything it triggered."""
    game = _game(game_id)
    _check_version(game, expected_version)
    assert expected_version is not None
    loaded = _load(game, catalog)
    if not loaded.actions:
        _refused(game_id, expected_version)
        raise IllegalAction("Nothing to undo.")
    db.session.execute(
        update(GameEvent)
        .where(GameEvent.game_id == game_id, GameEvent.seq == len(loaded.actions))
        .values(undone=True)
        .execution_options(synchronize_session=False)
    )
    actions = loaded.actions[:-1]
    state = loaded.previous[0] if loaded.previous else replay(loaded.initial, actions)
    title = game.title
    version = _commit_version(game_id, expected_version, state)
    done = _Loaded(
        loaded.created,
        version,
        loaded.initial,
        actions,
        state,
        loaded.undone + 1,
        loaded.previous[1:],
    )
    _remember(game_id, done)
    return GameView(game_id, version, state, bool(actions), True, title, loaded.created)


def redo(game_id: int, expected_version: int | None, catalog: Catalog) -> GameView:
    """Re-apply the most recently undone intent."""
    game = _game(game_id)
    _check_version(game, expected_version)
    assert expected_version is not None
    loaded = _load(game, catalog)
    if not loaded.undone:
        _refused(game_id, expected_version)
        raise IllegalAction("Nothing to redo.")
    seq = len(loaded.actions) + 1
    event = db.session.scalars(
        select(GameEvent).where(GameEvent.game_id == game_id, GameEvent.seq == seq)
    ).one()
    action = codec.decode(event.action)
    try:
        state = apply(loaded.state, action)
    except IllegalAction:
        _refused(game_id, expected_version)
        raise
    event.undone = False
    title = game.title
    version = _commit_version(game_id, expected_version, state)
    kept = (loaded.state, *loaded.previous[: UNDO_DEPTH - 1])
    done = _Loaded(
        loaded.created,
        version,
        loaded.initial,
        (*loaded.actions, action),
        state,
        loaded.undone - 1,
        kept,
    )
    _remember(game_id, done)
    return GameView(game_id, version, state, True, done.undone > 0, title, loaded.created)


@dataclass(frozen=True)
class GameSummary:
    """A line of the home page's game list."""

    id: int
    title: str
    mode: str
    round: int
    status: str
    updated_at: datetime


def list_games() -> list[GameSummary]:
    """Every game, most recently changed first."""
    games = db.session.scalars(select(Game).order_by(Game.updated_at.desc(), Game.id.desc())).all()
    return [GameSummary(g.id, g.title, g.mode, g.round, g.status, g.updated_at) for g in games]


def delete_game(game_id: int) -> None:
    """Remove a game and its events."""
    game = _game(game_id)
    db.session.execute(delete(GameEvent).where(GameEvent.game_id == game_id))
    db.session.delete(game)
    db.session.commit()
    cache = _states()
    with cache.lock:
        cache.items.pop(game_id, None)

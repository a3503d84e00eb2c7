"""One function per user intent; each is one database transaction.

The state of a game is never stored: it is rebuilt by replaying the game's active events
over `new_game(setup)`. A small per-process cache keeps the latest state of each game,
keyed by the game's version, so a request rarely replays. Every change bumps the version
with a conditional UPDATE: a submit made from a stale page (double tap, second device)
is refused and nothing is applied twice. That UPDATE is also what proves a cached state
current, so a change made from the cached version reads nothing: one UPDATE, one INSERT
(or UPDATE of the event) and the commit.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import NoReturn

from flask import current_app, has_app_context
from sqlalchemy import Table, bindparam, delete, insert, select, update

from companion.db import db
from companion.db.models import Game, GameEvent
from companion.db.writes import Duplicate, Prepared, Write
from companion.rules import codec
from companion.rules.actions import Action, IllegalAction
from companion.rules.catalog import Catalog
from companion.rules.engine import apply, new_game, replay
from companion.rules.state import GameState, Setup

CACHE_SIZE = 64
# A tap's writes are Core statements built once and run on a DB-API connection
# (companion.db.writes): the Session and Core's execute took half of a write's time.
GAMES: Table = Game.__table__
EVENTS: Table = GameEvent.__table__
_BUMP = Prepared(
    update(GAMES)
    .where(
        GAMES.c.id == bindparam("game"),
        GAMES.c.version == bindparam("expected"),
        GAMES.c.created_at == bindparam("created"),  # not a new game that reused the id
    )
    .values(
        version=bindparam("next"),
        round=bindparam("game_round"),
        updated_at=bindparam("now"),
        status=bindparam("game_status"),
    )
)
_RECORD = Prepared(
    insert(EVENTS)
    .inline()  # no RETURNING of the new id: nothing reads it
    .values(
        game_id=bindparam("game"),
        seq=bindparam("seq"),
        actor=bindparam("actor"),
        action=bindparam("action"),
        undone=bindparam("is_undone"),
        created_at=bindparam("now"),
    )
)
_MARK = Prepared(
    update(EVENTS)
    .where(EVENTS.c.game_id == bindparam("game"), EVENTS.c.seq == bindparam("event"))
    .values(undone=bindparam("is_undone"))
)
_DROP_UNDONE = Prepared(
    delete(EVENTS).where(EVENTS.c.game_id == bindparam("game"), EVENTS.c.undone)
)
Change = tuple[Prepared, dict[str, object]]  # a statement and its values
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
    created_at: datetime
    version: int
    title: str
    initial: GameState
    actions: tuple[Action, ...]
    state: GameState
    undone: int
    # The states before the latest actions, newest first, so that Undo needs no replay.
    previous: tuple[GameState, ...] = ()

    @property
    def created(self) -> str:
        return self.created_at.isoformat()


class _StateCache:
    """The latest state of recently used games, per app (each app has its own database)."""

    def __init__(self) -> None:
        self.items: OrderedDict[int, _Loaded] = OrderedDict()
        self.lock = threading.Lock()
        # Held from a write's UPDATE to its commit, so that this process's writes queue
        # here and each goes on the moment the one before commits. Without it, SQLite
        # answers a second writer "busy" and its busy handler sleeps 1, 2, 5... ms
        # before it tries again, whatever the first writer needed: that sleeping was
        # most of a write's time with two devices tapping. Other processes still queue
        # on SQLite's own lock.
        self.writing = threading.Lock()


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
    _remember(game.id, _Loaded(game.created_at, game.version, game.title, state, (), state, 0))
    return game.id


MAX_ID = 2**63 - 1  # larger ids can't be stored in any SQL integer column


def _game(game_id: int) -> Game:
    if not 0 < game_id <= MAX_ID:
        raise GameNotFound(game_id)
    game = db.session.get(Game, game_id)
    if game is None:
        raise GameNotFound(game_id)
    return game


def _load(game: Game, catalog: Catalog) -> _Loaded:
    """The game's state at `game.version`; StaleVersion if it changed while reading."""
    game_id, version = game.id, game.version
    cached = _states().items.get(game_id)
    if cached is not None and cached.version == version and cached.created_at == game.created_at:
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
    state = replay(initial, actions)
    loaded = _Loaded(game.created_at, version, game.title, initial, actions, state, undone)
    _remember(game_id, loaded)
    return loaded


def _posted_from(game_id: int, expected: int | None, catalog: Catalog) -> _Loaded:
    """The game as the page that posted showed it. From the cache without a query when
    the cache holds that version (`_store`'s conditional UPDATE then proves it is still
    current); otherwise read, and StaleVersion unless the game is at that version."""
    cached = _states().items.get(game_id)
    if cached is not None and expected is not None and cached.version == expected:
        return cached
    game = _game(game_id)
    if expected is None or expected != game.version:
        raise StaleVersion(game_id)
    return _load(game, catalog)


def _view(game_id: int, loaded: _Loaded) -> GameView:
    return GameView(
        game_id,
        loaded.version,
        loaded.state,
        bool(loaded.actions),
        loaded.undone > 0,
        loaded.title,
        loaded.created,
    )


def load(game_id: int, catalog: Catalog) -> GameView:
    """The current state of a game."""
    for _ in range(5):
        game = _game(game_id)
        try:
            return _view(game_id, _load(game, catalog))
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


def _store(game_id: int, loaded: _Loaded, state: GameState, *changes: Change) -> int:
    """Bump the version only if it is still the one the intent was made from (else
    StaleVersion, or GameNotFound), make the event log's `changes`, commit; the new version.

    The UPDATE comes first: it takes the database's write lock, so nothing else can change
    the game between the check and the commit.
    """
    bump = {
        "game": game_id,
        "expected": loaded.version,
        "created": loaded.created_at,
        "next": loaded.version + 1,
        "game_round": state.round,
        "now": _now(),
        "game_status": "ended" if state.phase == "ended" else "active",
    }
    with _states().writing, Write(db.engine) as write:
        stored = write.run(_BUMP, bump) == 1
        if stored:
            try:
                for statement, values in changes:
                    write.run(statement, values)
            except Duplicate:  # another request stored the same (game, seq) first
                stored = False
            else:
                write.commit()
    if not stored:  # rolled back
        _gone_or_stale(game_id, loaded.created_at)
    return loaded.version + 1


def _gone_or_stale(game_id: int, created_at: datetime) -> NoReturn:
    """After a refused write: the game was deleted meanwhile, or changed."""
    if db.session.scalar(select(Game.created_at).where(Game.id == game_id)) != created_at:
        raise GameNotFound(game_id)
    raise StaleVersion(game_id)


def _refused(game_id: int, expected: int) -> None:
    """An intent the state refused may only have been refused because the game moved on
    meanwhile (a double tap, a second device): then it is a stale submit, not a mistake."""
    db.session.rollback()
    if current_version(game_id) != expected:
        raise StaleVersion(game_id)


def _record(game_id: int, seq: int, action: Action) -> Change:
    values = {
        "game": game_id,
        "seq": seq,
        "actor": "player",
        "action": codec.encode(action),
        "is_undone": False,
        "now": _now(),
    }
    return _RECORD, values


def _undone(game_id: int, seq: int, undone: bool) -> Change:
    return _MARK, {"game": game_id, "event": seq, "is_undone": undone}


def act(game_id: int, action: Action, expected_version: int | None, catalog: Catalog) -> GameView:
    """Apply one user intent (with every rival turn it triggers) and store it."""
    loaded = _posted_from(game_id, expected_version, catalog)
    try:
        state = apply(loaded.state, action)  # IllegalAction: nothing stored
    except IllegalAction:
        _refused(game_id, loaded.version)
        raise
    changes: list[Change] = []
    if loaded.undone:  # a new intent drops the redo
        changes.append((_DROP_UNDONE, {"game": game_id}))
    seq = len(loaded.actions) + 1
    changes.append(_record(game_id, seq, action))
    version = _store(game_id, loaded, state, *changes)
    kept = (loaded.state, *loaded.previous[: UNDO_DEPTH - 1])
    done = replace(
        loaded,
        version=version,
        actions=(*loaded.actions, action),
        state=state,
        undone=0,
        previous=kept,
    )
    _remember(game_id, done)
    return _view(game_id, done)


def undo(game_id: int, expected_version: int | None, catalog: Catalog) -> GameView:
    """Take back the last intent and everything it triggered."""
    loaded = _posted_from(game_id, expected_version, catalog)
    if not loaded.actions:
        _refused(game_id, loaded.version)
        raise IllegalAction("Nothing to undo.")
    actions = loaded.actions[:-1]
    state = loaded.previous[0] if loaded.previous else replay(loaded.initial, actions)
    version = _store(game_id, loaded, state, _undone(game_id, len(loaded.actions), True))
    done = replace(
        loaded,
        version=version,
        actions=actions,
        state=state,
        undone=loaded.undone + 1,
        previous=loaded.previous[1:],
    )
    _remember(game_id, done)
    return _view(game_id, done)


def redo(game_id: int, expected_version: int | None, catalog: Catalog) -> GameView:
    """Re-apply the most recently undone intent."""
    loaded = _posted_from(game_id, expected_version, catalog)
    if not loaded.undone:
        _refused(game_id, loaded.version)
        raise IllegalAction("Nothing to redo.")
    seq = len(loaded.actions) + 1
    stored = db.session.scalar(
        select(GameEvent.action).where(GameEvent.game_id == game_id, GameEvent.seq == seq)
    )
    if stored is None:  # dropped by a new intent from another process meanwhile
        raise StaleVersion(game_id)
    action = codec.decode(stored)
    try:
        state = apply(loaded.state, action)
    except IllegalAction:
        _refused(game_id, loaded.version)
        raise
    version = _store(game_id, loaded, state, _undone(game_id, seq, False))
    kept = (loaded.state, *loaded.previous[: UNDO_DEPTH - 1])
    done = replace(
        loaded,
        version=version,
        actions=(*loaded.actions, action),
        state=state,
        undone=loaded.undone - 1,
        previous=kept,
    )
    _remember(game_id, done)
    return _view(game_id, done)


@dataclass(frozen=True)
class GameSummary:
    """A line of the home page's game list."""

    id: int
    title: str
    mode: str
    round: int
    status: str
    updated_at: datetime
    ix: bool = False  # played with Rise of Ix
    epic: bool = False  # in Epic mode (Rise of Ix p.9)


def _summary(g: Game) -> GameSummary:
    setup = g.setup if isinstance(g.setup, dict) else {}
    sets = setup.get("sets")
    options = setup.get("options")
    return GameSummary(
        g.id,
        g.title,
        g.mode,
        g.round,
        g.status,
        g.updated_at,
        isinstance(sets, list) and "ix" in sets,
        isinstance(options, dict) and options.get("epic") is True,
    )


def list_games() -> list[GameSummary]:
    """Every game, most recently changed first."""
    games = db.session.scalars(select(Game).order_by(Game.updated_at.desc(), Game.id.desc())).all()
    return [_summary(g) for g in games]


def summary(game_id: int) -> GameSummary:
    """One game's line of the game list (GameNotFound if there is no such game)."""
    return _summary(_game(game_id))


def delete_game(game_id: int) -> None:
    """Remove a game and its events."""
    game = _game(game_id)
    db.session.execute(delete(GameEvent).where(GameEvent.game_id == game_id))
    db.session.delete(game)
    db.session.commit()
    cache = _states()
    with cache.lock:
        cache.items.pop(game_id, None)

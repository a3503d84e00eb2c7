"""One function per user intent; each change is one database transaction.

The state of a game is never stored: it is rebuilt by replaying the game's active events
over `new_game(setup)`. The latest state of each recently used game is kept in a
`StateCache`, so that a request rarely replays. Every change bumps the game's version with
the repository's conditional UPDATE: a submit made from a stale page (double tap, second
device) is refused and nothing is applied twice. That check is also what proves a cached
state current, so a change made from the cached version reads nothing.

Each use case works on the current app's database and cache, or on the `Storage` it is
given (the tests give a fake repository).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal, NoReturn

from companion import state_cache
from companion.db import repository
from companion.db.models import utc_now
from companion.db.repository import (
    Bump,
    GameRepository,
    NewGame,
    StoredGame,
    VersionConflict,
)
from companion.rules import codec
from companion.rules.actions import Action, IllegalAction
from companion.rules.catalog import Catalog
from companion.rules.engine import apply, new_game, replay
from companion.rules.i18n import N_
from companion.rules.state import GameState, Setup
from companion.state_cache import CachedGame, StateCache
from companion.stats import store as records

MAX_ID = 2**31 - 1  # the id columns are 32-bit integers (PostgreSQL refuses larger ones)
LOAD_TRIES = 5  # reads of a game that keeps changing while it is read


class GameNotFound(LookupError):
    """No game with this id."""


class StaleVersion(RuntimeError):
    """The page was made from an older version of the game. `now`: the game as it is,
    when the check that found it stale had read it (the answer shows it without reading
    the game again)."""

    def __init__(self, game_id: int, now: GameView | None = None) -> None:
        super().__init__(game_id)
        self.now = now


class OtherGame(LookupError):
    """The page was made from a deleted game whose id a newer game now has (a restored
    backup or a PostgreSQL sequence can give an id again)."""


@dataclass(frozen=True)
class Storage:
    """Where the use cases keep games: the event log and the states made from it."""

    games: GameRepository
    states: StateCache
    # Finished games' summaries, written in the change that ends a game (None: not kept).
    records: records.RecordStore | None = None


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
    # Right after an Undo or Redo: which one (what to change on the board is the
    # difference from `previous`).
    change: Literal["", "undo", "redo"] = ""
    # Right after a change (an intent, Undo or Redo): the state before it, which the
    # screen that sent it shows.
    previous: GameState | None = None


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
    created: str = ""  # as GameView.created: what a form about this game sends back
    setup: dict[str, object] = field(default_factory=dict)  # as stored (pages title it)


def _storage(given: Storage | None) -> Storage:
    """`given`, or the current app's database and cache."""
    return given or Storage(repository.for_app(), state_cache.for_app(), records.for_app())


def forget_cache() -> None:
    """Drop the app's cached states (tests use it to prove a restart rebuilds the state)."""
    state_cache.forget_app_cache()


def _status(state: GameState) -> str:
    return "ended" if state.phase == "ended" else "active"


def create_game(
    setup: Setup, catalog: Catalog, storage: Storage | None = None, title: str = ""
) -> int:
    """Check the setup by building the first state, then store the game with `title` (the
    presenter's, in English: pages show it rebuilt from the setup in their language)."""
    store = _storage(storage)
    state = new_game(setup, catalog)
    new = NewGame(
        mode=setup.mode,
        ruleset=catalog.version,
        setup=codec.encode_setup(setup),
        title=title,
        round=state.round,
        status=_status(state),
    )
    game = store.games.add(new)
    store.states.put(
        game.id, CachedGame(game.created_at, game.version, game.title, state, (), state, 0)
    )
    return game.id


def _stored(store: Storage, game_id: int) -> StoredGame:
    game = store.games.get(game_id) if 0 < game_id <= MAX_ID else None
    if game is None:
        raise GameNotFound(game_id)
    return game


def _same(cached: CachedGame, game: StoredGame) -> bool:
    """Whether the cached state is the stored game's at its version."""
    return (cached.version, cached.created_at) == (game.version, game.created_at)


def _load(store: Storage, game: StoredGame, catalog: Catalog) -> CachedGame:
    """The game's state at `game.version`; StaleVersion if it changed while reading."""
    cached = store.states.get(game.id)
    if cached is not None and _same(cached, game):
        return cached
    events = store.games.events(game.id)
    # Another request may have committed between reading the game and its events.
    now = store.games.version(game.id)
    if now is None:
        raise GameNotFound(game.id)
    if now != game.version:
        raise StaleVersion(game.id)
    actions = tuple(codec.decode(event.action) for event in events if not event.undone)
    initial = new_game(codec.decode_setup(game.setup), catalog)
    undone = sum(1 for event in events if event.undone)
    state = replay(initial, actions)
    loaded = CachedGame(game.created_at, game.version, game.title, initial, actions, state, undone)
    store.states.put(game.id, loaded)
    return loaded


def _check_identity(game_id: int, created_at: datetime, created: str | None) -> None:
    """OtherGame unless the posting page's `created` stamp (when it sent one) is this
    game's: the conditional UPDATE then checks `created_at` again in the transaction."""
    if created is not None and created != created_at.isoformat():
        raise OtherGame(game_id)


def _posted_from(
    store: Storage, game_id: int, expected: int | None, catalog: Catalog, created: str | None
) -> CachedGame:
    """The game as the page that posted showed it. From the cache without a query when
    the cache holds that version (the change's version check then proves it is still
    current); otherwise read, and StaleVersion unless the game is at that version.
    OtherGame if the page showed another game that had this id (`created` differs)."""
    cached = store.states.get(game_id)
    if cached is not None and expected is not None and cached.version == expected:
        _check_identity(game_id, cached.created_at, created)
        return cached
    game = _stored(store, game_id)
    _check_identity(game_id, game.created_at, created)
    if expected is None or expected != game.version:
        now = cached if cached is not None and _same(cached, game) else None
        raise StaleVersion(game_id, None if now is None else _view(game_id, now))
    return _load(store, game, catalog)


def _view(game_id: int, game: CachedGame) -> GameView:
    return GameView(
        game_id,
        game.version,
        game.state,
        bool(game.actions),
        game.undone > 0,
        game.title,
        game.created_at.isoformat(),
    )


def load(game_id: int, catalog: Catalog, storage: Storage | None = None) -> GameView:
    """The current state of a game."""
    store = _storage(storage)
    for _ in range(LOAD_TRIES):
        game = _stored(store, game_id)
        try:
            return _view(game_id, _load(store, game, catalog))
        except StaleVersion:
            continue  # it changed while we read it: read it again
    raise StaleVersion(game_id)


def current_version(game_id: int, storage: Storage | None = None) -> int:
    """The game's version, cheaply (for live views polling for changes)."""
    version = _storage(storage).games.version(game_id) if 0 < game_id <= MAX_ID else None
    if version is None:
        raise GameNotFound(game_id)
    return version


def _refused(store: Storage, game_id: int, expected: int) -> None:
    """An intent the state refused may only have been refused because the game moved on
    meanwhile (a double tap, a second device): then it is a stale submit, not a mistake."""
    if current_version(game_id, store) != expected:
        raise StaleVersion(game_id)


def _applied(store: Storage, game_id: int, game: CachedGame, action: Action) -> GameState:
    """`action` applied to the game's state (IllegalAction: nothing is stored)."""
    try:
        return apply(game.state, action)
    except IllegalAction:
        _refused(store, game_id, game.version)
        raise


def _commit(
    store: Storage, game_id: int, before: CachedGame, after: CachedGame, write: Callable[[], None]
) -> GameView:
    """Store the change from `before` to `after` (its event writes are `write`) in one
    transaction with the version check, and cache `after`."""
    state = after.state
    bump = Bump(game_id, before.created_at, before.version, state.round, _status(state))
    try:
        with store.games.change(bump):
            write()
            _record(store, game_id, before, after)
    except VersionConflict:
        _gone_or_stale(store, game_id, before.created_at)
    store.states.put(game_id, after)
    if store.records is not None and _status(after.state) != _status(before.state) == "active":
        records.backup_after_end()
    return _view(game_id, after)


def _record(store: Storage, game_id: int, before: CachedGame, after: CachedGame) -> None:
    """Keep the finished game's summary current: written when the game ends (and after
    each later change), deleted when an Undo takes the end back."""
    if store.records is None:
        return
    if _status(after.state) == "ended":
        ended = store.records.ended_at(game_id) or utc_now()
        store.records.put(game_id, after.state, before.created_at, ended)
    elif _status(before.state) == "ended":
        store.records.drop(game_id)


def _gone_or_stale(store: Storage, game_id: int, created_at: datetime) -> NoReturn:
    """After a refused change: the game was deleted meanwhile (another may have its id
    now), or changed."""
    game = store.games.get(game_id)
    if game is None:
        raise GameNotFound(game_id)
    if game.created_at != created_at:
        raise OtherGame(game_id)
    raise StaleVersion(game_id)


def act(
    game_id: int,
    action: Action,
    expected_version: int | None,
    catalog: Catalog,
    storage: Storage | None = None,
    created: str | None = None,
) -> GameView:
    """Apply one user intent (with every rival turn it triggers) and store it; `created`
    is the posting page's stamp of the game (GameView.created), checked when given."""
    store = _storage(storage)
    with store.states.changing(game_id):
        game = _posted_from(store, game_id, expected_version, catalog, created)
        state = _applied(store, game_id, game, action)
        seq = len(game.actions) + 1

        def record() -> None:
            if game.undone:  # a new intent drops the redo
                store.games.drop_undone(game_id)
            store.games.append(game_id, seq, codec.encode(action))

        view = _commit(store, game_id, game, game.then(action, state, undone=0), record)
    return replace(view, previous=game.state)


def _stepping(
    store: Storage,
    game_id: int,
    expected: int | None,
    catalog: Catalog,
    step: Literal["undo", "redo"],
    created: str | None,
) -> CachedGame:
    """The game as posted, which has an intent to `step` (else IllegalAction)."""
    game = _posted_from(store, game_id, expected, catalog, created)
    if not (game.actions if step == "undo" else game.undone):
        _refused(store, game_id, game.version)
        raise IllegalAction(N_("Nothing to undo.") if step == "undo" else N_("Nothing to redo."))
    return game


def undo(
    game_id: int,
    expected_version: int | None,
    catalog: Catalog,
    storage: Storage | None = None,
    created: str | None = None,
) -> GameView:
    """Take back the last intent and everything it triggered."""
    store = _storage(storage)
    with store.states.changing(game_id):
        game = _stepping(store, game_id, expected_version, catalog, "undo", created)
        view = _commit(
            store,
            game_id,
            game,
            game.taken_back(),
            lambda: store.games.mark_undone(game_id, len(game.actions), True),
        )
    return replace(view, change="undo", previous=game.state)


def redo(
    game_id: int,
    expected_version: int | None,
    catalog: Catalog,
    storage: Storage | None = None,
    created: str | None = None,
) -> GameView:
    """Re-apply the most recently undone intent."""
    store = _storage(storage)
    with store.states.changing(game_id):
        game = _stepping(store, game_id, expected_version, catalog, "redo", created)
        seq = len(game.actions) + 1
        stored = store.games.action(game_id, seq)
        if stored is None:  # dropped by a new intent from another process meanwhile
            raise StaleVersion(game_id)
        action = codec.decode(stored)
        state = _applied(store, game_id, game, action)
        after = game.then(action, state, undone=game.undone - 1)
        view = _commit(
            store, game_id, game, after, lambda: store.games.mark_undone(game_id, seq, False)
        )
    return replace(view, change="redo", previous=game.state)


def load_after(
    game_id: int,
    change: Literal["undo", "redo"],
    catalog: Catalog,
    storage: Storage | None = None,
) -> GameView:
    """The game as `load` gives it, shown as right after an Undo or Redo (the page a plain
    form's redirect opens): the state before it is rebuilt from the log. Without an intent
    to redo (after Undo) or to undo (after Redo), the plain view."""
    store = _storage(storage)
    view = load(game_id, catalog, store)
    game = store.states.get(game_id)
    if game is None or game.version != view.version:
        return view
    if change == "undo":
        stored = store.games.action(game_id, len(game.actions) + 1) if game.undone else None
        if stored is None:
            return view
        previous = apply(game.state, codec.decode(stored))
    else:
        if not game.actions:
            return view
        previous = replay(game.initial, game.actions[:-1])
    return replace(view, change=change, previous=previous)


def _summary(game: StoredGame) -> GameSummary:
    setup = game.setup if isinstance(game.setup, dict) else {}
    sets = setup.get("sets")
    options = setup.get("options")
    return GameSummary(
        game.id,
        game.title,
        game.mode,
        game.round,
        game.status,
        game.updated_at,
        isinstance(sets, list) and "ix" in sets,
        isinstance(options, dict) and options.get("epic") is True,
        game.created_at.isoformat(),
        setup,
    )


def list_games(storage: Storage | None = None, *, active: bool | None = None) -> list[GameSummary]:
    """Every game, most recently changed first; with `active`, only the games in progress
    (True) or only the finished ones (False), the others not even summarized."""
    games = _storage(storage).games.list_games()
    if active is not None:
        games = [game for game in games if (game.status == "active") == active]
    return [_summary(game) for game in games]


def summary(game_id: int, storage: Storage | None = None) -> GameSummary:
    """One game's line of the game list (GameNotFound if there is no such game)."""
    return _summary(_stored(_storage(storage), game_id))


def delete_game(game_id: int, storage: Storage | None = None, created: str | None = None) -> None:
    """Remove a game and its events (OtherGame if `created`, when given, is another's)."""
    store = _storage(storage)
    if created is not None:
        _check_identity(game_id, _stored(store, game_id).created_at, created)
    if not (0 < game_id <= MAX_ID and store.games.delete(game_id)):
        raise GameNotFound(game_id)
    store.states.forget(game_id)

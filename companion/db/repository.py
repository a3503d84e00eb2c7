"""The event log's storage: games and their events, through the SQLAlchemy ORM's Session.

A change of a game is one transaction: `change(bump)` first bumps the game's version with a
conditional UPDATE, which holds only while the game is still at the version (and is still
the game, by its creation time) the change was made from; the event writes that follow go
in the same transaction, and a refused UPDATE or a duplicate event rolls it all back. The
UPDATE comes first because it takes the database's write lock: nothing else can change
the game between the check and the commit.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timedelta
from typing import Any, Protocol

from flask import current_app
from sqlalchemy import (
    CursorResult,
    Delete,
    Insert,
    Update,
    and_,
    bindparam,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from companion.db import db
from companion.db.models import Game, GameEvent, StickerRead, utc_now


class VersionConflict(Exception):
    """A change was refused: the game moved on, or is gone, since the change was made."""


@dataclass(frozen=True)
class StoredGame:
    """A game's row."""

    id: int
    created_at: datetime
    updated_at: datetime
    version: int
    title: str
    mode: str
    round: int
    status: str
    setup: dict[str, Any]


@dataclass(frozen=True)
class StoredEvent:
    """One stored intent, in its game's order."""

    seq: int
    action: dict[str, Any]
    undone: bool


@dataclass(frozen=True)
class LoggedEvent:
    """One stored intent with the time it was stored (exports, statistics, imports)."""

    seq: int
    action: dict[str, Any]
    undone: bool
    created_at: datetime


@dataclass(frozen=True)
class ArchivedGame:
    """A game's row as an export carries it, and as an import stores it anew."""

    created_at: datetime
    updated_at: datetime
    mode: str
    ruleset: str
    setup: dict[str, Any]
    title: str
    status: str
    round: int
    version: int


@dataclass(frozen=True)
class NewGame:
    """What a new game's row starts with (its version is 0): `Game`'s columns by name."""

    mode: str
    ruleset: str  # the card_db version, for the record
    setup: dict[str, Any]
    title: str
    round: int
    status: str


@dataclass(frozen=True)
class Bump:
    """A change's version check and what the game's row becomes with it."""

    game_id: int
    created_at: datetime  # tells the game from a deleted one that had the same id
    version: int  # the version the change was made from
    round: int
    status: str


class GameRepository(Protocol):
    """Where games and their event logs are kept."""

    def add(self, game: NewGame) -> StoredGame: ...
    def get(self, game_id: int) -> StoredGame | None: ...
    def version(self, game_id: int) -> int | None: ...
    def events(self, game_id: int) -> list[StoredEvent]: ...
    def action(self, game_id: int, seq: int) -> dict[str, Any] | None: ...
    def list_games(self) -> list[StoredGame]: ...
    def delete(self, game_id: int) -> bool: ...

    def change(self, bump: Bump) -> AbstractContextManager[None]:
        """One transaction: the version check, then the block's writes, then the commit.

        VersionConflict, with nothing written, if the check or a write is refused.
        """

    # The event writes, made inside `change`.
    def append(self, game_id: int, seq: int, action: dict[str, Any]) -> None: ...
    def mark_undone(self, game_id: int, seq: int, undone: bool) -> None: ...
    def drop_undone(self, game_id: int) -> None: ...


_GAME_COLUMNS = (  # in StoredGame's order
    Game.id,
    Game.created_at,
    Game.updated_at,
    Game.version,
    Game.title,
    Game.mode,
    Game.round,
    Game.status,
    Game.setup,
)
# The statements are built once, with bound parameters, and run with their values.
_THE_GAME = Game.id == bindparam("game")
_ITS_EVENTS = GameEvent.game_id == bindparam("game")
_ONE_EVENT = and_(_ITS_EVENTS, GameEvent.seq == bindparam("event_seq"))
_NOT_SYNCED = {"synchronize_session": False}  # the Session holds no rows to update
_GAME = select(*_GAME_COLUMNS).where(_THE_GAME)
_VERSION = select(Game.version).where(_THE_GAME)
_EVENTS = (
    select(GameEvent.seq, GameEvent.action, GameEvent.undone)
    .where(_ITS_EVENTS)
    .order_by(GameEvent.seq)
)
_ACTION = select(GameEvent.action).where(_ONE_EVENT)
_LIST = select(*_GAME_COLUMNS).order_by(Game.updated_at.desc(), Game.id.desc())
_DELETE_EVENTS = delete(GameEvent).where(_ITS_EVENTS).execution_options(**_NOT_SYNCED)
_DELETE_GAME = delete(Game).where(_THE_GAME).execution_options(**_NOT_SYNCED)
_BUMP = (
    update(Game)
    .where(
        _THE_GAME,
        Game.version == bindparam("expected_version"),
        Game.created_at == bindparam("created"),  # not a new game that reused the id
    )
    .values(
        version=bindparam("next_version"),
        round=bindparam("new_round"),
        status=bindparam("new_status"),
        updated_at=bindparam("now"),
    )
    .execution_options(**_NOT_SYNCED)
)
_APPEND = insert(GameEvent).values(
    game_id=bindparam("game"),
    seq=bindparam("event_seq"),
    actor="player",
    action=bindparam("event_action"),
    created_at=bindparam("now"),
)
_ARCHIVE = select(Game.id, *(getattr(Game, field.name) for field in fields(ArchivedGame)))
_ARCHIVE = _ARCHIVE.order_by(Game.id)
_LOGGED = select(
    GameEvent.game_id, GameEvent.seq, GameEvent.action, GameEvent.undone, GameEvent.created_at
)
_ALL_LOGGED = _LOGGED.order_by(GameEvent.game_id, GameEvent.seq)
_ITS_LOGGED = _LOGGED.where(_ITS_EVENTS).order_by(GameEvent.seq)
_TIMES = (
    select(GameEvent.seq, GameEvent.created_at)
    .where(_ITS_EVENTS, GameEvent.seq > bindparam("after"), GameEvent.undone.is_(False))
    .order_by(GameEvent.seq)
)
_FINGERPRINTS = select(Game.setup, Game.created_at)
_MARK = (
    update(GameEvent)
    .where(_ONE_EVENT)
    .values(undone=bindparam("is_undone"))
    .execution_options(**_NOT_SYNCED)
)
_DROP_UNDONE = (
    delete(GameEvent).where(_ITS_EVENTS, GameEvent.undone).execution_options(**_NOT_SYNCED)
)

_THE_STICKER = and_(
    StickerRead.game_id == bindparam("game"),
    StickerRead.card == bindparam("sticker_card"),
    StickerRead.copy == bindparam("sticker_copy"),
)
_READ_SOON = (
    update(StickerRead)
    .where(_THE_STICKER)
    .values(read_at=bindparam("now"))
    .execution_options(**_NOT_SYNCED)
)
_READ_AGAIN = _READ_SOON.where(StickerRead.read_at < bindparam("since"))
_FIRST_READ = insert(StickerRead).values(
    game_id=bindparam("game"),
    card=bindparam("sticker_card"),
    copy=bindparam("sticker_copy"),
    read_at=bindparam("now"),
)


class SqlAlchemyRepository:
    """Games in the database, through a Session.

    The writes of one process queue on `write_lock` from the UPDATE to the commit, so each
    goes on the moment the one before commits. Without it a second writer gets SQLite's
    "busy", and its busy handler sleeps 1, 2, 5... ms before trying again, whatever the
    first writer needed. Other processes still queue on SQLite's own lock.
    """

    def __init__(self, session: Session, write_lock: threading.Lock) -> None:
        self.session = session
        self.write_lock = write_lock

    def add(self, game: NewGame) -> StoredGame:
        row = Game(**asdict(game))
        with self._writing():
            self.session.add(row)
        # Read back after the commit: the creation time as the database keeps it, which
        # is what a change's version check compares.
        return StoredGame(*(getattr(row, column.key) for column in _GAME_COLUMNS))

    # The reads a tap makes run on the Session's connection, in its transaction, as Core
    # queries (as `_run` runs the writes): they want rows, not ORM objects, and the ORM's
    # execution path was a third of a stale tap's answer (issue 29). The Session holds no
    # pending rows to flush first: `add` commits its own.
    def get(self, game_id: int) -> StoredGame | None:
        row = self.session.connection().execute(_GAME, {"game": game_id}).first()
        return None if row is None else StoredGame(*row)

    def version(self, game_id: int) -> int | None:
        return self.session.connection().scalar(_VERSION, {"game": game_id})

    def events(self, game_id: int) -> list[StoredEvent]:
        rows = self.session.connection().execute(_EVENTS, {"game": game_id})
        return [StoredEvent(*row) for row in rows]

    def action(self, game_id: int, seq: int) -> dict[str, Any] | None:
        return self.session.connection().scalar(_ACTION, {"game": game_id, "event_seq": seq})

    def event_times(self, game_id: int, after: int) -> list[tuple[int, datetime]]:
        """The seq and time of each active event after the first `after` (the turn
        clock's; a Core query in the session's transaction: no ORM objects to build)."""
        rows = self.session.connection().execute(_TIMES, {"game": game_id, "after": after})
        return [(seq, at) for seq, at in rows]

    def list_games(self) -> list[StoredGame]:
        return [StoredGame(*row) for row in self.session.execute(_LIST)]

    def delete(self, game_id: int) -> bool:
        with self._writing():
            self.session.execute(_DELETE_EVENTS, {"game": game_id})
            deleted = self._rows(_DELETE_GAME, {"game": game_id})
        return deleted == 1

    @contextmanager
    def change(self, bump: Bump) -> Iterator[None]:
        values = {
            "game": bump.game_id,
            "expected_version": bump.version,
            "created": bump.created_at,
            "next_version": bump.version + 1,
            "new_round": bump.round,
            "new_status": bump.status,
            "now": utc_now(),
        }
        with self._writing():
            if self._rows(_BUMP, values) != 1:
                raise VersionConflict(bump.game_id)
            try:
                yield
            except IntegrityError as exc:  # the same (game, seq) stored by another request
                raise VersionConflict(bump.game_id) from exc

    def append(self, game_id: int, seq: int, action: dict[str, Any]) -> None:
        values = {"game": game_id, "event_seq": seq, "event_action": action, "now": utc_now()}
        self._run(_APPEND, values)

    def mark_undone(self, game_id: int, seq: int, undone: bool) -> None:
        self._run(_MARK, {"game": game_id, "event_seq": seq, "is_undone": undone})

    def drop_undone(self, game_id: int) -> None:
        self._run(_DROP_UNDONE, {"game": game_id})

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """A transaction holding the write lock: committed at the end, or rolled back."""
        with self.write_lock:
            try:
                yield
                self.session.commit()
            except BaseException:
                self.session.rollback()
                raise

    # -- every game at once: exports, statistics, imports ------------------------------------

    def archive(self) -> list[tuple[int, ArchivedGame]]:
        """Every game's row with its id, oldest id first."""
        rows = self.session.execute(_ARCHIVE)
        return [(row[0], ArchivedGame(*row[1:])) for row in rows]

    def logs(self) -> dict[int, list[LoggedEvent]]:
        """Every game's events with their times, by game id, in their order."""
        by_game: dict[int, list[LoggedEvent]] = {}
        for game_id, *event in self.session.execute(_ALL_LOGGED):
            by_game.setdefault(game_id, []).append(LoggedEvent(*event))
        return by_game

    def log(self, game_id: int) -> list[LoggedEvent]:
        """One game's events with their times, in their order."""
        rows = self.session.execute(_ITS_LOGGED, {"game": game_id})
        return [LoggedEvent(*event) for _game, *event in rows]

    def fingerprints(self) -> list[tuple[Any, datetime]]:
        """Every game's setup and creation time (what tells one game from another across
        servers)."""
        return [(setup, created) for setup, created in self.session.execute(_FINGERPRINTS)]

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One transaction holding the write lock, for writes of many games (an import,
        the summaries' rebuild): committed at the end, or rolled back."""
        with self._writing():
            yield self.session

    def add_archived(self, game: ArchivedGame, events: list[LoggedEvent]) -> int:
        """Store a game read from an export, with its events, in the caller's
        `transaction`; its new id."""
        row = Game(**asdict(game))
        self.session.add(row)
        self.session.flush()  # gives the game its id
        self.session.add_all(GameEvent(game_id=row.id, **asdict(event)) for event in events)
        return int(row.id)

    def fresh_read(self, game_id: int, card: str, copy: int, within: timedelta) -> bool:
        """Record that this copy's sticker was just read in this game; whether it had not
        been read `within` the time before (a sticker held in front of the camera stays
        ignored). One transaction, so every server process agrees."""
        now = utc_now()
        values = {"game": game_id, "sticker_card": card, "sticker_copy": copy, "now": now}
        with self._writing():
            if self._rows(_READ_AGAIN, {**values, "since": now - within}):
                return True
            try:
                with self.session.begin_nested():
                    self.session.execute(_FIRST_READ, values)
            except IntegrityError:  # read moments ago (here or by another process)
                self.session.execute(_READ_SOON, values)
                return False
            return True

    def _rows(self, statement: Update | Delete, values: dict[str, object]) -> int:
        """Run an UPDATE or DELETE; the number of rows it changed."""
        return self._run(statement, values).rowcount

    def _run(
        self, statement: Insert | Update | Delete, values: dict[str, object]
    ) -> CursorResult[Any]:
        """Run a write on the Session's connection, in its transaction: as plain SQL, for
        the Session holds none of the rows it writes (the ORM's bulk machinery, which
        `Session.execute` brings in for it, is half a tap's database time)."""
        return self.session.connection().execute(statement, values)


def for_app() -> SqlAlchemyRepository:
    """The repository of the current app's database: its session and its write lock."""
    return SqlAlchemyRepository(db.session(), current_app.extensions["game_write_lock"])

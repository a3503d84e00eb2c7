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
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Protocol, cast

from flask import current_app
from sqlalchemy import CursorResult, Delete, Update, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from companion.db import db
from companion.db.models import Game, GameEvent, utc_now


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

    def get(self, game_id: int) -> StoredGame | None:
        row = self.session.execute(select(*_GAME_COLUMNS).where(Game.id == game_id)).first()
        return None if row is None else StoredGame(*row)

    def version(self, game_id: int) -> int | None:
        return self.session.scalar(select(Game.version).where(Game.id == game_id))

    def events(self, game_id: int) -> list[StoredEvent]:
        rows = self.session.execute(
            select(GameEvent.seq, GameEvent.action, GameEvent.undone)
            .where(GameEvent.game_id == game_id)
            .order_by(GameEvent.seq)
        )
        return [StoredEvent(*row) for row in rows]

    def action(self, game_id: int, seq: int) -> dict[str, Any] | None:
        return self.session.scalar(
            select(GameEvent.action).where(GameEvent.game_id == game_id, GameEvent.seq == seq)
        )

    def list_games(self) -> list[StoredGame]:
        rows = self.session.execute(
            select(*_GAME_COLUMNS).order_by(Game.updated_at.desc(), Game.id.desc())
        )
        return [StoredGame(*row) for row in rows]

    def delete(self, game_id: int) -> bool:
        with self._writing():
            self.session.execute(delete(GameEvent).where(GameEvent.game_id == game_id))
            deleted = self._rows(delete(Game).where(Game.id == game_id))
        return deleted == 1

    @contextmanager
    def change(self, bump: Bump) -> Iterator[None]:
        with self._writing():
            bumped = self._rows(
                update(Game)
                .where(
                    Game.id == bump.game_id,
                    Game.version == bump.version,
                    Game.created_at == bump.created_at,
                )
                .values(
                    version=bump.version + 1,
                    round=bump.round,
                    status=bump.status,
                    updated_at=utc_now(),
                )
            )
            if bumped != 1:
                raise VersionConflict(bump.game_id)
            try:
                yield
            except IntegrityError as exc:  # the same (game, seq) stored by another request
                raise VersionConflict(bump.game_id) from exc

    def append(self, game_id: int, seq: int, action: dict[str, Any]) -> None:
        self.session.execute(
            insert(GameEvent).values(
                game_id=game_id, seq=seq, actor="player", action=action, created_at=utc_now()
            )
        )

    def mark_undone(self, game_id: int, seq: int, undone: bool) -> None:
        self.session.execute(
            update(GameEvent)
            .where(GameEvent.game_id == game_id, GameEvent.seq == seq)
            .values(undone=undone)
            .execution_options(synchronize_session=False)
        )

    def drop_undone(self, game_id: int) -> None:
        self.session.execute(
            delete(GameEvent)
            .where(GameEvent.game_id == game_id, GameEvent.undone)
            .execution_options(synchronize_session=False)
        )

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

    def _rows(self, statement: Update | Delete) -> int:
        """Run an UPDATE or DELETE; the number of rows it changed."""
        result = self.session.execute(statement.execution_options(synchronize_session=False))
        return cast(CursorResult[Any], result).rowcount


def for_app() -> SqlAlchemyRepository:
    """The repository of the current app's database: its session and its write lock."""
    lock = current_app.extensions.setdefault("game_write_lock", threading.Lock())
    return SqlAlchemyRepository(db.session(), lock)

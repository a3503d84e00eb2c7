"""The summary table's reads and writes, and `flask --app wsgi stats rebuild`.

A record is written in the transaction of the change that ends a game (and rewritten by
each later change while it stays ended, such as the tie-break counts); a change that
takes the end back (Undo) deletes it. The rebuild replays every stored game.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import click
from flask import current_app
from flask.cli import AppGroup
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from companion.db import db, repository
from companion.db.backup import BackupRefused, rotating_backup
from companion.db.models import utc_now
from companion.db.repository import ArchivedGame
from companion.rules import codec
from companion.rules.catalog import Catalog
from companion.rules.engine import new_game, replay
from companion.rules.state import GameState
from companion.stats.models import GameRecord
from companion.stats.summary import Record, summarize


@dataclass(frozen=True)
class RecordFilter:
    """Which finished games the history lists; None: any."""

    mode: str | None = None
    difficulty: str | None = None
    ix: bool | None = None
    epic: bool | None = None
    leader: str | None = None
    since: datetime | None = None
    until: datetime | None = None  # exclusive


NEWEST_FIRST = (GameRecord.ended_at.desc(), GameRecord.game_id.desc())
CHUNK = 500  # ids per IN (...) query: under SQLite's oldest limit of 999 parameters


class RecordStore:
    """The summary rows of one database session."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def put(self, game_id: int, state: GameState, started: datetime, ended: datetime) -> None:
        """Write (or replace) the game's record; the caller commits."""
        record = summarize(game_id, state, started, ended)
        self.session.execute(delete(GameRecord).where(GameRecord.game_id == game_id))
        self.session.add(
            GameRecord(
                game_id=game_id,
                ended_at=ended,
                mode=record["mode"],
                difficulty=record["difficulty"],
                ix=record["ix"],
                epic=record["epic"],
                data=record,
                written_at=utc_now(),
            )
        )

    def drop(self, game_id: int) -> None:
        """Delete the game's record (it is no longer finished); the caller commits."""
        self.session.execute(delete(GameRecord).where(GameRecord.game_id == game_id))

    def ended_at(self, game_id: int) -> datetime | None:
        """When the game's record says it ended."""
        return self.session.scalar(select(GameRecord.ended_at).where(GameRecord.game_id == game_id))

    def version(self) -> tuple[object, ...]:
        """Changes whenever a row is written or deleted (count, ids, last write)."""
        row = self.session.execute(
            select(
                func.count(),
                func.coalesce(func.sum(GameRecord.game_id), 0),
                func.max(GameRecord.written_at),
            )
        ).one()
        return tuple(row)

    def stamps(self) -> list[tuple[int, datetime]]:
        """Every row's game id and when it was written, oldest game first (the order of
        `aggregate.results`), without reading the records themselves."""
        query = select(GameRecord.game_id, GameRecord.written_at).order_by(
            GameRecord.ended_at, GameRecord.game_id
        )
        return [(game_id, written) for game_id, written in self.session.execute(query)]

    def some(self, game_ids: list[int]) -> dict[int, Record]:
        """The records of these games (those that still exist), by game id."""
        found: dict[int, Record] = {}
        for start in range(0, len(game_ids), CHUNK):
            chunk = game_ids[start : start + CHUNK]
            query = select(GameRecord.game_id, GameRecord.data).where(GameRecord.game_id.in_(chunk))
            found.update((game_id, data) for game_id, data in self.session.execute(query))
        return found

    def get(self, game_id: int) -> Record | None:
        return self.session.scalar(select(GameRecord.data).where(GameRecord.game_id == game_id))

    def records(self, where: RecordFilter | None = None) -> list[Record]:
        """The finished games' records, most recent first."""
        query = select(GameRecord.data).order_by(*NEWEST_FIRST)
        rows = self.session.scalars(_filtered(query, where))
        if where is not None and where.leader:
            return [r for r in rows if any(h["leader"] == where.leader for h in r["houses"])]
        return list(rows)

    def newest(self, where: RecordFilter, count: int) -> tuple[list[Record], int]:
        """The `count` most recent records the filter matches, and how many match in all;
        without a leader to match, only those rows are read and decoded."""
        if where.leader:
            matching = self.records(where)
            return matching[:count], len(matching)
        query = _filtered(select(GameRecord.data).order_by(*NEWEST_FIRST).limit(count), where)
        total = _filtered(select(func.count()).select_from(GameRecord), where)
        return list(self.session.scalars(query)), int(self.session.scalar(total) or 0)


def _filtered(query: Any, where: RecordFilter | None) -> Any:
    """The query narrowed to the filter's columns (the leader is matched in Python)."""
    if where is None:
        return query
    columns = {
        GameRecord.mode: where.mode,
        GameRecord.difficulty: where.difficulty,
        GameRecord.ix: where.ix,
        GameRecord.epic: where.epic,
    }
    for column, value in columns.items():
        if value is not None:
            query = query.where(column == value)
    if where.since is not None:
        query = query.where(GameRecord.ended_at >= where.since)
    if where.until is not None:
        query = query.where(GameRecord.ended_at < where.until)
    return query


def for_app() -> RecordStore:
    """The current app's summary rows, in the session the repository writes with."""
    return RecordStore(db.session())


def _game_state(
    games: repository.SqlAlchemyRepository, game_id: int, game: ArchivedGame, catalog: Catalog
) -> tuple[GameState, datetime]:
    """A stored game's state by replay, and the time of its last active event."""
    events = [event for event in games.log(game_id) if not event.undone]
    initial = new_game(codec.decode_setup(game.setup), catalog)
    state = replay(initial, [codec.decode(event.action) for event in events])
    last = max((event.created_at for event in events), default=game.updated_at)
    return state, last


def rebuild(catalog: Catalog) -> int:
    """Write every finished game's record anew from its event log; the number written."""
    games = repository.for_app()
    written = 0
    with games.transaction() as session:
        store = RecordStore(session)
        session.execute(delete(GameRecord))
        for game_id, game in games.archive():
            state, last = _game_state(games, game_id, game, catalog)
            if state.phase == "ended":
                store.put(game_id, state, game.created_at, last)
                written += 1
    return written


def count() -> int:
    return db.session.scalar(select(func.count()).select_from(GameRecord)) or 0


stats_cli = AppGroup("stats", help="Game history and statistics.")


@stats_cli.command("rebuild")
def rebuild_command() -> None:
    """Rebuild every finished game's summary from its event log (after a rules change)."""
    written = rebuild(current_app.extensions["catalog"])
    click.echo(f"Rebuilt the summaries of {written} finished games.")


def backup_after_end() -> None:
    """A rotating backup in `backups/` beside an SQLite database once a game has ended;
    nothing for other databases or when the copy can't be made (the game is stored)."""
    try:
        rotating_backup(db.engine.url)
    except (BackupRefused, sqlite3.Error, OSError) as exc:
        current_app.logger.info("No backup after the game's end: %s", exc)

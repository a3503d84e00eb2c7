"""Backups of the games database that hold every game.

SQLite keeps recent commits in its write-ahead log (`companion.sqlite-wal`) until a
checkpoint moves them into the main file, so copying the main file alone can miss them.
Here: a consistent copy made with SQLite's online backup API while the server runs
(`flask --app wsgi backup PATH`, and the rotating copies `companion.serve` makes in
`backups/` beside the database at each start), and the checkpoint the server runs when
it stops. Another database (PostgreSQL) is backed up with its own tool, `pg_dump`.
"""

from __future__ import annotations

import os
import re
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import click
from flask.cli import with_appcontext
from sqlalchemy import Engine
from sqlalchemy.engine import URL

from companion.db import db

__all__ = [
    "BACKUPS_KEPT",
    "BackupRefused",
    "Copied",
    "backup_command",
    "backup_to",
    "checkpoint",
    "rotating_backup",
    "sqlite_file",
]

BACKUPS_KEPT = 10  # the automatic backups kept in backups/, newest first
STAMP = "%Y%m%dT%H%M%SZ"  # UTC, so the names sort in time order


class BackupRefused(Exception):
    """No backup made: the message says why, and what to do instead."""


@dataclass(frozen=True)
class Copied:
    """A finished backup: where it is and what it holds (counted in the copy itself)."""

    path: Path
    games: int
    events: int


def sqlite_file(url: URL) -> Path:
    """The SQLite file behind a database URL, or BackupRefused saying what to use."""
    backend = url.get_backend_name()
    if backend == "postgresql":
        raise BackupRefused(
            "The games are in PostgreSQL: back them up with pg_dump, e.g. "
            "`pg_dump --format=custom --file=companion.dump DBNAME` "
            "(restore with pg_restore)."
        )
    if backend != "sqlite":
        raise BackupRefused(
            f"The games are in a {backend} database: back it up with that database's own dump tool."
        )
    if not url.database or url.database == ":memory:":
        raise BackupRefused("The games are in an in-memory SQLite database: no file to copy.")
    return Path(url.database)


def _counted(path: Path) -> Copied:
    with closing(sqlite3.connect(path)) as copy:
        games = copy.execute("SELECT count(*) FROM game").fetchone()[0]
        events = copy.execute("SELECT count(*) FROM game_event").fetchone()[0]
    return Copied(path, int(games), int(events))


def backup_to(url: URL, target: Path) -> Copied:
    """Copy the SQLite database at `url` to `target` with the online backup API.

    The copy is one consistent snapshot, taken in a single step (in WAL mode writers go
    on meanwhile), and a self-contained file (rollback journal, not WAL). It is written
    beside `target` first and renamed over it only when complete.
    """
    source_path = sqlite_file(url)
    if not source_path.is_file():
        raise BackupRefused(f"There is no database at {source_path}: nothing to back up.")
    target = target.resolve()
    if target == source_path.resolve():
        raise BackupRefused(f"{target} is the database itself: choose another path.")
    if not target.parent.is_dir():
        raise BackupRefused(f"The folder {target.parent} does not exist.")
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        with (
            closing(sqlite3.connect(source_path, timeout=30)) as source,
            closing(sqlite3.connect(partial)) as copy,
        ):
            source.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        copied = _counted(partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return Copied(target, copied.games, copied.events)


def rotating_backup(url: URL, now: datetime | None = None, keep: int = BACKUPS_KEPT) -> Copied:
    """Back up into `backups/` beside the database, named by the UTC time; keep the last
    `keep` such copies and delete the older ones (no other file there is touched)."""
    database = sqlite_file(url)
    folder = database.parent / "backups"
    folder.mkdir(exist_ok=True)
    stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime(STAMP)
    copied = backup_to(url, folder / f"{database.stem}-{stamp}.sqlite")
    name = re.compile(re.escape(database.stem) + r"-\d{8}T\d{6}Z\.sqlite")
    ours = sorted((path for path in folder.iterdir() if name.fullmatch(path.name)), reverse=True)
    for old in ours[keep:]:
        old.unlink()
    return copied


def checkpoint(engine: Engine) -> bool:
    """SQLite: move the write-ahead log into the main file and empty it, so the main file
    alone holds every game; then close the pooled connections. False if a connection
    still in use kept the checkpoint from finishing; other databases: nothing to do."""
    complete = True
    if engine.url.get_backend_name() == "sqlite":
        with engine.connect() as connection:
            busy = connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").one()[0]
        complete = busy == 0
    engine.dispose()
    return complete


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, writable=True, path_type=Path))
@with_appcontext
def backup_command(path: Path) -> None:
    """Write a consistent copy of the games database to PATH (safe while the server runs).

    Restore: stop the server and copy the backup over the database file. PostgreSQL:
    use pg_dump instead.
    """
    try:
        copied = backup_to(db.engine.url, path)
    except (BackupRefused, sqlite3.Error, OSError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"Backed up {copied.games} games ({copied.events} events) to {copied.path}")

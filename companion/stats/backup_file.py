"""An uploaded backup file (this app's SQLite database) read without trusting it.

SQLite runs what a database file says: a view named `game` is a query that runs when
`game` is read, a trigger or a virtual table is code, a column can be computed. So the
file (a copy in a temporary folder) is opened read-only and immutable (SQLite reads that
one file and nothing beside it: no journal, no WAL, no lock), and its schema is checked
against ours before a row is read: tables and their indexes only (no view, trigger or
virtual table), `game` and `game_event` with our columns, none computed nor defaulted by
an expression. SQLite's work is bounded meanwhile: `trusted_schema` off, an authorizer
that allows the reads below and nothing else, a cap on the size of any one value
(`SQLITE_LIMIT_LENGTH`, checked before SQLite allocates it) and a progress handler that
stops a statement after a fixed number of steps. The rows read are capped in number and
in bytes (a crafted file can list one page of rows a billion times).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask_babel import gettext as _

from companion.stats.untrusted import (
    MAX_EVENTS,
    MAX_GAMES,
    MAX_IMPORT_BYTES,
    MAX_VALUE_BYTES,
    Budget,
    ImportRefused,
    parse,
    too_many_events,
    too_many_games,
)

SQLITE_HEADER = b"SQLite format 3\x00"
# The columns read, by table; a backup may have more (they are not read).
COLUMNS = {
    "game": ("id", "created_at", "updated_at", "ruleset", "title", "setup"),
    "game_event": ("game_id", "seq", "action", "undone", "created_at"),
}
STEP_BATCH = 1_000  # SQLite's virtual machine steps between two calls of the handler
MAX_STEPS = 40_000_000  # for the whole file; a 12 MB backup needs under a tenth of it
MAX_SCHEMA_ROWS = 200
LIMITS = {  # SQLite's limits on this connection (each lower than its default)
    sqlite3.SQLITE_LIMIT_LENGTH: MAX_VALUE_BYTES,
    sqlite3.SQLITE_LIMIT_SQL_LENGTH: 100_000,
    sqlite3.SQLITE_LIMIT_COLUMN: 200,
    sqlite3.SQLITE_LIMIT_EXPR_DEPTH: 100,
    sqlite3.SQLITE_LIMIT_COMPOUND_SELECT: 4,
    sqlite3.SQLITE_LIMIT_FUNCTION_ARG: 8,
    sqlite3.SQLITE_LIMIT_ATTACHED: 0,
    sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH: 100,
    sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER: 10,
    sqlite3.SQLITE_LIMIT_TRIGGER_DEPTH: 1,
    sqlite3.SQLITE_LIMIT_WORKER_THREADS: 0,
}
_VIRTUAL = re.compile(r"\s*create\s+virtual\s", re.IGNORECASE)
_READABLE = {"sqlite_master", "sqlite_schema", *COLUMNS}
_PRAGMAS = {"table_xinfo"}


def damaged() -> ImportRefused:
    return ImportRefused(_("This file is not a backup of this app, or it is damaged."))


@dataclass
class _Work:
    """The progress handler's count of SQLite's steps."""

    batches: int = 0
    stopped: bool = False

    def step(self) -> int:
        """Called every STEP_BATCH steps; nonzero stops the statement."""
        self.batches += 1
        self.stopped = self.batches * STEP_BATCH > MAX_STEPS
        return int(self.stopped)


def _authorize(action: int, arg1: str | None, arg2: str | None, *_where: object) -> int:
    """Only reads of the schema and of the two tables, and the one pragma, are allowed."""
    if action == sqlite3.SQLITE_SELECT:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_READ and (arg1 or "").lower() in _READABLE:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA and (arg1 or "").lower() in _PRAGMAS:
        return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


def document_from_backup(path: Path, budget: Budget) -> dict[str, Any]:
    """The games of a backup file as a JSON export's games (ImportRefused if the file is
    not one this app wrote, is damaged or is over a cap)."""
    with path.open("rb") as file:
        header = file.read(100)
    if not header.startswith(SQLITE_HEADER) or len(header) < 100:
        raise damaged()
    if 2 in (header[18], header[19]):  # the file format's write and read versions
        raise ImportRefused(
            _(
                "This database file is in WAL mode, so its latest changes may be in another "
                "file: import the backup this app downloads (History, Full backup)."
            )
        )
    work = _Work()
    try:
        with closing(_connect(path, work)) as backup:
            _check_schema(backup)
            games = _games(backup, budget)
            events = _events(backup, budget)
    except sqlite3.DataError as exc:  # SQLITE_TOOBIG: a value over SQLITE_LIMIT_LENGTH
        raise ImportRefused(
            _(
                "A value in this backup is larger than %(megabytes)d MB: nothing was imported.",
                megabytes=MAX_VALUE_BYTES // (1024 * 1024),
            )
        ) from exc
    except sqlite3.Error as exc:
        if work.stopped:
            raise ImportRefused(
                _("Reading this backup took too much work: nothing was imported.")
            ) from exc
        raise damaged() from exc
    for game in games:
        game["events"] = events.get(game.pop("id"), [])
    return {"games": games}


def _connect(path: Path, work: _Work) -> sqlite3.Connection:
    uri = f"{path.resolve().as_uri()}?mode=ro&immutable=1"
    backup = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=True)
    for limit, value in LIMITS.items():
        backup.setlimit(limit, value)
    backup.execute("PRAGMA trusted_schema=OFF")
    backup.set_progress_handler(work.step, STEP_BATCH)
    backup.set_authorizer(_authorize)
    return backup


def _refused_object(kind: str, name: str) -> ImportRefused:
    messages = {
        "view": _(
            "This backup has a view (%(name)s), which this app's backups never have: "
            "nothing was imported.",
            name=name,
        ),
        "trigger": _(
            "This backup has a trigger (%(name)s), which this app's backups never have: "
            "nothing was imported.",
            name=name,
        ),
        "virtual": _(
            "This backup has a virtual table (%(name)s), which this app's backups never "
            "have: nothing was imported.",
            name=name,
        ),
    }
    return ImportRefused(messages[kind]) if kind in messages else damaged()


def _check_schema(backup: sqlite3.Connection) -> None:
    """ImportRefused unless the schema holds tables and indexes only, and the two tables
    read have our columns, none computed nor defaulted by an expression."""
    rows = backup.execute(
        "SELECT type, name, sql FROM sqlite_master LIMIT ?", (MAX_SCHEMA_ROWS + 1,)
    ).fetchall()
    if len(rows) > MAX_SCHEMA_ROWS:
        raise damaged()
    tables = set()
    for kind, name, sql in rows:
        shown = str(name)[:60]
        if kind not in ("table", "index"):
            raise _refused_object(str(kind), shown)
        if kind == "table" and _VIRTUAL.match(str(sql or "")):
            raise _refused_object("virtual", shown)
        if kind == "table":
            tables.add(name)
    for table, wanted in COLUMNS.items():
        if table not in tables:
            raise damaged()
        columns = backup.execute(f"PRAGMA table_xinfo({table})").fetchall()
        names = {column[1] for column in columns}
        computed = [c for c in columns if c[6] != 0 or "(" in str(c[4] or "")]
        if not set(wanted) <= names or computed:
            raise damaged()


def _rows(backup: sqlite3.Connection, query: str, cap: int) -> Iterator[Any]:
    """The query's rows, one at a time: at most `cap` (then ImportRefused from the
    caller's check), and MAX_IMPORT_BYTES of text and blobs together."""
    read = 0
    for row in backup.execute(query, (cap + 1,)):
        read += sum(len(value) for value in row if isinstance(value, str | bytes))
        if read > MAX_IMPORT_BYTES:
            raise ImportRefused(
                _(
                    "This backup holds more than %(megabytes)d MB of games: nothing was imported.",
                    megabytes=MAX_IMPORT_BYTES // (1024 * 1024),
                )
            )
        yield row


def _json(text: Any, budget: Budget) -> Any:
    """A JSON column's value as SQLite keeps it (text), read within the budget; None if
    it isn't JSON."""
    return parse(text, budget, lenient=True) if isinstance(text, str) else None


def _games(backup: sqlite3.Connection, budget: Budget) -> list[dict[str, Any]]:
    query = "SELECT id, created_at, updated_at, ruleset, title, setup FROM game LIMIT ?"
    games: list[dict[str, Any]] = []
    for game_id, created, updated, ruleset, title, setup in _rows(backup, query, MAX_GAMES):
        if len(games) == MAX_GAMES:
            raise too_many_games()
        games.append(
            {
                "id": game_id,
                "created_at": created,
                "updated_at": updated,
                "ruleset": ruleset,
                "title": title,
                "setup": _json(setup, budget),
            }
        )
    return games


def _events(backup: sqlite3.Connection, budget: Budget) -> dict[Any, list[dict[str, Any]]]:
    """Each game's events, by game id, in their order."""
    query = "SELECT game_id, seq, action, undone, created_at FROM game_event LIMIT ?"
    rows: list[tuple[int, int, Any, bool, Any]] = []
    for game_id, seq, action, undone, created in _rows(backup, query, MAX_EVENTS):
        if len(rows) == MAX_EVENTS:
            raise too_many_events()
        if not (isinstance(game_id, int) and isinstance(seq, int)):
            raise damaged()
        rows.append((game_id, seq, _json(action, budget), bool(undone), created))
    rows.sort(key=lambda row: row[:2])
    by_game: dict[Any, list[dict[str, Any]]] = {}
    for game_id, seq, action, undone, created in rows:
        by_game.setdefault(game_id, []).append(
            {"seq": seq, "action": action, "undone": undone, "created_at": created}
        )
    return by_game

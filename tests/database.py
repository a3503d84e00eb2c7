"""Which database the tests that store games use: SQLite, or the PostgreSQL server named
by COMPANION_TEST_DATABASE_URI (scripts/test-postgres.sh starts one and sets it)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.pool import NullPool

SERVER_URI = os.environ.get("COMPANION_TEST_DATABASE_URI", "")


def memory_uri() -> str:
    """A database for one test: in-memory SQLite, or the test server's (emptied before
    each test)."""
    return SERVER_URI or "sqlite://"


def file_uri(path: Path) -> str:
    """A database several apps or processes share: the SQLite file `path`, or the test
    server's."""
    return SERVER_URI or f"sqlite:///{path}"


def empty_server_database() -> None:
    """Drop every table (and the migrations' record) of the test server's database, so
    each test starts on an empty one as it would on a new SQLite file."""
    engine = create_engine(SERVER_URI, poolclass=NullPool)
    try:
        with engine.begin() as connection:
            connection.execute(text("SET LOCAL lock_timeout = '20s'"))
            connection.execute(text("DROP SCHEMA public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
    finally:
        engine.dispose()


@contextmanager
def engines_closed_after() -> Iterator[None]:
    """Close every engine's pooled connections that connected inside the block (a test's
    apps are not all disposed, and a PostgreSQL connection left to the garbage collector
    warns; on SQLite a lost connection just closes)."""
    engines: set[Engine] = set()  # held, so none is collected with its connections open

    def seen(connection: Connection) -> None:
        engines.add(connection.engine)

    event.listen(Engine, "engine_connect", seen)
    try:
        yield
    finally:
        event.remove(Engine, "engine_connect", seen)
        for engine in list(engines):
            engine.dispose()

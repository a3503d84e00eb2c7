"""Which database the tests that store games use: SQLite, or the PostgreSQL server named
by COMPANION_TEST_DATABASE_URI (scripts/test-postgres.sh starts one and sets it)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event, make_url, text
from sqlalchemy.pool import NullPool


def _own_database(uri: str, worker: str) -> str:
    """The server database of one pytest-xdist worker (`gw0`, `gw1`...): `<name>_<worker>`
    beside the one named, created the first time, so that workers running side by side
    never empty each other's tables."""
    url = make_url(uri)
    name = f"{url.database}_{worker}"
    engine = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    try:
        with engine.connect() as connection:
            found = connection.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
            ).first()
            if found is None:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return url.set(database=name).render_as_string(hide_password=False)


SERVER_URI = os.environ.get("COMPANION_TEST_DATABASE_URI", "")
if SERVER_URI and os.environ.get("PYTEST_XDIST_WORKER"):
    SERVER_URI = _own_database(SERVER_URI, os.environ["PYTEST_XDIST_WORKER"])


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

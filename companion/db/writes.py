"""A tap's write, run on a DB-API connection of the engine's pool.

A tap writes one UPDATE of the game (its version), one INSERT or UPDATE of an event and
the commit. Through the Session and Core's execute those took some 270 µs of CPU against
some 140 µs on the DB-API cursor, most of the difference the Session's transaction and
Core's execution context; a tap's whole write path is some 2 ms. So the statements are
still written with SQLAlchemy Core, and compiled once per database dialect by SQLAlchemy
(the SQL text, its parameters' order and how each value is sent: a datetime or JSON as
that dialect stores it), but run on the driver's cursor: the same SQL and the same values
as Core's execute would send.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, cast

from sqlalchemy import Engine
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement

DIALECTS_KEPT = 16


class Duplicate(Exception):
    """The database refused a row as a duplicate (a unique constraint)."""


@dataclass(frozen=True)
class _Compiled:
    sql: str
    order: tuple[str, ...] | None  # parameter names in order, for positional styles
    convert: tuple[tuple[str, Callable[[Any], Any]], ...]  # per name, where needed

    def bind(self, values: Mapping[str, object]) -> Sequence[object] | Mapping[str, object]:
        """`values` as the driver takes them for this statement."""
        sent = dict(values)
        for name, process in self.convert:
            sent[name] = process(sent[name])
        if self.order is None:
            return sent
        return tuple(sent[name] for name in self.order)


class Prepared:
    """A Core statement whose parameters are all `bindparam`s, compiled per dialect."""

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        # By dialect: one per engine (a WeakKeyDictionary's get took 1% of a tap).
        self._compiled: dict[Dialect, _Compiled] = {}

    def compiled(self, dialect: Dialect) -> _Compiled:
        found = self._compiled.get(dialect)
        if found is None:
            compiled = cast(SQLCompiler, self.statement.compile(dialect=dialect))
            convert = []
            for name, bind in compiled.binds.items():
                process = bind.type.dialect_impl(dialect).bind_processor(dialect)
                if process is not None:
                    convert.append((name, process))
            positional = compiled.positiontup
            found = _Compiled(
                compiled.string,
                tuple(positional) if positional is not None else None,
                tuple(convert),
            )
            if len(self._compiled) >= DIALECTS_KEPT:  # engines come and go (tests)
                self._compiled.clear()
            self._compiled[dialect] = found
        return found


class Write:
    """One transaction on a pooled DB-API connection: `run` prepared statements, then
    `commit`; leaving the block without committing rolls back."""

    def __init__(self, engine: Engine) -> None:
        self.dialect = engine.dialect
        self.connection = engine.raw_connection()
        self.cursor = self.connection.cursor()
        self.duplicate: type[Exception] = self.dialect.loaded_dbapi.IntegrityError
        self.committed = False

    def __enter__(self) -> Write:
        return self

    def run(self, statement: Prepared, values: Mapping[str, object]) -> int:
        """Execute `statement` with `values`; the number of rows it changed."""
        compiled = statement.compiled(self.dialect)
        try:
            self.cursor.execute(compiled.sql, compiled.bind(values))
        except self.duplicate as exc:
            raise Duplicate(str(exc)) from exc
        return int(self.cursor.rowcount)

    def commit(self) -> None:
        self.connection.commit()
        self.committed = True

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        try:
            if not self.committed:
                self.connection.rollback()
        finally:
            self.cursor.close()
            self.connection.close()  # back to the pool

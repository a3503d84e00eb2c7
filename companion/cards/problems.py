"""A problem in card_db, and the run that collects them while the checks walk the records."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeGuard

from companion.cards.schema import FILES

Report = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong in card_db: which file, which record (if any), and what."""

    file: str
    record: str | None
    message: str

    def __str__(self) -> str:
        if self.record is None:
            return f"{self.file}: {self.message}"
        return f"{self.file}: {self.record}: {self.message}"


def is_int(value: object) -> TypeGuard[int]:
    """True for a TOML integer (bool is not an integer here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def choices(values: Sequence[object]) -> str:
    return ", ".join(str(v) for v in values)


def record_id(record: Mapping[str, object]) -> str | None:
    value = record.get("id")
    return value if isinstance(value, str) and value else None


def str_or_none(record: Mapping[str, object], key: str) -> str | None:
    value = record.get(key)
    return value if isinstance(value, str) else None


def int_or_zero(record: Mapping[str, object], key: str) -> int:
    value = record.get(key, 0)
    return value if is_int(value) else 0


@dataclass(slots=True)
class Run:
    """Collects problems while the checks walk the records."""

    raw: Mapping[str, Sequence[object]]
    origins: Mapping[str, Sequence[str]]
    problems: list[Problem]

    def file(self, kind: str, index: int) -> str:
        files = self.origins.get(kind, ())
        return files[index] if index < len(files) else FILES.get(kind, f"{kind}.toml")

    def records(self, kind: str) -> list[tuple[int, Mapping[str, object]]]:
        return [(i, r) for i, r in enumerate(self.raw.get(kind, ())) if isinstance(r, Mapping)]

    def reporter(self, kind: str, index: int, record: Mapping[str, object]) -> Report:
        file, rid = self.file(kind, index), record_id(record)
        return lambda message: self.problems.append(Problem(file, rid, message))

    def each(self, kind: str) -> list[tuple[Mapping[str, object], Report]]:
        """The records of one kind, each with the function that reports its problems."""
        return [(r, self.reporter(kind, i, r)) for i, r in self.records(kind)]

    def ids(self, kind: str) -> dict[str, Mapping[str, object]]:
        found: dict[str, Mapping[str, object]] = {}
        for _, record in self.records(kind):
            rid = record_id(record)
            if rid is not None:
                found.setdefault(rid, record)
        return found

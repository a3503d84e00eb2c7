"""The rulings of `card_db/rulings.toml`: read them, and check every key of the file.

Each ruling names its item ("kind:id"), its source and its text. `problems` reports every
problem in one run (a missing or unknown key, an item the set files don't have, a source
that cites no known document, the same ruling twice); `load_rulings` refuses a file with
any.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from companion.cards.index import entries
from companion.rules.catalog import Catalog

RULINGS_FILE: Final[str] = "rulings.toml"
TABLE: Final[str] = "ruling"
KEYS: Final[tuple[str, ...]] = ("item", "source", "text")
# The documents a ruling may cite, as its source begins.
SOURCES: Final[tuple[str, ...]] = (
    "FAQ, ",
    "Rulebook p.",
    "Rise of Ix rulebook p.",
    "House Hagal rules (HAGAL.md)",
)
CITED: Final[str] = "the FAQ, a page of either rulebook, or the House Hagal rules"


@dataclass(frozen=True, slots=True)
class Ruling:
    """A rule that applies to the item, in our words, and where it comes from."""

    text: str
    source: str


Rulings = Mapping[str, tuple[Ruling, ...]]


class RulingsError(Exception):
    """rulings.toml has problems; `problems` lists every one."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s) in {RULINGS_FILE}:\n" + "\n".join(problems))


def _read_records(root: Path, report: list[str]) -> list[object]:
    """The file's [[ruling]] tables, unchecked; what is wrong with the file goes to report."""
    try:
        with (root / RULINGS_FILE).open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        report.append(f"{RULINGS_FILE}: file not found")
        return []
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        report.append(f"{RULINGS_FILE}: invalid TOML: {exc}")
        return []
    for key in data:
        if key != TABLE:
            report.append(f"{RULINGS_FILE}: unknown top-level key '{key}' (use [[{TABLE}]])")
    records = data.get(TABLE, [])
    if not isinstance(records, list):
        report.append(f"{RULINGS_FILE}: '{TABLE}' must be an array of tables ([[{TABLE}]])")
        return []
    return records


def _record_problems(record: object, known: frozenset[str]) -> list[str]:
    """What is wrong with one [[ruling]] table (empty when it is sound)."""
    if not isinstance(record, Mapping):
        return ["must be a table"]
    found = [
        f"unknown key '{key}' (expected: {', '.join(KEYS)})" for key in record if key not in KEYS
    ]
    for key in KEYS:
        value = record.get(key)
        if value is None:
            found.append(f"missing required key '{key}'")
        elif not isinstance(value, str) or not value.strip():
            found.append(f"'{key}' must be a non-empty string")
    item, source = record.get("item"), record.get("source")
    if isinstance(item, str) and item.strip() and item not in known:
        found.append(f"'item' is '{item}', which no set file has (expected 'kind:id')")
    if isinstance(source, str) and source.strip() and not source.startswith(SOURCES):
        found.append(f"'source' is '{source}', which cites no known document ({CITED})")
    return found


def _checked(root: Path, catalog: Catalog) -> tuple[dict[str, tuple[Ruling, ...]], list[str]]:
    """The rulings by item key, in file order, and every problem of the file."""
    report: list[str] = []
    known = frozenset(entry.key for entry in entries(catalog))
    table: dict[str, list[Ruling]] = {}
    for number, record in enumerate(_read_records(root, report), start=1):
        found = _record_problems(record, known)
        name = record.get("item") if isinstance(record, Mapping) else None
        where = f"{RULINGS_FILE}: {name if isinstance(name, str) else f'ruling #{number}'}"
        if not found and isinstance(record, Mapping):
            ruling = Ruling(str(record["text"]), str(record["source"]))
            same = table.setdefault(str(record["item"]), [])
            if ruling in same:
                found.append("the same ruling is listed twice")
            same.append(ruling)
        report.extend(f"{where}: {problem}" for problem in found)
    return {key: tuple(rulings) for key, rulings in table.items()}, report


def problems(root: Path, catalog: Catalog) -> list[str]:
    """Every problem of the rulings file under this card_db folder (empty when all is well)."""
    return _checked(root, catalog)[1]


def load_rulings(root: Path, catalog: Catalog) -> Rulings:
    """The rulings of this card_db folder by item key; RulingsError if the file has problems."""
    table, report = _checked(root, catalog)
    if report:
        raise RulingsError(report)
    return table

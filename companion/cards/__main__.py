"""`python -m companion.cards [--json] [--root PATH]`: validate card_db (the set files, then
rulings.toml, words.toml and concepts.toml), print counts per set."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.cards import CardDbError, default_root, load_catalog, present_sets
from companion.cards.concepts import problems as concept_problems
from companion.cards.counts import COPIES_KINDS
from companion.cards.validate import count_label, set_kinds
from companion.cards.words import problems as word_problems
from companion.lookup.rulings import problems as ruling_problems
from companion.rules.catalog import Catalog

Echo = Callable[[str, bool], None]


def counts_per_set(catalog: Catalog, sets: Sequence[str]) -> dict[str, dict[str, int]]:
    """Copies per set and kind (records, for kinds that have no `copies`)."""

    tables: dict[str, Mapping[str, Any]] = {
        "spaces": catalog.spaces,
        "hagal": catalog.hagal,
        "leaders": catalog.leaders,
        "conflicts": catalog.conflicts,
        "intrigue": catalog.intrigue,
        "tech": catalog.tech,
        "track": catalog.tracks,
    }

    def count(card_set: str, kind: str) -> int:
        if kind not in tables:  # a kind of deck card
            cards = catalog.cards.values()
            return sum(c.copies for c in cards if c.set == card_set and c.kind == kind)
        records = [r for r in tables[kind].values() if r.set == card_set]
        return sum(r.copies for r in records) if kind in COPIES_KINDS else len(records)

    return {
        card_set: {kind: count(card_set, kind) for kind in set_kinds(card_set)} for card_set in sets
    }


def _report(problems: Sequence[str], root: Path, as_json: bool, echo: Echo) -> int:
    """Echo every problem, then how many there are; the exit code 1."""
    if as_json:
        echo(json.dumps({"problems": list(problems)}, indent=2), False)
    else:
        for problem in problems:
            echo(problem, False)
    echo(f"{len(problems)} problem(s) in {root}", True)
    return 1


def check(root: Path, as_json: bool, echo: Echo) -> int:
    """Validate every set present under `root`, then the rulings of rulings.toml; echo the
    problems (return 1) or the counts (0)."""
    # echo(text, to_stderr)
    sets = present_sets(root)
    try:
        catalog = load_catalog(root, sets)
    except CardDbError as exc:
        return _report([str(p) for p in exc.problems], root, as_json, echo)
    found = ruling_problems(root, catalog) + word_problems(root, catalog)
    found += concept_problems(root, catalog)
    if found:
        return _report(found, root, as_json, echo)
    counts = counts_per_set(catalog, sets)
    if as_json:
        echo(json.dumps(counts), False)
        return 0
    echo(f"card_db {catalog.version}: no problems", False)
    for card_set, kinds in counts.items():
        parts = ", ".join(count_label(kind, n) for kind, n in kinds.items())
        echo(f"{card_set}: {parts}", False)
    return 0


def _print(text: str, to_stderr: bool) -> None:
    print(text, file=sys.stderr if to_stderr else sys.stdout)


def main(argv: Sequence[str] | None = None) -> int:
    """Validate every set present in card_db; print the problems (exit 1) or the counts."""
    parser = argparse.ArgumentParser(
        prog="python -m companion.cards",
        description="Validate card_db and print the copies per set and kind.",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--root", type=Path, help="card_db folder (default: the repository's)")
    args = parser.parse_args(argv)
    as_json: bool = args.json
    root: Path = args.root or default_root()
    return check(root, as_json, _print)


if __name__ == "__main__":
    sys.exit(main())

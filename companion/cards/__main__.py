"""`python -m companion.cards [--json] [--root PATH]`: validate card_db, print counts per set."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from companion.cards import CardDbError, default_root, load_catalog, present_sets
from companion.rules.catalog import Catalog


def counts_per_set(catalog: Catalog, sets: Sequence[str]) -> dict[str, dict[str, int]]:
    """Records per set and kind; House Hagal cards are counted by copies."""
    return {
        card_set: {
            "spaces": sum(1 for s in catalog.spaces.values() if s.set == card_set),
            "hagal": sum(h.copies for h in catalog.hagal.values() if h.set == card_set),
            "leaders": sum(1 for x in catalog.leaders.values() if x.set == card_set),
            "conflicts": sum(1 for c in catalog.conflicts.values() if c.set == card_set),
        }
        for card_set in sets
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Validate every set present in card_db; print the problems (exit 1) or the counts."""
    parser = argparse.ArgumentParser(
        prog="python -m companion.cards",
        description="Validate card_db and print the number of records per set.",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--root", type=Path, help="card_db folder (default: the repository's)")
    args = parser.parse_args(argv)
    as_json: bool = args.json
    root: Path = args.root or default_root()
    sets = present_sets(root)
    try:
        catalog = load_catalog(root, sets)
    except CardDbError as exc:
        if as_json:
            print(json.dumps({"problems": [str(p) for p in exc.problems]}, indent=2))
        else:
            for problem in exc.problems:
                print(problem)
        print(f"{len(exc.problems)} problem(s) in {root}", file=sys.stderr)
        return 1
    counts = counts_per_set(catalog, sets)
    if as_json:
        print(json.dumps(counts))
        return 0
    print(f"card_db {catalog.version}: no problems")
    for card_set, kinds in counts.items():
        print(
            f"{card_set}: {kinds['spaces']} spaces, {kinds['hagal']} House Hagal cards, "
            f"{kinds['leaders']} leaders, {kinds['conflicts']} conflicts"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

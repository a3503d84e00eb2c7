"""Benchmark the statistics page with 500 finished games stored (issue 16, "Done when").

    .venv/bin/python scripts/bench_stats.py                 # a table
    .venv/bin/python scripts/bench_stats.py --games 500 --requests 200 --json

Stores the games (companion.stats.sample: simulator games of every mode, solo to four
players, stored again under other names and dates, each with its summary row) in a
temporary SQLite file migrated by the real migrations, then GETs /stats,
/stats?player=Ann, /stats?mode=4p and /history through the app's test client (no
network), and prints per page the median and p99 of the CPU time (`time.process_time`)
and the wall-clock time of each request. The statistics are kept per process until a
summary row changes, and then only the rows written since are read again: "/stats
(after a change)" rewrites one row before each request (as the end of a game does);
"/stats (cold)" empties the cache before each, so every row is read and the statistics
computed from nothing, as on the first request after a start. Target: p99 under 100 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from flask import Flask

from companion import create_app
from companion.db import db
from companion.db.migrate import migrated
from companion.db.models import utc_now
from companion.stats.models import GameRecord
from companion.stats.sample import store_games

PAGES = ("/stats", "/stats?player=Ann", "/stats?mode=4p", "/history")
TARGET_MS = 100.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(
    client: object, url: str, requests: int, before: Callable[[int], None] | None = None
) -> dict[str, float]:
    """CPU and wall milliseconds of `requests` GETs of one page (after one warm-up);
    `before(n)` runs, untimed, before the nth request."""
    get = client.get  # type: ignore[attr-defined]
    assert get(url).status_code == 200
    cpu_ms: list[float] = []
    wall_ms: list[float] = []
    for number in range(requests):
        if before is not None:
            before(number)
        wall, cpu = time.perf_counter(), time.process_time()
        response = get(url)
        cpu_ms.append((time.process_time() - cpu) * 1000)
        wall_ms.append((time.perf_counter() - wall) * 1000)
        assert response.status_code == 200
    return {
        "cpu_p50_ms": round(statistics.median(cpu_ms), 2),
        "cpu_p99_ms": round(percentile(cpu_ms, 0.99), 2),
        "wall_p50_ms": round(statistics.median(wall_ms), 2),
        "wall_p99_ms": round(percentile(wall_ms, 0.99), 2),
    }


def rewrite_one(app: Flask, game_id: int) -> None:
    """Write one game's summary row again, as a change to an ended game does."""
    with app.app_context():
        row = db.session.get(GameRecord, game_id)
        assert row is not None
        row.data = {**row.data}
        row.written_at = utc_now()
        db.session.commit()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'bench.sqlite'}",
                "SECRET_KEY": "bench",
            }
        )
        migrated(app)
        with app.app_context():
            store_games(args.games, app.extensions["catalog"], datetime(2026, 1, 1, 18))
        client = app.test_client()
        report = {url: measure(client, url, args.requests) for url in PAGES}
        report["/stats (after a change)"] = measure(
            client, "/stats", args.requests, lambda n: rewrite_one(app, n % args.games + 1)
        )
        report["/stats (cold)"] = measure(
            client, "/stats", args.requests, lambda n: app.extensions.pop("stats_seats", None)
        )
        with app.app_context():
            db.engine.dispose()
    if args.json:
        print(json.dumps({"games": args.games, "requests": args.requests, "pages": report}))
        return 0
    print(f"{args.games} finished games, {args.requests} requests per page")
    print(f"target: p99 under {TARGET_MS:.0f} ms")
    for url, row in report.items():
        print(
            f"{url:<25} CPU p50 {row['cpu_p50_ms']:7.2f} ms  p99 {row['cpu_p99_ms']:7.2f} ms   "
            f"wall p50 {row['wall_p50_ms']:7.2f} ms  p99 {row['wall_p99_ms']:7.2f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

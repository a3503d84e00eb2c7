"""Benchmark the statistics page with 500 finished games stored (issue 16, "Done when").

    .venv/bin/python scripts/bench_stats.py                 # a table
    .venv/bin/python scripts/bench_stats.py --games 500 --requests 200 --json

Stores the games (companion.stats.sample: simulator games stored again under other names
and dates, each with its summary row) in a temporary SQLite file migrated by the real
migrations, then GETs /stats, /stats?player=Ann and /history through the app's test
client (no network), and prints per page the median and p99 of the CPU time
(`time.process_time`) and the wall-clock time of each request. The statistics are kept
per process until a summary row changes: "/stats (after a change)" measures the page
computing them again each time. Target: p99 under 100 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from flask import Flask

from companion import create_app
from companion.db.migrate import migrated
from companion.stats.sample import store_games

PAGES = ("/stats", "/stats?player=Ann", "/history")
TARGET_MS = 100.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(client: object, url: str, requests: int, cold: Flask | None = None) -> dict[str, float]:
    """CPU and wall milliseconds of `requests` GETs of one page (after one warm-up); with
    `cold`, that app's statistics are computed again for each request, as after a change."""
    get = client.get  # type: ignore[attr-defined]
    assert get(url).status_code == 200
    cpu_ms: list[float] = []
    wall_ms: list[float] = []
    for _ in range(requests):
        if cold is not None:
            cold.extensions.pop("stats_seats", None)
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
        report["/stats (after a change)"] = measure(client, "/stats", args.requests, cold=app)
        with app.app_context():
            from companion.db import db

            db.engine.dispose()
    if args.json:
        print(json.dumps({"games": args.games, "requests": args.requests, "pages": report}))
        return 0
    print(f"{args.games} finished games, {args.requests} requests per page")
    print(f"target: p99 under {TARGET_MS:.0f} ms")
    for url, row in report.items():
        print(
            f"{url:<24} CPU p50 {row['cpu_p50_ms']:7.2f} ms  p99 {row['cpu_p99_ms']:7.2f} ms   "
            f"wall p50 {row['wall_p50_ms']:7.2f} ms  p99 {row['wall_p99_ms']:7.2f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

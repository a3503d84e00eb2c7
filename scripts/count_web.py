"""Count the instructions each kind of request costs the app, under valgrind.

    .venv/bin/python scripts/count_web.py           # needs valgrind (apt-get install valgrind)
    .venv/bin/python scripts/count_web.py --json
    .venv/bin/python scripts/count_web.py --turn-clock   # the same game with the turn clock on

Timings on a shared machine drift by a third from one run to the next; instruction counts
don't. This plays
the same game as scripts/bench_web.py to the same two placements, then sends, through
Flask's test client in one process (no server, no sockets: the app's own work only, CSRF
on), a cycle of requests over and over: the placement, its Undo and the trivial route
(GET /games/<id>/live/board?v=<current>, an empty 200). For each kind of request a separate run
under callgrind counts only the instructions of that request, collected while
`operator.call` runs it (CPython's `_operator_call`), with the garbage collector off so
that a collection doesn't land in one kind or the other. It prints instructions per
request and the ratio to the trivial route.
"""

from __future__ import annotations

import argparse
import gc
import json
import operator
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_web import Log, find_game, migrated_app, stamp_of, store, version_of

from companion import create_app

KINDS = ("trivial", "placement", "undo", "rival turn", "undo after rival turn")
WARM_UP = 5


def child(kind: str, n: int, game: Path) -> None:
    """Under callgrind: play the cycle, collecting only the requests of `kind`."""
    with tempfile.TemporaryDirectory(prefix="count-web-") as tmp:
        app = migrated_app(Path(tmp) / "count.sqlite")
        log: Log = pickle.loads(game.read_bytes())
        rival = kind in ("rival turn", "undo after rival turn")
        game_id = store(app, log, log.rival_at if rival else log.plain_at)
        place = log.rival if rival else log.plain
        client = app.test_client()
        page = client.get(f"/games/{game_id}").get_data(as_text=True)
        found = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
        assert found, "no CSRF token"
        headers = {"HX-Request": "true", "X-CSRFToken": found.group(1)}
        form = {"action": "place", "house": place.house, "space": place.space}
        version, stamp = version_of(page), stamp_of(page)
        measured = {"trivial": "trivial", "undo": "undo", "undo after rival turn": "undo"}
        which = measured.get(kind, "place")
        gc.collect()
        gc.freeze()
        gc.disable()

        def send(step: str) -> Any:
            if step == "place":
                data = form | {"version": str(version), "created": stamp}
                return client.post(f"/games/{game_id}/actions", data=data, headers=headers)
            if step == "undo":
                data = {"version": str(version), "created": stamp}
                return client.post(f"/games/{game_id}/undo", data=data, headers=headers)
            return client.get(f"/games/{game_id}/live/board?v={version}")

        for i in range(WARM_UP + n):
            for step in ("place", "undo", "trivial"):
                counted = i >= WARM_UP and step == which
                answer = operator.call(send, step) if counted else send(step)
                if step == "trivial":
                    assert answer.status_code == 200 and not answer.data, answer.status_code
                else:
                    assert answer.status_code == 200, answer.status_code
                    version = version_of(answer.get_data(as_text=True))


def count(kind: str, n: int, game: Path, tmp: Path) -> float:
    """Instructions per request of `kind`."""
    out = tmp / f"callgrind.{kind.replace(' ', '-')}.out"
    command = [
        "valgrind",
        "--tool=callgrind",
        "--collect-atstart=no",
        "--toggle-collect=_operator_call",
        f"--callgrind-out-file={out}",
        sys.executable,
        __file__,
        "--child",
        kind,
        "--requests",
        str(n),
        "--game",
        str(game),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{kind}: the run under valgrind failed:\n{done.stderr[-3000:]}")
    total = 0
    for line in out.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            total = int(line.split()[1])
            break
    if total == 0:
        raise SystemExit("valgrind collected nothing: this Python has no _operator_call symbol")
    return total / n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/count_web.py", description=__doc__)
    parser.add_argument("--requests", type=int, default=6, help="counted per kind (6)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--turn-clock", action="store_true", help="the game with the turn clock on")
    parser.add_argument("--child", choices=KINDS, help=argparse.SUPPRESS)
    parser.add_argument("--game", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.requests, args.game)
        return 0
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    if args.requests < 1:
        parser.error("--requests must be at least 1")
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "count"})
    log = find_game(app.extensions["catalog"], turn_clock=args.turn_clock)
    with tempfile.TemporaryDirectory(prefix="count-web-") as name:
        tmp = Path(name)
        game = tmp / "game.pickle"
        game.write_bytes(pickle.dumps(log))
        with ThreadPoolExecutor(max_workers=2) as pool:  # two cores, one run each
            counts = dict(
                zip(
                    KINDS,
                    pool.map(lambda k: count(k, args.requests, game, tmp), KINDS),
                    strict=True,
                )
            )
    trivial = counts["trivial"]
    report: dict[str, Any] = {
        "game": {
            "mode": log.setup.mode,
            "seed": log.setup.seed,
            "rounds_played": log.rounds,
            "turn_clock": log.setup.options.turn_clock,
        },
        "instructions_per_request": {k: round(v) for k, v in counts.items()},
        "vs_trivial": {k: round(v / trivial, 2) for k, v in counts.items()},
    }
    if args.json:
        print(json.dumps(report))
    else:
        clock = ", turn clock on" if log.setup.options.turn_clock else ""
        print(f"Game: {log.setup.mode} seed {log.setup.seed}, {log.rounds} rounds played{clock}")
        print(f"{'request':<23} {'instructions':>14} {'x trivial':>10}")
        for kind, value in counts.items():
            print(f"{kind:<23} {value:>14,.0f} {value / trivial:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

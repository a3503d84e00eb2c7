"""Count the instructions each kind of request costs the app, under valgrind.

    .venv/bin/python scripts/count_web.py           # needs valgrind (apt-get install valgrind)
    .venv/bin/python scripts/count_web.py --mode both --json

Timings on a shared machine drift by a third from one run to the next; instruction counts
don't. This plays the same game as scripts/bench_web.py (--mode: "4p", four players, the
default; "2p", two players and House Hagal; or both) to the same two taps (a placement,
and a placement that a rival turn follows or, with four players, a Reveal turn), then
sends, through Flask's test client in one process (no server, no sockets: the app's own
work only, CSRF on), a cycle of requests over and over: the tap, its Undo and the trivial
route (GET /games/<id>/live/board?v=<current>, an empty 200). For each kind of request
a separate run under callgrind counts only the instructions of that request, collected while
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
from bench_web import MODES, Log, find_game, migrated_app, stamp_of, store, tap_form, version_of

from companion import create_app

# The kinds of request counted, by mode: each tap other than the placement is the one
# scripts/bench_web.py measures besides it ("rival turn" or "reveal").
KINDS = {
    mode: ("trivial", "placement", "undo", second, f"undo after {second}")
    for mode, second in (("2p", "rival turn"), ("4p", "reveal"))
}
ALL_KINDS = tuple(dict.fromkeys(k for kinds in KINDS.values() for k in kinds))
WARM_UP = 5


def child(kind: str, n: int, game: Path) -> None:
    """Under callgrind: play the cycle, collecting only the requests of `kind`."""
    with tempfile.TemporaryDirectory(prefix="count-web-") as tmp:
        app = migrated_app(Path(tmp) / "count.sqlite")
        log: Log = pickle.loads(game.read_bytes())
        second = kind.removeprefix("undo after ")
        tap = log.taps[second if second in ("rival turn", "reveal") else "placement"]
        game_id = store(app, log, tap.at)
        client = app.test_client()
        page = client.get(f"/games/{game_id}").get_data(as_text=True)
        found = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
        assert found, "no CSRF token"
        headers = {"HX-Request": "true", "X-CSRFToken": found.group(1)}
        form = tap_form(tap.action)
        version, stamp = version_of(page), stamp_of(page)
        which = "trivial" if kind == "trivial" else "undo" if kind.startswith("undo") else "place"
        gc.collect()
        gc.freeze()
        gc.disable()

        def send(step: str) -> Any:
            if step == "place":  # the tap
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


def counted(mode: str, requests: int) -> dict[str, Any]:
    """Instructions per request of each kind, on the game bench_web.py plays for `mode`."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "count"})
    log = find_game(app.extensions["catalog"], mode)
    with tempfile.TemporaryDirectory(prefix="count-web-") as name:
        tmp = Path(name)
        game = tmp / "game.pickle"
        game.write_bytes(pickle.dumps(log))
        kinds = KINDS[mode]
        with ThreadPoolExecutor(max_workers=2) as pool:  # two cores, one run each
            counts = dict(
                zip(kinds, pool.map(lambda k: count(k, requests, game, tmp), kinds), strict=True)
            )
    trivial = counts["trivial"]
    return {
        "game": {"mode": log.setup.mode, "seed": log.setup.seed, "rounds_played": log.rounds},
        "instructions_per_request": {k: round(v) for k, v in counts.items()},
        "vs_trivial": {k: round(v / trivial, 2) for k, v in counts.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/count_web.py", description=__doc__)
    parser.add_argument(
        "--mode", choices=(*MODES, "both"), default="4p", help="players at the table (4p)"
    )
    parser.add_argument("--requests", type=int, default=6, help="counted per kind (6)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--child", choices=ALL_KINDS, help=argparse.SUPPRESS)
    parser.add_argument("--game", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.requests, args.game)
        return 0
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    if args.requests < 1:
        parser.error("--requests must be at least 1")
    modes = MODES if args.mode == "both" else (args.mode,)
    reports = [counted(mode, args.requests) for mode in modes]
    if args.json:
        print(json.dumps(reports[0] if len(reports) == 1 else reports))
        return 0
    for i, report in enumerate(reports):
        g = report["game"]
        print("\n" if i else "", end="")
        print(f"Game: {g['mode']} seed {g['seed']}, {g['rounds_played']} rounds played")
        print(f"{'request':<23} {'instructions':>14} {'x trivial':>10}")
        for kind, value in report["instructions_per_request"].items():
            print(f"{kind:<23} {value:>14,} {report['vs_trivial'][kind]:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

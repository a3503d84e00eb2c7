"""Benchmark the web app's taps on a game with a full ten-round log (issues 21 and 26).

    .venv/bin/python scripts/bench_web.py              # two and four players, with the budgets
    .venv/bin/python scripts/bench_web.py --mode 4p    # four players only
    .venv/bin/python scripts/bench_web.py --mode 4p --json   # one JSON object
    .venv/bin/python scripts/bench_web.py --requests 500 --strict

What it does, for each table (--mode: "2p", two players and House Hagal; "4p", four
players; "both", the default, one after the other):

1. Plays games with the simulator's scripted player (`companion.sim.choose_action`) until
   one reaches round 9 or later with every kind of tap on the table: a human placement
   that no rival turn follows, a Combat strength answer, and with two players a placement
   that a rival turn follows, with four players (where no rival plays) a Reveal turn. Both
   tables last ten rounds. The game used (mode, seed, round, stored actions) is printed.
2. Starts the real server: waitress serving `companion.create_app(...)` on a temporary
   SQLite file (schema by the real migrations, then the start-up heap frozen as
   `companion.serve` does), CSRF on, in a thread on 127.0.0.1 with a free port; the game is
   stored through `services.act` up to each measured point. The client
   first GETs a page for its session cookie and CSRF token and sends the token in
   `X-CSRFToken`, as htmx does.
3. Sends, from one keep-alive client in a child process (so that it doesn't share the
   server's GIL), a bounded number of requests per endpoint (--requests, at most
   --seconds each):

   - live poll: GET /games/<id>/live/board?v=<current>, what every phone or TV on the
     live view sends every second (an empty 200 after one query while the game is unchanged).
   - live board: GET /games/<id>/live/board?v=0, the live board after a change.
   - table: GET /games/<id>, the full table screen.
   - placement: an htmx POST of a human Agent placement that no rival turn follows.
   - rival turn (two players): an htmx POST of a human placement that a rival turn follows.
   - reveal (four players): an htmx POST of a player's Reveal turn.
   - undo: an htmx POST of Undo right after the placement.
   - combat answer: an htmx POST of a strength on the number pad.

   Each tap is undone right away so the game stays at the measured point.

For each request the server measures its own CPU time (the thread's, from the moment the
WSGI app is called until its whole answer is produced), which the load of a shared machine
does not distort as it does wall-clock times; the client measures the wall-clock latency.
Budgets (issues 21 and 26, the same for both tables): each tap (placement, rival turn or
reveal, undo, combat answer) at most 10 ms of server CPU (median), the live view's poll at
most 3 ms, and a p99 latency under 25 ms for every endpoint on an idle machine; --strict
exits 1 if one is missed.
"""

from __future__ import annotations

import argparse
import http.client
import io
import json
import logging
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import warnings
from collections.abc import Callable, Iterable, Sequence
from contextlib import redirect_stderr
from dataclasses import dataclass, replace
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from flask import Flask
from waitress import create_server

from companion import create_app, services
from companion.db.migrate import migrated
from companion.rules.actions import Action, Choose, PlaceAgent, Reveal
from companion.rules.catalog import Catalog
from companion.rules.engine import apply, legal_actions, new_game
from companion.rules.state import GameState, Setup
from companion.serve import freeze_startup_heap
from companion.sim import choose_action, make_setup

P99_BUDGET_MS = 25.0
TAP_CPU_BUDGET_MS = 10.0
POLL_CPU_BUDGET_MS = 3.0
MODES = ("2p", "4p")
# The taps played from the log, by mode: with House Hagal (two players) a placement that a
# rival turn follows; with four players, where no rival plays, a Reveal turn instead.
TAPS_BY_MODE = {
    "2p": ("placement", "rival turn", "combat answer"),
    "4p": ("placement", "reveal", "combat answer"),
}
TAPS = ("placement", "rival turn", "reveal", "undo", "combat answer")
ENDPOINTS = ("live poll", "live board", "table", *TAPS)
CPU_BUDGETS = {**dict.fromkeys(TAPS, TAP_CPU_BUDGET_MS), "live poll": POLL_CPU_BUDGET_MS}
NAME_HEADER = "X-Bench-Endpoint"  # tells the server's meter which endpoint a request is


# -- the game ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Tap:
    """A tap to measure: the game stops after `at` actions of its log, then `action`."""

    at: int
    action: Action


@dataclass
class Log:
    """A game to benchmark: its setup, its actions, and where to stop for each tap."""

    setup: Setup
    actions: list[Action]
    # By endpoint name: "placement" (no rival turn follows it), "combat answer", and with
    # House Hagal "rival turn" (a placement a rival turn follows), else "reveal".
    taps: dict[str, Tap]
    rounds: int


def _taps_now(state: GameState) -> dict[str, Action]:
    """The taps measurable in this state: a placement (which one, by whether a rival turn
    follows it), a Reveal turn, or the Combat strength answer (filled in by the caller)."""
    if state.prompt is not None:
        return {"combat answer": Choose("")} if state.prompt.kind == "strength" else {}
    if state.phase != "agents":
        return {}
    found: dict[str, Action] = {}
    actions = legal_actions(state)
    place = next((a for a in actions if isinstance(a, PlaceAgent)), None)
    if place is not None:
        rival = any(e.kind == "rival_agent" for e in apply(state, place).last_entries)
        found["rival turn" if rival else "placement"] = place
    reveal = next((a for a in actions if isinstance(a, Reveal)), None)
    if reveal is not None:
        found["reveal"] = reveal
    return found


def _play(setup: Setup, catalog: Catalog, min_round: int) -> Log | None:
    """Play the game of `setup`; a Log if it reached `min_round` with every tap of its mode."""
    wanted = TAPS_BY_MODE[setup.mode]
    state = new_game(setup, catalog)
    rng = random.Random(setup.seed)
    actions: list[Action] = []
    found: dict[str, Tap] = {}
    while state.phase != "ended" and len(actions) < 2000:
        action = choose_action(state, rng)
        here = _taps_now(state) if state.round >= min_round else {}
        state = apply(state, action)
        if state.phase != "ended":  # a tap that ends the game (and records it) is rarer
            for name, tap in here.items():
                if name in wanted:  # the answer the scripted player gives, for Combat
                    found[name] = Tap(len(actions), action if name == "combat answer" else tap)
        actions.append(action)
    if set(wanted) - found.keys():
        return None
    return Log(setup, actions, {name: found[name] for name in wanted}, state.round)


def find_game(
    catalog: Catalog, mode: str, min_round: int = 9, tries: int = 40, turn_clock: bool = False
) -> Log:
    """A game of `mode` ("2p" or "4p") that reaches `min_round` with every tap measured
    (with the turn clock on or off: it changes no rule, so the same game)."""
    for seed in range(1, tries + 1):
        setup = make_setup(catalog, mode, None, seed)
        setup = replace(setup, options=replace(setup.options, turn_clock=turn_clock))
        log = _play(setup, catalog, min_round)
        if log is not None:
            return log
    raise SystemExit(f"no {mode} game reached the rounds needed; raise --tries")


def store(app: Flask, log: Log, upto: int) -> int:
    """Store a game with the first `upto` actions of the log; its id."""
    catalog: Catalog = app.extensions["catalog"]
    with app.app_context():
        game_id = services.create_game(log.setup, catalog)
        for version, action in enumerate(log.actions[:upto]):
            services.act(game_id, action, version, catalog)
    return game_id


# -- the server's CPU meter ---------------------------------------------------------------


class CpuMeter:
    """WSGI middleware: each request's CPU time in the server thread that answered it,
    whole answer included, by the endpoint name the client sent in NAME_HEADER."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.samples: dict[str, list[float]] = {}
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        started = time.thread_time()
        answer = self.app(environ, start_response)
        try:
            chunks = list(answer)
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()
        spent = time.thread_time() - started
        name = environ.get("HTTP_" + NAME_HEADER.upper().replace("-", "_"))
        if name:
            with self.lock:
                self.samples.setdefault(name, []).append(spent)
        return chunks


# -- the client ---------------------------------------------------------------------------


class Client:
    """A keep-alive HTTP client with the session cookie and the CSRF token of a browser."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.cookie = ""
        self.token = ""
        body = self.request("GET", "/games/new", expect=200)
        found = re.search(r'<meta name="csrf-token" content="([^"]+)"', body)
        if not found:
            raise SystemExit("no CSRF token on /games/new")
        self.token = found.group(1)

    def request(
        self,
        method: str,
        path: str,
        form: dict[str, str] | None = None,
        expect: int = 200,
        name: str = "",
    ) -> str:
        headers = {"HX-Request": "true"} if method == "POST" else {}
        if name:
            headers[NAME_HEADER] = name
        if self.cookie:
            headers["Cookie"] = self.cookie
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.token
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        data = response.read().decode()
        for header in response.headers.get_all("Set-Cookie") or []:
            jar: SimpleCookie = SimpleCookie(header)
            self.cookie = "; ".join(f"{k}={m.value}" for k, m in jar.items())
        if response.status != expect:
            raise RuntimeError(f"{method} {path}: {response.status}, wanted {expect}: {data[:300]}")
        return data

    def close(self) -> None:
        self.conn.close()


def version_of(body: str) -> int:
    # the whole game area, or a tap's answer of what changed, led by the banner
    found = re.search(r'id="(?:game|banner)"[^>]*data-version="(\d+)"', body)
    if not found:
        raise RuntimeError("no data-version in the answer")
    return int(found.group(1))


def stamp_of(body: str) -> str:
    """The game's created stamp, which every write about it sends back."""
    found = re.search(r'name="created" value="([^"]+)"', body)
    if not found:
        raise RuntimeError("no created stamp in the page")
    return found.group(1)


def _timed(latencies: dict[str, list[float]], name: str, call: Callable[[], str]) -> str:
    started = time.perf_counter()
    body = call()
    latencies.setdefault(name, []).append(time.perf_counter() - started)
    return body


def _get(client: Client, phase: dict[str, Any], latencies: dict[str, list[float]]) -> None:
    name = phase["name"]
    _timed(
        latencies,
        name,
        lambda: client.request("GET", phase["path"], expect=phase["expect"], name=name),
    )


def _tap(client: Client, phase: dict[str, Any], latencies: dict[str, list[float]]) -> None:
    """Post the tap to the phase's own game, then undo it (measured as "undo" when the
    phase says so)."""
    path = f"/games/{phase['game']}"
    versions = phase["versions"]  # shared with the warm-up's copy of the phase
    stamps = phase["stamps"]
    if phase["game"] not in versions:
        page = client.request("GET", path)
        versions[phase["game"]], stamps[phase["game"]] = version_of(page), stamp_of(page)
    version, stamp = versions[phase["game"]], stamps[phase["game"]]
    name, undo_name = phase["name"], phase["undo_name"]
    form = phase["form"] | {"version": str(version), "created": stamp}
    body = _timed(
        latencies, name, lambda: client.request("POST", f"{path}/actions", form, name=name)
    )
    undo = {"version": str(version_of(body)), "created": stamp}
    body = _timed(
        latencies,
        undo_name or "-",
        lambda: client.request("POST", f"{path}/undo", undo, name=undo_name),
    )
    versions[phase["game"]] = version_of(body)


def run_plan(plan: dict[str, Any]) -> dict[str, list[float]]:
    """Run every phase: a few warm-up requests, then the measured ones; the latencies."""
    client = Client(plan["port"])
    latencies: dict[str, list[float]] = {}
    versions: dict[int, int] = {}
    stamps: dict[int, str] = {}  # each game's created stamp, sent with every tap
    try:
        for phase in plan["phases"]:
            phase["versions"], phase["stamps"] = versions, stamps
            step = _get if phase["kind"] == "get" else _tap
            for _ in range(5):
                step(client, {**phase, "name": "", "undo_name": ""}, {})
            deadline = time.perf_counter() + plan["seconds"]
            for _ in range(plan["requests"]):
                if time.perf_counter() > deadline:
                    break
                step(client, phase, latencies)
    finally:
        client.close()
    latencies.pop("-", None)
    latencies.pop("", None)
    return latencies


def measure_in_child(plan: dict[str, Any]) -> dict[str, list[float]]:
    """Run the client in its own process, so it doesn't share the server's GIL."""
    done = subprocess.run(
        [sys.executable, __file__, "--load-plan"],
        input=json.dumps(plan),
        capture_output=True,
        text=True,
        timeout=60 + 3 * plan["seconds"] * len(plan["phases"]),
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the load generator failed:\n{done.stderr[-3000:]}")
    latencies: dict[str, list[float]] = json.loads(done.stdout)
    return latencies


# -- the benchmark ------------------------------------------------------------------------


def migrated_app(database: Path) -> Flask:
    """The app on a new SQLite file with the real schema (the migrations), CSRF on."""
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": True,
        }
    )
    with warnings.catch_warnings(), redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore", DeprecationWarning)  # migrations/env.py get_engine
        return migrated(app)  # alembic's INFO lines go nowhere


def tap_form(action: Action) -> dict[str, str]:
    """The fields of the table screen's form that posts `action`."""
    if isinstance(action, PlaceAgent):
        return {"action": "place", "house": action.house, "space": action.space}
    if isinstance(action, Reveal):
        return {"action": "reveal", "house": action.house}
    assert isinstance(action, Choose), action
    return {"action": "choose", "option": action.option}


def _phases(app: Flask, log: Log) -> list[dict[str, Any]]:
    viewed = store(app, log, log.taps["placement"].at)
    with app.app_context():
        current = services.current_version(viewed)
    live = f"/games/{viewed}/live/board"
    return [
        {"kind": "get", "name": "live poll", "path": f"{live}?v={current}", "expect": 200},
        {"kind": "get", "name": "live board", "path": f"{live}?v=0", "expect": 200},
        {"kind": "get", "name": "table", "path": f"/games/{viewed}", "expect": 200},
    ] + [
        {
            "kind": "tap",
            "name": name,
            "undo_name": "undo" if name == "placement" else "",  # Undo measured once
            "game": store(app, log, tap.at),
            "form": tap_form(tap.action),
        }
        for name, tap in log.taps.items()
    ]


def _row(name: str, latencies: Sequence[float], cpu: Sequence[float]) -> dict[str, Any]:
    def quantile(values: Sequence[float], q: float) -> float:
        data = sorted(values)
        return 1000 * data[min(len(data) - 1, round(q * (len(data) - 1)))] if data else 0.0

    cpu_median = 1000 * statistics.median(cpu) if cpu else 0.0
    budget = CPU_BUDGETS.get(name)
    return {
        "endpoint": name,
        "requests": len(latencies),
        "cpu_ms_median": round(cpu_median, 2),
        "cpu_ms_p90": round(quantile(cpu, 0.9), 2),
        "cpu_budget_ms": budget,
        "cpu_ok": budget is None or cpu_median <= budget,
        "p50_ms": round(quantile(latencies, 0.5), 2),
        "p99_ms": round(quantile(latencies, 0.99), 2),
        "p99_ok": quantile(latencies, 0.99) < P99_BUDGET_MS,
    }


def benchmark(args: argparse.Namespace, mode: str) -> dict[str, Any]:
    logging.getLogger("waitress").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        app = migrated_app(Path(tmp) / "bench.sqlite")
        freeze_startup_heap()  # as companion.serve does right after the migrations
        logging.getLogger("waitress").setLevel(logging.ERROR)  # env.py reset the loggers
        app.logger.disabled = False  # ... and turned off the one that tells a 500's cause
        log = find_game(
            app.extensions["catalog"], mode, args.min_round, args.tries, args.turn_clock
        )
        phases = _phases(app, log)
        meter = CpuMeter(app.wsgi_app)
        app.wsgi_app = meter  # type: ignore[method-assign]
        server = create_server(app, host="127.0.0.1", port=0, threads=args.threads)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        plan = {
            "port": int(server.effective_port),
            "requests": args.requests,
            "seconds": args.seconds,
            "phases": phases,
        }
        try:
            latencies = measure_in_child(plan)
        finally:
            server.close()
    measured = [name for name in ENDPOINTS if name in latencies]
    rows = [_row(name, latencies[name], meter.samples.get(name, [])) for name in measured]
    return {
        "game": {
            "mode": log.setup.mode,
            "seed": log.setup.seed,
            "turn_clock": log.setup.options.turn_clock,
            "rounds_played": log.rounds,
            "stored_actions": {name: tap.at for name, tap in log.taps.items()},
        },
        "server_threads": args.threads,
        "csrf": True,
        "budgets": {
            "tap_cpu_ms_median": TAP_CPU_BUDGET_MS,
            "live_poll_cpu_ms_median": POLL_CPU_BUDGET_MS,
            "p99_ms_below": P99_BUDGET_MS,
        },
        "results": rows,
        "all_budgets_met": all(r["cpu_ok"] and r["p99_ok"] for r in rows),
    }


def print_table(report: dict[str, Any]) -> None:
    g = report["game"]
    stored = ", ".join(f"{k} {v}" for k, v in g["stored_actions"].items())
    print(f"Game: {g['mode']} seed {g['seed']}, {g['rounds_played']} rounds played")
    print(f"Stored actions at the measured taps: {stored}")
    print(f"1 client (separate process), {report['server_threads']} waitress threads, CSRF on\n")
    header = (
        f"{'endpoint':<14} {'requests':>8} {'CPU p50':>8} {'CPU p90':>8} {'budget':>7} "
        f"{'':>4} {'p50 ms':>7} {'p99 ms':>7} {'<25ms':>5}"
    )
    print(header)
    print("-" * len(header))
    for r in report["results"]:
        budget = f"{r['cpu_budget_ms']:.0f}" if r["cpu_budget_ms"] is not None else "-"
        print(
            f"{r['endpoint']:<14} {r['requests']:>8} {r['cpu_ms_median']:>8.2f} "
            f"{r['cpu_ms_p90']:>8.2f} {budget:>7} {'ok' if r['cpu_ok'] else 'MISS':>4} "
            f"{r['p50_ms']:>7.2f} {r['p99_ms']:>7.2f} {'ok' if r['p99_ok'] else 'MISS':>5}"
        )
    print("\nCPU: the server's, per request, in ms (its thread's time for the whole answer)")
    print("all budgets met" if report["all_budgets_met"] else "some budgets MISSED")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/bench_web.py", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--requests", type=int, default=300, help="per endpoint (300)")
    parser.add_argument("--threads", type=int, default=8, help="waitress threads (8)")
    parser.add_argument("--seconds", type=float, default=30.0, help="cap per endpoint (30)")
    parser.add_argument("--min-round", type=int, default=9, help="round the game reaches (9)")
    parser.add_argument(
        "--mode", choices=(*MODES, "both"), default="both", help="players at the table (both)"
    )
    parser.add_argument("--tries", type=int, default=40, help="seeds tried (40)")
    parser.add_argument("--turn-clock", action="store_true", help="games with the turn clock on")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--load-plan", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--strict", action="store_true", help="exit 1 if a budget is missed")
    args = parser.parse_args(argv)
    if args.load_plan:  # the child process of measure_in_child
        print(json.dumps(run_plan(json.load(sys.stdin))))
        return 0
    if args.requests < 1:
        parser.error("--requests must be at least 1")
    reports = [benchmark(args, mode) for mode in (MODES if args.mode == "both" else [args.mode])]
    if args.json:
        print(json.dumps(reports[0] if len(reports) == 1 else reports))
    else:
        for i, report in enumerate(reports):
            print("\n" if i else "", end="")
            print_table(report)
    missed = not all(report["all_budgets_met"] for report in reports)
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())

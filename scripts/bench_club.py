"""A club night on one server: many tables, each with a tablet tapping and a live view
polling, against the real `python -m companion.serve` (issue 29).

    nice .venv/bin/python scripts/bench_club.py                  # 16 tables, SQLite, waitress
    .venv/bin/python scripts/bench_club.py --games 32 --seconds 30
    .venv/bin/python scripts/bench_club.py --workers 2 --postgres  # gunicorn + PostgreSQL
    .venv/bin/python scripts/bench_club.py --games 1 --tablets 4 --tap-every 1
                                   # four devices tapping one game at once (bench_load --clients 4)

What it does:

1. Stores --games solo games (the same setup) in a new database: SQLite in a temporary
   folder, or with --postgres a throwaway PostgreSQL cluster started as
   scripts/test-postgres.sh starts one (Debian's package; fsync on, as a real one runs).
2. Starts the real server on 127.0.0.1 (`companion.serve`, waitress; with --workers N,
   gunicorn with N processes), as the README starts it.
3. From a client process of its own (so it shares no GIL with the server), for each game:
   --tablets tablets, each tapping in turn every --tap-every seconds (an htmx POST that
   places the player's Agent, then one that undoes it: the game stays where it was), and
   one live view polling GET /games/<id>/live/board?v=<known> every --poll-every seconds
   (the live view's interval), fetching the board when the game changed. Several tablets
   on one game race: a tap that another was first to gets the game as it is now (409) or
   is refused (422); both are answers, counted apart from errors (5xx, no answer).
4. Prints p50 and p99 of the taps and of the polls as the clients saw them, the answers
   by status, and the server's CPU time (its processes', user + system, over the run)
   and memory (the largest resident set of its processes together, sampled); with
   several tablets per game also the server's CPU per round of taps (the run's CPU over
   the rounds), which bounds from below how long the last tap of a round waits.

The machine may be shared: wall-clock latencies then include other programs' work. The
server's CPU time per tap does not, and is printed next to them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

VERSION = re.compile(r'data-version="(\d+)"')
STARTUP_SECONDS = 120


# -- the database and the server ------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def postgres_cluster() -> Iterator[tuple[str, psutil.Process]]:
    """A throwaway PostgreSQL cluster on a loopback port (as scripts/test-postgres.sh
    starts one, but with fsync on); its URL and its main process."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: p.parent.name)
    if not found:
        raise SystemExit("PostgreSQL is not installed (apt-get install postgresql)")
    pg_bin = found[-1]
    folder = Path(tempfile.mkdtemp(prefix="companion-pg-"))
    folder.chmod(0o755)
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    port = free_port()
    data = folder / "data"
    try:
        run = [*as_postgres, str(pg_bin / "initdb"), "-D", str(data), "-U", "companion"]
        subprocess.run(
            [*run, "-A", "trust", "-E", "UTF8", "--no-locale"], check=True, capture_output=True
        )
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c max_connections=200"
        subprocess.run(
            [
                *as_postgres,
                str(pg_bin / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(folder / "server.log"),
                "-w",
                "-o",
                options,
                "start",
            ],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            [
                str(pg_bin / "createdb"),
                "-h",
                "127.0.0.1",
                "-p",
                str(port),
                "-U",
                "companion",
                "club",
            ],
            check=True,
        )
        postmaster = int((data / "postmaster.pid").read_text().split()[0])
        yield f"postgresql+psycopg://companion@127.0.0.1:{port}/club", psutil.Process(postmaster)
    finally:
        subprocess.run(
            [*as_postgres, str(pg_bin / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(folder, ignore_errors=True)


def store_games(url: str, games: int) -> tuple[list[int], dict[str, str]]:
    """`games` solo games at their first turn, in a migrated database; their ids and the
    form of the tap measured (the player's first legal Agent placement)."""
    import io
    import warnings
    from contextlib import redirect_stderr

    from companion import create_app, services
    from companion.db.migrate import migrated
    from companion.rules.actions import PlaceAgent
    from companion.rules.engine import legal_actions
    from companion.sim import make_setup

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "club"})
    with warnings.catch_warnings(), redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore", DeprecationWarning)
        app = migrated(app)
    catalog = app.extensions["catalog"]
    with app.app_context():
        setup = make_setup(catalog, "solo", "mentat", seed=1)
        ids = [services.create_game(setup, catalog) for _ in range(games)]
        state = services.load(ids[0], catalog).state
        place = next(a for a in legal_actions(state) if isinstance(a, PlaceAgent))
        from companion.db import db

        db.engine.dispose()
    return ids, {"action": "place", "house": place.house, "space": place.space}


@contextmanager
def server(url: str, workers: int | None, threads: int) -> Iterator[tuple[int, psutil.Process]]:
    """The real `companion.serve` on a free loopback port, once it answers."""
    port = free_port()
    env = dict(os.environ, COMPANION_SQLALCHEMY_DATABASE_URI=url, COMPANION_SECRET_KEY="club")
    command = [sys.executable, "-m", "companion.serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--threads", str(threads)]
    if workers:
        command += ["--workers", str(workers)]
    with tempfile.TemporaryDirectory(prefix="bench-club-") as cwd:
        said = Path(cwd) / "server.log"  # a file: a full pipe would stop the server
        process = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=said.open("wb")
        )
        try:
            deadline = time.monotonic() + STARTUP_SECONDS
            while True:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the server did not start: {said.read_text()[-2000:]}")
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                        break
                except OSError:
                    time.sleep(0.2)
            yield port, psutil.Process(process.pid)
        finally:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def tree(process: psutil.Process) -> list[psutil.Process]:
    try:
        return [process, *process.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def cpu_seconds(process: psutil.Process) -> float:
    """User + system CPU of the server's processes (gunicorn's workers included)."""
    total = 0.0
    for each in tree(process):
        try:
            times = each.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


class MemoryWatch:
    """The largest resident set of the server's processes together, sampled twice a second."""

    def __init__(self, process: psutil.Process) -> None:
        self.process = process
        self.peak = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)

    def watch(self) -> None:
        while not self.stopped.wait(0.5):
            total = 0
            for each in tree(self.process):
                try:
                    total += each.memory_info().rss
                except psutil.NoSuchProcess:
                    continue
            self.peak = max(self.peak, total)


# -- the clients (a process of their own) -------------------------------------------------


def run_clients(plan: dict[str, Any]) -> dict[str, Any]:
    """Every tablet and live view of the plan, in threads; their latencies and answers."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_web import Client  # the keep-alive client with a browser's cookie and token

    port, seconds = plan["port"], plan["seconds"]
    taps: list[float] = []
    polls: list[float] = []
    statuses: dict[str, int] = {}
    errors: list[str] = []
    lock = threading.Lock()

    def count(status: str) -> None:
        with lock:
            statuses[status] = statuses.get(status, 0) + 1

    def post(client: Client, path: str, form: dict[str, str]) -> tuple[int, str]:
        headers = {
            "HX-Request": "true",
            "Cookie": client.cookie,
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRFToken": client.token,
        }
        body = "&".join(f"{k}={v}" for k, v in form.items())
        client.conn.request("POST", path, body=body, headers=headers)
        response = client.conn.getresponse()
        return response.status, response.read().decode()

    def tablet(client: Client, game: int, page: str, at: float) -> None:
        path = f"/games/{game}"
        stamp = re.search(r'name="created" value="([^"]+)"', page)
        created = stamp.group(1) if stamp else ""
        version = int(VERSION.findall(page)[0])
        placed = False
        time.sleep(max(0.0, at - time.monotonic()))
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            began = time.perf_counter()
            form = {"version": str(version), "created": created}
            if not placed:
                form |= plan["tap"]
            try:
                status, body = post(client, f"{path}/{'undo' if placed else 'actions'}", form)
            except (OSError, http_error()) as failed:
                errors.append(repr(failed))
                client = opened()
                continue
            spent = time.perf_counter() - began
            with lock:
                taps.append(spent)
            count(str(status))
            if status in (200, 409, 422):
                found = VERSION.findall(body)
                if found:
                    version = int(found[0])
                if status == 200:
                    placed = not placed
                elif status == 409 or status == 422:
                    # Another tablet was first: where the game is now decides the next tap.
                    placed = f'value="{plan["tap"]["space"]}"' not in body
            else:
                errors.append(f"tap: {status}")
            pause = plan["tap_every"] - spent
            if pause > 0:
                time.sleep(pause)
        client.close()

    def live_view(client: Client, game: int, at: float) -> None:
        known = "0"
        time.sleep(max(0.0, at - time.monotonic()))
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            began = time.perf_counter()
            try:
                body = client.request("GET", f"/games/{game}/live/board?v={known}")
            except (OSError, RuntimeError, http_error()) as failed:
                errors.append(repr(failed))
                client = opened()
                continue
            spent = time.perf_counter() - began
            with lock:
                polls.append(spent)
            found = VERSION.findall(body)
            if found:
                known = found[0]
            pause = plan["poll_every"] - spent
            if pause > 0:
                time.sleep(pause)
        client.close()

    # Each screen opens its page first, one after the other (at once, 32 of them would
    # only measure the start); then all play from the same moment on.
    def opened() -> Client:
        client = Client(port)
        client.conn.timeout = 60.0  # a loaded machine answers late: late, not failed
        if client.conn.sock is not None:
            client.conn.sock.settimeout(60.0)
        return client

    screens: list[tuple[Any, tuple[Any, ...]]] = []
    for game in plan["games"]:
        for _ in range(plan["tablets"]):
            client = opened()
            screens.append((tablet, (client, game, client.request("GET", f"/games/{game}"))))
        screens.append((live_view, (opened(), game)))
    begin = time.monotonic() + 0.5
    threads = []
    for g in range(len(plan["games"])):
        # A game's tablets tap at the same moment (the worst case); the games are spread
        # over the interval, as tables play at their own pace.
        at = begin + g / len(plan["games"]) * plan["tap_every"]
        for target, arguments in screens[
            g * (plan["tablets"] + 1) : (g + 1) * (plan["tablets"] + 1)
        ]:
            threads.append(threading.Thread(target=target, args=(*arguments, at)))
    print("started", flush=True)  # the server's CPU is counted from here
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"taps": taps, "polls": polls, "statuses": statuses, "errors": errors}


def http_error() -> type[Exception]:
    import http.client

    return http.client.HTTPException


# -- the report ---------------------------------------------------------------------------


def quantile(values: Sequence[float], q: float) -> float:
    data = sorted(values)
    return 1000 * data[min(len(data) - 1, round(q * (len(data) - 1)))] if data else 0.0


def benchmark(args: argparse.Namespace) -> dict[str, Any]:
    with (
        tempfile.TemporaryDirectory(prefix="bench-club-") as folder,
        database_for(args) as (url, postgres),
    ):
        url = url or f"sqlite:///{Path(folder) / 'club.sqlite'}"
        games, tap = store_games(url, args.games)
        with server(url, args.workers, args.threads) as (port, process):
            time.sleep(1.0)  # past the start's own work
            plan = {
                "port": port,
                "games": games,
                "tap": tap,
                "tablets": args.tablets,
                "seconds": args.seconds,
                "tap_every": args.tap_every,
                "poll_every": args.poll_every,
            }
            clients = subprocess.Popen(
                [sys.executable, __file__, "--client-plan"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert clients.stdin is not None and clients.stdout is not None
            clients.stdin.write(json.dumps(plan) + "\n")
            clients.stdin.close()
            if clients.stdout.readline().strip() != "started":  # each has its page
                raise SystemExit("the clients failed")
            watch = MemoryWatch(process)
            watch.thread.start()
            cpu_before = cpu_seconds(process)
            postgres_before = cpu_seconds(postgres) if postgres else 0.0
            client_process = psutil.Process(clients.pid)
            client_before = cpu_seconds(client_process)
            began = time.monotonic()
            output = clients.stdout.read()
            wall = time.monotonic() - began
            cpu = cpu_seconds(process) - cpu_before
            client_cpu = cpu_seconds(client_process) - client_before
            postgres_cpu = cpu_seconds(postgres) - postgres_before if postgres else None
            watch.stopped.set()
            watch.thread.join()
            if clients.wait() != 0:
                raise SystemExit("the clients failed")
    result = json.loads(output)
    taps, polls = result["taps"], result["polls"]
    return {
        "database": "postgresql" if args.postgres else "sqlite",
        "server": f"gunicorn, {args.workers} workers" if args.workers else "waitress",
        "threads": args.threads,
        "games": args.games,
        "tablets_per_game": args.tablets,
        "seconds": round(wall, 1),
        "taps": len(taps),
        "tap_p50_ms": round(quantile(taps, 0.5), 1),
        "tap_p99_ms": round(quantile(taps, 0.99), 1),
        "polls": len(polls),
        "poll_p50_ms": round(quantile(polls, 0.5), 1),
        "poll_p99_ms": round(quantile(polls, 0.99), 1),
        "statuses": result["statuses"],
        "errors": len(result["errors"]),
        "first_errors": result["errors"][:3],
        "server_cpu_s": round(cpu, 2),
        "server_cpu_share": round(cpu / wall, 2) if wall else 0.0,
        "server_cpu_ms_per_request": round(1000 * cpu / max(1, len(taps) + len(polls)), 2),
        # One table's round: its tablets' taps at one moment, with the polls meanwhile.
        "server_cpu_ms_per_round": round(1000 * cpu / max(1, len(taps) / args.tablets), 1),
        "server_peak_rss_mb": round(watch.peak / 2**20, 1),
        "client_cpu_s": round(client_cpu, 2),
        "postgres_cpu_s": None if postgres_cpu is None else round(postgres_cpu, 2),
        "load_average_1min": round(os.getloadavg()[0], 1),
        "cores": os.cpu_count(),
    }


@contextmanager
def database_for(args: argparse.Namespace) -> Iterator[tuple[str, psutil.Process | None]]:
    """With --postgres the throwaway cluster's URL and main process; else none (SQLite)."""
    if args.postgres:
        with postgres_cluster() as found:
            yield found
    else:
        yield "", None


def print_report(r: dict[str, Any]) -> None:
    print(
        f"{r['games']} games x ({r['tablets_per_game']} tablets + 1 live view), "
        f"{r['database']}, {r['server']} ({r['threads']} threads), {r['seconds']} s"
    )
    print(f"taps:  {r['taps']:>6}  p50 {r['tap_p50_ms']:>7.1f} ms  p99 {r['tap_p99_ms']:>7.1f} ms")
    print(
        f"polls: {r['polls']:>6}  p50 {r['poll_p50_ms']:>7.1f} ms  p99 {r['poll_p99_ms']:>7.1f} ms"
    )
    answers = ", ".join(f"{k}: {v}" for k, v in sorted(r["statuses"].items()))
    print(f"tap answers: {answers}; errors: {r['errors']} {r['first_errors'] or ''}")
    print(
        f"server CPU: {r['server_cpu_s']} s ({r['server_cpu_share']:.0%} of one core), "
        f"{r['server_cpu_ms_per_request']} ms per request; peak memory {r['server_peak_rss_mb']} MB"
    )
    if r["tablets_per_game"] > 1:
        print(
            f"server CPU per round ({r['tablets_per_game']} taps at once on one game, with "
            f"the polls): {r['server_cpu_ms_per_round']} ms"
            + (
                "; waitress runs them one at a time (one interpreter), so on an idle "
                "machine the last tap of a round waits about that long"
                if r["server"] == "waitress"
                else ""
            )
        )
    if r["postgres_cpu_s"] is not None:
        print(f"PostgreSQL's CPU (its processes, not in the server's): {r['postgres_cpu_s']} s")
    print(
        f"clients' CPU: {r['client_cpu_s']} s; machine: {r['cores']} cores, load average "
        f"{r['load_average_1min']} (other programs' work delays the wall-clock figures)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/bench_club.py", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--games", type=int, default=16, help="tables (16)")
    parser.add_argument("--tablets", type=int, default=1, help="tapping tablets per game (1)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long (20)")
    parser.add_argument("--tap-every", type=float, default=5.0, help="a tablet's pace (5 s)")
    parser.add_argument("--poll-every", type=float, default=1.0, help="the live view's (1 s)")
    parser.add_argument("--workers", type=int, help="gunicorn processes (default: waitress)")
    parser.add_argument("--threads", type=int, default=8, help="threads per process (8)")
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--client-plan", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.client_plan:
        print(json.dumps(run_clients(json.loads(sys.stdin.readline()))), flush=True)
        return 0
    report = benchmark(args)
    if args.json:
        print(json.dumps(report))
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Measure the live view's poll over HTTPS, as `companion.serve --https` serves it.

    nice .venv/bin/python scripts/bench_https.py

Makes a solo game a few taps in on a temporary SQLite file, starts the real server
(`python -m companion.serve --https`: the TLS front before waitress) with a self-signed
certificate, and sends the live view's poll (`/games/<id>/live/board?v=<current>`):
over one kept-alive connection, as a screen does; on a new connection each time (a TLS
handshake per poll); and kept alive again while 16 connections sit idle and 4 stopped
halfway through their handshake, as tablets dropping off the Wi-Fi leave them. For each it
prints the median and p99 wall time, and the server's and this client's CPU per poll;
the server's split between the TLS front's process and waitress's (the front hands each
request to waitress on a new Unix-socket connection). Then, for comparison, the same
polls over plain HTTP (`companion.serve` without --https: waitress alone), kept alive and
on a new connection each. The load average is printed first: on this 2-core machine
shared with other work, CPU times grow with the load too.
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TypeVar

import psutil

from companion import create_app, services
from companion.db.migrate import migrated
from companion.rules.engine import legal_actions
from companion.sim import make_setup
from companion.tls import ensure_certificate

ROOT = Path(__file__).resolve().parent.parent
POLLS = 200
IDLE, STALLED = 16, 4
Connection = TypeVar("Connection", bound=http.client.HTTPConnection)


def solo_game(database: str) -> tuple[int, int]:
    """A solo game with a few taps in its log: its id and version."""
    app = migrated(create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": "bench"}))
    with app.app_context():
        catalog = app.extensions["catalog"]
        game_id = services.create_game(make_setup(catalog, "solo", "mentat", seed=1), catalog)
        for _ in range(6):
            view = services.load(game_id, catalog)
            services.act(game_id, legal_actions(view.state)[0], view.version, catalog)
        return game_id, services.load(game_id, catalog).version


@contextmanager
def https_server(
    database: str, folder: Path, https: bool = True
) -> Iterator[tuple[int, psutil.Process]]:
    """The real server on a free loopback port (without `https`, plain HTTP), stopped
    afterwards."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, COMPANION_SQLALCHEMY_DATABASE_URI=database, COMPANION_SECRET_KEY="b")
    command = [sys.executable, "-m", "companion.serve", "--host", "127.0.0.1"]
    command += ["--port", str(port)]
    if https:
        cert, key = ensure_certificate(folder, [])
        command += ["--https", "--cert", str(cert), "--key", str(key)]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    try:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.1)
        yield port, psutil.Process(server.pid)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)


def server_cpu(server: psutil.Process) -> tuple[float, float]:
    """CPU seconds so far of the TLS front (a child process) and of the app's server
    (waitress, the parent; with its other children)."""
    front = app = 0.0
    for process in [server, *server.children(recursive=True)]:
        times = process.cpu_times()
        if any(part.endswith("tls_front.py") for part in process.cmdline()):
            front += times.user + times.system
        else:
            app += times.user + times.system
    return front, app


def measure(name: str, server: psutil.Process, poll: Callable[[], None]) -> None:
    """Poll POLLS times and print the wall times and the CPU per poll."""
    walls = []
    server_before, client_before = server_cpu(server), time.process_time()
    for _ in range(POLLS):
        start = time.perf_counter()
        poll()
        walls.append(time.perf_counter() - start)
    server_after = server_cpu(server)
    front_ms, app_ms = (
        (a - b) / POLLS * 1000 for a, b in zip(server_after, server_before, strict=True)
    )
    client_ms = (time.process_time() - client_before) / POLLS * 1000
    walls.sort()
    print(
        f"{name:<34} wall median {statistics.median(walls) * 1000:6.2f} ms, "
        f"p99 {walls[int(len(walls) * 0.99) - 1] * 1000:6.2f} ms; CPU per poll: "
        f"server {front_ms + app_ms:5.2f} ms (TLS front {front_ms:5.2f}, waitress "
        f"{app_ms:5.2f}), client {client_ms:5.2f} ms"
    )


def get(connection: http.client.HTTPConnection, path: str) -> None:
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    assert response.status == 200, response.status


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        database = f"sqlite:///{Path(folder) / 'bench.sqlite'}"
        game_id, version = solo_game(database)
        port, server = stack.enter_context(https_server(database, Path(folder)))
        context = ssl.create_default_context(cafile=str(Path(folder) / "cert.pem"))
        path = f"/games/{game_id}/live/board?v={version}"

        def new_connection() -> http.client.HTTPSConnection:
            return http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=context)

        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        kept = stack.enter_context(closing_connection(new_connection()))
        measure("kept alive", server, lambda: get(kept, path))

        def fresh() -> None:
            with closing_connection(new_connection()) as connection:
                get(connection, path)

        measure("new TLS connection each poll", server, fresh)
        for _ in range(IDLE):
            stack.enter_context(socket.create_connection(("127.0.0.1", port)))
        for _ in range(STALLED):
            stalled = stack.enter_context(socket.create_connection(("127.0.0.1", port)))
            stalled.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03")
        measure(f"kept alive, {IDLE} idle + {STALLED} stalled", server, lambda: get(kept, path))
        measure(f"new each, {IDLE} idle + {STALLED} stalled", server, fresh)
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        database = f"sqlite:///{Path(folder) / 'bench.sqlite'}"
        game_id, version = solo_game(database)
        port, server = stack.enter_context(https_server(database, Path(folder), https=False))
        path = f"/games/{game_id}/live/board?v={version}"
        plain = stack.enter_context(
            closing_connection(http.client.HTTPConnection("127.0.0.1", port, timeout=10))
        )
        measure("plain HTTP, kept alive", server, lambda: get(plain, path))

        def plain_fresh() -> None:
            with closing_connection(http.client.HTTPConnection("127.0.0.1", port)) as one:
                get(one, path)

        measure("plain HTTP, new connection each", server, plain_fresh)


@contextmanager
def closing_connection(connection: Connection) -> Iterator[Connection]:
    try:
        yield connection
    finally:
        connection.close()


if __name__ == "__main__":
    main()

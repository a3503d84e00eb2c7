"""Start the companion for the table: `python -m companion.serve [--port 5000]`.

Brings the database schema up to date (migrations), backs it up into backups/ beside
it, then serves on every network interface and prints the addresses to open on the
tablet. Stopped (Ctrl-C, SIGTERM), it checkpoints SQLite's write-ahead log.

Plain HTTP is served by waitress (every platform), which reads each request whole
before a thread sees it. `--workers N` serves with N gunicorn processes of gthread
workers (Linux and macOS only: gunicorn needs fork), for a club's many tables (the
database is migrated once, under the migration lock, before they fork).

`--https` puts a TLS front before either (companion.tls_front, a process of its own that
holds no server thread while it waits): it shakes hands with each tablet and reads each
request whole within a deadline per request (not per byte), then hands it to waitress
or gunicorn on a Unix socket in a folder only this user can open. A tablet that drops
off the Wi-Fi, or a guest's client that sends a byte now and then, holds a little memory
until its deadline and no thread: every other screen is served meanwhile. Werkzeug's
server, used before, shook hands in its accept loop, where one silent connection froze
every screen; gunicorn's TLS shook hands and read on its worker threads, which eight
slow clients could hold. Nothing here needs the internet.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from flask import Flask
from sqlalchemy.engine import URL
from waitress import serve
from waitress.server import create_server

from companion import create_app, tls_front
from companion.db import db
from companion.db.backup import (
    BACKUPS_KEPT,
    BackupRefused,
    checkpoint,
    rotating_backup,
)
from companion.db.migrate import migrated
from companion.lan import (
    EVERY_INTERFACE,
    is_loopback,
    lan_addresses,
    reachable_addresses,
    terminal_qr,
    url_of,
)
from companion.tls import ensure_certificate

# Longer than any poll's interval (the live view's, the table's follow poll), so each
# screen keeps one connection, and its TLS session, between polls.
KEEPALIVE_SECONDS = 75
# Long enough to finish a request in progress when the server is stopped.
GRACEFUL_STOP_SECONDS = 10
# HTTPS: how long the TLS front waits for a client's handshake (a tablet on weak Wi-Fi
# shakes hands in well under a second) and for a whole request from its first byte (a
# 13 MB photo on a weak Wi-Fi of 2 Mbit/s takes 52 s); then the connection is closed.
HANDSHAKE_SECONDS = 5.0
REQUEST_SECONDS = 60.0


def freeze_startup_heap() -> None:
    """Keep what the start made (the app, the card catalog, the migrations' modules) out
    of the garbage collector's reach. Its full collections walked all of it while a
    request waited (once in a few hundred taps) and its younger ones kept
    looking into it; objects made later (games, pages) are collected as before."""
    gc.collect()
    gc.freeze()


@contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """SIGTERM (a service manager's stop, `kill`) ends the server as Ctrl-C does, so what
    follows the serving loop runs; the previous handler comes back afterwards."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set signal handlers
        return
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def backup_at_start(url: URL) -> str:
    """Back the database up into backups/ beside it, keeping the last few; what was done."""
    try:
        copied = rotating_backup(url)
    except BackupRefused as refused:
        return f"No automatic backup: {refused}"
    except (sqlite3.Error, OSError) as failed:
        return f"The automatic backup failed ({failed}); serving anyway."
    return f"Backed up {copied.games} games to {copied.path} (the last {BACKUPS_KEPT} are kept)"


def positive(text: str) -> int:
    """An argument that must be a whole number above zero."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not above zero")
    return value


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line's options; a clear message and exit status 2 for bad ones."""
    parser = argparse.ArgumentParser(prog="python -m companion.serve", description=__doc__)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--threads", type=positive, default=8, help="threads per process")
    parser.add_argument(
        "--https",
        action="store_true",
        help="serve over HTTPS (live camera), with a self-signed certificate unless --cert",
    )
    parser.add_argument("--cert", type=Path, help="with --https: a certificate (PEM) to use")
    parser.add_argument("--key", type=Path, help="with --https: the certificate's key (PEM)")
    parser.add_argument(
        "--handshake-seconds",
        type=float,
        default=HANDSHAKE_SECONDS,
        help="with --https: a connection's TLS handshake must end within this (5)",
    )
    parser.add_argument(
        "--request-seconds",
        type=float,
        default=REQUEST_SECONDS,
        help="with --https: a request, headers and body, must arrive within this (60)",
    )
    parser.add_argument(
        "--workers",
        type=positive,
        help="serve with N gunicorn processes, for a club's many tables (Linux, macOS)",
    )
    args = parser.parse_args(argv)
    if (args.cert is None) != (args.key is None):
        parser.error("--cert and --key go together")
    if args.cert is not None and not args.https:
        parser.error("--cert and --key need --https")
    if min(args.handshake_seconds, args.request_seconds) <= 0:
        parser.error("--handshake-seconds and --request-seconds must be above zero")
    if (args.https or args.workers) and sys.platform == "win32":
        parser.error("--https and --workers run on Linux and macOS only")
    return args


def uses_gunicorn(args: argparse.Namespace) -> bool:
    """gunicorn serves several processes; waitress one."""
    return bool(args.workers)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    app = migrated(create_app())
    if args.https:
        app.config["SESSION_COOKIE_SECURE"] = True  # never sent back over plain HTTP
    with app.app_context():
        url = db.engine.url
    print(backup_at_start(url))
    freeze_startup_heap()
    where = url.database if url.get_backend_name() == "sqlite" else url.render_as_string()
    print(f"Games are stored in {where} (backups: see README)")
    app.config["SERVE_HOST"] = args.host  # the home page's "Open on the tablet" address
    print(listening_lines(args.host, args.port, "https" if args.https else "http"))
    serving_process = os.getpid()
    try:
        with sigterm_as_ctrl_c():
            run_server(app, args)
    except KeyboardInterrupt:
        pass  # Ctrl-C or SIGTERM: a normal stop
    finally:
        if os.getpid() == serving_process:  # not a gunicorn worker that ends
            stopped(app)
    return 0


def listening_lines(host: str, port: int, scheme: str) -> str:
    """Where the server can be opened, as printed at the start: on this machine, then on
    the tablet with a QR code, each an address the server listens on (none for the
    tablet when it listens on loopback only)."""
    if host in EVERY_INTERFACE:
        lines = [f"On this machine: {url_of(scheme, 'localhost', port)}"]
    elif is_loopback(host):
        lines = [
            f"On this machine: {url_of(scheme, host, port)}",
            f"Listening on {host} only: no other device can open it (start without --host "
            "to serve a tablet).",
        ]
    else:
        lines = [f"Listening on {host} only."]
    addresses = reachable_addresses(host)
    lines += [f"On the tablet (same network): {url_of(scheme, a, port)}" for a in addresses]
    if addresses:
        lines += ["Or point the tablet's camera at this code:"]
        lines += [terminal_qr(url_of(scheme, addresses[0], port))]
    return "\n".join(lines)


def run_server(app: Flask, args: argparse.Namespace) -> None:
    """Serve until stopped: waitress, or gunicorn for --workers; with --https, behind
    the TLS front."""
    if not args.https:
        serve_plainly(app, args, host=args.host, port=args.port)
        return
    folder = Path(tempfile.mkdtemp(prefix="companion-"))  # 0700: this user's only
    socket_path = folder / "app.sock"
    owner = os.getpid()
    try:
        cert, key = certificate_files(app, args)
        with tls_front_running(args, cert, key, socket_path):
            serve_plainly(app, args, unix_socket=socket_path)
    finally:
        if os.getpid() == owner:  # not a gunicorn worker that ends
            shutil.rmtree(folder, ignore_errors=True)


def serve_plainly(
    app: Flask,
    args: argparse.Namespace,
    *,
    host: str = "",
    port: int = 0,
    unix_socket: Path | None = None,
) -> None:
    """Plain HTTP on host:port or, behind the TLS front, on its Unix socket (whose every
    request came over HTTPS)."""
    if uses_gunicorn(args):
        from companion.serve_gunicorn import GunicornPlan, serve_with_gunicorn

        plan = GunicornPlan(
            host=host,
            port=port,
            workers=args.workers,
            threads=args.threads,
            keepalive_seconds=KEEPALIVE_SECONDS,
            graceful_stop_seconds=GRACEFUL_STOP_SECONDS,
            unix_socket=unix_socket,
        )
        serve_with_gunicorn(app, plan)
    elif unix_socket is None:
        serve(app, host=host, port=port, threads=args.threads, ident="companion")
    else:
        server = create_server(
            app,
            unix_socket=str(unix_socket),
            unix_socket_perms="600",
            url_scheme="https",
            threads=args.threads,
            ident="companion",
        )
        try:
            server.run()
        finally:
            server.close()


@contextmanager
def tls_front_running(
    args: argparse.Namespace, cert: Path, key: Path, socket_path: Path
) -> Iterator[None]:
    """The TLS front (companion.tls_front), listening on the given host and port and
    handing requests to `socket_path`, for as long as the block runs. A port it cannot
    listen on ends the start with its message."""
    command = [
        sys.executable,
        "-P",  # only the standard library and h11: not the app's folder
        tls_front.__file__,
        *("--host", args.host, "--port", str(args.port)),
        *("--cert", str(cert), "--key", str(key), "--backend", str(socket_path)),
        *("--handshake-seconds", str(args.handshake_seconds)),
        *("--request-seconds", str(args.request_seconds)),
        *("--idle-seconds", str(KEEPALIVE_SECONDS)),
        "--parent-pipe",
    ]
    front = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    owner = os.getpid()
    try:
        assert front.stdout is not None
        if front.stdout.readline().strip() != b"ready":
            raise SystemExit(f"The HTTPS front could not listen on {args.host}:{args.port}.")
        yield
    finally:
        if os.getpid() == owner:  # not a gunicorn worker that ends
            stop_front(front)


def stop_front(front: subprocess.Popen[bytes]) -> None:
    """Stop the TLS front, at once (a request it holds has no thread to finish on)."""
    if front.stdin is not None:
        front.stdin.close()  # the front stops when its pipe closes
    front.terminate()
    try:
        front.wait(GRACEFUL_STOP_SECONDS)
    except subprocess.TimeoutExpired:
        front.kill()
        front.wait()


def certificate_files(app: Flask, args: argparse.Namespace) -> tuple[Path, Path]:
    """The certificate and key given on the command line, or the self-signed ones."""
    if args.cert is not None:
        return args.cert, args.key
    cert, key = ensure_certificate(Path(app.instance_path) / "https", lan_addresses())
    print(f"Self-signed certificate: {cert} (trust it on the tablet once: see README)")
    return cert, key


def stopped(app: Flask) -> None:
    """After serving: checkpoint SQLite's write-ahead log, so the database file alone
    holds every game, and close the connections."""
    with app.app_context():
        if not checkpoint(db.engine):
            print("The database was still in use: its -wal file holds the latest games.")


if __name__ == "__main__":
    raise SystemExit(main())

"""Start the companion for the table: `python -m companion.serve [--port 5000]`.

Brings the database schema up to date (migrations), backs it up into backups/ beside
it, then serves on every network interface and prints the addresses to open on the
tablet. Stopped (Ctrl-C, SIGTERM), it checkpoints SQLite's write-ahead log.

Plain HTTP is served by waitress (every platform). `--https` and `--workers N` are
served by gunicorn's gthread workers (Linux and macOS only: gunicorn needs fork). Its
TLS handshakes happen on the worker threads, a connection that sends nothing waits in
the worker's poller without holding a thread, and one gone silent mid-handshake or
mid-request is let go after a while (companion.tls), so a tablet dropping off the Wi-Fi
stops no other screen; Werkzeug's server, used before, shook hands in its accept loop,
where one silent connection froze every screen. cheroot's TLS adapter
shakes hands in its accept loop too; hypercorn would run this WSGI app through an
asyncio bridge. gunicorn also runs several processes for a club's many tables (the
database is migrated once, under the migration lock, before they fork), and keeps
connections alive between the live view's polls. Nothing here needs the internet.
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sqlite3
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from flask import Flask
from sqlalchemy.engine import URL
from waitress import serve

from companion import create_app
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
# HTTPS: how long a server thread waits for a silent client, in a TLS handshake (a
# tablet on weak Wi-Fi shakes hands in well under a second) and in a request (a photo
# upload on weak Wi-Fi may pause); then the thread is free for another screen.
HANDSHAKE_SECONDS = 5.0
READ_SECONDS = 30.0


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
        "--workers",
        type=positive,
        help="serve with N gunicorn processes, for a club's many tables (Linux, macOS)",
    )
    args = parser.parse_args(argv)
    if (args.cert is None) != (args.key is None):
        parser.error("--cert and --key go together")
    if args.cert is not None and not args.https:
        parser.error("--cert and --key need --https")
    if uses_gunicorn(args) and sys.platform == "win32":
        parser.error("--https and --workers need gunicorn, which runs on Linux and macOS only")
    return args


def uses_gunicorn(args: argparse.Namespace) -> bool:
    """gunicorn serves HTTPS and several processes; waitress the rest."""
    return bool(args.https or args.workers)


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
    """Serve until stopped: waitress for plain HTTP, gunicorn for --https or --workers."""
    if not uses_gunicorn(args):
        serve(app, host=args.host, port=args.port, threads=args.threads, ident="companion")
        return
    from companion.serve_gunicorn import GunicornPlan, serve_with_gunicorn

    tls = certificate_files(app, args) if args.https else None
    plan = GunicornPlan(
        host=args.host,
        port=args.port,
        workers=args.workers or 1,
        threads=args.threads,
        keepalive_seconds=KEEPALIVE_SECONDS,
        graceful_stop_seconds=GRACEFUL_STOP_SECONDS,
        handshake_seconds=HANDSHAKE_SECONDS,
        read_seconds=READ_SECONDS,
        tls=tls,
    )
    serve_with_gunicorn(app, plan)


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

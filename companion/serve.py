"""Start the companion for the table: `python -m companion.serve [--port 5000]`.

Brings the database schema up to date (migrations), backs it up into backups/ beside
it, then serves on every network interface with waitress and prints the addresses to
open on the tablet. Stopped (Ctrl-C, SIGTERM), it checkpoints SQLite's write-ahead log.
"""

from __future__ import annotations

import argparse
import gc
import signal
import socket
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import psutil
from flask import Flask
from sqlalchemy.engine import URL
from waitress import serve
from werkzeug.serving import make_server

from companion import create_app
from companion.db import db
from companion.db.backup import (
    BACKUPS_KEPT,
    BackupRefused,
    checkpoint,
    rotating_backup,
)
from companion.db.migrate import migrated
from companion.tls import ensure_certificate


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that other devices on the network can reach: every
    interface's, but loopback and link-local ones. (The host name's address is no guide:
    Debian and Ubuntu map it to 127.0.1.1.)"""
    found = {
        address.address
        for addresses in psutil.net_if_addrs().values()
        for address in addresses
        if address.family == socket.AF_INET
    }
    return sorted(a for a in found if not a.startswith(("127.", "169.254.")))


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.serve", description=__doc__)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument(
        "--https",
        action="store_true",
        help="serve over HTTPS with a self-signed certificate (live camera)",
    )
    args = parser.parse_args(argv)
    app = migrated(create_app())
    with app.app_context():
        url = db.engine.url
    print(backup_at_start(url))
    freeze_startup_heap()
    where = url.database if url.get_backend_name() == "sqlite" else url.render_as_string()
    print(f"Games are stored in {where} (backups: see README)")
    scheme = "https" if args.https else "http"
    print(f"On this machine: {scheme}://localhost:{args.port}/")
    for address in lan_addresses():
        print(f"On the tablet (same network): {scheme}://{address}:{args.port}/")
    try:
        with sigterm_as_ctrl_c():
            run_server(app, args)
    except KeyboardInterrupt:
        pass  # Ctrl-C or SIGTERM: a normal stop
    finally:
        stopped(app)
    return 0


def run_server(app: Flask, args: argparse.Namespace) -> None:
    """Serve until stopped: waitress, or Werkzeug's threaded server for --https."""
    if args.https:
        cert, key = ensure_certificate(Path(app.instance_path) / "https", lan_addresses())
        print(f"Self-signed certificate: {cert} (trust it on the tablet once: see README)")
        # waitress has no TLS; werkzeug's threaded server does, and is plenty for a table.
        make_server(
            args.host, args.port, app, threaded=True, ssl_context=(str(cert), str(key))
        ).serve_forever()
        return
    serve(app, host=args.host, port=args.port, threads=args.threads, ident="companion")


def stopped(app: Flask) -> None:
    """After serving: checkpoint SQLite's write-ahead log, so the database file alone
    holds every game, and close the connections."""
    with app.app_context():
        if not checkpoint(db.engine):
            print("The database was still in use: its -wal file holds the latest games.")


if __name__ == "__main__":
    raise SystemExit(main())

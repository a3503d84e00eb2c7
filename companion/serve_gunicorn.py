"""gunicorn for `python -m companion.serve --workers N` (Linux and macOS); with `--https`
it listens on the TLS front's Unix socket (companion.tls_front).

Imported only in those modes: gunicorn needs fork and fcntl, which Windows lacks.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

from companion.db import db


@dataclass(frozen=True)
class GunicornPlan:
    """How gunicorn serves: where (an address, or the TLS front's Unix socket), how many
    processes and threads."""

    host: str
    port: int
    workers: int
    threads: int
    keepalive_seconds: int
    graceful_stop_seconds: int
    unix_socket: Path | None = None  # behind the TLS front: host and port are the front's

    def options(self) -> dict[str, Any]:
        """gunicorn's settings for this plan."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        bind = f"{host}:{self.port}" if self.unix_socket is None else f"unix:{self.unix_socket}"
        options: dict[str, Any] = {
            "bind": [bind],
            "workers": self.workers,
            "worker_class": "gthread",
            "threads": self.threads,
            "keepalive": self.keepalive_seconds,
            "graceful_timeout": self.graceful_stop_seconds,
            # No client may claim HTTPS; the TLS front, on the Unix socket, is trusted.
            "forwarded_allow_ips": "",
            "control_socket_disable": True,  # no socket file in the user's home
            "proc_name": "companion",
            "loglevel": "warning",
        }
        return options


class CompanionServer(BaseApplication):  # type: ignore[misc]
    """The app, already built and migrated, served by gunicorn's arbiter."""

    def __init__(self, app: Flask, plan: GunicornPlan) -> None:
        self.application = app
        self.plan = plan
        super().__init__()

    def load_config(self) -> None:
        for name, value in self.plan.options().items():
            self.cfg.set(name, value)

    def load(self) -> Flask:
        return self.application


def serve_with_gunicorn(app: Flask, plan: GunicornPlan) -> None:
    """Serve until gunicorn's master process is stopped (SIGTERM, Ctrl-C). A worker
    process that ends raises SystemExit out of here: it must not run the master's stop."""
    with app.app_context():
        db.engine.dispose()  # the workers open their own connections after the fork
    master = os.getpid()
    try:
        CompanionServer(app, plan).run()
    except SystemExit:
        if os.getpid() != master:
            raise

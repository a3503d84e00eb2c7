"""gunicorn for `python -m companion.serve --https` or `--workers N` (Linux and macOS).

Imported only in those modes: gunicorn needs fork and fcntl, which Windows lacks.
"""

from __future__ import annotations

import os
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

from companion.db import db
from companion.tls import server_context


@dataclass(frozen=True)
class GunicornPlan:
    """How gunicorn serves: where, how many processes and threads, and the TLS files."""

    host: str
    port: int
    workers: int
    threads: int
    keepalive_seconds: int
    graceful_stop_seconds: int
    handshake_seconds: float
    read_seconds: float
    tls: tuple[Path, Path] | None = None  # certificate, key

    def options(self) -> dict[str, Any]:
        """gunicorn's settings for this plan."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        options: dict[str, Any] = {
            "bind": [f"{host}:{self.port}"],
            "workers": self.workers,
            "worker_class": "gthread",
            "threads": self.threads,
            "keepalive": self.keepalive_seconds,
            "graceful_timeout": self.graceful_stop_seconds,
            "forwarded_allow_ips": "",  # no proxy in front: no one may claim HTTPS
            "control_socket_disable": True,  # no socket file in the user's home
            "proc_name": "companion",
            "loglevel": "warning",
        }
        if self.tls is not None:
            options["certfile"], options["keyfile"] = (str(path) for path in self.tls)
            contexts = OneContext(*self.tls, self.handshake_seconds, self.read_seconds)
            options["ssl_context"] = contexts.for_gunicorn
        return options


class OneContext:
    """gunicorn's ssl_context hook, which it calls for each connection: one context per
    process, made on first use, whose waits for a client are bounded (companion.tls)."""

    def __init__(self, cert: Path, key: Path, handshake_seconds: float, read_seconds: float):
        self.files = (cert, key)
        self.limits = (handshake_seconds, read_seconds)
        self.context: ssl.SSLContext | None = None

    def for_gunicorn(self, config: Any, default: Callable[[], ssl.SSLContext]) -> ssl.SSLContext:
        if self.context is None:
            self.context = server_context(*self.files, *self.limits)
        return self.context


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

"""Bringing a database's schema to the migrations' head, however the app is started."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask
from flask_migrate import upgrade


@contextmanager
def one_at_a_time(instance: Path) -> Iterator[None]:
    """Hold the instance folder's migration lock (a no-op where there is no flock)."""
    if sys.platform == "win32":
        yield
        return
    import fcntl

    with (instance / "migrate.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def migrated(app: Flask) -> Flask:
    """`app`, once its database's schema is at the migrations' head."""
    with one_at_a_time(Path(app.instance_path)), app.app_context():
        upgrade()
    return app

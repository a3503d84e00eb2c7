"""WSGI entry point: `flask --app wsgi ...` or any WSGI server (`gunicorn wsgi:app`).

The app brings the database schema up to date (the migrations) before it serves,
however it is started; worker processes starting together take turns through a lock
file in the instance folder.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask
from flask_migrate import upgrade

from companion import create_app


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


app = migrated(create_app())

"""The Dune: Imperium table companion: `create_app()` builds the Flask app."""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from flask_babel import Babel
from flask_migrate import Migrate
from flask_wtf.csrf import CSRFProtect
from htmx_flask import Htmx
from sqlalchemy import event
from sqlalchemy.engine import Engine

from companion.cards import default_root, load_catalog
from companion.db import db
from companion.state_cache import StateCache

ROOT = Path(__file__).resolve().parent.parent
GAME_SETS = ("base", "ix")  # the card sets a game may be played with
csrf = CSRFProtect()
migrate = Migrate()


def _secret_key(instance: Path) -> str:
    """A random key made on first start and kept in the instance folder."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    """SQLite: write-ahead log for the live view's reads, full sync so a commit survives
    a killed server or a power cut."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: instance folder config, then COMPANION_* environment variables."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///companion.sqlite",
        CARD_DB_PATH=str(default_root()),
        BABEL_DEFAULT_LOCALE="en",
        WTF_CSRF_TIME_LIMIT=None,  # a game night lasts longer than an hour
        SESSION_COOKIE_SAMESITE="Lax",  # no other site's form posts with this session
        LIVE_POLL_MS=1000,
        # Bodies above this are refused (413) before they are read: a 12 MB photo
        # (web.scan.MAX_IMAGE_BYTES) and its form fields fit.
        MAX_CONTENT_LENGTH=13 * 1024 * 1024,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("COMPANION")
        if os.environ.get("DATABASE_URL"):
            app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    else:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))

    db.init_app(app)
    # One per app: the writes of its threads queue on the lock, and recent games' states
    # stay in the cache (companion/db/repository.py, companion/state_cache.py).
    app.extensions["game_write_lock"] = threading.Lock()
    app.extensions["state_cache"] = StateCache()
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)
    # A Babel of its own per app: Flask-Babel keeps the loaded catalogs in its Babel's
    # domain by locale alone, so apps sharing one would share them (a test's app with a
    # catalog directory of its own handed its Japanese plural rule to every later app).
    Babel(app)
    Htmx(app)
    # Games filter the catalog by their Setup's sets, so base games play as before.
    app.extensions["catalog"] = load_catalog(Path(app.config["CARD_DB_PATH"]), GAME_SETS)

    from companion.cards.cli import cards_cli
    from companion.db.backup import backup_command
    from companion.web import register

    register(app)
    app.cli.add_command(cards_cli)
    app.cli.add_command(backup_command)
    return app

"""The migrations: the app migrates however it is started (issue 17, finding 7), a crash
in the middle of them leaves a database the next start migrates (finding 6), and the
migration to ids never reused keeps every game and event (finding 5)."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import event, func, insert, select, text

from companion import create_app, services
from companion.db import db
from companion.db.models import GameEvent
from companion.web import forms
from tests.web.conftest import BASE_CONFIG, SOLO_FORM, dispose
from tests.web.test_restart import keep_logging  # noqa: F401  (a fixture)

ROOT = Path(__file__).resolve().parent.parent.parent
pytestmark = pytest.mark.usefixtures("keep_logging")


@pytest.fixture
def wsgi_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    """The app wsgi.py makes, on a fresh database: what `flask --app wsgi run` serves."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'fresh.sqlite'}")
    monkeypatch.setenv("COMPANION_SECRET_KEY", "test")
    module: dict[str, Any] = runpy.run_path(str(ROOT / "wsgi.py"))
    app: Flask = module["app"]
    with app.app_context():
        services.forget_cache()
    yield app
    dispose(app)


def test_the_wsgi_app_on_a_fresh_database_serves_the_home_page(wsgi_app: Flask) -> None:
    response = wsgi_app.test_client().get("/")
    assert response.status_code == 200


def test_the_wsgi_app_starts_again_on_its_migrated_database(wsgi_app: Flask) -> None:
    again: Flask = runpy.run_path(str(ROOT / "wsgi.py"))["app"]
    try:
        assert again.test_client().get("/").status_code == 200
    finally:
        dispose(again)


def test_two_workers_starting_together_on_a_fresh_database_both_serve(tmp_path: Path) -> None:
    """As `gunicorn --workers 2 wsgi:app` does: each process migrates, one at a time."""
    env = os.environ | {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite'}",
        "COMPANION_SECRET_KEY": "test",
    }
    serve_home = "import wsgi; print(wsgi.app.test_client().get('/').status_code)"
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", serve_home],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    answers = [worker.communicate(timeout=120) for worker in workers]
    assert [out.strip() for out, _ in answers] == ["200", "200"], answers


# -- a crash during the migrations (finding 6) ------------------------------------------


class Crash(Exception):
    """The server dying in the middle of the migrations."""


def upgrade_cut_after(app: Flask, statements: int) -> int:
    """Run the migrations, crashing after their `statements`-th SQL statement (0: never);
    the number of statements run."""
    seen = 0

    def count(*_: object) -> None:
        nonlocal seen
        seen += 1
        if seen == statements:
            raise Crash

    with app.app_context():
        event.listen(db.engine, "after_cursor_execute", count)
        try:
            upgrade()
        finally:
            event.remove(db.engine, "after_cursor_execute", count)
    return seen


def app_on(path: Path) -> Flask:
    app = create_app({**BASE_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        services.forget_cache()
    return app


def assert_migrated_and_working(app: Flask) -> None:
    """The schema is the models' and a game can be played on it."""
    with app.app_context(), db.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []
    client = app.test_client()
    assert client.get("/").status_code == 200
    with app.app_context():
        game_id = services.create_game(forms.setup_from(SOLO_FORM, 1), app.extensions["catalog"])
    assert client.get(f"/games/{game_id}").status_code == 200


def test_a_crash_at_any_statement_of_the_migrations_is_recovered_by_the_next_start(
    tmp_path: Path,
) -> None:
    whole = app_on(tmp_path / "whole.sqlite")
    try:
        statements = upgrade_cut_after(whole, 0)
    finally:
        dispose(whole)
    assert statements > 5
    for cut in range(1, statements + 1):
        path = tmp_path / f"cut{cut}.sqlite"
        crashed = app_on(path)
        try:
            with pytest.raises(Crash):
                upgrade_cut_after(crashed, cut)
        finally:
            dispose(crashed)
        restarted = app_on(path)
        try:
            upgrade_cut_after(restarted, 0)
            assert_migrated_and_working(restarted)
        finally:
            dispose(restarted)


# -- ids never reused (finding 5) --------------------------------------------------------

FIRST_REVISION = "2e2a20be4f47"  # games and events, with SQLite's reusable ids


def add_events(game_id: int, count: int) -> None:
    rows = [
        {"game_id": game_id, "seq": seq, "actor": "player", "undone": False}
        | {"action": {"type": "Reveal", "house": "p1"}}
        for seq in range(1, count + 1)
    ]
    db.session.execute(insert(GameEvent), rows)
    db.session.commit()


def event_count() -> int:
    return db.session.scalar(select(func.count()).select_from(GameEvent)) or 0


def test_the_migration_to_ids_never_reused_keeps_every_game_and_event(tmp_path: Path) -> None:
    app = app_on(tmp_path / "old.sqlite")
    setup = forms.setup_from(SOLO_FORM, 1)
    try:
        with app.app_context():
            upgrade(revision=FIRST_REVISION)
            kept, last = (services.create_game(setup, app.extensions["catalog"]) for _ in "ab")
            add_events(kept, 3)
            add_events(last, 2)
            upgrade()
            assert event_count() == 5
            assert db.session.execute(text("PRAGMA foreign_key_check")).all() == []
            services.delete_game(last)  # its events go with it: the foreign key still holds
            assert event_count() == 3
            assert services.create_game(setup, app.extensions["catalog"]) == last + 1
            assert services.load(kept, app.extensions["catalog"]).id == kept
    finally:
        dispose(app)

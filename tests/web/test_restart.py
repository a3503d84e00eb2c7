"""Restarting the server mid-game resumes the exact state (issue 3, "Done when").

A restart is simulated in-process: the state cache is dropped and a brand new app object
is built on the same SQLite file, so the state can only come from replaying the stored log.
(tests/server/test_kill.py does the real thing with SIGKILL.) The last test runs the real
migrations and checks the schema they build.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import insert, inspect, select
from sqlalchemy.exc import IntegrityError

from companion import create_app, services
from companion.db import db
from companion.db.models import Game, GameEvent
from companion.rules.actions import Choose, IllegalAction
from companion.rules.state import GameState
from companion.sim import choose_action
from companion.web import forms
from tests import database
from tests.web import pages
from tests.web.conftest import BASE_CONFIG, SOLO_FORM, TWO_PLAYER_FORM, dispose


class Server:
    """One "server process": an app on the SQLite file `path` (or the database `url`).
    `restart()` makes a new one."""

    def __init__(self, path: Path, url: str | None = None) -> None:
        self.url = url or f"sqlite:///{path}"
        self.app = self._start(create_tables=True)

    def _start(self, create_tables: bool = False) -> Flask:
        app = create_app({**BASE_CONFIG, "SQLALCHEMY_DATABASE_URI": self.url})
        with app.app_context():
            services.forget_cache()
            if create_tables:
                db.create_all()
        return app

    def restart(self) -> None:
        """Forget everything but the database file, and start a new app on it."""
        dispose(self.app)
        self.app = self._start()

    def stop(self) -> None:
        dispose(self.app)

    @property
    def catalog(self):
        return self.app.extensions["catalog"]

    def create(self, form: dict[str, str], seed: int) -> int:
        with self.app.app_context():
            return services.create_game(forms.setup_from(form, seed), self.catalog)

    def view(self, game_id: int) -> services.GameView:
        with self.app.app_context():
            return services.load(game_id, self.catalog)

    def play(self, game_id: int, rng: random.Random, steps: int) -> list[GameState]:
        """Play `steps` scripted moves through the services; the states after each."""
        states = []
        with self.app.app_context():
            for _ in range(steps):
                view = services.load(game_id, self.catalog)
                if view.state.phase == "ended":
                    break
                action = choose_action(view.state, rng)
                states.append(services.act(game_id, action, view.version, self.catalog).state)
        return states

    def undo(self, game_id: int) -> GameState:
        with self.app.app_context():
            version = services.current_version(game_id)
            return services.undo(game_id, version, self.catalog).state

    def redo(self, game_id: int) -> GameState:
        with self.app.app_context():
            version = services.current_version(game_id)
            return services.redo(game_id, version, self.catalog).state


@pytest.fixture
def server(tmp_path) -> Iterator[Server]:
    s = Server(tmp_path / "companion.sqlite", database.file_uri(tmp_path / "companion.sqlite"))
    yield s
    s.stop()


@pytest.mark.parametrize("form", [SOLO_FORM, TWO_PLAYER_FORM], ids=["solo", "2p"])
@pytest.mark.parametrize("steps", [1, 17, 30, 2000], ids=["start", "mid", "late", "ended"])
def test_a_restart_rebuilds_the_same_state_and_play_goes_on(server, form, steps):
    game_id = server.create(form, seed=11)
    server.play(game_id, random.Random(11), steps)
    before = server.view(game_id)

    server.restart()
    assert not len(server.app.extensions["state_cache"])  # only the database survives
    after = server.view(game_id)
    assert after.state == before.state
    assert (after.version, after.can_undo, after.can_redo, after.title) == (
        before.version,
        before.can_undo,
        before.can_redo,
        before.title,
    )

    # Play goes on after the restart, and a second restart agrees again.
    continued = server.play(game_id, random.Random(12), 10)
    assert continued or before.state.phase == "ended"
    if not continued:
        return
    server.restart()
    assert server.view(game_id).state == continued[-1]


def test_play_over_http_survives_a_restart(server):
    client = server.app.test_client()
    response = client.post("/games", data=SOLO_FORM)
    assert response.status_code == 303
    game_id = int(response.headers["Location"].split("/")[2])
    for _ in range(8):
        body = client.get(f"/games/{game_id}").get_data(as_text=True)
        form = (
            pages.action_forms(body, action="place")
            or pages.action_forms(body, action="choose")
            or pages.action_forms(body, action="reveal")
        )[0]
        data = dict(form.fields)
        if "data-numpad" in form.attrs:
            data["option"] = "4"
        assert client.post(form.action, data=data).status_code == 303
    page_before = client.get(f"/games/{game_id}").get_data(as_text=True)
    state_before = server.view(game_id).state

    server.restart()
    client = server.app.test_client()
    page_after = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert server.view(game_id).state == state_before
    assert pages.version(page_after) == pages.version(page_before) == 8

    # The same screen: the same forms, as the same fields.
    def fields(page: str) -> list[dict[str, str]]:
        return [{k: v for k, v in f.fields.items() if k != "csrf_token"} for f in pages.forms(page)]

    assert fields(page_after) == fields(page_before)


def test_undone_events_survive_a_restart_and_redo_works(server):
    game_id = server.create(SOLO_FORM, seed=21)
    states = server.play(game_id, random.Random(21), 30)
    assert len(states) == 30
    assert server.undo(game_id) == states[-2]
    assert server.undo(game_id) == states[-3]
    assert server.undo(game_id) == states[-4]
    before = server.view(game_id)
    assert before.can_redo

    server.restart()
    after = server.view(game_id)
    assert after.state == before.state == states[-4]
    assert after.can_undo and after.can_redo
    assert server.redo(game_id) == states[-3]

    server.restart()
    assert server.redo(game_id) == states[-2]
    assert server.redo(game_id) == states[-1]
    with pytest.raises(IllegalAction, match="Nothing to redo"):
        server.redo(game_id)
    server.restart()
    assert server.view(game_id).state == states[-1]


def test_a_new_action_after_undo_and_restart_drops_the_undone_ones(server):
    game_id = server.create(SOLO_FORM, seed=31)
    states = server.play(game_id, random.Random(31), 12)
    server.undo(game_id)
    server.undo(game_id)
    server.restart()
    server.play(game_id, random.Random(99), 1)
    view = server.view(game_id)
    assert not view.can_redo
    with server.app.app_context():
        events = db.session.scalars(
            select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.seq)
        ).all()
        assert [e.seq for e in events] == list(range(1, 12))
        assert not any(e.undone for e in events)
    server.restart()
    assert server.view(game_id).state == view.state
    assert view.state.step == states[-3].step + 1


def test_a_restart_at_the_strength_prompt_keeps_the_question(server):
    game_id = server.create(SOLO_FORM, seed=41)
    rng = random.Random(41)
    with server.app.app_context():
        for _ in range(200):
            view = services.load(game_id, server.catalog)
            p = view.state.prompt
            if p is not None and p.number:
                break
            services.act(game_id, choose_action(view.state, rng), view.version, server.catalog)
    before = server.view(game_id)
    assert before.state.prompt is not None and before.state.prompt.number

    server.restart()
    after = server.view(game_id)
    assert after.state == before.state
    with server.app.app_context():
        answered = services.act(game_id, Choose("6"), after.version, server.catalog)
    assert answered.state.prompt is None or answered.state.prompt != before.state.prompt
    server.restart()
    assert server.view(game_id).state == answered.state


def test_a_whole_game_replays_identically_after_a_restart(server):
    game_id = server.create(SOLO_FORM, seed=51)
    states = server.play(game_id, random.Random(51), 2000)
    assert states[-1].phase == "ended"
    server.restart()
    assert server.view(game_id).state == states[-1]
    for expected in reversed(states[-4:-1]):
        assert server.undo(game_id) == expected
    server.restart()
    assert server.view(game_id).state == states[-4]


# -- migrations ------------------------------------------------------------------------


@pytest.fixture
def keep_logging() -> Iterator[None]:
    """Alembic's env.py runs logging.fileConfig, which disables every existing logger."""
    root = logging.getLogger()
    saved = (root.level, list(root.handlers))
    loggers = {
        name: (lg.disabled, lg.level)
        for name, lg in logging.Logger.manager.loggerDict.items()
        if isinstance(lg, logging.Logger)
    }
    yield
    root.setLevel(saved[0])
    root.handlers[:] = saved[1]
    for name, (disabled, level) in loggers.items():
        lg = logging.getLogger(name)
        lg.disabled, lg.level = disabled, level


def test_the_migrations_build_the_schema_of_the_models(tmp_path, keep_logging):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    uri = database.file_uri(tmp_path / "m.sqlite")
    app = create_app({**BASE_CONFIG, "SQLALCHEMY_DATABASE_URI": uri})
    try:
        with app.app_context():
            upgrade()
            inspector = inspect(db.engine)
            assert {"game", "game_event", "alembic_version"} <= set(inspector.get_table_names())
            uniques = inspector.get_unique_constraints("game_event")
            assert any(sorted(u["column_names"]) == ["game_id", "seq"] for u in uniques)
            foreign = inspector.get_foreign_keys("game_event")
            assert foreign[0]["referred_table"] == "game"
            assert {c["name"] for c in inspector.get_columns("game")} == set(
                Game.__table__.columns.keys()
            )
            # Nothing in the models that the migrations don't create (no missing migration).
            with db.engine.connect() as connection:
                diff = compare_metadata(MigrationContext.configure(connection), db.metadata)
            assert diff == []

            # The constraint holds in the migrated database: one event per (game, seq).
            game_id = services.create_game(
                forms.setup_from(SOLO_FORM, 1), app.extensions["catalog"]
            )
            row = {"game_id": game_id, "seq": 1, "actor": "player", "undone": False}
            row |= {"action": {"type": "Reveal", "house": "p1"}, "created_at": datetime(2025, 1, 1)}
            db.session.execute(insert(GameEvent).values(row))
            with pytest.raises(IntegrityError):
                db.session.execute(insert(GameEvent).values(row))
            db.session.rollback()

            downgrade(revision="base")
            assert set(inspect(db.engine).get_table_names()) == {"alembic_version"}
            upgrade()
            assert "game_event" in inspect(db.engine).get_table_names()
    finally:
        dispose(app)

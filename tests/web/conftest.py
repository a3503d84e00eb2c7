"""Fixtures for the web layer (flaskr style): `app`, `client`, `game`, and a CSRF twin.

`app` runs on in-memory SQLite with CSRF off, so tests post forms directly; `csrf_app`
keeps CSRF on for the tests of the token itself. New games get a fixed seed instead of
the route's random one, so every test plays the same game on every run.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from companion import create_app, services
from companion.db import db
from companion.db.models import Game, GameEvent
from companion.rules.catalog import Catalog
from companion.rules.engine import legal_actions
from companion.rules.state import GameState
from companion.web import games as games_module
from tests import database
from tests.web import pages

BASE_CONFIG: dict[str, Any] = {
    "TESTING": True,
    "SQLALCHEMY_DATABASE_URI": database.memory_uri(),
    "SECRET_KEY": "test",
    "WTF_CSRF_ENABLED": False,
}

SOLO_FORM = {
    "mode": "solo",
    "difficulty": "mentat",
    "p1_name": "Ann",
    "p1_leader": "paul_atreides",
    "p1_color": "green",
    "r1_leader": "glossu_rabban",
    "r1_color": "red",
    "r2_leader": "memnon_thorvald",
    "r2_color": "yellow",
}
TWO_PLAYER_FORM = {
    "mode": "2p",
    "p1_name": "Ann",
    "p1_leader": "paul_atreides",
    "p1_color": "green",
    "p2_name": "Ben",
    "p2_leader": "ilban_richese",
    "p2_color": "blue",
    "first_player": "0",
    "hagal_color": "red",
}
HX = {"HX-Request": "true"}


def make_app(**config: Any) -> Flask:
    """A test app with its tables created and an empty state cache."""
    app = create_app({**BASE_CONFIG, **config})
    with app.app_context():
        services.forget_cache()
        db.create_all()
    return app


def dispose(app: Flask) -> None:
    """Drop the app's cached states and close its database connections."""
    with app.app_context():
        services.forget_cache()
        db.engine.dispose()


@pytest.fixture
def app() -> Iterator[Flask]:
    app = make_app()
    yield app
    dispose(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def csrf_app() -> Iterator[Flask]:
    app = make_app(WTF_CSRF_ENABLED=True)
    yield app
    dispose(app)


@pytest.fixture
def csrf_client(csrf_app: Flask) -> FlaskClient:
    return csrf_app.test_client()


class GameActions:
    """Create and play games through the routes; read them back through the services."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        self.app = app
        self.client = client
        self.next_seed = 1

    @property
    def catalog(self) -> Catalog:
        return self.app.extensions["catalog"]  # type: ignore[no-any-return]

    # -- creating -----------------------------------------------------------------------

    def create(self, form: dict[str, str], seed: int = 1) -> int:
        """POST the new-game form; return the new game's id."""
        self.next_seed = seed
        response = self.client.post("/games", data=form)
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
        location = response.headers["Location"]
        assert location.endswith("/setup"), location
        return int(location.rsplit("/", 2)[-2])

    def new_solo(self, difficulty: str = "mentat", seed: int = 1, **fields: str) -> int:
        return self.create({**SOLO_FORM, "difficulty": difficulty, **fields}, seed)

    def new_2p(self, seed: int = 1, **fields: str) -> int:
        return self.create({**TWO_PLAYER_FORM, **fields}, seed)

    # -- reading ------------------------------------------------------------------------

    def version(self, game_id: int) -> int:
        with self.app.app_context():
            return services.current_version(game_id)

    def view(self, game_id: int, fresh: bool = False) -> services.GameView:
        """The game as the services load it; `fresh` rebuilds it from the stored log
        (and leaves the cache empty, as after a restart)."""
        with self.app.app_context():
            if fresh:
                services.forget_cache()
            return services.load(game_id, self.catalog)

    def stamp(self, game_id: int) -> str:
        """The game's `created` stamp, which every write about it sends (GameView.created);
        empty for a game that does not exist."""
        if not self.game_exists(game_id):
            return ""
        return self.view(game_id).created

    def state(self, game_id: int, fresh: bool = False) -> GameState:
        return self.view(game_id, fresh).state

    def events(self, game_id: int) -> list[tuple[int, bool, dict[str, Any]]]:
        """The stored log: (seq, undone, action) in order."""
        with self.app.app_context():
            rows = db.session.scalars(
                select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.seq)
            ).all()
            return [(e.seq, e.undone, e.action) for e in rows]

    def event_count(self, game_id: int) -> int:
        return len(self.events(game_id))

    def game_exists(self, game_id: int) -> bool:
        if not 0 < game_id <= services.MAX_ID:
            return False
        with self.app.app_context():
            return db.session.get(Game, game_id) is not None

    def game_count(self) -> int:
        with self.app.app_context():
            return db.session.scalar(select(func.count()).select_from(Game)) or 0

    def all_event_count(self) -> int:
        with self.app.app_context():
            return db.session.scalar(select(func.count()).select_from(GameEvent)) or 0

    def snapshot(self, game_id: int) -> tuple[int, list[tuple[int, bool, dict[str, Any]]], Any]:
        """Everything a refused request must leave alone: version, stored log, state."""
        return self.version(game_id), self.events(game_id), self.state(game_id)

    def legal(self, game_id: int) -> list[Any]:
        return legal_actions(self.state(game_id))

    def page(self, game_id: int, htmx: bool = False) -> str:
        response = self.client.get(f"/games/{game_id}", headers=HX if htmx else {})
        assert response.status_code == 200
        return response.get_data(as_text=True)

    # -- changing -----------------------------------------------------------------------

    def post(
        self, path: str, data: dict[str, Any], htmx: bool = False, **headers: str
    ) -> TestResponse:
        return self.client.post(path, data=data, headers={**(HX if htmx else {}), **headers})

    def _change(
        self, game_id: int, what: str, version: int | None, htmx: bool, fields: dict[str, str]
    ) -> TestResponse:
        data = {"created": self.stamp(game_id), **fields}
        data["version"] = str(self.version(game_id) if version is None else version)
        return self.post(f"/games/{game_id}/{what}", data, htmx)

    def act(
        self, game_id: int, htmx: bool = False, version: int | None = None, **fields: str
    ) -> TestResponse:
        """POST an action at the current version (or the one given)."""
        return self._change(game_id, "actions", version, htmx, fields)

    def act_form(
        self, game_id: int, fields: dict[str, str], htmx: bool = False, version: int | None = None
    ) -> TestResponse:
        """POST these action fields at the current version (or the one given)."""
        return self._change(game_id, "actions", version, htmx, fields)

    def do(self, game_id: int, action: Any, htmx: bool = False) -> TestResponse:
        """POST an engine action through its form fields; it must be accepted."""
        response = self.act_form(game_id, pages.form_for(action), htmx)
        assert response.status_code == (200 if htmx else 303), response.get_data(as_text=True)
        return response

    def undo(self, game_id: int, htmx: bool = False, version: int | None = None) -> TestResponse:
        return self._change(game_id, "undo", version, htmx, {})

    def redo(self, game_id: int, htmx: bool = False, version: int | None = None) -> TestResponse:
        return self._change(game_id, "redo", version, htmx, {})

    def delete(self, game_id: int, htmx: bool = False) -> TestResponse:
        return self.post(f"/games/{game_id}/delete", {"created": self.stamp(game_id)}, htmx)


def _fixed_seeds(actions: GameActions) -> SimpleNamespace:
    """Stands in for `secrets` in the games module: the seed the test asked for."""
    return SimpleNamespace(randbelow=lambda n: actions.next_seed % n)


@pytest.fixture
def game(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> GameActions:
    actions = GameActions(app, client)
    monkeypatch.setattr(games_module, "secrets", _fixed_seeds(actions))
    return actions


@pytest.fixture
def csrf_game(
    csrf_app: Flask, csrf_client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> GameActions:
    actions = GameActions(csrf_app, csrf_client)
    monkeypatch.setattr(games_module, "secrets", _fixed_seeds(actions))
    return actions

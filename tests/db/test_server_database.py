"""The tests run on the database they were given (the PostgreSQL leg is not SQLite in
disguise), and what PostgreSQL refuses never reaches it (issue 17, finding 8)."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.db import db
from tests import database
from tests.web.conftest import HX, GameActions


def test_the_games_are_stored_in_the_database_the_tests_were_given(app: Flask) -> None:
    with app.app_context():
        dialect = db.engine.dialect.name
    assert dialect == ("postgresql" if database.SERVER_URI else "sqlite")


def test_a_name_with_nul_bytes_makes_a_game_with_the_name_cleaned(game: GameActions) -> None:
    game_id = game.new_solo(p1_name="\x00Ann\x00\x1b")
    assert game.state(game_id, fresh=True).setup.humans[0].name == "Ann"
    assert "Ann" in game.page(game_id)


@pytest.mark.parametrize("game_id", [2**31 - 1, 2**31])  # the id columns are 32-bit
@pytest.mark.parametrize("path", ["/games/{id}", "/games/{id}/actions", "/games/{id}/version"])
def test_ids_at_the_edge_of_the_id_columns_are_404(
    app: Flask, client: FlaskClient, game_id: int, path: str
) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False  # the status a browser would see
    url = path.format(id=game_id)
    form = {"version": "0", "action": "reveal", "house": "p1"}
    response = client.post(url, data=form, headers=HX) if "actions" in path else client.get(url)
    assert response.status_code == 404

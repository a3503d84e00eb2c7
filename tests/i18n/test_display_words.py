"""Words stored in English with a game (seat names, its title) shown in the reader's
language, while what is stored stays as it was."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.db import db
from companion.db.models import Game
from companion.web import games as games_module
from tests.web.conftest import SOLO_FORM, TWO_PLAYER_FORM

POLISH = {"Accept-Language": "pl"}


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same shuffles on every run (the first Conflict is Skirmish)."""
    monkeypatch.setattr(games_module, "secrets", SimpleNamespace(randbelow=lambda n: 1 % n))


def start(client: FlaskClient, form: dict[str, str]) -> str:
    created = client.post("/games", data=form)
    assert created.status_code == 303
    return str(created.headers["Location"]).removesuffix("/setup")


def stored_title(app: Flask) -> str:
    with app.app_context():
        return str(db.session.scalars(select(Game.title)).one())


def test_a_solo_game_shows_its_rivals_and_title_in_the_readers_language(
    app: Flask, client: FlaskClient
) -> None:
    game = start(client, SOLO_FORM)
    table = client.get(game, headers=POLISH).get_data(as_text=True)
    assert "Lewy rywal" in table and "Prawy rywal" in table
    assert "Left Rival" not in table and "Right Rival" not in table
    home = client.get("/", headers=POLISH).get_data(as_text=True)
    assert 'Ann kontra Glossu "The Beast" Rabban i Earl Memnon Thorvald (Mentat)' in (
        home.replace("&#34;", '"')
    )
    # Stored as before: the English title and names, whatever the reader's language.
    assert stored_title(app).endswith("Rabban and Earl Memnon Thorvald (mentat)")
    assert "Left Rival" in client.get(game).get_data(as_text=True)


def test_a_players_own_name_is_never_translated(client: FlaskClient) -> None:
    game = start(client, {**SOLO_FORM, "r1_name": "Red", "p1_name": "Player 2"})
    table = client.get(game, headers=POLISH).get_data(as_text=True)
    assert "Prawy rywal" in table  # the unnamed seat
    assert ">Red<" in table  # a name the player typed, though it is a catalog word
    assert "Gracz 2" in table  # a typed name equal to a default one reads as the default


def test_a_two_player_game_shows_house_hagal_and_the_factions_in_the_readers_language(
    client: FlaskClient,
) -> None:
    game = start(client, TWO_PLAYER_FORM)
    table = client.get(game, headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert "公家ハイガル" in table and "House Hagal" not in table
    assert "+1 皇帝" in table  # the Reveal turn's "+1 Emperor" button
    assert "Ann & Ben 対 公家ハイガル" in table.replace("&amp;", "&")


def test_costs_and_conflict_rewards_are_in_the_readers_language(client: FlaskClient) -> None:
    game = start(client, SOLO_FORM)
    table = client.get(game, headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert "5 솔라리" in table  # the Landsraad spaces' costs
    assert "물 2" in table  # Research Station / Sietch Tabr
    assert "원하는 세력 하나에 영향력 +1" in table  # Skirmish's first reward

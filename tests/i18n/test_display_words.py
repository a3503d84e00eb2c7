"""Words stored in English with a game (seat names, its title) shown in the reader's
language, while what is stored stays as it was."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import get_translations
from sqlalchemy import select

from companion.db import db
from companion.db.models import Game
from companion.rules.engine import new_game
from companion.rules.state import Entry
from companion.sim import make_setup
from companion.web import games as games_module
from companion.web.present.story import sentence
from tests.web.conftest import SOLO_FORM, TWO_PLAYER_FORM

POLISH = {"Accept-Language": "pl"}
STATIC = Path(__file__).resolve().parents[2] / "static"
RIVAL_NAMES = ("Left Rival", "Right Rival")  # the set-up form's names for unnamed Rivals


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
    # The Rival leaders' names come from the Polish cards catalog.
    assert "Ann kontra Glossu „Bestia” Rabban i Earl Memnon Thorvald (Mentat)" in home
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
    # the Reveal turn's "+1 Emperor" button (its words marked whole: web/line_breaks.py)
    assert "+1 皇帝" in re.sub(r"<[^>]*>", "", table)
    assert "Ann & Ben 対 公家ハイガル" in table.replace("&amp;", "&")


def test_costs_and_conflict_rewards_are_in_the_readers_language(client: FlaskClient) -> None:
    game = start(client, SOLO_FORM)
    table = client.get(game, headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert "솔라리 5" in table  # the Landsraad spaces' costs (resource first, as 물 2)
    assert "물 2" in table  # Research Station / Sietch Tabr
    assert "원하는 세력 하나에 영향력 +1" in table  # Skirmish's first reward


def test_a_refused_setup_lists_its_problems_in_the_readers_language(
    client: FlaskClient,
) -> None:
    """Every problem of the setup, each translated [RB p.20: two different Rival leaders]."""
    form = {**SOLO_FORM, "r2_leader": SOLO_FORM["r1_leader"], "r2_color": "red"}
    refused = client.post("/games", data=form, headers=POLISH)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert "Dwaj rywale potrzebują różnych liderów." in page
    assert "Każdy ród potrzebuje własnego koloru." in page
    assert "The two Rivals" not in page


def test_combat_results_and_tie_break_counts_in_the_log_are_translated(app: Flask) -> None:
    """Strengths and places [RB p.12 Resolve Combat], tie-break counts [RB p.12 Endgame]."""
    catalog = app.extensions["catalog"]
    setup = make_setup(catalog, "solo", "mentat", seed=1)
    unnamed = tuple(
        replace(seat, name=name) for seat, name in zip(setup.rivals, RIVAL_NAMES, strict=True)
    )
    state = new_game(replace(setup, rivals=unnamed), catalog)
    left, right = state.houses[1].id, state.houses[2].id
    fight = {"strengths": {left: 7, right: 3}, "places": {left: "first", right: "second"}}
    combat = Entry(1, 1, "combat", None, {"card": "skirmish_a", **fight})
    tie = Entry(2, 10, "tiebreak", left, {"values": [3, 2, 1, 4]})
    bank = Entry(3, 1, "take", left, {"solari": 2, "spice": 1, "troops": 2})
    reward = Entry(4, 1, "reward", right, {"place": "second", "card": "skirmish_a"})
    entries = (combat, tie, bank, reward)
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        lines = [sentence(entry, state, get_translations()) for entry in entries]
    assert (
        "戦力 左のライバル 7、右のライバル 3。報酬\uff1a左のライバル 1位、右のライバル 2位。"
        in lines[0]
    )
    assert "3香料、2ソラリ、1水、駐屯地の4部隊" in lines[1]
    # The bank's part in CLDR's Japanese list; the pieces before the sentence's を.
    assert "銀行から2ソラリ、1香料" in lines[2] and "基地から駐屯地へ2部隊" in lines[2]
    assert "右のライバルは〈小競り合い〉の2位報酬を得ます。" in lines[3]  # Skirmish, from cards.po
    assert "spice" not in " ".join(lines) and "Rival" not in " ".join(lines)


def test_the_scripts_take_their_words_from_the_page(client: FlaskClient) -> None:
    """static/app.js's toast reads its words from <body data-msg-*>; no script of ours
    holds an English sentence of its own."""
    page = client.get("/", headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert 'data-msg-reload="새로고침"' in page
    assert 'data-msg-refused="서버가 이 요청을 거부했습니다."' in page
    sentences = re.compile(r"""["'`][A-Z][a-z']+ [a-z][^"'`]*["'`]""")
    for script in sorted(STATIC.glob("*.js")):
        code = re.sub(r"(?m)^\s*//.*$", "", script.read_text())  # comments are for us
        assert (script.name, sentences.findall(code)) == (script.name, [])

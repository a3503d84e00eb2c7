"""Card data in the reader's language: a small temporary Japanese `cards` catalog (the
committed cards.po files are the translators'), read through the pages.

The spaces' Japanese names are the glossary's (card_db/i18n/glossary.ja.toml, from the
Japanese rulebook); the Conflict cards get stand-in names, numbered.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from flask import Flask
from flask.testing import FlaskClient

from companion.web import games as games_module
from companion.web.locales import TRANSLATIONS
from tests.web.conftest import GameActions, _fixed_seeds, dispose, make_app

GLOSSARY = Path(__file__).resolve().parents[2] / "card_db" / "i18n" / "glossary.ja.toml"
EN_NAME = '<span class="en-name" lang="en">{}</span>'


def japanese_names(app: Flask) -> dict[str, str]:
    """English name -> Japanese: the glossary's board spaces, and a stand-in per Conflict."""
    catalog = app.extensions["catalog"]
    spaces = {s.name for s in catalog.spaces.values()}
    terms = tomllib.loads(GLOSSARY.read_text(encoding="utf-8"))["term"]
    names = {t["en"]: t["text"] for t in terms if t["en"] in spaces}
    for number, conflict in enumerate(catalog.conflicts.values(), start=1):
        names[conflict.name] = f"紛争カード{number}号"
    return names


@pytest.fixture
def ja_app(tmp_path: Path) -> Iterator[Flask]:
    """An app reading the real app catalogs, then a temporary Japanese cards catalog."""
    app = make_app(BABEL_TRANSLATION_DIRECTORIES=f"{TRANSLATIONS};{tmp_path}")
    catalog = Catalog(locale="ja")
    for english, japanese in japanese_names(app).items():
        catalog.add(english, japanese)
    folder = tmp_path / "ja" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "cards.mo").open("wb") as mo_file:
        write_mo(mo_file, catalog)
    yield app
    dispose(app)


@pytest.fixture
def ja_game(ja_app: Flask, monkeypatch: pytest.MonkeyPatch) -> GameActions:
    client: FlaskClient = ja_app.test_client()
    client.set_cookie("lang", "ja")
    actions = GameActions(ja_app, client)
    monkeypatch.setattr(games_module, "secrets", _fixed_seeds(actions))
    return actions


def test_glossary_names_the_spaces_the_test_uses(ja_app: Flask) -> None:
    names = japanese_names(ja_app)
    assert names["Arrakeen"] == "アラキーン"
    assert names["Carthag"] == "カルタゴ"


def test_an_item_page_shows_the_japanese_name_with_the_english_beside_it(
    ja_game: GameActions,
) -> None:
    html = ja_game.client.get("/cards/space/arrakeen").get_data(as_text=True)
    heading = re.search(r'<h1 id="rules-panel-title">(.*?)</h1>', html)
    assert heading is not None
    assert heading.group(1) == "アラキーン " + EN_NAME.format("Arrakeen")
    assert "<title>アラキーン ·" in html  # the tab's title: no markup, no English
    # A reader of English sees the name once, unmarked.
    ja_game.client.set_cookie("lang", "en")
    english = ja_game.client.get("/cards/space/arrakeen").get_data(as_text=True)
    assert '<h1 id="rules-panel-title">Arrakeen</h1>' in english
    assert "en-name" not in english


def test_the_table_shows_the_conflict_and_board_in_japanese(ja_game: GameActions) -> None:
    game_id = ja_game.new_solo(seed=3)
    state = ja_game.state(game_id)
    assert state.conflict is not None
    conflict = ja_game.catalog.conflicts[state.conflict].name
    shown = japanese_names(ja_game.app)[conflict]
    html = ja_game.page(game_id)
    heading = re.search(
        r'<section class="conflict panel" id="conflict">\s*<h2>(.*?)</h2>', html, re.S
    )
    assert heading is not None
    assert f"{shown} {EN_NAME.format(conflict)}" in heading.group(1)
    # The dense board: the Japanese name alone.
    space = re.search(r'id="space-carthag".*?<span class="space-name">(.*?)</span>', html, re.S)
    assert space is not None
    assert space.group(1).startswith("カルタゴ")
    assert "Carthag" not in space.group(1)


def test_the_log_shows_card_names_in_japanese_and_a_players_name_as_typed(
    ja_game: GameActions,
) -> None:
    """A player called Carthag sends an Agent to Carthag: the space's name is translated,
    the player's is not."""
    game_id = ja_game.new_solo(seed=3, p1_name="Carthag")
    state = ja_game.state(game_id)
    human = state.humans[0].id
    conflict = japanese_names(ja_game.app)[ja_game.catalog.conflicts[state.conflict or ""].name]
    response = ja_game.act(game_id, action="place", house=human, space="carthag")
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    html = ja_game.page(game_id)
    log = re.search(r'<section class="log panel">(.*?)</section>', html, re.S)
    assert log is not None
    lines = [unescape(re.sub(r"<[^>]+>", "", li)) for li in re.findall(r"<li>(.*?)</li>", log[1])]
    agent = next(line for line in lines if "カルタゴ" in line)
    assert "Carthag" in agent  # the player
    assert any(conflict in line for line in lines)  # the Conflict card revealed


def test_a_card_name_is_escaped_and_marked_only_when_translated(ja_app: Flask) -> None:
    card_name = ja_app.jinja_env.filters["card_name"]  # templates/_card_name.html
    with ja_app.test_request_context(headers={"Cookie": "lang=ja"}):
        assert card_name("Arrakeen") == "アラキーン " + EN_NAME.format("Arrakeen")
        assert card_name("Arrakeen", english=False) == "アラキーン"
        unknown = 'A "made-up" card'  # no Japanese name in any catalog: as is
        assert card_name(unknown) == "A &#34;made-up&#34; card"
    with ja_app.test_request_context(headers={"Cookie": "lang=en"}):
        assert card_name("Arrakeen") == "Arrakeen"


def test_the_reserve_card_foldspace_and_its_space_have_their_own_japanese_names(
    client: FlaskClient,
) -> None:
    """The rulebook's 〈空間転移〉 for the card and 《宇宙航路》 for the space (seed 004,
    lines 159 and 280), from the real Japanese cards catalog."""
    client.set_cookie("lang", "ja")
    card = client.get("/cards/reserve/foldspace").get_data(as_text=True)
    space = client.get("/cards/space/foldspace").get_data(as_text=True)
    assert "空間転移" in card and "宇宙航路" not in card.split("<main", 1)[1].split("</h1>")[0]
    assert "宇宙航路" in space

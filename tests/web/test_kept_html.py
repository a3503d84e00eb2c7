"""The HTML kept from one tap to the next (companion/web/kept.py: the board's spaces and
areas, the score's rows, the turn buttons, Undo and Redo) is what drawing it afresh
draws: at every third step of the four-player Rise of Ix golden game, on the whole
table's screen and on a player's, in English and Japanese, the game area and the
scoreboard drawn with what was kept so far equal those drawn by the macros themselves,
nothing kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask
from jinja2_fragments.flask import render_block
from markupsafe import Markup

from companion import services
from companion.rules.codec import decode, decode_setup
from companion.web import table as table_screen
from tests.web.conftest import GameActions

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "ix_four_player_epic_physical.json"


def drawn_afresh(draw, *args):
    return Markup(draw(*args))


def forms_drawn_afresh(draw, hidden, *args):
    return Markup(draw(*args, hidden))


def both_drawings(app: Flask, game_id: int, language: str, seat: str | None) -> tuple[str, str]:
    """The game area and scoreboard drawn with the HTML kept so far, and by the macros
    themselves (in one request: the same CSRF token)."""
    cookie = f"lang={language}"
    with app.test_request_context(f"/games/{game_id}", headers={"Cookie": cookie}):
        view = services.load(game_id, app.extensions["catalog"])
        context = table_screen.table_context(view, log=False, seat=seat)
        context["clock_cells"] = ()
        blocks = ("game", "scoreboard_oob")
        warm = "".join(render_block(table_screen.TABLE, b, **context) for b in blocks)
        globals_ = app.jinja_env.globals
        names = ("kept", "kept_space", "kept_area", "kept_forms")
        kept = {name: globals_[name] for name in names}
        globals_.update(
            kept=drawn_afresh,
            kept_space=drawn_afresh,
            kept_area=drawn_afresh,
            kept_forms=forms_drawn_afresh,
        )
        try:
            fresh = "".join(render_block(table_screen.TABLE, b, **context) for b in blocks)
        finally:
            globals_.update(kept)
        return warm, fresh


@pytest.mark.parametrize(("language", "seat"), [("en", None), ("ja", "p2")])
def test_kept_html_is_what_the_macros_draw(game: GameActions, language, seat) -> None:
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    app = game.app
    with app.app_context():
        game_id = services.create_game(decode_setup(data["setup"]), game.catalog)
    compared = 0
    for version, action in enumerate(decode(a) for a in data["actions"]):
        if version % 3 == 0:  # every third step: what the steps before it kept
            warm, fresh = both_drawings(app, game_id, language, seat)
            assert warm == fresh, f"step {version}"
            compared += 1
        with app.app_context():
            services.act(game_id, action, version, game.catalog)
    assert compared > 50 and len(app.extensions["kept_html"]) > 22

"""The parts of the table screen: the Agent turn's forms, the htmx answer's blocks, the
Influence table's labels and the Conflict panel."""

from __future__ import annotations

import random
import re

import pytest
from flask import get_template_attribute

from companion.rules.state import GameState
from companion.sim import choose_action
from companion.web.present import Chip, ConflictView
from tests.web import pages
from tests.web.conftest import dispose, make_app


def test_the_agent_turn_forms_post_the_house_whose_turn_it_is(game):
    game_id = game.new_2p()  # Ann (p1) starts
    seen: list[str | None] = []
    while len(seen) < 4:
        state = game.state(game_id)
        if state.prompt is not None:
            game.do(game_id, choose_action(state, random.Random(1)))
            continue
        body = game.page(game_id, htmx=True)
        places = pages.action_forms(body, action="place")
        turn = pages.action_forms(body, action="reveal") + pages.action_forms(body, action="voice")
        assert places and turn
        assert {f.fields["house"] for f in places + turn} == {state.turn}
        seen.append(state.turn)
        form = places[0]
        answer = game.client.post(form.action, data=form.fields, headers={"HX-Request": "true"})
        assert answer.status_code == 200
        assert game.state(game_id).occupants[form.fields["space"]] == state.turn
    assert seen == ["p1", "p2", "p1", "p2"]


def without_tokens(html: str) -> str:
    return re.sub(r'name="csrf_token" value="[^"]*"', 'name="csrf_token" value=""', html)


def screen(state: GameState) -> tuple[str, str | None, bool]:
    """What decides the table screen's parts: the phase, the question asked, and whether
    a player has the turn."""
    return (state.phase, state.prompt.kind if state.prompt else None, state.turn is not None)


# The log drawer's body: its lines on a full page, where an htmx answer has the drawer
# fetch them when opened (tests/web/test_tap_answer.py).
LOG_BODY = re.compile(
    r'<section class="(?:log panel|panel" hx-get="[^"]*/log")[^>]*>.*?</section>', re.S
)


def without_log(html: str) -> str:
    return LOG_BODY.sub("<log/>", html)


@pytest.mark.parametrize("mode", ["solo", "ix-2p"])
def test_an_htmx_answer_is_the_full_pages_game_area_and_scoreboard(game, mode):
    """The htmx answer is the table template's blocks game and scoreboard_oob: exactly what
    the full page shows in #game and the scoreboard, but for the log's lines. Compared on
    each kind of screen the first 60 steps of a game reach (a turn, each question, the
    round's end): a second screen of a kind renders the same blocks again. There too, the
    screen the answers to the taps were swapped into (only what each changed) is that
    answer (tests/web/test_tap_answer.py walks a four-player game so at every tap)."""
    ix = {"expansion": "ix"} if mode.startswith("ix") else {}
    game_id = game.new_solo(**ix) if mode == "solo" else game.new_2p(**ix)
    rng = random.Random(7)
    compared: set[tuple[str, str | None, bool]] = set()
    shown = game.page(game_id, htmx=True)
    for step in range(60):
        state = game.state(game_id)
        if state.phase == "ended":
            break
        if screen(state) not in compared:
            compared.add(screen(state))
            # Flask-WTF signs each answer's token anew: compare pages without them
            fragment = without_log(without_tokens(game.page(game_id, htmx=True)))
            full = without_log(without_tokens(game.page(game_id)))
            game_area, scoreboard = fragment.strip().split('<aside id="scoreboard"')
            assert game_area.startswith('<main id="game"') and game_area in full, step
            assert '<aside id="scoreboard"' + scoreboard.replace(' hx-swap-oob="true"', "") in full
            assert same_screen(shown) == same_screen(fragment), step
        form = pages.form_for(choose_action(state, rng))
        answer = game.act_form(game_id, form, htmx=True, version=pages.version(shown))
        shown = pages.tapped(shown, answer.get_data(as_text=True))
    assert len(compared) >= 4, compared


def same_screen(html: str) -> str:
    """A screen without what may differ between two screens of the same game: the forms'
    tokens and versions (static/app.js posts the banner's), the log drawer's lines and the
    out-of-band marks."""
    html = re.sub(r'name="version" value="\d+"', 'name="version" value=""', without_tokens(html))
    return without_log(html).replace(' hx-swap-oob="true"', "")


def test_the_score_table_tells_two_unnamed_players_apart(game):
    """Each house's row is headed by its whole name: the Influence columns headed "Pla"
    and "Pla" (then "P1" and "P2", and "Ann", "Lef", "Rig") said too little (issue 20)."""
    game_id = game.new_2p(p1_name="", p2_name="")
    body = game.page(game_id)
    table = body[body.index('<table class="score">') : body.index("</aside>")]
    rows = re.findall(r'scope="row" class="house">.*?title="([^"]+)">([^<]+)</span>', table, re.S)
    names = ["Player 1", "Player 2", "House Hagal"]
    assert rows == [(name, name) for name in names]


def test_the_conflict_panel_counts_one_sword_and_several_swords():
    """Rulebook p.20: a Rival in the Conflict reveals a House Hagal card for its swords; the
    panel read "revealed Foldspace: 1 swords"."""
    found: list[str] = []
    app = make_app()
    with app.test_request_context():
        conflict = get_template_attribute("games/_panels.html", "conflict")
        for swords in (1, 2):
            view = ConflictView(
                card_id="skirmish_a",
                name="Skirmish",
                level="I",
                rewards=(),
                remaining=9,
                rows=(),
                swords=((Chip("red", "Left Rival"), "Foldspace", swords),),
                ix=False,
            )
            html = str(conflict(view))
            found += re.findall(r"revealed Foldspace: (\d+ \w+)", html)
    dispose(app)
    assert found == ["1 sword", "2 swords"]

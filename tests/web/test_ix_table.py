"""The table screen with Rise of Ix: the Ix spaces, the Tech stacks, Freighters,
dreadnoughts, Negotiators, Infiltration, the Ix questions and corrections.

Every control is used through the form the page renders, as a player tapping would.
Sources: Rise of Ix rulebook (IX) p.4 Tech tiles, p.5 Shipping track, p.6 dreadnoughts,
p.7 Infiltration, p.12 board spaces; HAGAL.md §9 for the Rivals' pieces.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from flask import Flask

from companion.rules.actions import Action, Choose, Freighter, PlaceAgent, Reveal, Tech
from companion.rules.engine import apply
from companion.rules.state import GameState, Posted
from companion.services import GameView
from companion.web.present import Page, page
from tests.rules.helpers import house, idle_rivals, place, vacate
from tests.rules.ix_helpers import SPARE_TILES, ix_solo, ix_two_player, tiles
from tests.web import pages
from tests.web.conftest import GameActions

IX_SPACES = ("Smuggling", "Interstellar Shipping", "Dreadnought", "Tech Negotiation")
COVERED = ("Hall of Oratory", "Rally Troops", "Sell Melange", "Secure Contract")


def new_ix_solo(game: GameActions) -> int:
    return game.new_solo("mentat", expansion="ix")


def board_text(body: str) -> str:
    start = body.find('<section class="board"')
    return body[start : body.find("</section>", start)]


def submit(game: GameActions, game_id: int, **match: str) -> None:
    """Post the one form of the table page whose fields include `match`."""
    found = pages.action_forms(game.page(game_id), **match)
    assert len(found) == 1, (match, found)
    fields = {k: v for k, v in found[0].fields.items() if k not in ("csrf_token", "version")}
    response = game.act_form(game_id, fields)
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]


def test_the_board_has_the_ix_spaces_instead_of_the_covered_ones(game):
    """IX p.3: the CHOAM overlay covers four base spaces and adds the four Ix spaces."""
    board = board_text(game.page(new_ix_solo(game)))
    for name in IX_SPACES:
        assert name in board
    for name in COVERED:
        assert name not in board
    base = board_text(game.page(game.new_solo()))
    assert all(name in base for name in COVERED) and "Smuggling" not in base


def test_the_tech_panel_shows_each_face_up_tile_with_a_buy_button(game):
    """IX p.4: three stacks, the top tile of each face up; a player may buy any of them."""
    game_id = new_ix_solo(game)
    state = game.state(game_id)
    body = game.page(game_id)
    assert 'id="tech"' in body
    for stack in state.tech_stacks:
        tile = state.catalog.tech[stack[0]]
        assert tile.name in body
        assert pages.action_forms(body, action="tech", op="acquire", tile=tile.id, house="p1")
    assert 'id="tech"' not in game.page(game.new_solo())


def test_buying_a_tile_from_the_panel_records_it_and_turns_up_the_next(game):
    """IX p.4: take the tile, then turn the next tile of that stack face up."""
    game_id = new_ix_solo(game)
    before = game.state(game_id).tech_stacks[0]
    submit(game, game_id, action="tech", op="acquire", tile=before[0])
    state = game.state(game_id)
    assert state.house("p1").tech == (before[0],)
    assert state.tech_stacks[0][0] == before[1]
    body = game.page(game_id)
    assert state.catalog.tech[before[1]].name in body
    assert "Trash" in body  # the player's tile in their Ix pieces, with its Trash button


def test_freighter_buttons_advance_and_recall_with_its_questions(game):
    """IX p.5: advance one step, or recall for the rewards of the steps reached."""
    game_id = new_ix_solo(game)
    submit(game, game_id, action="freighter", op="advance")
    assert game.state(game_id).house("p1").freighter == 1
    assert "Freighter to step 2" in game.page(game_id)
    submit(game, game_id, action="freighter", op="recall")
    body = game.page(game_id)
    assert "First step: Dividends or 2 spice?" in body
    assert "Dividends: 5 Solari, 1 to each opponent" in body
    submit(game, game_id, action="choose", option="dividends")
    state = game.state(game_id)
    assert state.house("p1").freighter == 0
    assert all(r.solari == 1 for r in state.rivals)  # 1 Solari to each other house


def test_dreadnought_buttons_commission_and_deploy(game):
    """IX p.6: commission from supply to the garrison; deploy with a Combat Agent."""
    game_id = new_ix_solo(game)
    submit(game, game_id, action="dreadnought", op="commission")
    submit(game, game_id, action="dreadnought", op="deploy")
    p1 = game.state(game_id).house("p1")
    assert (p1.dn_garrison, p1.dn_conflict) == (0, 1)
    body = game.page(game_id)
    assert "<th>Dread\u00adnoughts</th>" in body  # the Conflict panel counts units
    again = game.act(game_id, action="dreadnought", house="p1", op="deploy")
    assert again.status_code == 422
    assert "No dreadnought in the garrison." in again.get_data(as_text=True)


def test_a_negotiator_goes_to_ix(game):
    """IX p.4: a troop from supply placed on Ix as a Negotiator."""
    game_id = new_ix_solo(game)
    submit(game, game_id, action="tech", op="negotiator")
    assert game.state(game_id).house("p1").negotiators == 1


def test_an_occupied_space_offers_infiltration(game):
    """IX p.7: an Infiltration icon sends the Agent where an enemy Agent already is."""
    game_id = new_ix_solo(game)
    state = game.state(game_id)
    taken = next(space for space, who in state.occupants.items() if who != "p1")
    submit(game, game_id, action="place", space=taken, infiltrate="1")
    state = game.state(game_id)
    assert (taken, "p1") in state.infiltrators
    # Both Agents show on the space.
    space = board_text(game.page(game_id)).split(f'id="space-{taken}"')[1].split('id="space-')[0]
    occupant = state.house(state.occupants[taken]).name
    assert f'title="{occupant}"' in space and 'title="Ann"' in space


def test_rival_panels_show_their_ix_pieces_and_tiles(app):
    """HAGAL.md §9: the Rival's Freighter, dreadnoughts, Negotiators and Tech."""
    s = house(ix_solo(), "r1", freighter=2, dn_garrison=1, negotiators=1, tech=("windtraps",))
    p = _page(app, s)
    r1 = next(r for r in p.rivals if r.chip.name == "Rival A")
    assert r1.ix is not None
    assert (r1.ix.freighter, r1.ix.dn_garrison, r1.ix.negotiators) == (2, 1, 1)
    assert r1.ix.tech == (("windtraps", "Windtraps", False),)


def test_a_dreadnought_on_a_flag_shows_on_its_space(app):
    """IX p.6: a dreadnought on a Control flag controls the space and covers the marker."""
    s = replace(ix_solo(), posted={"carthag": Posted("r1", 1)}, control={"carthag": "p1"})
    cities = [
        spaces for column in _page(app, s).board for area, _, spaces in column if area == "city"
    ]
    space = next(v for v in cities[0] if v.id == "carthag")
    assert space.dreadnought is not None and space.dreadnought.name == "Rival A"
    assert space.controller is not None and space.controller.name == "Rival A"
    assert space.covered is not None and space.covered.name == "You"


def _page(app: Flask, state: GameState) -> Page:
    with app.test_request_context():
        return page(GameView(1, 0, state, False, False, "t", "now"))


def _question(app: Flask, state: GameState) -> tuple[str, list[tuple[str, str]]]:
    p = _page(app, state).prompt
    assert p is not None
    return p.question, p.options


def test_every_ix_question_reads_as_a_sentence_with_named_answers(app):
    """Each Rise of Ix question the engine asks a player has words, not ids."""
    cases: dict[str, GameState] = {}
    s = place(ix_solo(), "smuggling")
    cases["freighter"] = s
    s = tiles(ix_solo(), ("windtraps", *SPARE_TILES), ("flagship",), ("spaceport",))
    s = place(s, "dreadnought")
    cases["commission"] = s
    cases["tech"] = apply(s, Choose("yes"))
    s = house(ix_solo(), "p1", negotiators=2)
    cases["negotiators_back"] = apply(s, Tech("p1", "acquire", s.tech_stacks[0][0]))
    s = house(ix_solo(), "p1", freighter=1)
    cases["shipping_first"] = apply(s, Freighter("p1", "recall"))
    s = replace(idle_rivals(ix_solo()), conflict="economic_supremacy")
    for h in s.rivals:
        s = house(s, h.id, troops=0)
    s = apply(apply(s, Reveal("p1")), Choose("9"))
    cases["offer"] = s
    cases["tech_negotiation"] = place(vacate(ix_solo(), "tech_negotiation"), "tech_negotiation")
    s = idle_rivals(ix_solo())
    for h in s.rivals:
        s = house(s, h.id, troops=0)
    s = house(s, "p1", dn_conflict=1, tech=("detonation_devices",))
    s = apply(apply(s, Reveal("p1")), Choose("9"))
    while s.prompt is not None and s.prompt.kind != "post":
        s = apply(s, Choose(s.prompt.options[0]))  # the Conflict's own rewards
    cases["post"] = s
    for kind, state in cases.items():
        assert state.prompt is not None and state.prompt.kind == kind
        question, options = _question(app, state)
        assert question != kind and "?" in question, question
        for value, label in options:
            assert label and (label != value or value.isdigit()), (kind, value, label)


def test_the_negotiators_question_says_how_many_may_come_back(app):
    """IX p.4: each Negotiator returned from Ix takes 1 spice off a Tech tile; a player
    with 2 there may return 0 to 2: one button for each, no number pad (issue 20)."""
    s = house(ix_solo(), "p1", negotiators=2)
    s = apply(s, Tech("p1", "acquire", s.tech_stacks[0][0]))
    p = _page(app, s).prompt
    assert p is not None and p.kind == "negotiators_back"
    with app.test_request_context():
        template = app.jinja_env.get_template("games/_panels.html")
        html = str(template.make_module({"act_url": "/act", "version": 0}).prompt(p))
    assert re.findall(r'name="option" value="(\d+)"', html) == ["0", "1", "2"]
    assert "data-numpad" not in html


def test_the_physical_tech_tile_question_names_the_stack(app):
    """With physical tiles the table turns a tile up and tells the app which it is."""
    s = ix_two_player(physical_tech=True)
    assert s.prompt is not None and s.prompt.kind == "tech_tile"
    question, options = _question(app, s)
    assert "stack 1" in question
    assert ("windtraps", "Windtraps") in options


@pytest.mark.parametrize("ix", [True, False], ids=["ix", "base"])
def test_the_corrections_page_has_the_ix_numbers_in_ix_games_only(game, ix):
    """Any tracked number can be corrected, Freighter and dreadnoughts included."""
    game_id = new_ix_solo(game) if ix else game.new_solo()
    body = game.client.get(f"/games/{game_id}/fix").get_data(as_text=True)
    forms = pages.action_forms(body, action="adjust", house="r1", field="freighter")
    assert bool(forms) == ix
    if ix:
        plus = next(f for f in forms if f.fields["delta"] == "1")
        fields = {k: v for k, v in plus.fields.items() if k not in ("csrf_token", "version")}
        assert game.act_form(game_id, fields).status_code == 303
        assert game.state(game_id).house("r1").freighter == 1


def test_a_two_player_ix_game_plays_rounds_through_the_page(game):
    """Two players and House Hagal with Rise of Ix: placements, Ix questions and combat."""
    game_id = game.new_2p(expansion="ix")
    for _ in range(120):
        state = game.state(game_id)
        if state.round >= 3 or state.phase == "ended":
            break
        action: Action
        if state.prompt is not None:
            p = state.prompt
            action = Choose(str(p.default if p.number else p.options[0]))
        else:
            legal = game.legal(game_id)
            places = [a for a in legal if isinstance(a, PlaceAgent)]
            action = places[0] if places else next(a for a in legal if isinstance(a, Reveal))
        game.do(game_id, action)
        assert "Tech tiles" in game.page(game_id)
    assert game.state(game_id).round >= 3


def test_the_live_view_shows_the_tech_stacks_without_buttons(game):
    """The read-only live view follows the Tech stacks too, with nothing to tap."""
    game_id = new_ix_solo(game)
    body = game.client.get(f"/games/{game_id}/live").get_data(as_text=True)
    state = game.state(game_id)
    assert 'id="tech"' in body
    assert all(state.catalog.tech[s[0]].name in body for s in state.tech_stacks)
    assert not pages.action_forms(body, action="tech")

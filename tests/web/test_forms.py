"""The new-game wizard with Rise of Ix: the expansion choice, Epic mode, physical Tech tiles
and the Rise of Ix leaders (Ix rulebook p.3 leaders, p.8 Rivals, p.10 Epic).

Every case posts the plain form, as a browser without JavaScript does.
"""

from __future__ import annotations

import re

import pytest
from markupsafe import escape

from companion.rules.actions import IllegalAction
from companion.web.forms import setup_from
from tests.web import pages
from tests.web.conftest import SOLO_FORM, TWO_PLAYER_FORM

IX_SOLO = SOLO_FORM | {
    "expansion": "ix",
    "r1_leader": "rhombur_vernius",
    "r2_leader": "hundro_moritani",
}
IX_2P = TWO_PLAYER_FORM | {
    "expansion": "ix",
    "p1_leader": "tessia_vernius",
    "p2_leader": "yuna_moritani",
}


# -- setup_from ---------------------------------------------------------------------------


def test_the_base_game_is_the_default():
    setup = setup_from(SOLO_FORM, seed=1)
    assert setup.sets == ("base",)
    assert not setup.options.epic and not setup.options.physical_tech


@pytest.mark.parametrize("form", [IX_SOLO, IX_2P], ids=["solo", "2p"])
def test_rise_of_ix_plays_with_both_sets_and_its_options(form):
    setup = setup_from(form | {"epic": "on", "physical_tech": "on"}, seed=1)
    assert setup.sets == ("base", "ix")
    assert setup.options.epic and setup.options.physical_tech


def test_ix_options_posted_with_the_base_game_are_dropped():
    """The page hides them with the base game, but a browser still posts checked boxes
    (as the solo variants in a two-player game)."""
    setup = setup_from(SOLO_FORM | {"expansion": "base", "epic": "on", "physical_tech": "on"}, 1)
    assert setup.sets == ("base",)
    assert not setup.options.epic and not setup.options.physical_tech


@pytest.mark.parametrize("form", [SOLO_FORM, TWO_PLAYER_FORM], ids=["solo", "2p"])
def test_players_left_unnamed_get_names_that_read_as_sentences(form):
    """The log says "<name>'s strength" and "<name> takes a Reveal turn": a solo player
    left unnamed was "You" ("You's strength"); the wizard's placeholder shows the name."""
    unnamed = {k: v for k, v in form.items() if k not in ("p1_name", "p2_name")}
    names = [seat.name for seat in setup_from(unnamed, seed=1).humans]
    assert names == ["Player 1", "Player 2"][: len(names)]


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("\x00csrf-token\x00", "csrf-token"),
        ("Ann\tB\r\nC\x7f\x85", "Ann B  C"),
        ("\x00\x1b", "Player 1"),  # nothing left: the name of a player left unnamed
        ("Zo\u00eb \U0001f469\u200d\U0001f680", "Zo\u00eb \U0001f469\u200d\U0001f680"),
    ],
)
def test_player_names_are_kept_without_control_characters(typed, stored):
    """A NUL or an escape is no part of a name (PostgreSQL refuses NUL; the live view
    showed what a name hid between NULs); accents and emoji joiners are kept."""
    assert setup_from(SOLO_FORM | {"p1_name": typed}, seed=1).humans[0].name == stored


def test_an_unknown_expansion_is_refused():
    with pytest.raises(IllegalAction, match="Rise of Ix"):
        setup_from(SOLO_FORM | {"expansion": "dune_2"}, seed=1)


# -- the page -------------------------------------------------------------------------------


def _select(html: str, name: str) -> str:
    found = re.search(rf'<select name="{name}".*?</select>', html, re.S)
    assert found, name
    return found.group(0)


def test_the_page_offers_the_expansion_and_its_options(client):
    html = client.get("/games/new").get_data(as_text=True)
    assert 'name="expansion" value="base" checked' in html
    assert 'name="expansion" value="ix" >' in html
    ix_fields = re.search(r'<fieldset class="choice-row ix-only">.*?</fieldset>', html, re.S)
    assert ix_fields is not None
    assert 'name="epic"' in ix_fields.group(0)
    assert 'name="physical_tech"' in ix_fields.group(0)
    # The browser's default form is still the base game.
    form = pages.forms(html)[0]
    assert form.fields["expansion"] == "base"
    assert "epic" not in form.fields


def test_rise_of_ix_leaders_are_marked_for_players_and_allowed_ones_for_rivals(client, game):
    html = client.get("/games/new").get_data(as_text=True)
    ix_leaders = {lid for lid, lead in game.catalog.leaders.items() if lead.set == "ix"}
    player = _select(html, "p1_leader")
    group = re.search(r'<optgroup class="ix-only"[^>]*>(.*?)</optgroup>', player, re.S)
    assert group is not None
    assert set(re.findall(r'value="(\w+)"', group.group(1))) == ix_leaders
    assert "disabled" not in group.group(1)
    rival = _select(html, "r1_leader")
    enabled = set(re.findall(r'<option value="(\w+)" >', rival))
    # Ix rulebook p.8: of the new leaders, only Rhombur and Hundro can be Rivals.
    assert enabled & ix_leaders == {"rhombur_vernius", "hundro_moritani"}
    assert re.search(r'value="tessia_vernius" disabled', rival)


# -- creating games -------------------------------------------------------------------------


def test_the_wizard_creates_a_solo_rise_of_ix_game_with_ix_rivals(game):
    game_id = game.create(IX_SOLO)
    state = game.state(game_id)
    assert state.setup.sets == ("base", "ix")
    assert [h.leader for h in state.houses if h.kind == "rival"] == [
        "rhombur_vernius",
        "hundro_moritani",
    ]
    assert len(state.tech_stacks) == 3
    assert not state.setup.options.epic


def test_the_wizard_creates_a_two_player_epic_game(game):
    game_id = game.create(IX_2P | {"epic": "on"})
    state = game.state(game_id)
    assert state.setup.sets == ("base", "ix") and state.setup.options.epic
    assert state.vp_to_end == 12  # Ix rulebook p.10
    assert all(slot.level > 1 for slot in state.conflict_deck)  # no Conflict I


def test_physical_tech_tiles_make_the_app_ask_which_tile_turned_up(game):
    game_id = game.create(IX_SOLO | {"physical_tech": "on"})
    state = game.state(game_id)
    assert state.setup.options.physical_tech
    assert state.prompt is not None and state.prompt.kind == "tech_tile"


def test_a_base_game_from_the_wizard_is_still_a_base_game(game):
    state = game.state(game.new_solo())
    assert state.setup.sets == ("base",)
    assert state.tech_stacks == ()
    assert "dreadnought" not in {s.id for s in state.catalog.board(state.setup.sets).values()}


def test_the_default_form_posted_as_ix_and_epic_makes_an_epic_game(game, client):
    form = pages.forms(client.get("/games/new").get_data(as_text=True))[0]
    fields = form.fields | {"expansion": "ix", "epic": "on"}
    state = game.state(game.create(fields))
    assert state.setup.options.epic and state.ix


@pytest.mark.parametrize(
    ("form", "message"),
    [
        (SOLO_FORM | {"p1_leader": "tessia_vernius"}, "Tessia Vernius needs the Rise of Ix"),
        (
            SOLO_FORM | {"r1_leader": "hundro_moritani"},
            "Viscount Hundro Moritani needs the Rise of Ix",
        ),
        (TWO_PLAYER_FORM | {"p2_leader": "ilesa_ecaz"}, "Ilesa Ecaz needs the Rise of Ix"),
        (IX_SOLO | {"r2_leader": "tessia_vernius"}, "Tessia Vernius can't be a Rival"),
    ],
    ids=["player-base", "rival-base", "2p-base", "ix-rival-not-allowed"],
)
def test_a_leader_the_game_does_not_allow_gets_the_engines_message(game, client, form, message):
    response = client.post("/games", data=form)
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert str(escape(message)) in body
    assert game.game_count() == 0
    # The choices come back as they were.
    assert f'value="{form.get("expansion", "base")}" checked' in body

"""The new-game wizard: three and four players (rulebook pp.4-5: D leaders, G colors, H a
first player drawn at random); Rise of Ix: the expansion choice, Epic mode, physical Tech
tiles and the Rise of Ix leaders (Ix rulebook p.3 leaders, p.8 Rivals, p.10 Epic).

Every case posts the plain form, as a browser without JavaScript does.
"""

from __future__ import annotations

import re

import pytest
from markupsafe import escape

from companion.db import db
from companion.db.models import Game
from companion.rules.actions import IllegalAction
from companion.rules.setup import drawn_first_player
from companion.web.forms import setup_from
from tests.web import pages
from tests.web.conftest import SOLO_FORM, TWO_PLAYER_FORM

IX_SOLO = SOLO_FORM | {
    "expansion": "ix",
    "r1_leader": "rhombur_vernius",
    "r2_leader": "hundro_moritani",
}
# What the page posts for three and four players when nothing is typed: its default
# leaders and colors, the first player drawn by the app.
THREE_PLAYER_FORM = {
    "mode": "3p",
    "p1_leader": "paul_atreides",
    "p1_color": "green",
    "p2_leader": "ilban_richese",
    "p2_color": "blue",
    "p3_leader": "glossu_rabban",
    "p3_color": "red",
    "first_player_3p": "draw",
}
FOUR_PLAYER_FORM = {
    **THREE_PLAYER_FORM,
    "mode": "4p",
    "p4_leader": "memnon_thorvald",
    "p4_color": "yellow",
    "first_player_4p": "draw",
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


# -- three and four players -----------------------------------------------------------------

MULTIPLAYER_FORMS = {"3p": THREE_PLAYER_FORM, "4p": FOUR_PLAYER_FORM}
# Every option only a solo or two-player game has, as a browser posts its ticked box.
RIVAL_OPTIONS = {
    name: "on"
    for name in (
        "brutal_escalation",
        "churn",
        "physical_hagal",
        "hagal_dreadnought_home",
        "swords_need_troops",
        "epic_rivals_standard",
        "expert_dreadnoughts_deploy",
        "transports_kept_after_combat",
        "brutal_first_card_out",
    )
}


def _page_fields(client, mode: str) -> dict[str, str]:
    """What the page posts with only the mode chosen: the browser's default form."""
    form = pages.forms(client.get("/games/new").get_data(as_text=True))[0]
    return form.fields | {"mode": mode}


@pytest.mark.parametrize("mode", ["3p", "4p"])
def test_the_default_page_posted_for_three_or_four_players_makes_that_game(game, client, mode):
    """No typing: players named Player 1.., the rulebook's four first-game leaders (p.4, D),
    four different colors, the first player drawn by the app."""
    fields = _page_fields(client, mode)
    game_id = game.create(fields, seed=7)
    state = game.state(game_id)
    setup = state.setup
    players = int(mode[0])
    assert setup.mode == mode and setup.rivals == ()
    assert [h.name for h in setup.humans] == [f"Player {n}" for n in range(1, players + 1)]
    leaders = ["paul_atreides", "ilban_richese", "glossu_rabban", "memnon_thorvald"]
    assert [h.leader for h in setup.humans] == leaders[:players]
    assert len({h.color for h in setup.humans}) == players
    assert setup.options.draw_first_player
    assert setup.first_player == drawn_first_player(7, players)
    assert state.first == f"p{setup.first_player + 1}"
    assert [h.id for h in state.houses] == [f"p{n}" for n in range(1, players + 1)]
    # RB p.4, G2: in a 4-player game each Score marker starts on 1.
    assert {h.vp for h in state.houses} == {1 if players == 4 else 0}
    # The game's title names the players, no House Hagal.
    assert game.view(game_id).title == " & ".join(h.name for h in setup.humans)


@pytest.mark.parametrize("mode", ["3p", "4p"])
def test_a_three_or_four_player_rise_of_ix_epic_game_from_the_wizard(game, mode):
    form = MULTIPLAYER_FORMS[mode] | {
        "expansion": "ix",
        "epic": "on",
        "physical_tech": "on",
        "physical_conflicts": "on",
        "p2_leader": "tessia_vernius",
        "p3_leader": "ilesa_ecaz",
    }
    state = game.state(game.create(form))
    setup = state.setup
    assert setup.sets == ("base", "ix") and state.ix
    assert setup.options.epic and setup.options.physical_tech
    assert setup.options.physical_conflicts
    assert state.vp_to_end == 12  # Ix rulebook p.10
    assert all(slot.level > 1 for slot in state.conflict_deck)  # Epic: no Conflict I


@pytest.mark.parametrize("mode", ["3p", "4p"])
def test_the_rivals_options_are_dropped_for_three_or_four_players(game, mode):
    """The page hides them, but a browser still posts their ticked boxes; the engine would
    refuse them (no House Hagal with three or four players)."""
    form = MULTIPLAYER_FORMS[mode] | RIVAL_OPTIONS | {"expansion": "ix", "epic": "on"}
    form |= {"difficulty": "kwisatz", "hagal_color": "purple", "r1_leader": "nobody"}
    setup = game.state(game.create(form)).setup
    options = setup.options
    assert setup.difficulty is None and options.epic
    assert not any(getattr(options, name) for name in RIVAL_OPTIONS)


@pytest.mark.parametrize("seed", [0, 1, 2, 99, 2**31 - 1])
@pytest.mark.parametrize("players", [3, 4])
def test_the_drawn_first_player_is_the_same_for_the_same_seed(seed, players):
    """RB p.5, H: a first player drawn at random, from the game's seed (so replays agree)."""
    form = MULTIPLAYER_FORMS[f"{players}p"]
    drawn = {setup_from(form, seed=seed).first_player for _ in range(3)}
    assert drawn == {drawn_first_player(seed, players)}
    assert 0 <= drawn_first_player(seed, players) < players


def test_every_seat_can_be_drawn_first():
    for players in (3, 4):
        assert {drawn_first_player(seed, players) for seed in range(60)} == set(range(players))


@pytest.mark.parametrize("first", ["0", "1", "2", "3"])
def test_a_chosen_first_player_is_kept(game, first):
    state = game.state(game.create(FOUR_PLAYER_FORM | {"first_player_4p": first}))
    assert state.setup.first_player == int(first)
    assert not state.setup.options.draw_first_player
    assert state.first == f"p{int(first) + 1}"


BAD_MULTIPLAYER = {
    "the same color twice": (
        FOUR_PLAYER_FORM | {"p3_color": "green"},
        "Each house needs its own color.",
    ),
    "the same leader twice": (
        THREE_PLAYER_FORM | {"p3_leader": "paul_atreides"},
        "Each leader can be used only once.",
    ),
    "an unknown leader": (FOUR_PLAYER_FORM | {"p4_leader": "shaddam"}, "Unknown leader"),
    "an Ix leader with the base game": (
        THREE_PLAYER_FORM | {"p2_leader": "tessia_vernius"},
        "Tessia Vernius needs the Rise of Ix",
    ),
    "a color that is not a player color": (
        THREE_PLAYER_FORM | {"p2_color": "purple"},
        "Choose one of the four player colors.",
    ),
    "a missing fourth player": (
        {k: v for k, v in FOUR_PLAYER_FORM.items() if not k.startswith("p4_")},
        "Choose a leader for Player 4.",
    ),
    "a missing color": (
        {k: v for k, v in THREE_PLAYER_FORM.items() if k != "p2_color"},
        "Choose a color for Player 2.",
    ),
    "a fourth first player of three": (
        THREE_PLAYER_FORM | {"first_player_3p": "3"},
        "The first player must be one of the players.",
    ),
    "a first player that is no number": (
        FOUR_PLAYER_FORM | {"first_player_4p": "Ann"},
        "first_player_4p must be a whole number.",
    ),
    "a fifth player": (FOUR_PLAYER_FORM | {"mode": "5p"}, "Choose solo, two, three or four"),
}


@pytest.mark.parametrize("case", list(BAD_MULTIPLAYER))
def test_a_bad_three_or_four_player_setup_is_refused_and_creates_nothing(game, client, case):
    form, message = BAD_MULTIPLAYER[case]
    response = client.post("/games", data=form)
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(r'role="alert">[^<]*' + re.escape(str(escape(message))), body), body[:3000]
    assert game.game_count() == 0 and game.all_event_count() == 0
    # The choices come back as they were.
    assert f'name="mode" value="{form["mode"]}" checked' in body or form["mode"] == "5p"


def test_the_page_offers_three_and_four_players_with_their_seats(client):
    html = client.get("/games/new").get_data(as_text=True)
    for mode, label in (("3p", "Three players"), ("4p", "Four players")):
        assert re.search(rf'name="mode" value="{mode}" >\s*{label}', html)
    seats = dict(re.findall(r'<fieldset data-modes="([^"]+)">\s*<legend>(Player \d)', html))
    assert seats == {
        "solo 2p 3p 4p": "Player 1",
        "2p 3p 4p": "Player 2",
        "3p 4p": "Player 3",
        "4p": "Player 4",
    }
    # The first player of three or four: drawn by default, or any of them.
    for mode, players in (("3p", 3), ("4p", 4)):
        found = re.search(
            rf'<fieldset class="choice-row" data-modes="{mode}">(.*?)</fieldset>', html, re.S
        )
        assert found is not None
        values = re.findall(rf'name="first_player_{mode}" value="(\w+)"', found.group(1))
        assert values == ["draw", *(str(n) for n in range(players))]
        assert f'name="first_player_{mode}" value="draw" checked' in found.group(1)
    # The Rivals' options are not shown for three or four players.
    for name in ("physical_hagal", "hagal_dreadnought_home", "epic_rivals_standard"):
        box = re.search(rf'<label class="check"([^>]*)><input type="checkbox" name="{name}"', html)
        assert box is not None and "3p" not in box.group(1), name
    assert re.search(
        r'data-modes="solo">\s*<fieldset class="choice-row">\s*<legend>Difficulty', html
    )


@pytest.mark.parametrize(("mode", "label"), [("3p", "Three players"), ("4p", "Four players")])
def test_home_and_delete_pages_name_the_mode(game, client, mode, label):
    game_id = game.create(MULTIPLAYER_FORMS[mode])
    home = client.get("/").get_data(as_text=True)
    assert re.search(rf"<span>{label} · Round 1 ·", home)
    delete = client.get(f"/games/{game_id}/delete").get_data(as_text=True)
    assert f'<p class="muted">{label} · Round 1 ·' in delete


def test_the_home_pages_mode_filter_lists_every_mode(game, client):
    game_id = game.create(FOUR_PLAYER_FORM)
    with game.app.app_context():  # the filter shows once a game has ended
        row = db.session.get(Game, game_id)
        assert row is not None
        row.status = "ended"
        db.session.commit()
    home = client.get("/").get_data(as_text=True)
    found = re.search(r'<select name="mode">(.*?)</select>', home, re.S)
    assert found is not None
    options = re.findall(r'<option value="(\w*)">([^<]+)</option>', found.group(1))
    assert options == [
        ("", "Any"),
        ("solo", "Solo"),
        ("2p", "Two players"),
        ("3p", "Three players"),
        ("4p", "Four players"),
    ]

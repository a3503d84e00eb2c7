"""The rulings in the app: the new-game form's settings for the other reading, and the
"Ruling: ..." line with a link to its explanation where it applies.

Sources: Rise of Ix rulebook p.10 (Epic Game mode), p.6 and p.8 (dreadnoughts), p.9 (Troop
Transports, Brutal Escalation); RB p.19; the FAQ's Solo Play entry (Expert deployment).
"""

from __future__ import annotations

import re

from companion.rules.state import Options
from tests.web.conftest import GameActions


def test_epic_solo_table_states_the_ruling_with_a_link(game: GameActions) -> None:
    """IX p.10 "each player": the Rivals' Epic start is our ruling; the table says so and
    links the page that explains it."""
    body = game.page(game.new_solo("sardaukar", expansion="ix", epic="on"))
    assert "Ruling: in this Epic game" in body
    assert "/cards/control_the_spice/control_the_spice" in body


def test_the_settings_are_stored_in_the_games_setup(game: GameActions) -> None:
    """Each ruling's other reading is a new-game setting, kept in the game's setup."""
    solo_id = game.new_solo(
        "sardaukar", expansion="ix", epic="on", epic_rivals_standard="on", swords_need_troops="on"
    )
    options = game.view(solo_id).state.setup.options
    assert (options.epic_rivals_standard, options.swords_need_troops) == (True, True)
    assert "Ruling (this game" in game.page(solo_id)
    two_id = game.new_2p(expansion="ix", hagal_dreadnought_home="on")
    assert game.view(two_id).state.setup.options.hagal_dreadnought_home
    kwisatz_id = game.new_solo(
        "kwisatz",
        expansion="ix",
        expert_dreadnoughts_deploy="on",
        transports_kept_after_combat="on",
        brutal_escalation="on",
        brutal_first_card_out="on",
    )
    options = game.view(kwisatz_id).state.setup.options
    assert options.expert_dreadnoughts_deploy and options.transports_kept_after_combat
    assert options.brutal_first_card_out


def test_settings_that_do_not_apply_are_dropped(game: GameActions) -> None:
    """House Hagal exists only with two players, Epic Rivals only in an Epic solo game,
    dreadnoughts only with Rise of Ix: a posted box that can't apply changes nothing."""
    solo_id = game.new_solo("sardaukar", hagal_dreadnought_home="on", epic_rivals_standard="on")
    assert game.view(solo_id).state.setup.options == Options()
    base_id = game.new_2p(hagal_dreadnought_home="on", swords_need_troops="on")
    assert game.view(base_id).state.setup.options == Options()
    # Expert deployment is Mentat's and Kwisatz Haderach's; the Brutal Escalation ruling
    # needs Brutal Escalation; Troop Transports, a Rise of Ix tile, Rise of Ix.
    sardaukar_id = game.new_solo(
        "sardaukar", expansion="ix", expert_dreadnoughts_deploy="on", brutal_first_card_out="on"
    )
    assert game.view(sardaukar_id).state.setup.options == Options()
    base_solo_id = game.new_solo("mentat", transports_kept_after_combat="on")
    assert game.view(base_solo_id).state.setup.options == Options()


def test_the_new_game_form_offers_the_settings_with_their_explanations(client) -> None:
    body = client.get("/games/new").get_data(as_text=True)
    for name, page in (
        ("hagal_dreadnought_home", "/cards/hagal/dreadnought_2p"),
        ("swords_need_troops", "/cards/space/dreadnought"),
        ("epic_rivals_standard", "/cards/control_the_spice/control_the_spice"),
        ("expert_dreadnoughts_deploy", "/cards/hagal/dreadnought_1p"),
        ("transports_kept_after_combat", "/cards/tech/troop_transports"),
        ("brutal_first_card_out", "/cards/conflict/battle_for_arrakeen"),
    ):
        box = re.search(rf'name="{name}".*?</label>', body)
        assert box is not None and page in box.group(0), name

"""Undo and Redo on the table screen: what to change on the board, and no older Rival card
shown again as if it had just been played."""

from __future__ import annotations

from companion.rules.actions import Choose, PlaceAgent, Reveal
from tests.web.conftest import GameActions

HAGAL_CARD = 'class="hagal-card'


def first_turn(game: GameActions) -> int:
    """A solo game after your first Agent turn and the Rival turns after it."""
    game_id = game.new_solo()
    game.do(game_id, next(a for a in game.legal(game_id) if isinstance(a, PlaceAgent)))
    return game_id


def test_undo_over_rival_turns_says_what_to_take_back_and_shows_no_rival_card(game):
    game_id = first_turn(game)
    assert HAGAL_CARD in game.page(game_id, htmx=True)
    answer = game.undo(game_id, htmx=True)
    assert answer.status_code == 200
    body = answer.get_data(as_text=True)
    assert "Undone: put the board back as it was" in body
    assert "Ann: take the Agent back from" in body
    assert HAGAL_CARD not in body  # the first Rival turn is not news any more


def test_a_plain_undo_redirects_to_the_same_words(game):
    game_id = first_turn(game)
    answer = game.undo(game_id)
    assert answer.status_code == 303 and answer.location.endswith("?after=undo")
    body = game.client.get(answer.location).get_data(as_text=True)
    assert "Ann: take the Agent back from" in body and HAGAL_CARD not in body
    # A later plain look at the table does not repeat them.
    assert "Undone:" not in game.page(game_id)


def test_redo_says_what_to_put_back(game):
    game_id = first_turn(game)
    game.undo(game_id, htmx=True)
    body = game.redo(game_id, htmx=True).get_data(as_text=True)
    assert "Redone: do it again on the board" in body
    assert "Ann: put an Agent on" in body
    redirected = game.client.get(f"/games/{game_id}?after=redo").get_data(as_text=True)
    assert "Ann: put an Agent on" in redirected


def test_after_undo_with_nothing_to_redo_the_page_is_plain(game):
    game_id = first_turn(game)
    game.do(game_id, Reveal("p1"))
    body = game.client.get(f"/games/{game_id}?after=undo").get_data(as_text=True)
    assert "Undone:" not in body
    assert game.client.get(f"/games/{game_id}?after=nonsense").status_code == 200


def test_undo_of_a_placement_says_what_to_give_back_and_redo_what_to_take(game):
    """Hagga Basin: pay 1 water, harvest 2 spice [RB p.18]. The player keeps their own
    resources, so Undo says to give back the spice and take back the water."""
    game_id = game.new_solo()
    game.do(game_id, PlaceAgent("p1", "hagga_basin"))
    body = game.undo(game_id, htmx=True).get_data(as_text=True)
    assert (
        "Ann: take the Agent back from Hagga Basin; give back 2 spice; take back the 1 water "
        "you paid."
    ) in body
    body = game.redo(game_id, htmx=True).get_data(as_text=True)
    assert "Ann: put an Agent on Hagga Basin; take 2 spice again; pay 1 water again." in body


def test_undo_of_a_combat_answer_gives_back_the_reward_it_told_to_take(game):
    """The strength that wins a Conflict tells the player to take its reward [RB p.12];
    Undo of that answer says to give it back (Skirmish: 1 spice for the first place)."""
    game_id = game.new_solo()
    while (state := game.state(game_id)).prompt is None:
        assert state.turn is not None
        game.do(game_id, Reveal(state.turn))
    prompt = game.state(game_id).prompt
    assert prompt is not None and prompt.kind == "strength"
    game.do(game_id, Choose("60"))
    state = game.state(game_id)
    (take,) = [e for e in state.last_entries if e.kind == "take" and e.house == "p1"]
    assert take.data.get("spice") == 1  # the first-place reward of Skirmish (skirmish_c)
    body = game.undo(game_id, htmx=True).get_data(as_text=True)
    assert "Ann: give back 1 spice." in body

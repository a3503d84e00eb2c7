"""Undo and Redo on the table screen: what to change on the board, and no older Rival card
shown again as if it had just been played."""

from __future__ import annotations

from companion.rules.actions import PlaceAgent, Reveal
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

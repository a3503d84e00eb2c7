"""A deleted game's id is never given to a new game (issue 17, finding 5): a second device
still showing the deleted game can't tap into the new one."""

from __future__ import annotations

from tests.web import pages
from tests.web.conftest import GameActions


def test_a_deleted_games_id_is_not_given_to_the_next_game(game: GameActions) -> None:
    first = game.new_solo()
    game.delete(first)
    assert game.new_solo() != first


def test_a_stale_page_of_a_deleted_game_cannot_write_into_the_next_game(
    game: GameActions,
) -> None:
    deleted = game.new_solo()
    stale = pages.action_forms(game.page(deleted))  # on a second device
    assert stale
    game.delete(deleted)
    new = game.new_solo()  # the same seed: the same forms would be legal in it
    before = game.snapshot(new)
    for form in stale:
        response = game.post(form.action, form.fields, htmx=form.htmx)
        assert response.status_code == 404
    assert game.snapshot(new) == before

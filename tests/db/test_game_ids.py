"""A deleted game's id is never given to a new game (issue 17, finding 5): a second device
still showing the deleted game can't tap into the new one. When an id is given again all
the same (a restored backup, a PostgreSQL sequence), every form carries the game's created
stamp, and a stale one is refused with a 409."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from companion import services
from tests.db.ids import give_id_again
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


STALE_GAME = "This game no longer exists"


def _replaced(game: GameActions) -> tuple[list[pages.Form], int]:
    """The forms of a game's table and corrections pages on a second device, and a new
    game that got the deleted game's id again (the same seed: the same forms would be
    legal in it)."""
    deleted = game.new_solo(p1_name="Ann")
    fix_page = game.client.get(f"/games/{deleted}/fix").get_data(as_text=True)
    stale = pages.action_forms(game.page(deleted)) + pages.action_forms(fix_page)
    assert stale and all(form.fields.get("created") for form in stale)
    assert any(form.fields.get("view") == "fix" for form in stale)
    game.delete(deleted)
    give_id_again(game.app, deleted)
    new = game.new_solo(p1_name="Zed")
    assert new == deleted
    return stale, new


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize("cached", [True, False], ids=["cached", "after-restart"])
def test_a_stale_form_cannot_write_into_a_new_game_that_got_its_id_again(
    game: GameActions, htmx: bool, cached: bool
) -> None:
    stale, new = _replaced(game)
    before = game.snapshot(new)
    for form in stale:
        if not cached:
            game.view(new, fresh=True)  # read from the database, not the cache
            services.forget_cache()
        response = game.post(form.action, form.fields, htmx=htmx)
        assert response.status_code == 409, form.fields
        body = response.get_data(as_text=True)
        assert STALE_GAME in body and ("<html" in body) is not htmx
        assert ("a", "href", "/") in pages.urls(body)  # the way back to the games
    assert game.snapshot(new) == before
    assert "Zed" in game.page(new)


def test_the_new_games_own_forms_still_work(game: GameActions) -> None:
    _, new = _replaced(game)
    reveal = pages.action_forms(game.page(new), action="reveal")[0]
    assert game.post(reveal.action, reveal.fields).status_code == 303
    assert game.version(new) == 1


def test_a_stale_delete_page_cannot_delete_the_new_game(
    game: GameActions, client: FlaskClient
) -> None:
    deleted = game.new_solo()
    confirm = pages.action_forms(client.get(f"/games/{deleted}/delete").get_data(as_text=True))
    assert len(confirm) == 1 and confirm[0].fields["created"]
    game.delete(deleted)
    give_id_again(game.app, deleted)
    new = game.new_solo()
    response = client.post(confirm[0].action, data=confirm[0].fields)
    assert response.status_code == 409 and STALE_GAME in response.get_data(as_text=True)
    assert game.game_exists(new)


def test_a_stale_purchase_cannot_buy_in_the_new_game(
    game: GameActions, client: FlaskClient
) -> None:
    deleted = game.new_solo()
    stale = client.get(f"/games/{deleted}/buy?q=spice+must").get_data(as_text=True)
    buys = [form for form in pages.action_forms(stale) if "card" in form.fields]
    assert buys and all(form.fields["created"] for form in buys)
    game.delete(deleted)
    give_id_again(game.app, deleted)
    new = game.new_solo()
    before = game.snapshot(new)
    response = game.post(buys[0].action, buys[0].fields, htmx=True)
    assert response.status_code == 409 and STALE_GAME in response.get_data(as_text=True)
    assert game.snapshot(new) == before

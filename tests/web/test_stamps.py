"""Every write about a game names the game it was made from (issue 17, finding 5): the
`created` stamp of the game the page showed. A write without it, with an empty one or with
another game's is answered 409, as a stale page is, and changes nothing: no action, undo,
redo, deletion, purchase or sticker read is stored."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
import qrcode  # type: ignore[import-untyped, unused-ignore]
from PIL import Image
from sqlalchemy import func, select

from companion.db import db
from companion.db.models import StickerRead
from tests.web import pages
from tests.web.conftest import HX, GameActions

HOST = "http://192.168.1.20:5000"
OTHER_GAME = "2020-01-01T00:00:00"  # a stamp no game of these tests has
STALE = "The game changed on another screen"
OUT_OF_DATE = "This page is out of date: reload it. Nothing was changed."
GONE = "its address now shows another game"


def sticker_photo(card: str, copy: int) -> bytes:
    canvas = Image.new("RGB", (640, 480), (180, 160, 130))
    code = qrcode.make(f"{HOST}/c/{card}/{copy}", box_size=6, border=4).convert("RGB")
    canvas.paste(code, (40, 40))
    out = io.BytesIO()
    canvas.save(out, format="PNG")
    return out.getvalue()


def sticker_reads(game: GameActions) -> int:
    with game.app.app_context():
        return db.session.scalar(select(func.count()).select_from(StickerRead)) or 0


def _fields(form: pages.Form) -> dict[str, str]:
    return {k: v for k, v in form.fields.items() if k != "created"}


# Each write route: (name, a function giving the game and a path and fields that would be
# accepted with the right stamp, less the stamp).
Write = Callable[[GameActions], tuple[int, str, dict[str, Any]]]


def _place(game: GameActions) -> tuple[int, str, dict[str, Any]]:
    game_id = game.new_solo()
    form = pages.action_forms(game.page(game_id), action="place")[0]
    return game_id, form.action, _fields(form)


def _undo(game: GameActions) -> tuple[int, str, dict[str, Any]]:
    game_id = game.new_solo()
    reveal = pages.action_forms(game.page(game_id), action="reveal")[0]
    assert game.post(reveal.action, reveal.fields).status_code == 303
    return game_id, f"/games/{game_id}/undo", {"version": str(game.version(game_id))}


def _redo(game: GameActions) -> tuple[int, str, dict[str, Any]]:
    game_id = _undo(game)[0]
    assert game.undo(game_id).status_code == 303
    return game_id, f"/games/{game_id}/redo", {"version": str(game.version(game_id))}


def _fix(game: GameActions) -> tuple[int, str, dict[str, Any]]:
    game_id = game.new_solo()
    fix_page = game.client.get(f"/games/{game_id}/fix").get_data(as_text=True)
    form = pages.action_forms(fix_page, view="fix", delta="1")[0]
    return game_id, form.action, _fields(form)


def _delete(game: GameActions) -> tuple[int, str, dict[str, Any]]:
    game_id = game.new_solo()
    confirm = game.client.get(f"/games/{game_id}/delete").get_data(as_text=True)
    form = pages.action_forms(confirm)[0]
    return game_id, form.action, _fields(form)


def _buy(game: GameActions) -> tuple[int, str, dict[str, Any]]:
    game_id = game.new_2p()
    offers = game.client.get(f"/games/{game_id}/buy?q=spice+must").get_data(as_text=True)
    form = next(f for f in pages.action_forms(offers) if "card" in f.fields)
    return game_id, form.action, _fields(form)


def _scan(game: GameActions) -> tuple[int, str, dict[str, Any]]:
    game_id = game.new_2p()
    photo = sticker_photo("the_spice_must_flow", 2)
    return game_id, f"/games/{game_id}/scan", {"image": (io.BytesIO(photo), "photo.png")}


WRITES: dict[str, Write] = {
    "place": _place,
    "undo": _undo,
    "redo": _redo,
    "fix": _fix,
    "delete": _delete,
    "buy": _buy,
    "scan": _scan,
}


def _stored(game: GameActions, game_id: int) -> tuple[object, ...]:
    """Everything these writes could change: the game (its version, log and state), that
    it exists, and the stickers read."""
    exists = game.game_exists(game_id)
    return game.snapshot(game_id) if exists else None, exists, sticker_reads(game)


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize("stamp", [None, "", OTHER_GAME], ids=["missing", "empty", "other"])
@pytest.mark.parametrize("route", list(WRITES))
def test_a_write_without_the_games_stamp_is_refused_and_changes_nothing(
    game: GameActions, route: str, stamp: str | None, htmx: bool
) -> None:
    game_id, path, fields = WRITES[route](game)
    before = _stored(game, game_id)
    data = fields if stamp is None else {**fields, "created": stamp}
    response = game.post(path, data, htmx=htmx)
    assert response.status_code == 409, response.get_data(as_text=True)[:500]
    body = response.get_data(as_text=True)
    if stamp == OTHER_GAME:
        assert GONE in body
    else:
        assert (OUT_OF_DATE if route == "delete" else STALE) in body
    assert _stored(game, game_id) == before


@pytest.mark.parametrize("route", list(WRITES))
def test_the_same_write_with_the_games_stamp_is_accepted(game: GameActions, route: str) -> None:
    """The refusals above are the stamp's doing: with it, each write goes through."""
    game_id, path, fields = WRITES[route](game)
    before = _stored(game, game_id)
    response = game.post(path, {**fields, "created": game.stamp(game_id)}, htmx=True)
    assert response.status_code in (200, 204, 303), response.get_data(as_text=True)[:500]
    assert _stored(game, game_id) != before


def test_a_sticker_refused_for_its_stamp_is_not_taken_as_read(game: GameActions) -> None:
    """The refused scan recorded nothing: the same sticker with the stamp is offered at
    once, not ignored as read a moment ago."""
    game_id, path, fields = _scan(game)
    assert game.post(path, fields).status_code == 409
    photo = sticker_photo("the_spice_must_flow", 2)
    upload = {"image": (io.BytesIO(photo), "photo.png"), "created": game.stamp(game_id)}
    body = game.post(path, upload, htmx=True).get_data(as_text=True)
    assert "Read: The Spice Must Flow #2" in body and "a moment ago" not in body


def test_every_form_that_writes_to_a_game_carries_its_stamp(game: GameActions) -> None:
    solo, two = game.new_solo(), game.new_2p()
    client = game.client
    screens = [
        game.page(solo),
        game.page(solo, htmx=True),
        client.get(f"/games/{solo}/fix").get_data(as_text=True),
        client.get(f"/games/{solo}/fix", headers=HX).get_data(as_text=True),
        client.get(f"/games/{solo}/delete").get_data(as_text=True),
        client.get(f"/games/{two}/buy?q=spice+must").get_data(as_text=True),
    ]
    checked = 0
    for html in screens:
        for form in pages.forms(html):
            if form.method == "post" and form.action.startswith("/games/"):
                game_id = int(form.action.split("/")[2])
                assert form.fields.get("created") == game.stamp(game_id), form.action
                checked += 1
    assert checked > 20
    buy_page = screens[-1]
    assert f'data-created="{game.stamp(two)}"' in buy_page  # the live camera's frames
    with client.get("/static/scan.js") as script:
        assert 'body.append("created", page.dataset.created)' in script.get_data(as_text=True)

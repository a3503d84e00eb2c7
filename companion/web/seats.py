"""Whose screen this is: at a table of two to four players each phone can be one player's.
Such a screen shows the board to tap and the questions on its player's turns, and on the
others' turns whom the game waits for (web/present/seats.py); the tablet in the middle
stays the whole table's. A preference of this browser, kept in a cookie per game, as the
language is: it decides nothing the server checks (any screen of the table may still
tap, Undo or answer the table's own questions)."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from companion import services
from companion.rules.catalog import Catalog
from companion.web.htmx import error_answer
from companion.web.language import gettext as _
from companion.web.present.seats import seats
from companion.web.present.views import chip

bp = Blueprint("seats", __name__)
WHOLE_TABLE = "table"  # the whole table's screen: no player's
COOKIE_MAX_AGE = 7 * 24 * 3600  # a game night, and the week a game may stay on the table


def _cookie(game_id: int) -> str:
    return f"seat-{game_id}"


def seat_of(view: services.GameView) -> str | None:
    """The player this browser's screen is in the game of `view`, None for the whole
    table's (a cookie of another game that had this id, or of a player it has not, is
    ignored)."""
    house, _at, created = request.cookies.get(_cookie(view.id), "").partition("@")
    if created != view.created:
        return None
    return house if house in {h.id for h in seats(view.state)} else None


def _catalog() -> Catalog:
    return current_app.extensions["catalog"]  # type: ignore[no-any-return]


@bp.get("/games/<int:game_id>/seat")
def choose(game_id: int) -> ResponseReturnValue:
    """The screen's owner to choose: each player, or the whole table."""
    view = services.load(game_id, _catalog())
    players = [(h.id, chip(h)) for h in seats(view.state)]
    if not players:
        return error_answer(404, _("A solo game has one screen: the whole table's."))
    return render_template("games/seat.html", view=view, players=players, seat=seat_of(view))


@bp.get("/games/<int:game_id>/seat/<house>")
def take(game_id: int, house: str) -> ResponseReturnValue:
    """Make this screen `house`'s (or the whole table's) and go back to the table."""
    view = services.load(game_id, _catalog())
    players = {h.id for h in seats(view.state)}
    if house != WHOLE_TABLE and house not in players:
        return error_answer(404, _("This game has no such player."))
    response = redirect(url_for("games.show", game_id=game_id), 303)
    if house == WHOLE_TABLE:
        response.delete_cookie(_cookie(game_id))
    else:
        response.set_cookie(
            _cookie(game_id),
            f"{house}@{view.created}",
            max_age=COOKIE_MAX_AGE,
            samesite="Lax",
            httponly=True,
            secure=request.is_secure,
        )
    return response

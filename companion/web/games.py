"""Game screens: home, new game, set-up checklist, the table (its answers: web/table.py), the
live view."""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from jinja2_fragments.flask import render_block

from companion import services
from companion.lan import reachable_addresses, svg_qr, url_of
from companion.lookup.checklist import Names, checklist
from companion.lru import LRU
from companion.rules.actions import IllegalAction
from companion.rules.state import DIFFICULTIES, MODES
from companion.web import forms
from companion.web import table as table_screen
from companion.web.htmx import alert, error_answer, is_htmx
from companion.web.language import card_text, house_name, refusal
from companion.web.language import gettext as _
from companion.web.present import LOG_LINES
from companion.web.present.fix import corrections
from companion.web.present.round_end import round_end as present_round_end
from companion.web.present.round_end import rounds_ended
from companion.web.present.story import newest_lines
from companion.web.present.titles import game_title, title_for
from companion.web.table import catalog, table, table_context

bp = Blueprint("games", __name__)
FIX = "games/fix.html"
LIVE = "games/live.html"
LIVE_BOARDS_KEPT = 64


def install(app: Flask) -> None:
    """The live view's boards by game version: every screen that follows a game asks for
    its board once a second, and it only changes when the game does. The table screen's
    answers: web/table.py."""
    app.extensions["live_boards"] = LRU[tuple[object, ...], str](LIVE_BOARDS_KEPT)
    table_screen.install(app)


@bp.get("/")
def home() -> ResponseReturnValue:
    games = services.list_games()
    return render_template(
        "home.html",
        active=[g for g in games if g.status == "active"],
        ended=[g for g in games if g.status != "active"],
        other_device=_other_device_address(),
        mode_names=forms.MODE_NAMES,
    )


def _other_device_address() -> dict[str, object] | None:
    """This server's address on the local network, for a tablet or phone to open (with its
    QR code), or None when it has none (or `companion.serve --host` listens on loopback)."""
    addresses = reachable_addresses(current_app.config.get("SERVE_HOST"))
    if not addresses:
        return None
    url = url_of(request.scheme, addresses[0], urlsplit(request.host_url).port)
    size, path = svg_qr(url)
    return {"url": url, "size": size, "path": path}


@bp.get("/games/new")
def new() -> ResponseReturnValue:
    return _new_form({}, None, 200)


def _new_form(form: dict[str, str], error: str | None, status: int) -> ResponseReturnValue:
    leaders = list(catalog().leaders.items())
    return render_template(
        "games/new.html",
        leaders=leaders,
        difficulties=DIFFICULTIES,
        modes=MODES,
        seat_names=[house_name(f"Player {n}") for n in range(1, 5)],
        form=form,
        error=error,
    ), status


@bp.post("/games")
def create() -> ResponseReturnValue:
    form = request.form.to_dict()
    try:
        setup = forms.setup_from(form, seed=secrets.randbelow(2**31))
        game_id = services.create_game(setup, catalog(), title=title_for(setup, catalog()))
    except IllegalAction as exc:
        return _new_form(form, refusal(exc), 422)
    return redirect(url_for("games.setup", game_id=game_id), 303)


@bp.get("/games/<int:game_id>/setup")
def setup(game_id: int) -> ResponseReturnValue:
    view = services.load(game_id, catalog())
    names = Names(house=house_name, card=card_text)
    steps = checklist(view.state.setup, catalog(), view.state, names)
    return render_template("games/setup.html", view=view, steps=steps)


@bp.get("/games/<int:game_id>")
def show(game_id: int) -> ResponseReturnValue:
    after = request.args.get("after")
    if after == "undo":  # a plain form's Undo or Redo led here
        return table(services.load_after(game_id, "undo", catalog()))
    if after == "redo":
        return table(services.load_after(game_id, "redo", catalog()))
    return table(services.load(game_id, catalog()))


def _fix(
    view: services.GameView, error: str | None = None, status: int = 200
) -> ResponseReturnValue:
    context = table_context(view, error)
    context["fix"] = corrections(view.state)
    html = render_block(FIX, "fix", **context) if is_htmx() else render_template(FIX, **context)
    return html, status


@bp.get("/games/<int:game_id>/fix")
def fix(game_id: int) -> ResponseReturnValue:
    view = services.load(game_id, catalog())
    return _fix(view)


def _change(game_id: int, change: str) -> ResponseReturnValue:
    form = request.form
    expected = forms.version(form)
    on_fix_page = form.get("view") == "fix"
    try:
        created = forms.created(form, game_id)  # none: answered as a stale page
        if change == "undo":
            view = services.undo(game_id, expected, catalog(), created=created)
        elif change == "redo":
            view = services.redo(game_id, expected, catalog(), created=created)
        else:
            action = forms.action_from(form)
            view = services.act(game_id, action, expected, catalog(), created=created)
    except services.StaleVersion as stale:
        message = _("The game changed on another screen (or you tapped twice): here it is now.")
        return _fresh(game_id, message, 409, on_fix_page, stale.now, expected)
    except IllegalAction as exc:
        return _fresh(game_id, refusal(exc), 422, on_fix_page)
    if not is_htmx():
        if on_fix_page:
            return redirect(url_for("games.fix", game_id=game_id), 303)
        after = change if change in ("undo", "redo") else None
        return redirect(url_for("games.show", game_id=game_id, after=after), 303)
    return _fix(view) if on_fix_page else table(view, seen=expected)


def _fresh(
    game_id: int,
    message: str,
    status: int,
    on_fix_page: bool = False,
    now: services.GameView | None = None,
    seen: int | None = None,
) -> ResponseReturnValue:
    """The game as it is now (`now`, when the refusal had read it), with a message
    (GameNotFound, answered 404, if it is gone); to a stale tap of the table screen, which
    showed version `seen`, only what changed since when another screen's tap was answered
    so (`_table`)."""
    if now is None:
        try:
            now = services.load(game_id, catalog())
        except services.StaleVersion:  # still changing under us: just say so
            return alert(message), status
    return _fix(now, message, status) if on_fix_page else table(now, message, status, seen)


@bp.post("/games/<int:game_id>/actions")
def act(game_id: int) -> ResponseReturnValue:
    return _change(game_id, "act")


@bp.post("/games/<int:game_id>/undo")
def undo(game_id: int) -> ResponseReturnValue:
    return _change(game_id, "undo")


@bp.post("/games/<int:game_id>/redo")
def redo(game_id: int) -> ResponseReturnValue:
    return _change(game_id, "redo")


@bp.get("/games/<int:game_id>/log")
def log(game_id: int) -> ResponseReturnValue:
    """The table screen's log drawer, which a tap's answer leaves for the drawer to fetch
    when it is opened."""
    state = services.load(game_id, catalog()).state
    lines = newest_lines(state, LOG_LINES)
    return render_template("games/log.html", lines=lines, rounds=rounds_ended(state))


@bp.get("/games/<int:game_id>/rounds/<int:round_number>")
def round_end(game_id: int, round_number: int) -> ResponseReturnValue:
    """A finished round's "End of round" card, from the log."""
    view = services.load(game_id, catalog())
    card = present_round_end(view.state, round_number)
    if card is None:
        return error_answer(404, _("Round %(n)s has not ended yet.", n=round_number))
    return render_template(
        "games/round_end.html", card=card, game_id=game_id, title=game_title(view)
    )


@bp.get("/games/<int:game_id>/delete")
def confirm_delete(game_id: int) -> ResponseReturnValue:
    """Deleting can't be undone, so the home page's Delete asks here first."""
    return render_template(
        "games/delete.html", game=services.summary(game_id), mode_names=forms.MODE_NAMES
    )


@bp.post("/games/<int:game_id>/delete")
def delete(game_id: int) -> ResponseReturnValue:
    try:
        created = forms.created(request.form, game_id)
    except forms.MissingStamp:
        services.summary(game_id)  # GameNotFound (404) if there is no such game
        return error_answer(409, _("This page is out of date: reload it. Nothing was changed."))
    services.delete_game(game_id, created=created)
    return redirect(url_for("games.home"), 303)


@bp.get("/games/<int:game_id>/live")
def live(game_id: int) -> ResponseReturnValue:
    view = services.load(game_id, catalog())
    follow = {"poll": url_for("games.live_board", game_id=view.id), "target": "#live"}
    return render_template(LIVE, follow=follow, **table_context(view, log=False))


def _unchanged() -> ResponseReturnValue:
    """An empty 200 (Content-Length: 0) for "nothing changed": waitress closes the
    connection after every 204 or 304 (it finds no Content-Length there), which made each
    screen that follows a game open a new connection every second."""
    return "", 200, {"HX-Reswap": "none", "Cache-Control": "no-store"}


@bp.get("/games/<int:game_id>/version")
def version(game_id: int) -> ResponseReturnValue:
    """What a following screen polls: empty while the game is at version `v`, else the
    game's version (static/follow.js then fetches the new screen)."""
    current = str(services.current_version(game_id))
    if request.args.get("v") == current:
        return _unchanged()
    return current, 200, {"Content-Type": "text/plain", "Cache-Control": "no-store"}


@bp.get("/games/<int:game_id>/live/board")
def live_board(game_id: int) -> ResponseReturnValue:
    if request.args.get("v") == str(services.current_version(game_id)):
        return _unchanged()
    view = services.load(game_id, catalog())
    key = (view.id, view.created, view.version, str(get_locale()))
    boards: LRU[tuple[object, ...], str] = current_app.extensions["live_boards"]
    html = boards.get(key)
    if html is None:
        html = render_block(LIVE, "live", **table_context(view, log=False))
        boards.put(key, html)
    return html

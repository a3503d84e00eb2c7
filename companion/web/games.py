"""Game screens: home, new game, set-up checklist, the table, the live view."""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import cast
from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from jinja2_fragments.flask import render_block, render_blocks

from companion import services
from companion.clock_store import clock_of
from companion.db.models import utc_now
from companion.lan import reachable_addresses, svg_qr, url_of
from companion.lookup.checklist import Names, checklist
from companion.lru import LRU
from companion.rules.actions import IllegalAction
from companion.rules.catalog import Catalog
from companion.rules.state import DIFFICULTIES, MODES
from companion.web import forms
from companion.web.answers import CSRF_MARK, ERROR_MARK, Answers, filled
from companion.web.htmx import alert, error_answer, is_htmx
from companion.web.language import card_text, house_name, refusal
from companion.web.language import gettext as _
from companion.web.present import LOG_LINES, Page, clock, page
from companion.web.present.fix import corrections
from companion.web.present.panels import score_changed
from companion.web.present.regions import Shown, changed, shown
from companion.web.present.round_end import round_end as present_round_end
from companion.web.present.round_end import rounds_ended
from companion.web.present.story import newest_lines
from companion.web.present.titles import game_title, title_for
from companion.web.seats import seat_of

bp = Blueprint("games", __name__)
TABLE = "games/table.html"
FIX = "games/fix.html"
LIVE = "games/live.html"
LIVE_BOARDS_KEPT = 64
SHOWN_KEPT = 256
RETARGET = {"HX-Retarget": "#banner", "HX-Reswap": "outerHTML"}  # a tap's answer: see `_table`


def install(app: Flask) -> None:
    """The live view's boards by game version: every screen that follows a game asks for
    its board once a second, and it only changes when the game does. The table screen's
    htmx answers by game version (web/answers.py): four devices at one table need the
    same one after each change."""
    app.extensions["live_boards"] = LRU[tuple[object, ...], str](LIVE_BOARDS_KEPT)
    app.extensions["table_answers"] = Answers[tuple[str, str]]()
    app.extensions["tap_answers"] = Answers[str]()  # what changed since a version: `_table`
    # What the table screen's regions showed, by game version and language: the answer to
    # a tap compares them with what they show now (`_changed`).
    app.extensions["shown_regions"] = LRU[tuple[object, ...], Shown](SHOWN_KEPT)


def catalog() -> Catalog:
    return current_app.extensions["catalog"]  # type: ignore[no-any-return]


def _context(
    view: services.GameView,
    error: str | None = None,
    log: bool = True,
    score: bool = True,
    seat: str | None = None,
) -> dict[str, object]:
    """What the table, corrections and live templates need: the page's content (without
    the parts `log` and `score` leave out; as the screen of `seat`'s player, web/seats.py),
    the game's version its forms post, and the game's URLs."""
    urls = {
        f"{name}_url": url_for(f"games.{name}", game_id=view.id)
        for name in ("act", "undo", "redo", "fix", "log")
    }
    return {
        "p": page(view, log=log, score=score, seat=seat),
        "error": error,
        "version": view.version,
        "created": view.created,
        **urls,
    }


def _shown_key(view: services.GameView, version: int, seat: str | None) -> tuple[object, ...]:
    return (view.id, view.created, version, str(get_locale()), seat)


def _remember(view: services.GameView, seat: str | None, now: Shown) -> None:
    """Keep what the table screen's regions show at this version, for the next tap's answer."""
    current_app.extensions["shown_regions"].put(_shown_key(view, view.version, seat), now)


def _changed(
    view: services.GameView, seen: int, seat: str | None, now: Shown
) -> frozenset[str] | None:
    """The regions of the table screen that differ from what the tapping screen (`seat`'s)
    shows: the game at version `seen`, `view.previous`. None: the whole game area."""
    kept: LRU[tuple[object, ...], Shown] = current_app.extensions["shown_regions"]
    before = kept.get(_shown_key(view, seen, seat))
    if before is None and view.previous is not None:  # drawn long ago, or by another process
        earlier = replace(view, state=view.previous, previous=None, change="")
        before = shown(page(earlier, log=False, score=False, seat=seat))
    return None if before is None else changed(before, now)


def _table(
    view: services.GameView,
    error: str | None = None,
    status: int = 200,
    seen: int | None = None,
) -> ResponseReturnValue:
    """The table screen. For htmx, its game area, whose log drawer fetches the log when
    opened, and the out-of-band scoreboard. The answer to a tap of this screen (`seen`:
    the version it showed) carries only what changed: the banner with the new version,
    the question and "what now", the other regions that changed (out of band), and the
    scoreboard when the score changed or a turn clock runs. The tap that made the version
    (`view.previous`: the game at `seen`) renders it and keeps it (web/answers.py) for the
    stale taps of screens that showed the same version (their 409s)."""
    htmx = is_htmx()
    cells = clock.cells(clock_of(view, catalog()), view.state, utc_now())
    seat = seat_of(view)
    taps: Answers[str] = current_app.extensions["tap_answers"]
    since = (seen, str(get_locale()), request.script_root, cells, seat)
    before = view.previous if htmx and seen is not None else None
    if htmx and seen is not None and before is None:  # a stale tap's 409
        kept = taps.get((view.id, view.created), view.version, since)
        if kept is not None:
            return filled(kept, generate_csrf, error), status, RETARGET
    score = before is None or bool(cells) or score_changed(before, view.state)
    if htmx and before is None and not view.change:  # as every device of the game sees it
        game, scoreboard = _shared_table(view, cells, seat)
        return filled(game + scoreboard, generate_csrf, error), status
    shared = before is not None  # the tap that made this version: rendered to be kept
    context = _context(view, ERROR_MARK if shared else error, log=not htmx, score=score, seat=seat)
    context["clock_cells"] = cells
    if shared:
        context["csrf_token"] = lambda: CSRF_MARK
    now = shown(cast(Page, context["p"]))
    _remember(view, seat, now)
    if htmx:
        regions = None if seen is None or before is None else _changed(view, seen, seat, now)
        if regions is not None:
            html = render_block(TABLE, "changed", changed=regions, **context)
            taps.put((view.id, view.created), view.version, since, html)
            return filled(html, generate_csrf, error), status, RETARGET
        blocks = ["game", "scoreboard_oob"] if score else ["game"]
        html = render_blocks(TABLE, blocks, **context)
        return (filled(html, generate_csrf, error) if shared else html), status
    poll = url_for("games.version", game_id=view.id)
    follow = {"poll": poll, "fetch": url_for("games.show", game_id=view.id), "target": "#game"}
    return render_template(TABLE, follow=follow, **context), status


def _shared_table(
    view: services.GameView, cells: tuple[clock.ClockCell | None, ...], seat: str | None
) -> tuple[str, str]:
    """The table screen's game area and out-of-band scoreboard for htmx, made once per
    game version for every device (of one seat, web/seats.py) and request
    (web/answers.py): stale taps' 409s,
    refusals and following screens' fetches (the tap that made the version gets only the
    regions it changed). The render also keeps what its regions show, for the next tap."""

    def render() -> tuple[str, str]:
        context = _context(view, ERROR_MARK, log=False, seat=seat)
        context |= {"clock_cells": cells, "csrf_token": lambda: CSRF_MARK}
        _remember(view, seat, shown(cast(Page, context["p"])))
        return render_block(TABLE, "game", **context), render_block(
            TABLE, "scoreboard_oob", **context
        )

    answers: Answers[tuple[str, str]] = current_app.extensions["table_answers"]
    key = (str(get_locale()), request.script_root, cells, seat)
    return answers.answer((view.id, view.created), view.version, key, render)


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
        return _table(services.load_after(game_id, "undo", catalog()))
    if after == "redo":
        return _table(services.load_after(game_id, "redo", catalog()))
    return _table(services.load(game_id, catalog()))


def _fix(
    view: services.GameView, error: str | None = None, status: int = 200
) -> ResponseReturnValue:
    context = _context(view, error)
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
    return _fix(view) if on_fix_page else _table(view, seen=expected)


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
    return _fix(now, message, status) if on_fix_page else _table(now, message, status, seen)


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
    return render_template(LIVE, follow=follow, **_context(view))


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
        html = render_block(LIVE, "live", **_context(view))
        boards.put(key, html)
    return html

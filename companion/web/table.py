"""The table screen's answers: the whole page, the game area for htmx (made once per game
version and shared by every device of a seat: web/answers.py), and the answer to a tap,
which carries only what changed (web/present/regions.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from flask import Flask, current_app, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from jinja2_fragments.flask import render_block, render_blocks

from companion import services
from companion.clock_store import clock_of
from companion.db.models import utc_now
from companion.lru import LRU
from companion.rules.catalog import Catalog
from companion.web.answers import CSRF_MARK, ERROR_MARK, Answers, filled
from companion.web.htmx import is_htmx
from companion.web.present import Page, clock, page
from companion.web.present.panels import score_changed
from companion.web.present.regions import Shown, changed, shown
from companion.web.seats import seat_of

TABLE = "games/table.html"
SHOWN_KEPT = 256
RETARGET = {"HX-Retarget": "#banner", "HX-Reswap": "outerHTML"}  # a tap's answer: see `table`


def install(app: Flask) -> None:
    """The table screen's htmx answers by game version (web/answers.py): four devices at
    one table need the same one after each change, and the late taps of a version the
    answer to the tap that made it."""
    app.extensions["table_answers"] = Answers[tuple[str, str]]()
    app.extensions["tap_answers"] = Answers[str | None]()
    # What the table screen's regions showed, by game version and language: the answer to
    # a tap compares them with what they show now (`_changed`).
    app.extensions["shown_regions"] = LRU[tuple[object, ...], Shown](SHOWN_KEPT)


def catalog() -> Catalog:
    return current_app.extensions["catalog"]  # type: ignore[no-any-return]


def table_context(
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


def table(
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
    taps: Answers[str | None] = current_app.extensions["tap_answers"]
    game = (view.id, view.created)
    since = (seen, str(get_locale()), request.script_root, cells, seat)
    before = view.previous if htmx and seen is not None else None
    if htmx and seen is not None and before is None:  # a stale tap's 409
        kept = taps.wait(game, view.version, since)  # the applied tap's, when it is the same
        if kept is not None:
            return filled(kept, generate_csrf, error), status, RETARGET
    score = before is None or bool(cells) or score_changed(before, view.state)
    if htmx and before is None and not view.change:  # as every device of the game sees it
        area, scoreboard = _shared_table(view, cells, seat)
        return filled(area + scoreboard, generate_csrf, error), status
    made: dict[str, dict[str, object]] = {}

    def drawn() -> dict[str, object]:
        """What the templates need, rendered to be kept (with marks) for a tap's answer."""
        shared = before is not None
        context = table_context(
            view, ERROR_MARK if shared else error, log=not htmx, score=score, seat=seat
        )
        context["clock_cells"] = cells
        if shared:
            context["csrf_token"] = lambda: CSRF_MARK
        made["context"] = context
        return context

    def changes() -> str | None:
        """What changed since `seen` (None: the whole game area changed)."""
        context = drawn()
        now = shown(cast(Page, context["p"]))
        _remember(view, seat, now)
        regions = _changed(view, cast(int, seen), seat, now)
        return (
            None if regions is None else render_block(TABLE, "changed", changed=regions, **context)
        )

    if before is not None:  # the tap that made this version: kept for the stale taps
        html = taps.answer(game, view.version, since, changes)
        if html is not None:
            return filled(html, generate_csrf, error), status, RETARGET
        context = made.get("context") or drawn()
        blocks = ["game", "scoreboard_oob"] if score else ["game"]
        return filled(render_blocks(TABLE, blocks, **context), generate_csrf, error), status
    context = drawn()
    _remember(view, seat, shown(cast(Page, context["p"])))
    if htmx:  # Undo or Redo from a screen that showed no version, with what they changed
        blocks = ["game", "scoreboard_oob"] if score else ["game"]
        return render_blocks(TABLE, blocks, **context), status
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
        context = table_context(view, ERROR_MARK, log=False, seat=seat)
        context |= {"clock_cells": cells, "csrf_token": lambda: CSRF_MARK}
        _remember(view, seat, shown(cast(Page, context["p"])))
        return render_block(TABLE, "game", **context), render_block(
            TABLE, "scoreboard_oob", **context
        )

    answers: Answers[tuple[str, str]] = current_app.extensions["table_answers"]
    key = (str(get_locale()), request.script_root, cells, seat)
    return answers.answer((view.id, view.created), view.version, key, render)

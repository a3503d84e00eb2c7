"""Recording purchases in a game: a scanned sticker or a searched card, and who bought it.

The routes are the scan blueprint's (their endpoints stay `scan.*`): a photo posted in a
game is read as `web.scan` reads any photo, then offered for sale here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta

from flask import current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from jinja2_fragments.flask import render_block

from companion import services
from companion.cards.search import normalize
from companion.db import repository
from companion.rules.actions import Acquire, Action, IllegalAction
from companion.rules.engine import action_problems, buyers, card_buyable
from companion.rules.i18n import Name
from companion.rules.state import GameState
from companion.web import forms  # the same form parsing as the table screen
from companion.web.htmx import is_htmx
from companion.web.language import card_text, refusal, translated
from companion.web.language import gettext as _
from companion.web.scan import Outcome, Upload, bp, card_name, read_upload, scan_outcomes

REPEAT_SECONDS = 5.0  # the same sticker read again within this time is ignored


def fresh_read(game_id: int, card_id: str, copy: int) -> bool:
    """Whether this copy's sticker was not read in this game in the last REPEAT_SECONDS
    (the read is recorded: a sticker held in front of the camera stays ignored)."""
    return repository.for_app().fresh_read(
        game_id, card_id, copy, timedelta(seconds=REPEAT_SECONDS)
    )


@dataclass(frozen=True)
class Offer:
    """A scanned or searched card a player may have bought."""

    card_id: str
    copy: int
    name: str
    acquire: str
    owner: str | None
    buyable: bool
    # One button per house the engine lets buy: id, name, colour, whether it moves the copy
    # from its owner, and why the engine refuses it now (None: allowed).
    buyers: tuple[tuple[str, str, str, bool, str | None], ...] = ()


def default_buyer(state: GameState) -> str:
    """The player whose Reveal turn it is (the last to reveal this round), else whose turn,
    else the first who may buy."""
    may_buy = buyers(state)
    for entry in reversed(state.log):
        if entry.round != state.round:
            break
        if entry.kind == "reveal" and entry.house in may_buy:
            return entry.house
    if state.turn in may_buy:
        return state.turn
    return may_buy[0] if may_buy else ""


def _offer(state: GameState, card_id: str, copy: int) -> Offer:
    card = state.catalog.cards.get(card_id)
    owner = state.owner(card_id, copy)
    houses = [state.house(h) for h in buyers(state)]
    asked: list[Action] = [
        Acquire(h.id, card_id, copy, move=owner is not None and owner != h.id) for h in houses
    ]
    refused = [None if why is None else translated(why) for why in action_problems(state, asked)]
    return Offer(
        card_id,
        copy,
        card.name if card else card_name(card_id),
        card.acquire if card else "",
        owner,
        card_buyable(state, card_id),
        tuple(
            (h.id, h.name, h.color, a.move, why)
            for h, a, why in zip(houses, asked, refused, strict=True)
            if isinstance(a, Acquire)
        ),
    )


def _game_view(game_id: int) -> services.GameView:
    """The game (an unknown one raises GameNotFound, answered 404 by the app)."""
    return services.load(game_id, current_app.extensions["catalog"])


def _buy_page(
    view: services.GameView,
    offers: list[Offer],
    outcomes: list[Outcome],
    error: str | None,
    query: str = "",
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> ResponseReturnValue:
    context = {
        "view": view,
        "offers": offers,
        "outcomes": outcomes,
        "error": error,
        "query": query,
        "buyer": default_buyer(view.state),
    }
    if is_htmx():
        return render_block("scan/buy.html", "offers", **context), status, headers or {}
    return render_template("scan/buy.html", **context), status, headers or {}


@bp.get("/games/<int:game_id>/buy")
def buy_page(game_id: int) -> ResponseReturnValue:
    view = _game_view(game_id)
    query = request.args.get("q", "")[:80]
    offers: list[Offer] = []
    if query.strip():
        needle = normalize(query)
        for card in view.state.catalog.cards.values():
            if (
                card.kind in ("imperium", "reserve")
                and card.set in view.state.setup.sets
                and (needle in normalize(card.name) or needle in normalize(card_text(card.name)))
            ):
                copy = next(
                    (n for n in range(1, card.copies + 1) if view.state.owner(card.id, n) is None),
                    1,
                )
                offers.append(_offer(view.state, card.id, copy))
            if len(offers) >= 12:
                break
    return _buy_page(view, offers, _bought(view.state), None, query)


def _bought(state: GameState) -> list[Outcome]:
    """The confirmation after a purchase's redirect (`?bought=<card>/<copy>`), read from
    the game itself: nothing when that copy has no owner."""
    card_id, _sep, copy = request.args.get("bought", "").partition("/")
    owner = state.owner(card_id, int(copy)) if copy.isdigit() else None
    if owner is None:
        return []
    return [_recorded(state, card_id, int(copy))]


def _recorded(state: GameState, card_id: str, copy: int) -> Outcome:
    owner = state.owner(card_id, copy)
    name = state.house(owner).name if owner else ""
    card = state.catalog.cards.get(card_id)
    text = _(
        "Recorded: %(card)s #%(copy)d now belongs to %(name)s.",
        card=Name(card.name) if card else card_id,
        copy=copy,
        name=name,
    )
    return Outcome("ok", text)


def _offer_outcome(state: GameState, offer: Offer) -> Outcome:
    """What the table should know about a card just read: free, owned, or not for sale."""
    if offer.owner:
        owner = state.house(offer.owner).name
        text = _(
            "%(card)s #%(copy)d already belongs to %(name)s.",
            card=Name(offer.name),
            copy=offer.copy,
            name=owner,
        )
        return Outcome("warn", text)
    if not offer.buyable:
        return Outcome("warn", _("%(card)s isn't bought in this game.", card=Name(offer.name)))
    return Outcome("ok", _("Read: %(card)s #%(copy)d", card=Name(offer.name), copy=offer.copy))


def _live_codes(upload: Upload) -> dict[str, str]:
    """The codes' corners for the live camera's frame, as a header (no HTML involved)."""
    where = {"size": list(upload.size), "corners": upload.corners}
    return {"X-Scan-Codes": json.dumps(where, separators=(",", ":"))}


def _scan_again(view: services.GameView) -> ResponseReturnValue:
    """The purchase page, saying the game moved on since this page was shown (409)."""
    return _buy_page(view, [], [], _("The game changed on another screen: scan again."), status=409)


@bp.post("/games/<int:game_id>/scan")
def game_scan(game_id: int) -> ResponseReturnValue:
    view = _game_view(game_id)
    try:
        stamp = forms.created(request.form, game_id)
    except forms.MissingStamp:
        return _scan_again(view)
    if stamp != view.created:  # the page showed a deleted game that had this id
        raise services.OtherGame(game_id)
    upload = read_upload()
    if upload.error:
        return _buy_page(view, [], [], upload.error, status=upload.status)
    live = request.form.get("live") == "1"
    offers: list[Offer] = []
    outcomes: list[Outcome] = []
    for f in upload.found:
        if not (f.card_id and f.copy):
            continue
        if fresh_read(game_id, f.card_id, f.copy):
            offers.append(_offer(view.state, f.card_id, f.copy))
            outcomes.append(_offer_outcome(view.state, offers[-1]))
        else:
            text = _(
                "%(card)s #%(copy)d was read a moment ago: ignored.",
                card=Name(f.name or ""),
                copy=f.copy,
            )
            outcomes.append(Outcome("info", text))
    unknown = [f for f in upload.found if not f.card_id]
    if live and not offers and not unknown:
        return "", 204, _live_codes(upload)  # nothing new in a camera frame: page stays
    if unknown or not upload.found:
        outcomes += scan_outcomes(unknown)
    return _buy_page(view, offers, outcomes, None, headers=_live_codes(upload))


@bp.post("/games/<int:game_id>/buy")
def buy(game_id: int) -> ResponseReturnValue:
    view = _game_view(game_id)
    try:
        action = forms.action_from({**request.form.to_dict(), "action": "acquire"})
        view = services.act(
            game_id,
            action,
            forms.version(request.form),
            current_app.extensions["catalog"],
            created=forms.created(request.form, game_id),
        )
    except services.StaleVersion:
        return _scan_again(_game_view(game_id))
    except IllegalAction as exc:
        fresh = _game_view(game_id)
        card_id = request.form.get("card", "")
        copy = forms.version({"version": request.form.get("copy", "")}) or 0
        offers = (
            [_offer(fresh.state, card_id, copy)] if card_id in fresh.state.catalog.cards else []
        )
        return _buy_page(fresh, offers, [], refusal(exc), status=422)
    if not isinstance(action, Acquire):  # action_from was asked for an acquire
        raise TypeError(action)
    card_id, copy = action.card, action.copy
    if not is_htmx():
        bought = f"{card_id}/{copy}"
        return redirect(url_for("scan.buy_page", game_id=game_id, bought=bought), 303)
    return _buy_page(view, [], [_recorded(view.state, card_id, copy)], None)

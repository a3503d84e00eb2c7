"""QR stickers: printable sheets, scanning photos, and recording purchases in a game."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any, cast

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from jinja2_fragments.flask import render_block
from sqlalchemy import CursorResult, insert, update
from sqlalchemy.exc import IntegrityError

from companion import services
from companion.cards.search import normalize
from companion.db import db
from companion.db.models import StickerRead, utc_now
from companion.rules.actions import Acquire, Action, IllegalAction
from companion.rules.catalog import Catalog
from companion.rules.engine import action_problems, buyers, card_buyable
from companion.rules.state import GameState
from companion.vision import DecodeBusy, decode, stickers
from companion.vision import payload as payloads
from companion.vision.qr import MAX_PIXELS, ImageError, ImageTooLarge
from companion.web import forms  # the same form parsing as the table screen
from companion.web.htmx import error_answer, is_htmx
from companion.web.language import card_text, refusal, translated

bp = Blueprint("scan", __name__)
KINDS = (
    ("imperium", _l("Imperium cards")),
    ("reserve", _l("Reserve cards")),
    ("intrigue", _l("Intrigue cards")),
    ("conflict", _l("Conflict cards")),
    ("leader", _l("Leaders")),
    ("tech", _l("Tech tiles (Rise of Ix)")),
    ("starter", _l("Starting decks")),
)
REPEAT_SECONDS = 5.0  # the same sticker read again within this time is ignored
MAX_IMAGE_BYTES = 12 * 1024 * 1024


def card_catalog() -> Catalog:
    """Every card of every set (the card browser's catalog)."""
    found = current_app.extensions.get("card_catalog")
    if found is None:
        found = current_app.extensions["catalog"]
    assert isinstance(found, Catalog)
    return found


def _known() -> dict[str, int]:
    cached = current_app.extensions.get("sticker_copies")
    if cached is None:
        cached = payloads.known_copies(card_catalog())
        current_app.extensions["sticker_copies"] = cached
    return cached


def card_name(card_id: str) -> str:
    cat = card_catalog()
    for table in (cat.cards, cat.intrigue, cat.conflicts, cat.leaders, cat.tech):
        record = table.get(card_id)
        if record is not None:
            return str(record.name)
    return card_id


# -- printable sticker sheets --------------------------------------------------------------


def _base_url() -> str:
    configured = current_app.config.get("STICKER_BASE_URL")
    return str(configured or request.host_url).rstrip("/")


@bp.get("/print")
def print_sheet() -> ResponseReturnValue:
    kind = request.args.get("kind", "imperium")
    card_set = request.args.get("set", "base")
    paper = request.args.get("paper", "a4")
    if (
        kind not in dict(KINDS)
        or card_set not in ("base", "ix", "all")
        or paper not in ("a4", "letter")
    ):
        return render_template(
            "scan/print.html",
            kinds=KINDS,
            kind="imperium",
            card_set="base",
            paper="a4",
            stickers=[],
            error=_("Choose a kind, a set and a paper size."),
        ), 422
    sets = None if card_set == "all" else (card_set,)
    chosen = stickers.catalog_stickers(card_catalog(), kind, sets)  # type: ignore[arg-type]
    base = _base_url()
    # The name under each code in the reader's language (the PNG's font has no CJK glyphs:
    # a downloaded PNG keeps the English name).
    svgs = [(s, stickers.sticker_svg(replace(s, name=card_text(s.name)), base)) for s in chosen]
    return render_template(
        "scan/print.html",
        kinds=KINDS,
        kind=kind,
        card_set=card_set,
        paper=paper,
        stickers=svgs,
        base=base,
        error=None,
    )


@bp.get("/print/<card_id>/<int:copy>.png")
def sticker_png(card_id: str, copy: int) -> ResponseReturnValue:
    copies = _known().get(card_id)
    if copies is None or not 1 <= copy <= copies:
        return error_answer(404, _("No such card copy."))
    png = stickers.sticker_png(stickers.Sticker(card_id, copy, card_name(card_id)), _base_url())
    return Response(
        png,
        mimetype="image/png",
        headers={"Content-Disposition": f'attachment; filename="{card_id}-{copy}.png"'},
    )


# -- decoding photos -----------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """A code read in a photo, as the pages show it."""

    payload: str
    card_id: str | None
    copy: int | None
    name: str | None


@dataclass(frozen=True)
class Upload:
    """What the uploaded photo held: its codes (with their corners in the photo's pixels
    and the photo's size), or an error message and its status."""

    found: list[Found]
    error: str | None = None
    status: int = 200
    corners: list[list[list[float]]] = field(default_factory=list)
    size: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class Outcome:
    """One line of feedback about a scan or a purchase: its kind (ok, info, warn) and text."""

    kind: str
    text: str


def _scan_outcomes(found: list[Found]) -> list[Outcome]:
    """What a photo gave, in words: the cards read, codes that are not ours, or nothing."""
    if not found:
        return [
            Outcome(
                "warn",
                _("No code found in that photo. Try closer, with more light, and without glare."),
            )
        ]
    outcomes = [
        Outcome("ok", _("Read: %(card)s #%(copy)d", card=card_text(f.name or ""), copy=f.copy))
        for f in found
        if f.card_id and f.copy
    ]
    outcomes += [
        Outcome("warn", _("Not one of our stickers: %(text)s", text=f.payload))
        for f in found
        if not f.card_id
    ]
    return outcomes


def _refused(error: str, status: int = 422) -> Upload:
    return Upload([], error, status)


def _read_upload() -> Upload:
    """The codes in the uploaded photo (field `image`), or why it was refused."""
    upload = request.files.get("image")
    if upload is None:
        return _refused(_("Choose a photo to read (field 'image')."))
    data = upload.read(MAX_IMAGE_BYTES + 1)
    if not data:
        return _refused(_("The photo is empty."))
    if len(data) > MAX_IMAGE_BYTES:
        return _refused(_("That photo is too large (12 MB at most)."))
    try:
        result = decode(data, _known())
    except ImageTooLarge:
        megapixels = MAX_PIXELS // 1_000_000
        return _refused(
            _("That photo has too many pixels (%(n)s megapixels at most).", n=megapixels)
        )
    except ImageError:
        return _refused(_("That file is not a photo we can read (JPEG, PNG or WebP)."))
    except DecodeBusy:
        return _refused(_("The server is busy reading other photos: try again in a moment."), 503)
    found = [
        Found(c.payload, c.card_id, c.copy, card_name(c.card_id) if c.card_id else None)
        for c in result.codes
    ]
    corners = [[[round(x, 1), round(y, 1)] for x, y in c.corners] for c in result.codes]
    return Upload(found, corners=corners, size=(result.width, result.height))


def _wants_json() -> bool:
    """JSON only when asked for by name (`Accept: application/json`), never by htmx.

    htmx and browsers send `*/*` or `text/html`; wildcards never pick JSON.
    """
    if is_htmx():
        return False
    named = dict(request.accept_mimetypes)
    json_quality = named.get("application/json", 0)
    return json_quality > 0 and json_quality >= named.get("text/html", 0)


@bp.get("/scan")
def scan_page() -> ResponseReturnValue:
    return render_template("scan/scan.html", game=None, found=None, error=None, outcomes=[])


@bp.post("/scan")
def scan() -> ResponseReturnValue:
    upload = _read_upload()
    found, error, status = upload.found, upload.error, upload.status
    if _wants_json():
        if error:
            return {"error": error}, status
        return {
            "codes": [
                {"payload": f.payload, "card_id": f.card_id, "copy": f.copy, "name": f.name}
                for f in found
                if f.card_id
            ],
            "unknown": [f.payload for f in found if not f.card_id],
        }
    outcomes = [] if error else _scan_outcomes(found)
    context = {"found": found, "error": error, "outcomes": outcomes, "game": None}
    if is_htmx():
        return render_block("scan/scan.html", "found", **context), status
    return render_template("scan/scan.html", **context), status


# -- purchases in a game -------------------------------------------------------------------


def fresh_read(game_id: int, card_id: str, copy: int) -> bool:
    """Record that this copy's sticker was just read in this game; whether it had not
    been read in the last REPEAT_SECONDS (a sticker held in front of the camera stays
    ignored). One transaction in the database, so every server process agrees."""
    now = utc_now()
    key = {"game_id": game_id, "card": card_id, "copy": copy}
    row = (
        (StickerRead.game_id == game_id)
        & (StickerRead.card == card_id)
        & (StickerRead.copy == copy)
    )
    session = db.session()
    with current_app.extensions["game_write_lock"]:
        try:
            stale = (
                update(StickerRead)
                .where(row, StickerRead.read_at < now - timedelta(seconds=REPEAT_SECONDS))
                .values(read_at=now)
            )
            if cast(CursorResult[Any], session.execute(stale)).rowcount:
                session.commit()
                return True
            try:
                with session.begin_nested():
                    session.execute(insert(StickerRead).values(**key, read_at=now))
                fresh = True
            except IntegrityError:  # read moments ago (here or by another process)
                session.execute(update(StickerRead).where(row).values(read_at=now))
                fresh = False
            session.commit()
            return fresh
        except BaseException:
            session.rollback()
            raise


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
        card=card_text(card.name) if card else card_id,
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
            card=card_text(offer.name),
            copy=offer.copy,
            name=owner,
        )
        return Outcome("warn", text)
    if not offer.buyable:
        return Outcome("warn", _("%(card)s isn't bought in this game.", card=card_text(offer.name)))
    return Outcome("ok", _("Read: %(card)s #%(copy)d", card=card_text(offer.name), copy=offer.copy))


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
    upload = _read_upload()
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
                card=card_text(f.name or ""),
                copy=f.copy,
            )
            outcomes.append(Outcome("info", text))
    unknown = [f for f in upload.found if not f.card_id]
    if live and not offers and not unknown:
        return "", 204, _live_codes(upload)  # nothing new in a camera frame: page stays
    if unknown or not upload.found:
        outcomes += _scan_outcomes(unknown)
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

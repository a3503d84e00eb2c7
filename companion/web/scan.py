"""QR stickers: printable sheets and reading photos (recording purchases in a game:
`web.purchases`, on this blueprint)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from flask import Blueprint, Response, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext as _l
from jinja2_fragments.flask import render_block

from companion.rules.catalog import Catalog
from companion.rules.i18n import Name
from companion.vision import DecodeBusy, decode, stickers
from companion.vision import payload as payloads
from companion.vision.qr import MAX_PIXELS, ImageError, ImageTooLarge
from companion.web.htmx import error_answer, is_htmx
from companion.web.language import card_text, ngettext
from companion.web.language import gettext as _

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


def scan_outcomes(found: list[Found]) -> list[Outcome]:
    """What a photo gave, in words: the cards read, codes that are not ours, or nothing."""
    if not found:
        return [
            Outcome(
                "warn",
                _("No code found in that photo. Try closer, with more light, and without glare."),
            )
        ]
    outcomes = [
        Outcome("ok", _("Read: %(card)s #%(copy)d", card=Name(f.name or ""), copy=f.copy))
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


def read_upload() -> Upload:
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
            ngettext(
                "That photo has too many pixels (%(num)s megapixel at most).",
                "That photo has too many pixels (%(num)s megapixels at most).",
                megapixels,
            )
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
    upload = read_upload()
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
    outcomes = [] if error else scan_outcomes(found)
    context = {"found": found, "error": error, "outcomes": outcomes, "game": None}
    if is_htmx():
        return render_block("scan/scan.html", "found", **context), status
    return render_template("scan/scan.html", **context), status

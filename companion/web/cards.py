"""Rules lookup: search every card, space, leader, Conflict, tile and House Hagal card.

Pages: `/cards` (search and filters), `/cards/<kind>/<id>` (one item, with its rulings
and related items), `/cards/<kind>/<id>/panel` (the same rules panel alone, for a dialog
on the table screen), and `/c/<card-id>[/<copy>]` for the QR stickers on physical cards.

The full catalog (base and Rise of Ix) is loaded once when the blueprint is registered,
into `app.extensions["card_catalog"]`, with its `companion.lookup.Lookup` (search index,
rulings, what each page relates to) in `app.extensions["card_lookup"]`; games keep their
own base catalog. What the pages write of an item in the reader's language (the filter
menus, a result's matching text) is companion/web/card_texts.py's.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Final
from urllib.parse import urlencode

from flask import (
    Blueprint,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from jinja2_fragments.flask import render_block
from markupsafe import Markup

from companion.cards.concepts import ConceptDef
from companion.cards.index import CONCEPT, KIND_NAMES
from companion.cards.search import Hit, parse_query, query_args
from companion.lookup import Lookup, detail, load_lookup
from companion.lookup.amounts import Amount, amounts
from companion.rules.i18n import N_, Message, Name
from companion.web import card_texts, locales
from companion.web.htmx import error_answer, is_htmx
from companion.web.language import gettext as _
from companion.web.language import ngettext, translated

bp = Blueprint("cards", __name__)
INDEX: Final[str] = "cards/index.html"
SHOW: Final[str] = "cards/show.html"
CONCEPT_PAGE: Final[str] = "cards/concept.html"
# Rows a search shows before "Show all": enough for any sensible query, and the empty
# search (every item) stays quick to render on a tablet.
LIMIT: Final[int] = 60


# --- loading ---------------------------------------------------------------------


@bp.record_once
def _load(state: BlueprintSetupState) -> None:
    app = state.app
    lookup = load_lookup(Path(app.config["CARD_DB_PATH"]))
    app.extensions["card_catalog"] = lookup.catalog
    app.extensions["card_lookup"] = lookup


def lookup() -> Lookup:
    return current_app.extensions["card_lookup"]  # type: ignore[no-any-return]


@bp.app_template_global("rules_link")  # games/_macros.html's info()
def rules_link(kind: str, item_id: str, label: str) -> Markup:
    """The "i" link to an item's rules: its page, or with htmx its panel in the rules
    dialog. The same in every request of one language (a table screen shows a few dozen),
    so made once."""
    return _rules_link(request.script_root, str(get_locale()), kind, item_id, str(label))


@lru_cache(maxsize=4096)
def _rules_link(_root: str, _language: str, kind: str, item_id: str, label: str) -> Markup:
    """rules_link's link, by the app's root and the language, which it depends on."""
    title = _("Rules: %(name)s", name=label)
    page = url_for("cards.show", kind=kind, item_id=item_id)
    panel = url_for("cards.panel", kind=kind, item_id=item_id)
    return Markup(
        '<a class="info" href="{}" target="_blank" hx-get="{}" hx-target="#rules-panel"'
        ' hx-swap="outerHTML" title="{}" aria-label="{}">i</a>'
    ).format(page, panel, title, title)


@bp.app_template_filter("amounts")  # cards/_macros.html's iconize()
def shown_amounts(text: str) -> list[tuple[str, Amount | None]]:
    """`text` cut around its amounts, as the page's language writes them."""
    return amounts(text, locales.current().code)


def _not_found(message: str) -> ResponseReturnValue:
    return error_answer(404, message, "cards/missing.html")


# --- routes -------------------------------------------------------------------------


@bp.get("/cards")
def index() -> ResponseReturnValue:
    query = parse_query(request.args, locales.current().code)
    found = lookup().index.find(query)
    hits = found.hits
    show_all = request.args.get("all") == "1"
    shown: list[Hit] = hits if show_all else hits[:LIMIT]
    args = query_args(query)
    context = {
        "query": query,
        "args": args,
        "hits": shown,
        "total": len(hits),
        "more_args": {**args, "all": "1"} if len(shown) < len(hits) else None,
        "first_loose": next((n for n, h in enumerate(shown) if h.loose), None),
        "suggestion": found.suggestion,
        "suggest_args": {**args, "q": found.suggestion or ""},
        **card_texts.helpers(lookup()),
    }
    if is_htmx():
        response = make_response(render_block(INDEX, "results", **context))
        # The address bar shows the search without the form's empty fields.
        canonical = {**args, "all": "1"} if show_all else args
        search = "?" + urlencode(canonical) if canonical else ""
        response.headers["HX-Replace-Url"] = url_for("cards.index") + search
        return response
    return render_template(INDEX, **context)


def _show(kind: str, item_id: str, panel: bool) -> ResponseReturnValue:
    if kind not in KIND_NAMES:
        return _not_found(
            _("There is no kind of item called '%(kind)s' in the rules lookup.", kind=kind)
        )
    item = lookup().index.get(kind, item_id)
    if item is None:
        missing = Message(
            N_("Nothing in the rules lookup has the id '%(id)s' (%(kind)s)."),
            id=item_id,
            kind=Message(KIND_NAMES[kind]),
        )
        return _not_found(translated(missing))
    copy = request.args.get("copy", type=int)
    if copy is not None and not 1 <= copy <= item.copies:
        copy = None
    context = {"d": detail(lookup(), item, copy), "panel": panel, **card_texts.helpers(lookup())}
    if panel or is_htmx():
        return render_block(SHOW, "rules_panel", **context)
    return render_template(SHOW, **context)


@bp.get("/cards/<kind>/<item_id>")
def show(kind: str, item_id: str) -> ResponseReturnValue:
    return _show(kind, item_id, panel=False)


@bp.get("/cards/<kind>/<item_id>/panel")
def panel(kind: str, item_id: str) -> ResponseReturnValue:
    return _show(kind, item_id, panel=True)


def _concept(concept_id: str, panel: bool) -> ResponseReturnValue:
    found = lookup()
    item = found.index.get(CONCEPT, concept_id)
    if item is None or not isinstance(item.entry.record, ConceptDef):
        return _not_found(
            _("There is no rules concept called '%(id)s' in the rules lookup.", id=concept_id)
        )
    concept = item.entry.record
    pictured = [found.index.get(*key.split(":", 1)) for key in concept.pictured]
    context = {
        "c": concept,
        "pictured": [p for p in pictured if p is not None],
        "touched": found.concepts.touched(concept),
        "panel": panel,
        **card_texts.helpers(found),
    }
    if panel or is_htmx():
        return render_block(CONCEPT_PAGE, "rules_panel", **context)
    return render_template(CONCEPT_PAGE, **context)


@bp.get("/cards/concept/<concept_id>")
def concept(concept_id: str) -> ResponseReturnValue:
    return _concept(concept_id, panel=False)


@bp.get("/cards/concept/<concept_id>/panel")
def concept_panel(concept_id: str) -> ResponseReturnValue:
    return _concept(concept_id, panel=True)


@bp.get("/c/<card_id>")
@bp.get("/c/<card_id>/<int(signed=True):copy>")
def sticker(card_id: str, copy: int | None = None) -> ResponseReturnValue:
    item = lookup().index.by_card_id.get(card_id)
    if item is None:
        return _not_found(_("No card has the id '%(id)s'. Check the sticker's code.", id=card_id))
    if copy is None:
        return redirect(url_for("cards.show", kind=item.kind, item_id=item.id), 302)
    if not 1 <= copy <= item.copies:
        return _not_found(
            ngettext(
                "%(card)s has %(num)s copy, so there is no copy %(copy)s. "
                "Check the sticker's number.",
                "%(card)s has %(num)s copies, so there is no copy %(copy)s. "
                "Check the sticker's number.",
                item.copies,
                card=Name(item.entry.name),
                copy=copy,
            )
        )
    return redirect(url_for("cards.show", kind=item.kind, item_id=item.id, copy=copy), 302)

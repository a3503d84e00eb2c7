"""Rules lookup: search every card, space, leader, Conflict, tile and House Hagal card.

Pages: `/cards` (search and filters), `/cards/<kind>/<id>` (one item, with its rulings
and related items), `/cards/<kind>/<id>/panel` (the same rules panel alone, for a dialog
on the table screen), and `/c/<card-id>[/<copy>]` for the QR stickers on physical cards.

The full catalog (base and Rise of Ix) is loaded once when the blueprint is registered,
into `app.extensions["card_catalog"]`, with its `companion.lookup.Lookup` (search index,
rulings, what each page relates to) in `app.extensions["card_lookup"]`; games keep their
own base catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
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
from flask_babel import lazy_gettext as _l
from jinja2_fragments.flask import render_block
from markupsafe import Markup

from companion.cards.concepts import ConceptDef, paragraphs
from companion.cards.index import CONCEPT, KIND_NAMES
from companion.cards.search import (
    ICON_NAMES,
    INTRIGUE_TYPE_NAMES,
    LEVELS,
    ROMAN,
    SET_NAMES,
    Hit,
    Item,
    Text,
    hagal_facts,
    parse_query,
    query_args,
    space_facts,
)
from companion.lookup import Lookup, detail, load_lookup
from companion.lookup.amounts import Amount, amounts
from companion.rules.catalog import (
    FACTION_NAMES,
    CardDef,
    ConflictDef,
    HagalCardDef,
    IntrigueDef,
    LeaderDef,
    SpaceDef,
    TechDef,
)
from companion.rules.i18n import N_, Message, Name
from companion.web import language
from companion.web.htmx import error_answer, is_htmx
from companion.web.language import card_text, ngettext, translated
from companion.web.language import gettext as _
from companion.web.present.words import listed, reward_words

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
    return amounts(text, language.current().code)


# --- what the pages show ------------------------------------------------------------


# The labels of an item's texts (companion/cards/search.py), as a result row shows them.
TEXT_LABELS: Final = {
    "Cost": _l("Cost"),
    "Agent": _l("Agent"),
    "Reveal": _l("Reveal"),
    "Acquire": _l("Acquire"),
    "Rules": _l("Rules"),
    "Icons": _l("Icons"),
    "Plot": _l("Plot"),
    "Combat": _l("Combat"),
    "Endgame": _l("Endgame"),
    "Type": _l("Type"),
    "1st": _l("1st"),
    "2nd": _l("2nd"),
    "3rd": _l("3rd"),
    "Level": _l("Level"),
    "Signet": _l("Signet"),
    "Ability": _l("Ability"),
    "As a Rival": _l("As a Rival"),
    "Rival": _l("Rival"),
    "Mark": _l("Mark"),
    "Effects": _l("Effects"),
    "Space": _l("Space"),
    "Icon": _l("Icon"),
    "Card": _l("Card"),
    "Rule": _l("Rule"),
    "Ruling": _l("Ruling"),
    "Explanation": _l("Explanation"),
}
PLACES: Final = {"1st": "first", "2nd": "second", "3rd": "third"}


def _shown(names: Mapping[str, str]) -> dict[str, str]:
    """Each English name with its name in the reader's language."""
    return {key: _(name) for key, name in names.items()}


def _labels() -> dict[str, object]:
    """Names for the filter menus and badges, in the reader's language."""
    return {
        "kinds": _shown(KIND_NAMES),
        "sets": _shown(SET_NAMES),
        "factions": _shown(FACTION_NAMES),
        "icons": _shown(ICON_NAMES),
        "intrigue_types": _shown(INTRIGUE_TYPE_NAMES),
        "levels": [(n, _("Conflict %(level)s", level=ROMAN[n])) for n in LEVELS],
        "roman": ROMAN,
    }


def _helpers(found: Lookup) -> dict[str, object]:
    """What the templates call: texts written out from typed fields, names, labels, all in
    the reader's language."""
    english = found.space_names
    names = {key: card_text(name) for key, name in english.items()}
    return {
        "reward_text": lambda w: reward_words(w, names),
        "hagal_facts": _hagal_lines,
        "snippet": lambda hit: snippet(hit, names),
        "paragraphs": lambda text: paragraphs(card_text(text)),
        "names": names,
        "L": _labels(),
    }


def _hagal_lines(card: HagalCardDef) -> list[str]:
    """What a House Hagal card does, sentence by sentence, in the reader's language."""
    return [translated(f) for f in hagal_facts(card, lookup().space_names)]


def snippet(hit: Hit, names: Mapping[str, str]) -> tuple[str, str] | None:
    """A result row's matching text (label and text) in the reader's language: written
    out again from the item's fields as companion/cards/search.py wrote it in English."""
    text = hit.text
    if text is None:
        return None
    label = TEXT_LABELS.get(text.label)
    if text.label.startswith("Step "):
        shown_label = _("Step %(n)s", n=text.label.removeprefix("Step "))
    else:
        shown_label = str(label) if label is not None else text.label
    return shown_label, _snippet_text(hit.item, text, names)


def _snippet_text(item: Item, text: Text, names: Mapping[str, str]) -> str:
    """The texts search.py composes from typed fields, composed again in the reader's
    language; a field's own text (an effect, an explanation) through the cards catalog."""
    r = item.entry.record
    label = text.label
    if isinstance(r, CardDef):
        return _card_text(r, label) or card_text(text.text)
    if isinstance(r, IntrigueDef) and label == "Type":
        return listed([_(INTRIGUE_TYPE_NAMES[t]) for t in r.types])
    if isinstance(r, ConflictDef) and label in PLACES:
        return reward_words(getattr(r, PLACES[label]), names)
    if isinstance(r, ConflictDef) and label == "Level":
        return str(_("Conflict %(level)s", level=ROMAN[r.level]))
    if isinstance(r, LeaderDef):
        return _leader_text(r, label) or card_text(text.text)
    if isinstance(r, TechDef):
        return _tech_text(r, label) or card_text(text.text)
    if isinstance(r, SpaceDef):
        return _space_text(r, label) or card_text(text.text)
    if isinstance(r, HagalCardDef) and label == "Card":
        return " ".join(_hagal_lines(r))
    return card_text(text.text)  # a field's own text


def _card_text(r: CardDef, label: str) -> str:
    if label == "Cost" and r.cost is not None:
        return str(ngettext("%(n)s Persuasion", "%(n)s Persuasion", r.cost, n=r.cost))
    if label == "Reveal":
        parts = []
        if r.persuasion:
            parts.append(
                ngettext("+%(n)s Persuasion.", "+%(n)s Persuasion.", r.persuasion, n=r.persuasion)
            )
        if r.swords:
            parts.append(ngettext("+%(num)s sword.", "+%(num)s swords.", r.swords))
        return " ".join([*parts, card_text(r.reveal)]).strip()
    if label == "Icons":
        facts = [_(FACTION_NAMES[f]) for f in r.factions]
        facts += [
            translated(Message(N_("%(icon)s icon"), icon=Message(ICON_NAMES[i]))) for i in r.icons
        ]
        facts += [_("Infiltration")] if r.infiltration else []
        facts += [_("Unload")] if r.unload else []
        return listed(facts)
    return ""


def _leader_text(r: LeaderDef, label: str) -> str:
    if label == "Signet":
        return f"{card_text(r.signet_name)}: {card_text(r.signet_text)}"
    if label == "Ability":
        return f"{card_text(r.ability_name)}: {card_text(r.ability_text)}"
    return ""


def _tech_text(r: TechDef, label: str) -> str:
    if label == "Cost":
        return str(ngettext("%(n)s spice", "%(n)s spice", r.cost, n=r.cost))
    if label == "Mark":
        return str(_("Rivals may acquire it"))
    return ""


def _space_text(r: SpaceDef, label: str) -> str:
    if label == "Space":
        return " ".join(translated(f) for f in space_facts(r))
    if label == "Icon":
        icon = _(ICON_NAMES[r.icon])
        if r.faction:
            return str(_("%(icon)s icon, Faction space", icon=icon))
        return str(_("%(icon)s icon", icon=icon))
    return ""


def _not_found(message: str) -> ResponseReturnValue:
    return error_answer(404, message, "cards/missing.html")


# --- routes -------------------------------------------------------------------------


@bp.get("/cards")
def index() -> ResponseReturnValue:
    query = parse_query(request.args, language.current().code)
    found = lookup().index.find(query)
    hits = found.hits
    show_all = request.args.get("all") == "1"
    shown: list[Hit] = hits if show_all else hits[:LIMIT]
    args = query_args(query)
    helpers = _helpers(lookup())
    context = {
        "query": query,
        "args": args,
        "hits": shown,
        "total": len(hits),
        "more_args": {**args, "all": "1"} if len(shown) < len(hits) else None,
        "first_loose": next((n for n, h in enumerate(shown) if h.loose), None),
        "suggestion": found.suggestion,
        "suggest_args": {**args, "q": found.suggestion or ""},
        **helpers,
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
    context = {"d": detail(lookup(), item, copy), "panel": panel, **_helpers(lookup())}
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
        **_helpers(found),
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

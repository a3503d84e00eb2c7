"""What the rules lookup's pages write of an item, in the reader's language: the filter
menus' names, a result row's matching text, a House Hagal card's sentences, written out again
from the item's typed fields (companion/cards/search.py writes them in English).

The routes are companion/web/cards.py's; `helpers` is what its templates call.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from flask_babel import lazy_gettext as _l

from companion.cards.concepts import paragraphs
from companion.cards.index import KIND_NAMES
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
    space_facts,
)
from companion.lookup import Lookup
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
from companion.rules.i18n import N_, Message
from companion.web.language import card_text, ngettext, pgettext, translated
from companion.web.language import gettext as _
from companion.web.present.words import listed, reward_words

# The labels of an item's texts (companion/cards/search.py), as a result row shows them.
TEXT_LABELS: Final = {
    "Cost": _l("Cost"),
    "Agent": _l("Agent"),
    "Reveal": _l("Reveal"),
    "Acquire": _l("Acquire"),
    "Rules": _l("Rules"),
    "Icons": _l("Icons"),
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


def intrigue_types() -> dict[str, str]:
    """An Intrigue card's types in the reader's language (the filter menu, a card's badges
    and boxes, a result row's labels), entries of their own: the Japanese rulebook names
    them 陰謀, 戦術 and 終盤 (seed 004, lines 421-423), where "Combat" elsewhere is 紛争,
    the Conflict and a Combat space."""
    return {
        "plot": pgettext("Intrigue card type", "Plot"),
        "combat": pgettext("Intrigue card type", "Combat"),
        "endgame": pgettext("Intrigue card type", "Endgame"),
    }


# A result row's label of an Intrigue card's text (search.py labels it with the English).
INTRIGUE_TEXTS: Final = {name: key for key, name in INTRIGUE_TYPE_NAMES.items()}


def _labels() -> dict[str, object]:
    """Names for the filter menus and badges, in the reader's language."""
    return {
        "kinds": _shown(KIND_NAMES),
        "sets": _shown(SET_NAMES),
        "factions": _shown(FACTION_NAMES),
        "icons": _shown(ICON_NAMES),
        "intrigue_types": intrigue_types(),
        "levels": [(n, _("Conflict %(level)s", level=ROMAN[n])) for n in LEVELS],
        "roman": ROMAN,
    }


def helpers(found: Lookup) -> dict[str, object]:
    """What the templates call: texts written out from typed fields, names, labels, all in
    the reader's language."""
    english = found.space_names
    names = {key: card_text(name) for key, name in english.items()}
    return {
        "reward_text": lambda w: reward_words(w, names),
        "hagal_facts": lambda card: hagal_lines(card, english),
        "snippet": lambda hit: snippet(hit, names, english),
        "paragraphs": lambda text: paragraphs(card_text(text)),
        "names": names,
        "L": _labels(),
    }


def hagal_lines(card: HagalCardDef, english: Mapping[str, str]) -> list[str]:
    """What a House Hagal card does, sentence by sentence, in the reader's language
    (`english`: the spaces' English names by id)."""
    return [translated(f) for f in hagal_facts(card, english)]


def snippet(
    hit: Hit, names: Mapping[str, str], english: Mapping[str, str]
) -> tuple[str, str] | None:
    """A result row's matching text (label and text) in the reader's language: written
    out again from the item's fields as companion/cards/search.py wrote it in English
    (`names`: the spaces' names by id in the reader's language, `english` in English)."""
    text = hit.text
    if text is None:
        return None
    label = TEXT_LABELS.get(text.label)
    if text.label in INTRIGUE_TEXTS:
        shown_label = intrigue_types()[INTRIGUE_TEXTS[text.label]]
    elif text.label.startswith("Step "):
        shown_label = _("Step %(n)s", n=text.label.removeprefix("Step "))
    else:
        shown_label = str(label) if label is not None else text.label
    return shown_label, _snippet_text(hit.item, text, names, english)


def _snippet_text(
    item: Item, text: Text, names: Mapping[str, str], english: Mapping[str, str]
) -> str:
    """The texts search.py composes from typed fields, composed again in the reader's
    language; a field's own text (an effect, an explanation) through the cards catalog."""
    r = item.entry.record
    label = text.label
    if isinstance(r, CardDef):
        return _card_text(r, label) or card_text(text.text)
    if isinstance(r, IntrigueDef) and label == "Type":
        return listed([intrigue_types()[t] for t in r.types])
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
        return " ".join(hagal_lines(r, english))
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

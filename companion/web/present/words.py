"""The wording helpers every view shares, in the reader's language: lists ("a, b, c";
"A, B and C"), amounts ("2 Solari, 1 spice"), Factions and Conflict rewards ("1 VP, 2
water, control of Arrakeen"). It imports no other module of `present`, so any may use it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import TypeVar

from babel.lists import format_list

from companion.rules import i18n
from companion.rules.catalog import Resources, Reward
from companion.rules.state import GameState
from companion.rules.text import RESOURCE_AMOUNTS
from companion.web.language import gettext as _
from companion.web.language import lazy_word as _l
from companion.web.language import ngettext, page_locale, per_language, shown_label, translated

T = TypeVar("T")

# The Factions' names as shown (FACTION_NAMES holds the engine's English ones).
FACTION_LABELS = {
    "emperor": _l("Emperor"),
    "spacing_guild": _l("Spacing Guild"),
    "bene_gesserit": _l("Bene Gesserit"),
    "fremen": _l("Fremen"),
}


def catalog_words(catalog: object, key: Hashable, make: Callable[[], T]) -> T:
    """`make()`: words from `catalog` (a ruleset's cards and spaces) that depend on nothing
    but `key` and the page's language, made once per language (language.per_language)."""
    held, words = per_language(("catalog", id(catalog), key), lambda: (catalog, make()))
    return words if held is catalog else make()  # another catalog at the same address


def faction_name(faction: str) -> str:
    """A Faction's name in the reader's language (an unknown id as is)."""
    return shown_label(FACTION_LABELS, faction)


def listed(parts: Sequence[str]) -> str:
    """ "a, b, c" joined the reader's way ("" for none)."""
    if not parts:
        return ""
    result = parts[0]
    for part in parts[1:]:
        result = str(_("%(first)s, %(second)s", first=result, second=part))
    return result


def together(names: Sequence[str]) -> str:
    """Names as a list in words, in the reader's language: "A", "A and B", "A, B and C"."""
    return translated(i18n.listed(names))


def resources_words(resources: Resources) -> str:
    """'2 Solari, 1 spice' in the reader's language; "" for nothing."""
    amounts = (
        (resources.solari, RESOURCE_AMOUNTS["solari"]),
        (resources.spice, RESOURCE_AMOUNTS["spice"]),
        (resources.water, RESOURCE_AMOUNTS["water"]),
    )
    return listed([ngettext(*words, n, n=n) for n, words in amounts if n])


class SpaceNames(Mapping[str, str]):
    """The board spaces' names, each a `Name` the sentence it is filled into shows in the
    reader's language and marks (a reward names one space at most)."""

    def __init__(self, state: GameState) -> None:
        self.spaces = state.catalog.spaces

    def __getitem__(self, space_id: str) -> str:
        return i18n.Name(self.spaces[space_id].name, "space")

    def __iter__(self) -> Iterator[str]:
        return iter(self.spaces)

    def __len__(self) -> int:
        return len(self.spaces)


def reward_text(reward: Reward, state: GameState) -> str:
    """A reward of this game in words, in the reader's language."""
    return reward_words(reward, SpaceNames(state))


def reward_words(reward: Reward, names: Mapping[str, str]) -> str:
    """Every part of a reward box, joined by commas ("nothing" for an empty one); `names`
    gives the spaces' names for a control reward."""
    parts = _influence(reward)
    money = resources_words(Resources(solari=reward.solari, spice=reward.spice, water=reward.water))
    parts += [money] if money else []
    parts += _pieces(reward, names)
    if reward.choose:
        options = format_list(
            [reward_words(o, names) for o in reward.options], style="or", locale=page_locale()
        )
        parts.append(_("choose %(n)s: %(options)s", n=reward.choose, options=options))
    for offer in reward.offers:
        vp = ngettext("%(num)d Victory Point", "%(num)d Victory Points", offer.vp)
        parts.append(_("you may pay %(cost)s for %(vp)s", cost=resources_words(offer.cost), vp=vp))
    return listed(parts) or _("nothing")


def _influence(reward: Reward) -> list[str]:
    parts = []
    if reward.vp:
        parts.append(ngettext("%(num)d Victory Point", "%(num)d Victory Points", reward.vp))
    if reward.influence and reward.influence_factions > 1:
        different = ngettext(
            "%(num)s different Faction", "%(num)s different Factions", reward.influence_factions
        )
        parts.append(
            ngettext(
                "+%(n)s Influence with each of %(different)s",
                "+%(n)s Influence with each of %(different)s",
                reward.influence,
                n=reward.influence,
                different=different,
            )
        )
    elif reward.influence:
        parts.append(
            ngettext(
                "+%(n)s Influence with one Faction of your choice",
                "+%(n)s Influence with one Faction of your choice",
                reward.influence,
                n=reward.influence,
            )
        )
    return parts


def _pieces(reward: Reward, names: Mapping[str, str]) -> list[str]:
    parts = []
    if reward.intrigue:
        parts.append(ngettext("%(num)d Intrigue card", "%(num)d Intrigue cards", reward.intrigue))
    if reward.troops:
        parts.append(ngettext("recruit %(num)d troop", "recruit %(num)d troops", reward.troops))
    if reward.freighter:
        parts.append(
            ngettext("%(num)d Freighter move", "%(num)d Freighter moves", reward.freighter)
        )
    if reward.control:
        space = names.get(reward.control, reward.control)
        parts.append(_("control of %(space)s", space=space))
    if reward.mentat:
        parts.append(_("the Mentat"))
    if reward.trash:
        parts.append(_("trash a card"))
    return parts

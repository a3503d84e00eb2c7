"""A Conflict reward in the reader's language: '1 VP, 2 water, control of Arrakeen'."""

from __future__ import annotations

from collections.abc import Mapping

from babel.lists import format_list
from flask_babel import gettext as _
from flask_babel import ngettext

from companion.rules.catalog import Resources, Reward
from companion.web.language import page_locale
from companion.web.present.board import listed, resources_words


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
        parts.append(
            _(
                "+%(n)s Influence with each of %(factions)s different Factions",
                n=reward.influence,
                factions=reward.influence_factions,
            )
        )
    elif reward.influence:
        parts.append(_("+%(n)s Influence with one Faction of your choice", n=reward.influence))
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

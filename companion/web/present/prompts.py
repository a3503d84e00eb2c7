"""The engine's questions to the table, in words: one function per kind of question,
each giving the question and a label per answer."""

from __future__ import annotations

from collections.abc import Callable

from flask_babel import LazyString

from companion.rules.i18n import Name
from companion.rules.ix import NONE, SKIP
from companion.rules.state import TRACK_TOP, GameState, House, Prompt
from companion.web.language import card_text, house_name, ngettext
from companion.web.language import gettext as _
from companion.web.language import lazy_word as _l
from companion.web.present.views import PromptView
from companion.web.present.words import faction_name, resources_words, reward_text

Labels = list[tuple[str, str]]
Wording = tuple[str, Labels]


def prompt_view(state: GameState) -> PromptView | None:
    """The question waiting for an answer, if any."""
    question = state.prompt
    if question is None:
        return None
    who = state.house(question.house)
    word = _WORDINGS.get(question.kind)
    if word is None:
        text, labels = question.kind, [(o, o) for o in question.options]
    else:
        text, labels = word(state, who, question)
    return PromptView(
        question.kind,
        text,
        house_name(state.house(question.decider).name),
        question.number,
        question.minimum,
        question.maximum,
        question.default,
        labels,
    )


def _influence(state: GameState, who: House, question: Prompt) -> Wording:
    text = ngettext(
        "%(house)s: choose the Faction for +%(n)s Influence.",
        "%(house)s: choose the Faction for +%(n)s Influence.",
        question.task.amount,
        house=house_name(who.name),
        n=question.task.amount,
    )
    return text, _factions(question)


def _rival_influence(state: GameState, who: House, question: Prompt) -> Wording:
    text = ngettext(
        "%(house)s ties for its lowest Influence: choose the Faction for +%(n)s "
        "Influence (rulebook p.20: you decide).",
        "%(house)s ties for its lowest Influence: choose the Faction for +%(n)s "
        "Influence (rulebook p.20: you decide).",
        question.task.amount,
        house=house_name(who.name),
        n=question.task.amount,
    )
    return text, _factions(question)


def _factions(question: Prompt) -> Labels:
    return [(o, faction_name(o)) for o in question.options]


def _rival_reward(state: GameState, who: House, question: Prompt) -> Wording:
    reward = getattr(state.catalog.conflicts[state.conflict or ""], question.task.place)
    labels = [(o, reward_text(reward.options[int(o)], state)) for o in question.options]
    return _(
        "Choose %(house)s's reward (rulebook p.20: you decide).", house=house_name(who.name)
    ), labels


def _alliance(state: GameState, who: House, question: Prompt) -> Wording:
    text = _(
        "Several houses could take the Alliance %(house)s lost: choose who takes it "
        "(FAQ: Alliance).",
        house=house_name(who.name),
    )
    return text, [(o, house_name(state.house(o).name)) for o in question.options]


def _hagal_card(state: GameState, who: House, question: Prompt) -> Wording:
    text = _(
        "Reveal the top House Hagal card for %(house)s. Which card is it?",
        house=house_name(who.name),
    )
    return text, [(o, card_text(state.catalog.hagal[o].name)) for o in question.options]


def _conflict_card(state: GameState, who: House, question: Prompt) -> Wording:
    conflicts = state.catalog.conflicts
    labels = [
        (
            o,
            # A Conflict card's name and its first-place reward, as a choice's label.
            _(
                "%(card)s (%(reward)s)",
                card=card_text(conflicts[o].name),
                reward=reward_text(conflicts[o].first, state),
            ),
        )
        for o in question.options
    ]
    return _("Reveal the top Conflict card. Which one is it?"), labels


def _round_end(state: GameState, who: House, question: Prompt) -> Wording:
    text = _("When the chores below are done, start the next round.")
    return text, [("start", _("Start round %(n)s", n=state.round + 1))]


# Rise of Ix [IX pp.4-6, 9]


def _tech_tile(state: GameState, who: House, question: Prompt) -> Wording:
    text = _(
        "Turn up the next Tech tile of stack %(n)s. Which tile is it?", n=question.task.stack + 1
    )
    return text, [(o, card_text(state.catalog.tech[o].name)) for o in question.options]


def _tech(state: GameState, who: House, question: Prompt) -> Wording:
    discount = question.task.discount
    off = (
        ngettext(" (%(n)s spice off)", " (%(n)s spice off)", discount, n=discount)
        if discount
        else ""
    )
    text = _(
        "%(house)s acquires a Tech tile%(off)s: which face-up tile did you buy?",
        house=house_name(who.name),
        off=off,
    )

    def tile(option: str) -> str:
        if option == NONE:
            return str(_("None"))
        found = state.catalog.tech[option]
        return str(_("%(tile)s (%(cost)s spice)", tile=Name(found.name, "tile"), cost=found.cost))

    return text, [(o, tile(o)) for o in question.options]


def _freighter(state: GameState, who: House, question: Prompt) -> Wording:
    text = _(
        "%(house)s: a Freighter icon. Advance the Freighter or recall it (step %(n)s of %(top)s)?",
        house=house_name(who.name),
        n=who.freighter,
        top=TRACK_TOP,
    )
    names = {
        "advance": _("Advance to step %(n)s", n=who.freighter + 1),
        "recall": _("Recall from step %(n)s", n=who.freighter),
        SKIP: _("Neither"),
    }
    return text, [(o, names[o]) for o in question.options]


def _post(state: GameState, who: House, question: Prompt) -> Wording:
    text = _(
        "%(house)s won with a dreadnought: which space does it take control of, "
        "until the end of the next Combat?",
        house=house_name(who.name),
    )

    def label(option: str) -> str:
        if option == "detonate":
            return str(_("Detonation Devices: supply, +1 VP"))
        return card_text(state.catalog.spaces[option].name)

    return text, [(o, label(o)) for o in question.options]


def _strength(state: GameState, who: House, question: Prompt) -> Wording:
    """A dreadnought keeps its owner's strength above 0 without troops [IX p.6]."""
    if "ix" in state.setup.sets:
        text = _(
            "Combat: enter %(house)s's strength on the Combat track (0 with neither troops "
            "nor dreadnoughts in the Conflict).",
            house=house_name(who.name),
        )
    else:
        text = _(
            "Combat: enter %(house)s's strength on the Combat track (0 without troops "
            "in the Conflict).",
            house=house_name(who.name),
        )
    return text, []


def _offer(state: GameState, who: House, question: Prompt) -> Wording:
    """A reward's purchase, such as Economic Supremacy's."""
    conflict = state.catalog.conflicts[state.conflict or ""]
    offer = getattr(conflict, question.task.place).offers[question.task.offer]
    text = _(
        "%(house)s: do you pay %(cost)s for %(vp)s VP (%(conflict)s)?",
        house=house_name(who.name),
        cost=resources_words(offer.cost),
        vp=offer.vp,
        conflict=Name(conflict.name),
    )
    names = {"yes": _("Yes, paid"), "no": _("No")}
    return text, [(o, names[o]) for o in question.options]


# Questions worded by a template with the house's name, and their answers' names.
_FIXED: dict[str, tuple[LazyString, dict[str, LazyString]]] = {
    "expert_strength": (
        _l(
            "Expert deployment: a Rival leads by 4 or more. What is %(house)s's strength "
            "on the Combat track right now?"
        ),
        {},
    ),
    "negotiators_back": (
        _l(
            "%(house)s: how many Negotiators do you return from Ix to supply? Each one "
            "takes 1 spice off the price."
        ),
        {},
    ),
    "tech_negotiation": (
        _l("%(house)s on Tech Negotiation: acquire Tech (1 spice off) or send a Negotiator?"),
        {"tech": _l("Acquire Tech"), "negotiator": _l("Negotiator to Ix"), SKIP: _l("Neither")},
    ),
    "shipping_first": (
        _l("%(house)s: Freighter recalled. First step: Dividends or 2 spice?"),
        {"dividends": _l("Dividends: 5 Solari, 1 to each opponent"), "spice": _l("2 spice")},
    ),
    "commission": (
        _l("%(house)s: commission a dreadnought from supply to your garrison?"),
        {"yes": _l("Yes"), "no": _l("No")},
    ),
}


def _fixed(state: GameState, who: House, question: Prompt) -> Wording:
    template, names = _FIXED[question.kind]
    return str(template) % {"house": house_name(who.name)}, [
        (o, str(names[o])) for o in question.options
    ]


_WORDINGS: dict[str, Callable[[GameState, House, Prompt], Wording]] = {
    **dict.fromkeys(_FIXED, _fixed),
    "influence": _influence,
    "rival_influence": _rival_influence,
    "rival_reward": _rival_reward,
    "alliance": _alliance,
    "hagal_card": _hagal_card,
    "conflict_card": _conflict_card,
    "tech_tile": _tech_tile,
    "tech": _tech,
    "freighter": _freighter,
    "post": _post,
    "offer": _offer,
    "strength": _strength,
    "round_end": _round_end,
}

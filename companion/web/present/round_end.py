"""The "End of round" card: the round's physical chores in the order the rules do them
[RB p.12 Phases 3-5], then the next round's Conflict card [RB p.8 Phase 1]."""

from __future__ import annotations

from companion.rules.i18n import N_, Message, Name, listed
from companion.rules.state import Entry, GameState
from companion.rules.text import describe
from companion.web.language import gettext as _
from companion.web.language import house_name, page_translations, translated
from companion.web.present.story import sentence
from companion.web.present.views import RoundEndView
from companion.web.present.words import reward_text, together


def rounds_ended(state: GameState) -> tuple[int, ...]:
    """The rounds whose Recall is in the log, newest first (each has its card)."""
    return tuple(sorted({e.round for e in state.log if e.kind == "recall"}, reverse=True))


def waiting_round_end(state: GameState) -> RoundEndView | None:
    """The card of the round whose chores the table is doing now, if the game waits."""
    if state.prompt is None or state.prompt.kind != "round_end":
        return None
    return round_end(state, state.round)


def round_end(state: GameState, round_number: int) -> RoundEndView | None:
    """The card of a finished round, or None if that round has not been recalled."""
    entries = [e for e in state.log if e.round == round_number]
    start = next((i for i, e in enumerate(entries) if e.kind == "combat"), None)
    recall = next((e for e in entries if e.kind == "recall"), None)
    if start is None or recall is None:
        return None
    translations = page_translations()
    view = RoundEndView(round_number, waiting=_waits(state, round_number))
    view.combat = [sentence(entries[start], state, translations)]
    for entry in entries[start + 1 :]:
        if entry.kind in ("makers", "recall"):
            break
        if entry.kind == "influence_choice":  # the Influence line after it says it all
            continue
        view.rewards.append(_reward_line(state, entry, sentence(entry, state, translations)))
    view.cleanup = _cleanup(state, entries[start])
    makers = next((e for e in entries if e.kind == "makers"), None)
    view.spice = _bonus_spice(state, makers)
    view.recall = _recall(state, recall)
    view.first = _(
        "Pass the First Player marker to %(house)s.",
        house=house_name(state.house(str(recall.data.get("first"))).name),
    )
    view.next_conflict = _next_conflict(state, round_number)
    return view


def _reward_line(state: GameState, entry: Entry, line: str) -> str:
    """A Rival's reward line, with what the reward is [RB p.12 Resolve Combat; p.20]
    (a player's own "take ..." line follows theirs)."""
    conflict = state.catalog.conflicts.get(str(entry.data.get("card")))
    if entry.kind != "reward" or conflict is None or state.house(entry.house or "").is_human:
        return line
    reward = getattr(conflict, str(entry.data.get("place")), None)
    if reward is None:
        return line
    # One sentence with the reward in it, not the log line's sentence with more after it.
    values = {**describe(entry, state).values, "reward": reward_text(reward, state)}
    return translated(
        Message(N_("%(house)s takes the %(place)s-place reward of %(card)s: %(reward)s."), **values)
    )


def _cleanup(state: GameState, combat: Entry) -> str:
    """After the rewards, each house in the Conflict takes its troops back to its supply,
    not its garrison, and every Combat marker goes back to 0 [RB p.12 Resolve Combat]."""
    strengths = combat.data.get("strengths")
    fought = strengths if isinstance(strengths, dict) else {}
    names = [house_name(h.name) for h in state.houses if _positive(fought.get(h.id))]
    if not names:
        return ""
    return str(
        _(
            "Return the troops of %(houses)s from the Conflict to their supply (not the "
            "garrison), then reset every Combat marker to 0.",
            houses=together(names),
        )
    )


def _positive(value: object) -> bool:
    return isinstance(value, int) and value > 0


def _waits(state: GameState, round_number: int) -> bool:
    prompt = state.prompt
    return prompt is not None and prompt.kind == "round_end" and state.round == round_number


def _bonus_spice(state: GameState, makers: Entry | None) -> str:
    """Phase 4 [RB p.12]: 1 spice from the bank on each Maker space with no Agent."""
    spaces = makers.data.get("spaces") if makers is not None else None
    names = [Name(state.catalog.spaces[str(s)].name, "space") for s in _items(spaces)]
    if not names:
        return str(_("No bonus spice: every Maker space has an Agent."))
    return str(_("Add 1 bonus spice from the bank to %(spaces)s.", spaces=listed(names)))


def _recall(state: GameState, recall: Entry) -> list[str]:
    """Phase 5 [RB p.12]: the Mentat back to its space, every Agent back to its owner."""
    lines = []
    mentat = recall.data.get("mentat")
    if mentat:
        lines.append(
            _(
                "Return the Mentat from %(house)s to its space.",
                house=house_name(state.house(str(mentat)).name),
            )
        )
    agents = recall.data.get("agents")
    if not isinstance(agents, dict):  # a log line written before the recall listed them
        lines.append(_("Every player and Rival takes back their Agents."))
        return lines
    for house in state.houses:
        spaces = _items(agents.get(house.id))
        if spaces:
            names = listed([Name(state.catalog.spaces[str(s)].name, "space") for s in spaces])
            text = _(
                "%(house)s: take back the Agents from %(spaces)s.",
                house=house_name(house.name),
                spaces=names,
            )
            lines.append(text)
    return lines


def _next_conflict(state: GameState, round_number: int) -> str:
    """The next round's Conflict card: revealed already, or next in the deck [RB p.8]."""
    revealed = next(
        (e for e in state.log if e.round == round_number + 1 and e.kind == "conflict"), None
    )
    card = str(revealed.data.get("card")) if revealed is not None else None
    if card is None and state.conflict_deck:
        card = state.conflict_deck[0].card
        if card is None:
            return str(
                _(
                    "Reveal the top card of the Conflict deck (level %(level)s).",
                    level=state.conflict_deck[0].level,
                )
            )
    if card is None:
        return ""
    conflict = state.catalog.conflicts[card]
    return str(
        _(
            "Reveal the next Conflict card: %(card)s (level %(level)s).",
            card=Name(conflict.name),
            level=conflict.level,
        )
    )


def _items(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []

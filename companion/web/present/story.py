"""What just happened and what happens now: the banner, the rival turns the last tap
triggered, and the game log in the reader's language."""

from __future__ import annotations

from babel.support import NullTranslations

from companion.rules.changes import board_changes
from companion.rules.i18n import N_, joined
from companion.rules.rulings import is_ruling, ruling_item
from companion.rules.state import Entry, GameState, House
from companion.rules.text import describe
from companion.web.language import gettext as _
from companion.web.language import house_name, ngettext, page_translations, translated
from companion.web.present.views import RivalTurn

# Log lines that belong to the rival turn they follow.
RIVAL_TURN_KINDS = frozenset(
    {
        "influence",
        "influence_choice",
        "recruit",
        "deploy",
        "expert_hold",
        "signet",
        "rival_harvest",
        "control_bonus",
        "exchange",
        "alliance",
        # Rise of Ix
        "agent_infiltrate",
        "deploy_units",
        "freighter",
        "freighter_recall",
        "dividends",
        "transports",
        "tech",
        "tech_paid",
        "tech_none",
        "tech_up",
        "tech_trash_unmarked",
        "negotiator",
        "tech_flip",
        "tech_income",
        "commission",
    }
)


def sentence(entry: Entry, state: GameState, translations: NullTranslations) -> str:
    """A log entry in the reader's language (the template is the message id)."""
    return translated(describe(entry, state), translations)


def newest_lines(state: GameState, count: int) -> tuple[tuple[int, str], ...]:
    """The newest `count` lines of the log, newest first, as (round, sentence)."""
    translations = page_translations()
    return tuple(
        (entry.round, sentence(entry, state, translations))
        for entry in reversed(state.log[-count:])
    )


def rival_turns(state: GameState) -> tuple[list[RivalTurn], list[str]]:
    """The rival turns the last action triggered, and every other line it logged."""
    turns: list[RivalTurn] = []
    other: list[str] = []
    skipped: list[str] = []
    current: RivalTurn | None = None
    translations = page_translations()
    for entry in state.last_entries:
        if is_ruling(entry.kind):
            continue  # shown apart, with a link to its explanation (ruling_notes)
        if entry.kind == "hagal_skip":
            skipped.append(sentence(entry, state, translations))
            continue
        if entry.kind == "rival_agent":
            card = state.catalog.hagal[str(entry.data["card"])]
            space = state.catalog.spaces[str(entry.data["space"])]
            current = RivalTurn(
                state.house(entry.house or ""), card.id, card.name, card.swords, space.name, skipped
            )
            skipped = []
            turns.append(current)
            continue
        if current is not None and entry.kind in RIVAL_TURN_KINDS:
            if entry.kind != "influence_choice":
                current.lines.append(sentence(entry, state, translations))
            continue
        current = None
        other.extend(skipped)
        skipped = []
        other.append(sentence(entry, state, translations))
    other.extend(skipped)
    return turns, other


def ruling_notes(state: GameState) -> tuple[tuple[str, str, str], ...]:
    """The rulings the last action applied: each sentence with its rules page (kind, id)."""
    translations = page_translations()
    return tuple(
        (sentence(entry, state, translations), *ruling_item(entry.kind, entry.data))
        for entry in state.last_entries
        if is_ruling(entry.kind)
    )


def board_lines(before: GameState, after: GameState) -> list[str]:
    """What to change on the physical board, in words: the table's changes, then one line
    per house with its changes ("Left Rival: take the Agent back from Wealth; ...")."""
    translations = page_translations()
    lines: list[str] = []
    per_house: dict[str, list[str]] = {}
    for change in board_changes(before, after):
        text = sentence(change, after, translations)
        if change.house is None:
            lines.append(text)
        else:
            per_house.setdefault(change.house, []).append(text)
    for house in after.houses:
        if house.id in per_house:
            changes = translated(
                joined(per_house[house.id], N_("%(first)s; %(second)s")), translations
            )
            lines.append(
                _("%(house)s: %(changes)s.", house=house_name(house.name), changes=changes)
            )
    return lines


def phase_name(phase: str) -> str:
    names = {
        "round_start": _("Round start"),
        "agents": _("Phase 2: Player turns"),
        "combat": _("Phase 3: Combat"),
        "makers": _("Phase 4: Makers"),
        "recall": _("Phase 5: Recall"),
    }
    return str(names.get(phase) or _("Game over"))


def banner(state: GameState) -> tuple[str, str, House | None]:
    """The banner's headline and detail, and the house that acts now (if any)."""
    if state.phase == "ended":
        return (
            _("The game is over."),
            _("Play Endgame Intrigue cards, then see the standings."),
            None,
        )
    if state.prompt is not None and state.prompt.kind == "round_end":
        return (
            _("End of Round %(n)s", n=state.round),
            _("Do the chores in order, then start Round %(n)s.", n=state.round + 1),
            None,
        )
    if state.prompt is not None:
        decider = state.house(state.prompt.decider)
        return (
            _("%(house)s, answer the question below.", house=house_name(decider.name)),
            "",
            decider,
        )
    if state.phase == "agents" and state.turn:
        house = state.house(state.turn)
        if house.is_human:
            return _agent_turn_banner(house, state.round)
    return _("Round %(round)s", round=state.round), "", None


def _agent_turn_banner(house: House, round_number: int) -> tuple[str, str, House]:
    if house.agents_left > 0:
        headline = _(
            "%(house)s: your turn, Round %(round)s.",
            house=house_name(house.name),
            round=round_number,
        )
        detail = ngettext(
            "Tap the space where you sent an Agent (%(n)s left), or take your Reveal turn.",
            "Tap the space where you sent an Agent (%(n)s left), or take your Reveal turn.",
            house.agents_left,
            n=house.agents_left,
        )
        return headline, detail, house
    return (
        _("%(house)s: take your Reveal turn.", house=house_name(house.name)),
        _("No Agent left this round."),
        house,
    )

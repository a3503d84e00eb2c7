"""The game engine: `new_game`, `apply`, `replay` and `legal_actions`.

`apply(state, action)` is pure. It copies the state into a mutable draft (`Draft`), applies
the action, then runs every automatic step (rival turns, phase changes) until the table
must answer or act again, and freezes the draft into a new `GameState`.

The rules live in rooms: `setup` (new games), `players` (a player's turns and answers),
`corrections` (what the table records by hand), `phases` (the round), `combat`,
`influence`, `hagal` (every rival behaviour) and `ix` (Rise of Ix). This module
dispatches actions and runs the task queue with their `HANDLERS`.

Rules are cited as: [RB p.N] base rulebook, [FAQ] Errata & FAQ 2022-02-14, and
[HAGAL §N] for shared/rules/HAGAL.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from companion.rules import combat, hagal, influence, ix, phases
from companion.rules.actions import (
    Acquire,
    Action,
    Adjust,
    Choose,
    CornerTheMarket,
    Dreadnought,
    Freighter,
    IllegalAction,
    PlaceAgent,
    Reveal,
    SetControl,
    SetTiebreak,
    Tech,
    Voice,
)
from companion.rules.catalog import Catalog
from companion.rules.combat import strengths
from companion.rules.corrections import (
    acquire,
    acquire_problem,
    adjust,
    adjust_problem,
    buyable,
    corner_asks_other,
    corner_problem,
    corner_the_market,
    may_buy,
    set_control,
    set_tiebreak,
)
from companion.rules.draft import Draft
from companion.rules.hagal import convert_rivals, hagal_cards
from companion.rules.i18n import N_, Message
from companion.rules.players import (
    answer,
    choose_problem,
    ix_icon,
    ix_problem,
    place_agent,
    reveal,
    space_problem,
    turn_problem,
    voice,
)
from companion.rules.setup import (
    DIFFICULTY,
    check_setup,
    conflict_deck,
    mentat_cost,
    starting_houses,
    swordmaster_round,
)
from companion.rules.state import UNKNOWN_TILE, GameState, Setup, Task, VpEntry

__all__ = [
    "DIFFICULTY",
    "action_problem",
    "action_problems",
    "apply",
    "buyers",
    "card_buyable",
    "corner_asks_other",
    "corner_players",
    "hagal_cards",
    "ix_icons",
    "legal_actions",
    "mentat_cost",
    "new_game",
    "replay",
    "space_problems",
    "strengths",
    "swordmaster_round",
]

# What each queued task does, by its kind.
HANDLERS: dict[str, Callable[[Draft, Task], None]] = {
    **phases.HANDLERS,
    **combat.HANDLERS,
    **influence.HANDLERS,
    **hagal.HANDLERS,
    **ix.HANDLERS,
}


# -- public API --------------------------------------------------------------------------


def new_game(setup: Setup, catalog: Catalog) -> GameState:
    """Set up a game [RB pp.4-5, p.19 Two-Player, p.20 Solo] and run to the first question."""
    check_setup(setup, catalog)
    houses, first = starting_houses(setup)
    state = GameState(
        catalog=catalog,
        setup=setup,
        houses=houses,
        first=first,
        bonus_spice={s.id: 0 for s in catalog.board(setup.sets).values() if s.maker},
    )
    draft = Draft(state)
    for house in houses:
        if house.vp:
            # The Score marker's starting space [RB p.4, G2]: the ledger accounts for it.
            draft.ledger.append(VpEntry(house.id, house.vp, "start", 0))
    draft.hagal_deck = hagal_cards(setup, catalog)
    if setup.options.physical_hagal:
        draft.hagal_deck.sort()
    else:
        draft.random().shuffle(draft.hagal_deck)
    draft.conflict_deck = conflict_deck(draft)
    draft.emit("setup", mode=setup.mode, difficulty=setup.difficulty, first=first)
    if setup.mode == "solo" and setup.options.epic:
        standard = setup.options.epic_rivals_standard
        draft.emit("ruling_epic_rivals_standard" if standard else "ruling_epic_rivals", None)
    if draft.ix:
        ix.setup_tech(draft)
    draft.queue.append(Task("start_round"))
    _run(draft)
    return draft.freeze()


def apply(state: GameState, action: Action) -> GameState:
    """Apply one action and every automatic step after it; raise IllegalAction if not allowed."""
    draft = Draft(state)
    _apply(draft, action)
    return draft.freeze()


def replay(state: GameState, actions: Iterable[Action]) -> GameState:
    """Apply a whole log in one draft (the fast path for loading a game)."""
    draft = Draft(state)
    for action in actions:
        _apply(draft, action)
    return draft.freeze()


def legal_actions(state: GameState) -> list[Action]:
    """The actions the table may take now, each one `apply` accepts: the answers to the
    question on screen; else the acting player's Agent placements and Reveal turn, then
    every player's Rise of Ix icons (Freighter, dreadnoughts, a Negotiator, buying a
    face-up Tech tile, trashing an owned one) [IX pp.4-6].

    Not listed, as they carry what only the table knows (a count, the card bought):
    corrections, tie-breaks, bought cards (who may buy: `buyers`) and Corner the Market
    (who may play it: `corner_players`); `action_problem` says why any action is refused.
    """
    p = state.prompt
    if p is not None:
        if p.number:
            return [Choose(str(v)) for v in range(p.minimum, p.maximum + 1)]
        return [Choose(o) for o in p.options]
    draft = Draft(state)
    out: list[Action] = []
    if state.phase == "agents" and state.turn is not None:
        house = state.house(state.turn)
        if house.is_human:
            out.extend(
                PlaceAgent(house.id, sid)
                for sid in draft.board()
                if space_problem(draft, house.id, sid) is None
            )
            out.append(Reveal(house.id))
    if state.ix:
        for human in state.humans:
            out.extend(a for a in ix_icons(state, human.id) if ix_problem(draft, a) is None)
    return out


def ix_icons(state: GameState, house_id: str) -> list[Freighter | Dreadnought | Tech]:
    """Every Rise of Ix icon a player might use now, allowed or not [IX pp.4-6]: ask
    `action_problem` which are allowed."""
    house = state.house(house_id)
    return [
        Freighter(house_id, "advance"),
        Freighter(house_id, "recall"),
        Dreadnought(house_id, "commission"),
        Dreadnought(house_id, "deploy"),
        Tech(house_id, "negotiator"),
        *(Tech(house_id, "acquire", s[0]) for s in state.tech_stacks if s and s[0] != UNKNOWN_TILE),
        *(Tech(house_id, "trash", t) for t in house.tech),
    ]


def action_problem(state: GameState, action: Action) -> str | None:
    """Why `apply` would refuse this action now, in words for the players (a translatable
    Message), or None when it is allowed. For the screens' greyed buttons: a placement,
    a Reveal, an answer, a Rise of Ix icon, a bought card, Corner the Market or a
    correction. (A correction or purchase that would take a house below 0 VP is refused
    only when applied.)"""
    return action_problems(state, [action])[0]


def action_problems(state: GameState, actions: Sequence[Action]) -> list[str | None]:
    """`action_problem` for each action, with one copy of the state (a screen asks about
    all its buttons at once)."""
    draft = Draft(state)
    return [_problem(draft, action) for action in actions]


def _problem(draft: Draft, action: Action) -> str | None:
    match action:
        case PlaceAgent(house=house, space=space, infiltrate=infiltrate):
            return turn_problem(draft, house) or space_problem(draft, house, space, infiltrate)
        case Reveal(house=house):
            return turn_problem(draft, house)
        case Choose(option=option):
            return choose_problem(draft, option)
        case Freighter() | Dreadnought() | Tech():
            return ix_problem(draft, action)
        case Acquire():
            return acquire_problem(draft, action)
        case CornerTheMarket():
            return corner_problem(draft, action)
        case Adjust():
            return adjust_problem(draft, action)
    try:  # the others are checked as they apply: try it on a copy of the draft
        _apply(Draft(draft.freeze()), action)
    except IllegalAction as refused:
        return Message(refused.message, **refused.values)
    return None


def space_problems(
    state: GameState, house_id: str, infiltrate: bool = False
) -> dict[str, str | None]:
    """For each board space: why `house_id` can't send an Agent there now (with
    Infiltration if `infiltrate`), or None."""
    draft = Draft(state)
    return {sid: space_problem(draft, house_id, sid, infiltrate) for sid in draft.board()}


def buyers(state: GameState) -> tuple[str, ...]:
    """The houses that may record a bought card now: the players (Rivals' cards are not
    tracked). Which card and copy: `action_problem` of the Acquire."""
    draft = Draft(state)
    return tuple(h.id for h in state.houses if may_buy(draft, h.id))


def card_buyable(state: GameState, card_id: str) -> bool:
    """Whether players buy this card in this game (an Imperium Row or Reserve card of its
    sets)."""
    return buyable(Draft(state), card_id)


def corner_players(state: GameState) -> tuple[str, ...]:
    """The players who may play Corner the Market now: at the end, until it is played
    [RB p.12, p.20]."""
    draft = Draft(state)
    return tuple(
        h.id for h in state.humans if corner_problem(draft, CornerTheMarket(h.id, 0)) is None
    )


# -- action handling ---------------------------------------------------------------------


def _apply(draft: Draft, action: Action) -> None:
    """Check and apply one action, then run the queue until the table must act."""
    draft.step += 1
    match action:
        case Choose(option=option):
            answer(draft, option)
        case PlaceAgent(house=house, space=space, infiltrate=infiltrate):
            place_agent(draft, house, space, infiltrate)
        case Reveal(house=house):
            reveal(draft, house)
        case Voice(house=house, space=space):
            voice(draft, house, space)
        case Adjust():
            adjust(draft, action)
        case SetControl(space=space, house=house):
            set_control(draft, space, house)
        case SetTiebreak():
            set_tiebreak(draft, action)
        case CornerTheMarket():
            corner_the_market(draft, action)
        case Acquire():
            acquire(draft, action)
        case Freighter() | Dreadnought() | Tech():
            ix_icon(draft, action)
        case _:
            raise IllegalAction(N_("Unknown action."))
    _run(draft)


# -- the automatic part ------------------------------------------------------------------


def _run(draft: Draft) -> None:
    """Process queued tasks until the queue is empty or the table must answer.

    Solo rivals spend resources for VP "at any time" [RB p.20]: after the action itself
    (a correction may give them resources) and after every task.
    """
    convert_rivals(draft)
    while draft.prompt is None and draft.queue:
        task = draft.queue.pop(0)
        HANDLERS[task.kind](draft, task)
        convert_rivals(draft)

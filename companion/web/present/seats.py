"""A screen that is one player's (web/seats.py): a phone at a table of two to four players
shows the board to tap and the questions on its player's turns, and on the others' turns
whom the game waits for (issue 26: "on that player's own turn the board to tap")."""

from __future__ import annotations

from companion.rules.state import GameState, House
from companion.web.language import gettext as _
from companion.web.language import house_name

# The questions the whole table answers, whichever player the engine names: which Conflict
# card and which Tech tile the table turned up, and the End of Round chores.
TABLE_QUESTIONS = frozenset({"conflict_card", "tech_tile", "round_end"})


def seats(state: GameState) -> tuple[House, ...]:
    """The players a screen can belong to: every human at a table of two or more (a solo
    game has one screen)."""
    humans = state.humans
    return humans if len(humans) > 1 else ()


def waiting_for(state: GameState, seat: str | None) -> House | None:
    """The player the game waits for when this screen is another player's (`seat`); None
    when this screen answers now, or nothing waits on one player."""
    if seat is None or state.phase == "ended":
        return None
    if state.prompt is not None:
        if state.prompt.kind in TABLE_QUESTIONS:
            return None
        who = state.prompt.decider
    elif state.phase == "agents" and state.turn:
        who = state.turn
    else:
        return None
    house = state.house(who)
    return house if house.is_human and who != seat else None


def waiting_lines(state: GameState, other: House, seat: House, question: str) -> tuple[str, ...]:
    """What a screen that is `seat`'s says while the game waits for `other`: on a question,
    the question itself (`question`) after who answers it."""
    if state.prompt is not None:
        return (_("Waiting for %(house)s's answer.", house=house_name(other.name)), question)
    return (
        _("Waiting for %(house)s's turn.", house=house_name(other.name)),
        _(
            "This screen is %(seat)s's: it shows the board to tap on %(seat)s's turn.",
            seat=house_name(seat.name),
        ),
    )

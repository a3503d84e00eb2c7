"""Which regions of the table screen a tap changed, so that its answer swaps in only those
(issue 26's tap budget): each region's frozen views, compared before and after."""

from __future__ import annotations

from dataclasses import dataclass

from companion.web.present.views import Page

# The regions a tap's answer may leave in place, by the name games/table.html's block
# `changed` knows them by. The banner (which carries the version), the question and
# "what now" come with every answer: they also show what the last answer said (a refusal,
# Undo's list of changes), which no state tells.
REGIONS = ("board", "drawers", "conflict", "round_end")


@dataclass(frozen=True)
class Shown:
    """What each region that a tap may leave in place shows, as frozen views: equal views
    draw the same HTML (the game's version aside, which every form posts from the banner:
    static/app.js)."""

    board: object
    drawers: object
    conflict: object
    round_end: object
    # Which regions are there at all: a region that comes or goes takes the whole area.
    kinds: tuple[bool, ...]


def shown(p: Page) -> Shown:
    ended = p.state.phase == "ended"
    return Shown(
        board=(p.board, p.state.turn, p.board_problem),
        drawers=(p.tech, p.rivals, p.purchases),
        conflict=p.conflict,
        round_end=p.round_end,
        kinds=(ended, p.conflict is not None, p.round_end is not None),
    )


def changed(before: Shown, after: Shown) -> frozenset[str] | None:
    """The regions that show something else after than before; None when a region came or
    went (the game ended, a Conflict card or the End of Round card appeared) or the game
    is over (its entries take the board's room): then the whole game area."""
    if before.kinds != after.kinds or after.kinds[0]:
        return None
    return frozenset(r for r in REGIONS if getattr(before, r) != getattr(after, r))

"""The end's standings in words: the winner, then how each tie on VP was broken."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from companion.rules.scoring import TIEBREAKS, Standing, deciding_count
from companion.rules.state import GameState
from companion.web.language import gettext as _
from companion.web.language import house_name
from companion.web.language import lazy_word as _l
from companion.web.present.words import together

TIEBREAK_NAMES = {
    "spice": _l("spice"),
    "solari": _l("Solari"),
    "water": _l("water"),
    "garrison": _l("garrisoned troops"),
}


def standings_lines(state: GameState, standings: Sequence[Standing]) -> list[str]:
    """The winner first ("Left Rival wins with 11 VP"), then how each VP tie was broken
    [RB p.12 Endgame: spice, then Solari, water and garrisoned troops]."""
    if not standings:
        return []
    top = [s for s in standings if s.rank == 1]
    names = together([house_name(s.name) for s in top])
    if any(s.needs_tiebreak for s in top):
        lines = [
            str(
                _(
                    "%(names)s tie with %(vp)d VP: enter their tie-breaker counts to break "
                    "the tie.",
                    names=names,
                    vp=top[0].vp,
                )
            )
        ]
    elif len(top) > 1:
        lines = [
            str(
                _(
                    "%(names)s share the victory with %(vp)d VP: tied on every tie-breaker.",
                    names=names,
                    vp=top[0].vp,
                )
            )
        ]
    else:
        lines = [
            str(_("%(name)s wins with %(vp)d VP.", name=house_name(top[0].name), vp=top[0].vp))
        ]
    for ahead, behind in pairwise(standings):
        if ahead.vp == behind.vp and ahead.rank < behind.rank:
            lines.append(_tie_line(state, ahead, behind))
    return lines


def _tie_line(state: GameState, ahead: Standing, behind: Standing) -> str:
    """How one tie on VP was broken."""
    index = deciding_count(ahead, behind)
    if index is None or ahead.tiebreak is None or behind.tiebreak is None:
        return str(
            _(
                "%(ahead)s is ahead of %(behind)s on equal VP: Chaumurky wins ties.",
                ahead=house_name(ahead.name),
                behind=house_name(behind.name),
            )
        )
    return str(
        _(
            "%(ahead)s is ahead of %(behind)s on equal VP by %(count)s: %(mine)d to %(theirs)d.",
            ahead=house_name(ahead.name),
            behind=house_name(behind.name),
            count=TIEBREAK_NAMES[TIEBREAKS[index]],
            mine=ahead.tiebreak[index],
            theirs=behind.tiebreak[index],
        )
    )

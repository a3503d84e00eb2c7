"""Final standings [RB p.12 Endgame]: most VP wins; ties go to spice, Solari, water, then
garrisoned troops. Rivals' counts are known; humans enter theirs at the end."""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.state import GameState, House


@dataclass(frozen=True, slots=True)
class Standing:
    """One house's place in the final ranking."""

    house: str
    name: str
    vp: int
    rank: int
    tiebreak: tuple[int, int, int, int] | None
    # True while this house ties on VP and its tie-break counts are still unknown.
    needs_tiebreak: bool


def tiebreak_key(house: House) -> tuple[int, int, int, int] | None:
    """Spice, Solari, water, garrison: known for rivals, entered by humans."""
    if house.is_human:
        return house.tiebreak
    return (house.spice, house.solari, house.water, house.garrison)


TIEBREAKS = ("spice", "solari", "water", "garrison")  # the order of RB p.12 Endgame


def deciding_count(ahead: Standing, behind: Standing) -> int | None:
    """Which tie-break (an index into TIEBREAKS) put `ahead` before `behind` on equal VP
    [RB p.12 Endgame], or None if none did (a Chaumurky owner, or a tie still open)."""
    if ahead.tiebreak is None or behind.tiebreak is None:
        return None
    for index, (mine, theirs) in enumerate(zip(ahead.tiebreak, behind.tiebreak, strict=True)):
        if mine != theirs:
            return index
    return None


def final_ranking(state: GameState) -> list[Standing]:
    """Standings of the houses that score (House Hagal never does, p.19), best first.

    Houses share a rank when VP and every tie-break are equal, or while a human's
    tie-break counts are missing. The owner of Chaumurky (Rise of Ix Tech tile: "Endgame:
    you win ties") is placed first among the houses it ties with on VP.
    """
    houses = sorted(state.scoring, key=lambda h: (-h.vp, not h.owns("chaumurky")))
    out: list[Standing] = []
    rank = 1
    i = 0
    while i < len(houses):
        group = [h for h in houses[i:] if h.vp == houses[i].vp]
        if len(group) > 1 and group[0].owns("chaumurky"):
            group = group[:1]
        keys = {h.id: tiebreak_key(h) for h in group}
        missing = len(group) > 1 and any(k is None for k in keys.values())
        if missing:
            for h in group:
                out.append(Standing(h.id, h.name, h.vp, rank, keys[h.id], keys[h.id] is None))
        else:
            ordered = sorted(group, key=lambda h: tuple(-v for v in keys[h.id] or ()))
            sub = rank
            for j, h in enumerate(ordered):
                if j and keys[h.id] != keys[ordered[j - 1].id]:
                    sub = rank + j
                out.append(Standing(h.id, h.name, h.vp, sub, keys[h.id], False))
        rank += len(group)
        i += len(group)
    return out

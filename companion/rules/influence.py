"""Influence, Alliances and Control bonuses [RB p.7, p.9; FAQ Alliance]."""

from __future__ import annotations

from companion.rules import hagal
from companion.rules.draft import Draft
from companion.rules.state import (
    FACTION_INDEX,
    MAX_INFLUENCE,
    Task,
)


def _gain_influence(draft: Draft, task: Task) -> None:
    """Gain Influence on one Faction track, up to the top [RB p.7]."""
    house = draft.house(task.house)
    new = min(MAX_INFLUENCE, house.inf(task.faction) + task.amount)
    set_influence(draft, task.house, task.faction, new)


def _choose_influence(draft: Draft, task: Task) -> None:
    """Gain task.amount Influence in a chosen Faction; repeat for task.picks different Factions."""
    options = task.options
    answer = task.answer
    if answer is None:
        house = draft.house(task.house)
        if house.is_human:
            draft.ask("influence", task.house, task, options)
            return
        answer = hagal.influence_choice(draft, task, options)
        if answer is None:
            return
    house = draft.house(task.house)
    draft.emit("influence_choice", task.house, faction=answer, amount=task.amount)
    set_influence(draft, task.house, answer, min(MAX_INFLUENCE, house.inf(answer) + task.amount))
    if task.picks > 1:
        rest = tuple(o for o in options if o != answer)
        draft.queue.insert(
            0,
            Task(
                "choose_influence",
                task.house,
                amount=task.amount,
                picks=task.picks - 1,
                options=rest,
            ),
        )


def _choose_alliance_taker(draft: Draft, task: Task) -> None:
    """Several tied players could take a dropped Alliance: the loser chooses [FAQ Alliance]."""
    answer = task.answer
    if answer is None:
        draft.ask("alliance", task.house, task, task.options)
        return
    _move_alliance(draft, task.faction, answer)


def set_influence(draft: Draft, hid: str, faction: str, new: int) -> None:
    """Move a cube: VP at 2, the 4-Influence bonus (humans only), Alliances [RB p.7; FAQ]."""
    house = draft.house(hid)
    i = FACTION_INDEX[faction]
    old = house.influence[i]
    if new == old:
        return
    influence = list(house.influence)
    influence[i] = new
    draft.put(hid, influence=tuple(influence))
    draft.emit("influence", hid, faction=faction, old=old, new=new)
    # Solo rivals score the 2-Influence and Alliance VP [FAQ Solo Play]; Hagal none.
    if old < 2 <= new:
        draft.gain_vp(hid, 1, "influence", faction)
    elif new < 2 <= old:
        draft.gain_vp(hid, -1, "influence", faction)
    if house.is_human and old < 4 <= new:
        draft.emit("influence_bonus", hid, faction=faction)  # rivals never get it [FAQ]
    holder = draft.alliances.get(faction)
    if new > old:
        # The first to 4 takes the Alliance; a higher opponent takes it over [RB p.7].
        takes = (
            new >= 4 if holder is None else holder != hid and new > draft.house(holder).inf(faction)
        )
        if takes:
            _move_alliance(draft, faction, hid)
    elif holder == hid:
        # [FAQ Alliance] A dropping holder loses the token only if it was tied with
        # another player (who takes it) or falls to 3 or lower (the best player at 4+
        # takes it, else it returns to the board); ties between takers are chosen.
        others = [h for h in draft.houses.values() if h.id != hid]
        takers = [h.id for h in others if h.inf(faction) == old]
        if not takers and new <= 3:
            top = max((h.inf(faction) for h in others), default=0)
            takers = [h.id for h in others if h.inf(faction) == top and top >= 4]
        if len(takers) == 1:
            _move_alliance(draft, faction, takers[0])
        elif takers:
            draft.queue.insert(0, Task("alliance", hid, faction=faction, options=tuple(takers)))
        elif new <= 3:
            _move_alliance(draft, faction, None)


def _move_alliance(draft: Draft, faction: str, to: str | None) -> None:
    """The Alliance token of a Faction changes hands, with its VP [RB p.7]."""
    holder = draft.alliances.get(faction)
    if holder is not None:
        draft.gain_vp(holder, -1, "alliance", faction)
        del draft.alliances[faction]
    if to is not None:
        draft.alliances[faction] = to
        draft.gain_vp(to, 1, "alliance", faction)
    draft.emit("alliance", to, faction=faction, previous=holder)


def _give_control_bonus(draft: Draft, task: Task) -> None:
    """The controller gets the bonus whenever anyone sends an Agent there [RB p.9, p.20]."""
    holder = draft.controller(task.space)  # a dreadnought on the flag takes the bonus [IX p.6]
    bonus = draft.board()[task.space].control_bonus
    if holder is None or bonus is None or not draft.scores(holder):
        return
    if not draft.house(holder).is_human:
        draft.put(
            holder,
            solari=draft.house(holder).solari + bonus.solari,
            spice=draft.house(holder).spice + bonus.spice,
        )
    draft.emit(
        "control_bonus",
        holder,
        space=task.space,
        visitor=task.house,
        solari=bonus.solari,
        spice=bonus.spice,
    )


HANDLERS = {
    "influence": _gain_influence,
    "choose_influence": _choose_influence,
    "alliance": _choose_alliance_taker,
    "control_bonus": _give_control_bonus,
}

"""House Hagal: how rivals choose and resolve their cards. All rival behaviour lives here.

Sources: [RB p.19-20] base rulebook, [FAQ] Errata & FAQ 2022-02-14, [HAGAL §N] the team's
rulings in shared/rules/HAGAL.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.rules.catalog import FACTIONS, HagalCardDef, SpaceDef
from companion.rules.state import MAX_INFLUENCE, House, Task

if TYPE_CHECKING:
    from companion.rules.engine import Draft

# The exchange table [RB p.20, HAGAL §1], in the order the Spice Flow mod checks it.
EXCHANGES = (("intrigue", 3), ("spice", 7), ("water", 3), ("solari", 7))
SIGNETS = (
    "none",
    "leto_diplomacy",
    "baron_scheme",
    "rabban_brutality",
    "gain_solari",
    "gain_spice",
    "gain_water",
)


def reshuffle(w: Draft) -> None:
    """Shuffle every House Hagal card into a new deck [RB p.19]."""
    w.hagal_deck.extend(w.hagal_discard)
    w.hagal_discard.clear()
    if w.setup.options.physical_hagal:
        w.hagal_deck.sort()
    else:
        w.random().shuffle(w.hagal_deck)
    w.emit("hagal_reshuffle", None, cards=len(w.hagal_deck))


def blocked(w: Draft, house_id: str, space_id: str) -> bool:
    """A space with an Agent, or marked by an opponent's Voice, stops a rival [HAGAL §2]."""
    if space_id in w.occupants:
        return True
    owner = w.voice.get(space_id)
    return owner is not None and owner != house_id


def harvest_target(w: Draft, house_id: str) -> str | None:
    """Harvest Spice target: among free Maker spaces the most bonus spice, ties to the most
    total spice; none with bonus spice means the card fails [HAGAL §2.6, medium confidence]."""
    best: tuple[int, int, str] | None = None
    for space in w.board().values():
        if not space.maker or blocked(w, house_id, space.id):
            continue
        bonus = w.bonus_spice.get(space.id, 0)
        if bonus <= 0:
            continue
        key = (bonus, space.base_spice, space.id)
        if best is None or key > best:
            best = key
    return best[2] if best else None


def target(w: Draft, house_id: str, card: HagalCardDef) -> tuple[str | None, str]:
    """The space a revealed card sends the rival to, or None and the reason to skip it."""
    if card.harvest:
        space = harvest_target(w, house_id)
        return (space, "") if space else (None, "no_bonus_spice")
    if card.space is None or card.space not in w.board():
        return None, "not_on_board"
    if blocked(w, house_id, card.space):
        return None, "occupied"
    return card.space, ""


def card_tasks(w: Draft, house_id: str, card: HagalCardDef, space: SpaceDef) -> list[Task]:
    """The effects of a placed card, in order [RB p.19]: the rival ignores the space's own
    costs and effects and gets the card's effects only."""
    tasks: list[Task] = []
    if card.influence is not None:
        tasks.append(Task("influence", house_id, card.influence, 1))
    if card.troops:
        tasks.append(Task("recruit", house_id, "", card.troops))
    if card.signet and w.solo:  # Signet icons do nothing in two-player [HAGAL §4]
        tasks.append(Task("signet", house_id))
    if card.harvest:
        tasks.append(Task("harvest", house_id, space.id))
    if space.combat:
        # Any Agent on a Combat space deploys this turn's recruits and up to 2 garrison
        # troops, even if the card recruited none [RB p.19; FAQ troops].
        tasks.append(Task("deploy", house_id, "", 2))
    if space.control_bonus is not None:
        tasks.append(Task("control_bonus", house_id, space.id))
    return tasks


def least_influence(house: House, options: Sequence[str]) -> list[str]:
    """The Factions among `options` where the rival has the least Influence [RB p.20]."""
    values = {f: house.inf(f) for f in options}
    low = min(values.values())
    return [f for f in options if values[f] == low]


def signet(w: Draft, house_id: str) -> None:
    """A solo Rival uses its leader's Signet ability if it has the resources [RB p.20, HAGAL §7]."""
    house = w.h(house_id)
    kind = w.cat.leaders[house.leader].rival_signet
    if kind == "gain_solari":
        w.put(house_id, solari=house.solari + 1)
    elif kind == "gain_spice":
        w.put(house_id, spice=house.spice + 1)
    elif kind == "gain_water":
        w.put(house_id, water=house.water + 1)
    elif kind == "baron_scheme":
        if house.solari < 1:
            w.emit("signet", house_id, leader=house.leader, done=False)
            return
        w.put(house_id, solari=house.solari - 1, intrigue=house.intrigue + 1)
    elif kind == "rabban_brutality":
        troops = 2 if any(holder == house_id for holder in w.alliances.values()) else 1
        w.queue.insert(0, Task("recruit", house_id, "", troops))
    elif kind == "leto_diplomacy":
        # Pay 1 spice: +1 Influence where an opponent has more, choosing the least.
        others = [h for h in w.houses.values() if h.id != house_id]
        eligible = tuple(
            f
            for f in FACTIONS
            if house.inf(f) < MAX_INFLUENCE and any(o.inf(f) > house.inf(f) for o in others)
        )
        if house.spice < 1 or not eligible:
            w.emit("signet", house_id, leader=house.leader, done=False)
            return
        w.put(house_id, spice=house.spice - 1)
        w.queue.insert(0, Task("choose_influence", house_id, "1", 1, eligible))
    w.emit("signet", house_id, leader=house.leader, done=True)


def convert(w: Draft, house_id: str) -> None:
    """Spend resources for VP whenever a solo Rival can [RB p.20 Spending Resources]."""
    house = w.h(house_id)
    if house.kind != "rival":
        return
    for resource, price in EXCHANGES:
        have = getattr(house, resource)
        if have < price:
            continue
        if resource == "spice" and "ix" in w.setup.sets and w.conflict_level != 3:
            continue  # with Rise of Ix, spice waits for a Conflict III [HAGAL §1]
        times = have // price
        house = w.put(house_id, **{resource: have - times * price})
        for _ in range(times):
            w.gain_vp(house_id, 1, "exchange", resource)
        w.emit("exchange", house_id, resource=resource, paid=times * price, vp=times)


def expert(w: Draft) -> bool:
    """Expert troop deployment applies at Mentat and Kwisatz Haderach [RB p.20]."""
    return w.solo and w.setup.difficulty in ("mentat", "kwisatz")

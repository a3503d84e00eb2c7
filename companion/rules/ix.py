"""Rise of Ix: the Shipping Track, dreadnoughts, Tech tiles and Negotiators.

The mechanics here are the same for every house; what a Rival chooses (where its Freighter
goes, which tile it buys, where its dreadnought takes control) is in `hagal`. The engine
registers `HANDLERS` next to its own task handlers.

Sources: [IX p.N] Rise of Ix rulebook (EN, 2022-02-11), [FAQ] Errata & FAQ 2022-02-14,
[HAGAL §N] shared/rules/HAGAL.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.rules import hagal
from companion.rules.catalog import FACTIONS, Offer
from companion.rules.state import TRACK_TOP, UNKNOWN_TILE, Posted, Task

if TYPE_CHECKING:
    from companion.rules.engine import Draft

STACKS = 3  # three stacks of six face-down tiles, the top one face up [IX p.3]
SKIP = "skip"
NONE = "none"


# -- Tech tiles ----------------------------------------------------------------------------


def setup_tech(w: Draft) -> None:
    """Deal the Tech tiles into three stacks and turn the top ones face up [IX p.3]."""
    tiles = sorted(t.id for t in w.cat.tech.values() if t.set in w.setup.sets)
    size = len(tiles) // STACKS
    if w.setup.options.physical_tech:
        w.tech_stacks = [[UNKNOWN_TILE] * size for _ in range(STACKS)]
    else:
        w.random().shuffle(tiles)
        w.tech_stacks = [tiles[i * size : (i + 1) * size] for i in range(STACKS)]
    w.queue.extend(Task("tech_reveal", "", str(k)) for k in range(STACKS))
    if w.solo:
        w.queue.append(Task("tech_marked"))


def face_up(w: Draft) -> list[tuple[int, str]]:
    """The tile on top of each non-empty stack, with its stack's index (topmost first)."""
    return [(k, stack[0]) for k, stack in enumerate(w.tech_stacks) if stack]


def unseen(w: Draft) -> list[str]:
    """Tiles the table may turn up: in no known place yet (physical tiles)."""
    seen = {t for stack in w.tech_stacks for t in stack} | set(w.tech_trash)
    for house in w.houses.values():
        seen.update(house.tech)
    return sorted(t.id for t in w.cat.tech.values() if t.set in w.setup.sets and t.id not in seen)


def _t_tech_reveal(w: Draft, t: Task) -> None:
    """Turn the next tile of a stack face up; with physical tiles the table says which."""
    stack = w.tech_stacks[int(t.ref)]
    if not stack:
        return
    if stack[0] == UNKNOWN_TILE:
        answer = t.answer
        if answer is None:
            w.ask("tech_tile", w.humans()[0], t, unseen(w))
            return
        stack[0] = answer
    w.emit("tech_up", None, tile=stack[0], stack=int(t.ref) + 1)


def _t_tech_marked(w: Draft, t: Task) -> None:
    """No face-up tile with the House Hagal mark: trash the top tile of the largest stack
    (ties: the topmost) and reveal the next, until one shows [IX p.9]. Solo only."""
    tops = face_up(w)
    if not tops or any(w.cat.tech[tile].hagal_ok for _, tile in tops):
        return
    k = max(range(len(w.tech_stacks)), key=lambda i: (len(w.tech_stacks[i]), -i))
    tile = w.tech_stacks[k].pop(0)
    w.tech_trash.append(tile)
    w.emit("tech_trash_unmarked", None, tile=tile, stack=k + 1)
    w.queue[0:0] = [Task("tech_reveal", "", str(k)), Task("tech_marked")]


def take_tile(w: Draft, house_id: str, k: int) -> None:
    """A house takes the face-up tile of stack k; the next one turns up [IX p.4]."""
    tile = w.tech_stacks[k].pop(0)
    house = w.h(house_id)
    w.put(house_id, tech=(*house.tech, tile))
    w.emit("tech", house_id, tile=tile, stack=k + 1)
    tasks = [Task("tech_reward", house_id, tile)]
    if not house.is_human and tile == "training_drones":
        tasks.append(Task("training_drones", house_id))  # flips at once [IX p.9]
    tasks.append(Task("tech_reveal", "", str(k)))
    if w.solo:
        tasks.append(Task("tech_marked"))
    w.queue[0:0] = tasks


def _t_acquire_tech(w: Draft, t: Task) -> None:
    """Acquire Tech with a discount of t.n spice [IX p.4]. A Rival buys the most expensive
    marked tile it can afford, helped by its Negotiators; with ref "negotiate" it places a
    Negotiator instead when it can't [IX p.9]. A player picks the tile they bought."""
    house = w.h(t.house)
    if not house.is_human:
        if not w.solo:
            return  # House Hagal ignores Tech tiles completely [IX p.9]
        pick = hagal.tech_choice(w, t.house, t.n)
        if pick is not None:
            k, used, pay = pick
            w.put(t.house, spice=house.spice - pay, negotiators=house.negotiators - used)
            w.emit("tech_paid", t.house, spice=pay, negotiators=used, discount=t.n)
            take_tile(w, t.house, k)
        elif t.ref == "negotiate":
            _negotiator(w, t.house)
        else:
            w.emit("tech_none", t.house)
        return
    answer = t.answer
    if answer is None:
        options = [tile for _, tile in face_up(w) if tile != UNKNOWN_TILE]
        w.ask("tech", t.house, t, [*options, NONE])
        return
    if answer == NONE:
        return
    player_takes(w, t.house, next(k for k, tile in face_up(w) if tile == answer))


def player_takes(w: Draft, house_id: str, k: int) -> None:
    """A player takes the face-up tile of stack k, first saying how many Negotiators they
    returned to lower its price [IX p.4]."""
    if w.h(house_id).negotiators:
        w.queue.insert(0, Task("negotiators_back", house_id))
    take_tile(w, house_id, k)


def _t_negotiators_back(w: Draft, t: Task) -> None:
    """A player may return Negotiators to cut the price, 1 spice each [IX p.4]."""
    answer = t.answer
    house = w.h(t.house)
    if answer is None:
        w.ask("negotiators_back", t.house, t, minimum=0, maximum=house.negotiators, default=0)
        return
    if int(answer):
        w.put(t.house, negotiators=house.negotiators - int(answer))
        w.emit("negotiators_back", t.house, count=int(answer))


def _negotiator(w: Draft, house_id: str) -> None:
    """Place a troop from supply on Ix as a Negotiator; none in supply, nothing [IX p.4]."""
    house = w.h(house_id)
    if house.supply <= 0:
        w.emit("tech_none", house_id)
        return
    w.put(house_id, negotiators=house.negotiators + 1)
    w.emit("negotiator", house_id, count=house.negotiators + 1)


def _t_negotiator(w: Draft, t: Task) -> None:
    _negotiator(w, t.house)


def _t_tech_negotiation(w: Draft, t: Task) -> None:
    """The Tech Negotiation space: Acquire Tech at 1 spice off, or a Negotiator [IX p.4]."""
    answer = t.answer
    if answer is None:
        w.ask("tech_negotiation", t.house, t, ["tech", "negotiator", SKIP])
        return
    if answer == "tech":
        w.queue.insert(0, Task("acquire_tech", t.house, "", 1))
    elif answer == "negotiator":
        _negotiator(w, t.house)


def _t_training_drones(w: Draft, t: Task) -> None:
    """A Rival flips Training Drones at its first chance each round: 1 troop [IX p.9]."""
    house = w.h(t.house)
    if not house.ready("training_drones"):
        return
    w.put(t.house, flipped=(*house.flipped, "training_drones"))
    w.emit("tech_flip", t.house, tile="training_drones")
    w.queue.insert(0, Task("recruit", t.house, "", 1))


def _t_flagship(w: Draft, t: Task) -> None:
    """On a Combat space, with 4 Solari and 3 troops in supply, a Rival pays and flips the
    Flagship to recruit and deploy 3 troops [IX p.9]."""
    house = w.h(t.house)
    if not house.ready("flagship") or house.solari < 4 or house.supply < 3:
        return
    w.put(t.house, solari=house.solari - 4, flipped=(*house.flipped, "flagship"))
    w.emit("tech_flip", t.house, tile="flagship")
    w.queue.insert(0, Task("recruit", t.house, "", 3))


# -- the Shipping Track ----------------------------------------------------------------------


def _t_freighter(w: Draft, t: Task) -> None:
    """One Freighter icon: advance one step or recall [IX p.5]. A Rival advances to the
    second step, then recalls [IX p.8]; a player chooses, and may let the icon go."""
    house = w.h(t.house)
    if house.is_human:
        answer = t.answer
        if answer is None:
            options = []
            if house.freighter < TRACK_TOP:
                options.append("advance")
            if house.freighter > 0:
                options.append("recall")
            w.ask("freighter", t.house, t, [*options, SKIP])
            return
        if answer == SKIP:
            return
        move = answer
    else:
        move = hagal.freighter_move(house)
    if move == "advance":
        advance(w, t.house)
    else:
        recall(w, t.house)


def advance(w: Draft, house_id: str) -> None:
    """The Freighter goes up one step of the Shipping track [IX p.5]."""
    step = w.h(house_id).freighter + 1
    w.put(house_id, freighter=step)
    w.emit("freighter", house_id, step=step)


def recall(w: Draft, house_id: str) -> None:
    """Recall the Freighter: the rewards of its step and every step below [IX p.5]."""
    house = w.h(house_id)
    step = house.freighter
    w.put(house_id, freighter=0)
    w.emit("freighter_recall", house_id, step=step)
    tasks: list[Task] = []
    if step >= 1:
        tasks.append(Task("shipping_first", house_id))
    if step >= 2:
        tasks.append(Task("ship_troops", house_id, "", 2))
        tasks.append(Task("choose_influence", house_id, "1", 1, FACTIONS))
    if step >= 3:
        tasks.append(Task("acquire_tech", house_id, "", 2))
    w.queue[0:0] = tasks


def _t_shipping_first(w: Draft, t: Task) -> None:
    """The first step: Dividends or 2 spice; a Rival always takes Dividends [IX pp.5, 8]."""
    house = w.h(t.house)
    if not house.is_human:
        dividends(w, t.house)
        return
    answer = t.answer
    if answer is None:
        w.ask("shipping_first", t.house, t, ["dividends", "spice"])
        return
    if answer == "dividends":
        dividends(w, t.house)
    else:
        w.emit("take", t.house, spice=2)


def dividends(w: Draft, house_id: str) -> None:
    """5 Solari to the taker (a solo Rival too), 1 Solari to every other house; House Hagal
    keeps no resources [IX pp.5, 8; RB p.19]. Players take theirs from the bank."""
    house = w.h(house_id)
    if house.kind == "rival":
        w.put(house_id, solari=house.solari + 5)
    for other in w.houses.values():
        if other.id != house_id and other.kind == "rival":
            w.put(other.id, solari=other.solari + 1)
    w.emit("dividends", house_id)


def _t_ship_troops(w: Draft, t: Task) -> None:
    """The second step's two troops. A Rival with Troop Transports deploys them all,
    unless Expert deployment is in use [IX p.9]."""
    house = w.h(t.house)
    if house.is_human:
        w.emit("take", t.house, troops=t.n)
        return
    if house.owns("troop_transports") and not hagal.expert(w):
        n = min(t.n, house.supply)
        w.put(t.house, troops=house.troops + n)
        w.emit("transports", t.house, troops=n)
        return
    w.queue.insert(0, Task("recruit", t.house, "", t.n))


# -- dreadnoughts ------------------------------------------------------------------------------


def _t_commission(w: Draft, t: Task) -> None:
    """Commission a dreadnought into the garrison, if one is left in supply [IX p.6]."""
    house = w.h(t.house)
    if house.dn_supply <= 0:
        return
    if house.is_human:
        answer = t.answer
        if answer is None:
            w.ask("commission", t.house, t, ["yes", "no"])
            return
        if answer != "yes":
            return
    commission(w, t.house)


def commission(w: Draft, house_id: str) -> None:
    """A dreadnought from supply to the garrison [IX p.6]."""
    w.put(house_id, dn_garrison=w.h(house_id).dn_garrison + 1)
    w.emit("commission", house_id)


def free_flags(w: Draft) -> list[str]:
    """Control spaces with no dreadnought on their flag yet [IX p.6]."""
    board = w.board().values()
    return [s.id for s in board if s.control_bonus is not None and s.id not in w.posted]


def _t_dreadnoughts(w: Draft, t: Task) -> None:
    """After combat: the winner with a dreadnought in the Conflict takes control of a space
    with it; every other dreadnought there goes back to its garrison [IX p.6]."""
    tasks: list[Task] = []
    for hid, house in list(w.houses.items()):
        if not house.dn_conflict:
            continue
        if hid == t.ref:
            tasks.append(Task("post", hid))
        else:
            w.put(hid, dn_garrison=house.dn_garrison + house.dn_conflict, dn_conflict=0)
            w.emit("dreadnought_home", hid, count=house.dn_conflict)
    w.queue[0:0] = tasks


def _t_post(w: Draft, t: Task) -> None:
    """The winner's dreadnought takes a free flag (or, with Detonation Devices, goes to
    supply for 1 VP); the rest return to the garrison [IX pp.6, 9]."""
    house = w.h(t.house)
    flags = free_flags(w)
    detonate = house.owns("detonation_devices") and w.scores(t.house)
    if house.is_human:
        answer = t.answer
        if answer is None:
            options = [*flags, *(["detonate"] if detonate else [])]
            if options:
                w.ask("post", t.house, t, options)
                return
            answer = NONE
    else:
        # A Rival always takes the Detonation Devices VP [IX p.9].
        answer = "detonate" if detonate else hagal.post_choice(w, t.house, flags) or NONE
    house = w.h(t.house)
    rest = house.dn_conflict - (0 if answer == NONE else 1)
    w.put(
        t.house,
        dn_conflict=0,
        dn_garrison=house.dn_garrison + rest,
        dn_posted=house.dn_posted + (answer not in (NONE, "detonate")),
    )
    if answer == "detonate":
        w.gain_vp(t.house, 1, "tech", "detonation_devices")
        w.emit("detonate", t.house)
    elif answer != NONE:
        w.posted[answer] = Posted(t.house, w.round)
        w.emit("post", t.house, space=answer, covers=w.control.get(answer))
    if rest:
        w.emit("dreadnought_home", t.house, count=rest)


def end_posts(w: Draft) -> None:
    """Dreadnoughts that took control before this Combat go home now [IX p.6]."""
    for space, post in list(w.posted.items()):
        if post.round < w.round:
            house = w.h(post.house)
            w.put(post.house, dn_posted=house.dn_posted - 1, dn_garrison=house.dn_garrison + 1)
            del w.posted[space]
            w.emit("post_end", post.house, space=space, uncovers=w.control.get(space))


# -- other rules -------------------------------------------------------------------------------


def _t_offer(w: Draft, t: Task) -> None:
    """A reward's purchase (Economic Supremacy): a Rival buys when it can pay; a player
    says whether they bought [IX conflicts; RB p.20 "if they have the resources"]."""
    assert w.conflict is not None
    reward = getattr(w.cat.conflicts[w.conflict], t.ref)
    offer: Offer = reward.offers[t.n]
    house = w.h(t.house)
    if house.is_human:
        answer = t.answer
        if answer is None:
            w.ask("offer", t.house, t, ["yes", "no"])
            return
        bought = answer == "yes"
    else:
        cost = offer.cost
        bought = house.solari >= cost.solari and house.spice >= cost.spice
        if bought:
            w.put(t.house, solari=house.solari - cost.solari, spice=house.spice - cost.spice)
    if bought:
        w.gain_vp(t.house, offer.vp, "conflict", w.conflict)
        w.emit("offer", t.house, solari=offer.cost.solari, spice=offer.cost.spice, vp=offer.vp)


def round_start(w: Draft) -> None:
    """Phase 1: flipped tiles turn face up; Shuttle Fleet gives a Rival 2 Solari [IX p.4]."""
    for hid, house in list(w.houses.items()):
        if house.flipped:
            w.put(hid, flipped=())
        if house.kind == "rival" and house.owns("shuttle_fleet"):
            w.put(hid, solari=w.h(hid).solari + 2)
            w.emit("tech_income", hid, tile="shuttle_fleet", solari=2)


def endgame(w: Draft) -> None:
    """Endgame tiles the app can score: Holtzman Engine for a Rival (it counts as owning two
    The Spice Must Flow) and Memocorders (3+ Influence on all four tracks) [IX p.9]."""
    for hid, house in list(w.houses.items()):
        if not w.scores(hid):
            continue
        if house.kind == "rival" and house.owns("holtzman_engine"):
            w.gain_vp(hid, 1, "endgame", "holtzman_engine")
            w.emit("tech_vp", hid, tile="holtzman_engine")
        if house.owns("memocorders") and min(house.influence) >= 3:
            w.gain_vp(hid, 1, "endgame", "memocorders")
            w.emit("tech_vp", hid, tile="memocorders")


HANDLERS = {
    "tech_reveal": _t_tech_reveal,
    "tech_marked": _t_tech_marked,
    "acquire_tech": _t_acquire_tech,
    "negotiators_back": _t_negotiators_back,
    "negotiator": _t_negotiator,
    "tech_negotiation": _t_tech_negotiation,
    "training_drones": _t_training_drones,
    "flagship": _t_flagship,
    "freighter": _t_freighter,
    "shipping_first": _t_shipping_first,
    "ship_troops": _t_ship_troops,
    "commission": _t_commission,
    "dreadnoughts": _t_dreadnoughts,
    "post": _t_post,
    "offer": _t_offer,
}

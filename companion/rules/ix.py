"""Rise of Ix: the Shipping Track, dreadnoughts, Tech tiles and Negotiators.

The mechanics here are the same for every house; what a Rival chooses (where its Freighter
goes, which tile it buys, where its dreadnought takes control) is in `hagal`. The engine
registers `HANDLERS` next to its own task handlers.

Sources: [IX p.N] Rise of Ix rulebook (EN, 2022-02-11), [FAQ] Errata & FAQ 2022-02-14,
[HAGAL §N] shared/rules/HAGAL.md.
"""

from __future__ import annotations

from companion.rules import hagal
from companion.rules.catalog import FACTIONS, Offer
from companion.rules.draft import Draft
from companion.rules.state import TRACK_TOP, UNKNOWN_TILE, Posted, Task

STACKS = 3  # three stacks of six face-down tiles, the top one face up [IX p.3]
SKIP = "skip"
NONE = "none"


# -- Tech tiles ----------------------------------------------------------------------------


def setup_tech(draft: Draft) -> None:
    """Deal the Tech tiles into three stacks and turn the top ones face up [IX p.3]."""
    tiles = sorted(t.id for t in draft.catalog.tech.values() if t.set in draft.setup.sets)
    size = len(tiles) // STACKS
    if draft.setup.options.physical_tech:
        draft.tech_stacks = [[UNKNOWN_TILE] * size for _ in range(STACKS)]
    else:
        draft.random().shuffle(tiles)
        draft.tech_stacks = [tiles[i * size : (i + 1) * size] for i in range(STACKS)]
    draft.queue.extend(Task("tech_reveal", stack=k) for k in range(STACKS))
    if draft.solo:
        draft.queue.append(Task("tech_marked"))


def face_up(draft: Draft) -> list[tuple[int, str]]:
    """The tile on top of each non-empty stack, with its stack's index (topmost first)."""
    return [(k, stack[0]) for k, stack in enumerate(draft.tech_stacks) if stack]


def unseen(draft: Draft) -> list[str]:
    """Tiles the table may turn up: in no known place yet (physical tiles)."""
    seen = {t for stack in draft.tech_stacks for t in stack} | set(draft.tech_trash)
    for house in draft.houses.values():
        seen.update(house.tech)
    return sorted(
        t.id for t in draft.catalog.tech.values() if t.set in draft.setup.sets and t.id not in seen
    )


def _reveal_tech(draft: Draft, task: Task) -> None:
    """Turn the next tile of a stack face up; with physical tiles the table says which."""
    stack = draft.tech_stacks[task.stack]
    if not stack:
        return
    if stack[0] == UNKNOWN_TILE:
        answer = task.answer
        if answer is None:
            # The table turns the tile up; no rule names who, so the First Player is asked,
            # as for a physical Conflict card (in solo, where a Rival holds the marker, the
            # player).
            asker = draft.first if draft.house(draft.first).is_human else draft.deciders()
            draft.ask("tech_tile", asker, task, unseen(draft))
            return
        stack[0] = answer
    draft.emit("tech_up", None, tile=stack[0], stack=task.stack + 1)


def _show_marked_tile(draft: Draft, task: Task) -> None:
    """No face-up tile with the House Hagal mark: trash the top tile of the largest stack
    (ties: the topmost) and reveal the next, until one shows [IX p.9]. Solo only."""
    tops = face_up(draft)
    if not tops or any(draft.catalog.tech[tile].hagal_ok for _, tile in tops):
        return
    k = max(range(len(draft.tech_stacks)), key=lambda i: (len(draft.tech_stacks[i]), -i))
    tile = draft.tech_stacks[k].pop(0)
    draft.tech_trash.append(tile)
    draft.emit("tech_trash_unmarked", None, tile=tile, stack=k + 1)
    draft.queue[0:0] = [Task("tech_reveal", stack=k), Task("tech_marked")]


def take_tile(draft: Draft, house_id: str, stack: int) -> None:
    """A house takes the face-up tile of a stack (by index); the next one turns up [IX p.4]."""
    tile = draft.tech_stacks[stack].pop(0)
    house = draft.house(house_id)
    draft.put(house_id, tech=(*house.tech, tile))
    draft.emit("tech", house_id, tile=tile, stack=stack + 1)
    tasks = [Task("tech_reward", house_id, tile=tile)]
    if not house.is_human and tile == "training_drones":
        tasks.append(Task("training_drones", house_id))  # flips at once [IX p.9]
    tasks.append(Task("tech_reveal", stack=stack))
    if draft.solo:
        tasks.append(Task("tech_marked"))
    draft.queue[0:0] = tasks


def _acquire_tech(draft: Draft, task: Task) -> None:
    """Acquire Tech with a discount of task.discount spice [IX p.4]. A Rival buys the most
    expensive marked tile it can afford, helped by its Negotiators; with `or_negotiator` it
    places a Negotiator instead when it can't [IX p.9]. A player picks the tile they bought."""
    house = draft.house(task.house)
    if not house.is_human:
        if not draft.solo:
            return  # House Hagal ignores Tech tiles completely [IX p.9]
        pick = hagal.tech_choice(draft, task.house, task.discount)
        if pick is not None:
            k, used, pay = pick
            draft.put(task.house, spice=house.spice - pay, negotiators=house.negotiators - used)
            draft.emit("tech_paid", task.house, spice=pay, negotiators=used, discount=task.discount)
            take_tile(draft, task.house, k)
        elif task.or_negotiator:
            _place_negotiator(draft, task.house)
        else:
            draft.emit("tech_none", task.house)
        return
    answer = task.answer
    if answer is None:
        options = [tile for _, tile in face_up(draft) if tile != UNKNOWN_TILE]
        draft.ask("tech", task.house, task, [*options, NONE])
        return
    if answer == NONE:
        return
    player_takes(draft, task.house, next(k for k, tile in face_up(draft) if tile == answer))


def player_takes(draft: Draft, house_id: str, stack: int) -> None:
    """A player takes the face-up tile of a stack (by index), first saying how many Negotiators they
    returned to lower its price [IX p.4]."""
    if draft.house(house_id).negotiators:
        draft.queue.insert(0, Task("negotiators_back", house_id))
    take_tile(draft, house_id, stack)


def _return_negotiators(draft: Draft, task: Task) -> None:
    """A player may return Negotiators to cut the price, 1 spice each [IX p.4]."""
    answer = task.answer
    house = draft.house(task.house)
    if answer is None:
        draft.ask(
            "negotiators_back", task.house, task, minimum=0, maximum=house.negotiators, default=0
        )
        return
    if int(answer):
        draft.put(task.house, negotiators=house.negotiators - int(answer))
        draft.emit("negotiators_back", task.house, count=int(answer))


def _place_negotiator(draft: Draft, house_id: str) -> None:
    """Place a troop from supply on Ix as a Negotiator; none in supply, nothing [IX p.4]."""
    house = draft.house(house_id)
    if house.supply <= 0:
        draft.emit("tech_none", house_id)
        return
    draft.put(house_id, negotiators=house.negotiators + 1)
    draft.emit("negotiator", house_id, count=house.negotiators + 1)


def _gain_negotiator(draft: Draft, task: Task) -> None:
    """The Negotiator of a card or a space: place one [IX p.4]."""
    _place_negotiator(draft, task.house)


def _tech_negotiation(draft: Draft, task: Task) -> None:
    """The Tech Negotiation space: Acquire Tech at 1 spice off, or a Negotiator [IX p.4]."""
    answer = task.answer
    if answer is None:
        draft.ask("tech_negotiation", task.house, task, ["tech", "negotiator", SKIP])
        return
    if answer == "tech":
        draft.queue.insert(0, Task("acquire_tech", task.house, discount=1))
    elif answer == "negotiator":
        _place_negotiator(draft, task.house)


def _flip_training_drones(draft: Draft, task: Task) -> None:
    """A Rival flips Training Drones at its first chance each round: 1 troop [IX p.9]."""
    house = draft.house(task.house)
    if not house.ready("training_drones"):
        return
    draft.put(task.house, flipped=(*house.flipped, "training_drones"))
    draft.emit("tech_flip", task.house, tile="training_drones")
    draft.queue.insert(0, Task("recruit", task.house, amount=1))


def _flip_flagship(draft: Draft, task: Task) -> None:
    """On a Combat space, with 4 Solari and 3 troops in supply, a Rival pays and flips the
    Flagship to recruit and deploy 3 troops [IX p.9]."""
    house = draft.house(task.house)
    if not house.ready("flagship") or house.solari < 4 or house.supply < 3:
        return
    draft.put(task.house, solari=house.solari - 4, flipped=(*house.flipped, "flagship"))
    draft.emit("tech_flip", task.house, tile="flagship")
    draft.queue.insert(0, Task("recruit", task.house, amount=3))


# -- the Shipping Track ----------------------------------------------------------------------


def _use_freighter(draft: Draft, task: Task) -> None:
    """One Freighter icon: advance one step or recall [IX p.5]. A Rival advances to the
    second step, then recalls [IX p.8]; a player chooses, and may let the icon go."""
    house = draft.house(task.house)
    if house.is_human:
        answer = task.answer
        if answer is None:
            options = []
            if house.freighter < TRACK_TOP:
                options.append("advance")
            if house.freighter > 0:
                options.append("recall")
            draft.ask("freighter", task.house, task, [*options, SKIP])
            return
        if answer == SKIP:
            return
        move = answer
    else:
        move = hagal.freighter_move(house)
    if move == "advance":
        advance(draft, task.house)
    else:
        recall(draft, task.house)


def advance(draft: Draft, house_id: str) -> None:
    """The Freighter goes up one step of the Shipping track [IX p.5]."""
    step = draft.house(house_id).freighter + 1
    draft.put(house_id, freighter=step)
    draft.emit("freighter", house_id, step=step)


def recall(draft: Draft, house_id: str) -> None:
    """Recall the Freighter: the rewards of its step and every step below [IX p.5]."""
    house = draft.house(house_id)
    step = house.freighter
    draft.put(house_id, freighter=0)
    draft.emit("freighter_recall", house_id, step=step)
    tasks: list[Task] = []
    if step >= 1:
        tasks.append(Task("shipping_first", house_id))
    if step >= 2:
        tasks.append(Task("ship_troops", house_id, amount=2))
        tasks.append(Task("choose_influence", house_id, amount=1, picks=1, options=FACTIONS))
    if step >= 3:
        tasks.append(Task("acquire_tech", house_id, discount=2))
    draft.queue[0:0] = tasks


def _first_shipping_reward(draft: Draft, task: Task) -> None:
    """The first step: Dividends or 2 spice; a Rival always takes Dividends [IX pp.5, 8]."""
    house = draft.house(task.house)
    if not house.is_human:
        dividends(draft, task.house)
        return
    answer = task.answer
    if answer is None:
        draft.ask("shipping_first", task.house, task, ["dividends", "spice"])
        return
    if answer == "dividends":
        dividends(draft, task.house)
    else:
        draft.emit("take", task.house, spice=2)


def dividends(draft: Draft, house_id: str) -> None:
    """5 Solari to the taker (a solo Rival too), 1 Solari to every other house; House Hagal
    keeps no resources [IX pp.5, 8; RB p.19]. Players take theirs from the bank."""
    house = draft.house(house_id)
    if house.kind == "rival":
        draft.put(house_id, solari=house.solari + 5)
    for other in draft.houses.values():
        if other.id != house_id and other.kind == "rival":
            draft.put(other.id, solari=other.solari + 1)
    draft.emit("dividends", house_id)


def _ship_troops(draft: Draft, task: Task) -> None:
    """The second step's two troops. Troop Transports: "recruit 1 extra troop; you may
    deploy those troops" [IX tile], so 3 for its owner. A Rival deploys them all, unless
    Expert deployment is in use: then that rule decides [IX p.9]."""
    house = draft.house(task.house)
    transports = house.owns("troop_transports")
    n = task.amount + 1 if transports else task.amount
    if house.is_human:
        draft.emit("take", task.house, troops=n)
        if transports:
            draft.emit("transports_player", task.house, troops=n)
        return
    draft.queue[0:0] = [Task("recruit", task.house, amount=n, via="shipping")]
    if transports:
        draft.queue.insert(1, Task("transports", task.house, amount=n))


def _deploy_transported(draft: Draft, task: Task) -> None:
    """A Rival's Troop Transports: the Shipping troops it just recruited go to the
    Conflict, or, with Expert deployment, unless it leads by 4+ in a Conflict I or II
    [IX p.9; FAQ Solo Play].

    A Conflict reward's Freighter move (Trade Monopoly, a Skirmish) recalls after the
    Combat is resolved. Our ruling follows IX p.9, "A Rival will always deploy to the
    Conflict all troops it recruits from the Shipping track": they go in, and the end of
    Combat sends them to supply [RB p.12]. The tile says "you may deploy those troops":
    a setting keeps them in the garrison then."""
    house = draft.house(task.house)
    n = min(task.amount, draft.recruited, house.garrison)
    if n <= 0:
        return
    if draft.phase == "combat":  # only a Conflict reward recruits in the Combat phase
        kept = draft.setup.options.transports_kept_after_combat
        ruling = "ruling_transports_kept" if kept else "ruling_transports_after_combat"
        draft.emit(ruling, task.house)
        if kept:
            draft.recruited -= n
            return
    if hagal.expert(draft) and draft.conflict_level < 3 and hagal.expert_holds(draft, task, n):
        return
    draft.put(task.house, garrison=house.garrison - n, troops=house.troops + n)
    draft.recruited -= n
    draft.emit("transports", task.house, troops=n)


# -- dreadnoughts ------------------------------------------------------------------------------


def _commission_dreadnought(draft: Draft, task: Task) -> None:
    """Commission a dreadnought into the garrison, if one is left in supply [IX p.6]."""
    house = draft.house(task.house)
    if house.dn_supply <= 0:
        return
    if house.is_human:
        answer = task.answer
        if answer is None:
            draft.ask("commission", task.house, task, ["yes", "no"])
            return
        if answer != "yes":
            return
    commission(draft, task.house)


def commission(draft: Draft, house_id: str) -> None:
    """A dreadnought from supply to the garrison [IX p.6]."""
    draft.put(house_id, dn_garrison=draft.house(house_id).dn_garrison + 1)
    draft.emit("commission", house_id)


def free_flags(draft: Draft) -> list[str]:
    """Control spaces with no dreadnought on their flag yet [IX p.6]."""
    board = draft.board().values()
    return [s.id for s in board if s.control_bonus is not None and s.id not in draft.posted]


def _dreadnoughts_after_combat(draft: Draft, task: Task) -> None:
    """After combat: the winner with a dreadnought in the Conflict takes control of a space
    with it; every other dreadnought there goes back to its garrison [IX p.6]."""
    tasks: list[Task] = []
    for hid, house in list(draft.houses.items()):
        if not house.dn_conflict:
            continue
        if hid == task.house and _takes_control(draft, hid):
            tasks.append(Task("post", hid))
        else:
            draft.put(hid, dn_garrison=house.dn_garrison + house.dn_conflict, dn_conflict=0)
            draft.emit("dreadnought_home", hid, count=house.dn_conflict)
    draft.queue[0:0] = tasks


def _takes_control(draft: Draft, house_id: str) -> bool:
    """Our ruling: House Hagal's dreadnought takes control like any Rival's [IX p.6, p.8:
    "Whenever a Rival wins a Conflict and its dreadnought must take control"], though
    RB p.19 says House Hagal "can never claim control" (of Control markers, as it
    collects no rewards). A setting plays RB p.19: the dreadnought goes home."""
    if draft.house(house_id).kind != "hagal":
        return True
    home = draft.setup.options.hagal_dreadnought_home
    draft.emit("ruling_hagal_dreadnought_home" if home else "ruling_hagal_dreadnought", house_id)
    return not home


def _post_dreadnought(draft: Draft, task: Task) -> None:
    """The winner's dreadnought takes a free flag (or, with Detonation Devices, goes to
    supply for 1 VP); the rest return to the garrison [IX pp.6, 9]."""
    house = draft.house(task.house)
    flags = free_flags(draft)
    detonate = house.owns("detonation_devices") and draft.scores(task.house)
    if house.is_human:
        answer = task.answer
        if answer is None:
            options = [*flags, *(["detonate"] if detonate else [])]
            if options:
                draft.ask("post", task.house, task, options)
                return
            answer = NONE
    else:
        # A Rival always takes the Detonation Devices VP [IX p.9].
        answer = "detonate" if detonate else hagal.post_choice(draft, task.house, flags) or NONE
    house = draft.house(task.house)
    rest = house.dn_conflict - (0 if answer == NONE else 1)
    draft.put(
        task.house,
        dn_conflict=0,
        dn_garrison=house.dn_garrison + rest,
        dn_posted=house.dn_posted + (answer not in (NONE, "detonate")),
    )
    if answer == "detonate":
        draft.gain_vp(task.house, 1, "tech", "detonation_devices")
        draft.emit("detonate", task.house)
    elif answer != NONE:
        draft.posted[answer] = Posted(task.house, draft.round)
        draft.emit("post", task.house, space=answer, covers=draft.control.get(answer))
    if rest:
        draft.emit("dreadnought_home", task.house, count=rest)


def end_posts(draft: Draft) -> None:
    """Dreadnoughts that took control before this Combat go home now [IX p.6]."""
    for space, post in list(draft.posted.items()):
        if post.round < draft.round:
            house = draft.house(post.house)
            draft.put(post.house, dn_posted=house.dn_posted - 1, dn_garrison=house.dn_garrison + 1)
            del draft.posted[space]
            draft.emit("post_end", post.house, space=space, uncovers=draft.control.get(space))


# -- other rules -------------------------------------------------------------------------------


def _buy_offer(draft: Draft, task: Task) -> None:
    """A reward's purchase (Economic Supremacy): a Rival buys when it can pay; a player
    says whether they bought [IX conflicts; RB p.20 "if they have the resources"]."""
    assert draft.conflict is not None
    reward = getattr(draft.catalog.conflicts[draft.conflict], task.place)
    offer: Offer = reward.offers[task.offer]
    house = draft.house(task.house)
    if house.is_human:
        answer = task.answer
        if answer is None:
            draft.ask("offer", task.house, task, ["yes", "no"])
            return
        bought = answer == "yes"
    else:
        cost = offer.cost
        bought = house.solari >= cost.solari and house.spice >= cost.spice
        if bought:
            draft.put(task.house, solari=house.solari - cost.solari, spice=house.spice - cost.spice)
    if bought:
        draft.gain_vp(task.house, offer.vp, "conflict", draft.conflict)
        draft.emit(
            "offer", task.house, solari=offer.cost.solari, spice=offer.cost.spice, vp=offer.vp
        )


def round_start(draft: Draft) -> None:
    """Phase 1: flipped tiles turn face up; Shuttle Fleet gives a Rival 2 Solari [IX p.4]."""
    for hid, house in list(draft.houses.items()):
        if house.flipped:
            draft.put(hid, flipped=())
        if house.kind == "rival" and house.owns("shuttle_fleet"):
            draft.put(hid, solari=draft.house(hid).solari + 2)
            draft.emit("tech_income", hid, tile="shuttle_fleet", solari=2)


def endgame(draft: Draft) -> None:
    """Endgame tiles the app can score: Holtzman Engine for a Rival (it counts as owning two
    The Spice Must Flow) and Memocorders (3+ Influence on all four tracks) [IX p.9]."""
    for hid, house in list(draft.houses.items()):
        if not draft.scores(hid):
            continue
        if house.kind == "rival" and house.owns("holtzman_engine"):
            draft.gain_vp(hid, 1, "endgame", "holtzman_engine")
            draft.emit("tech_vp", hid, tile="holtzman_engine")
        if house.owns("memocorders") and min(house.influence) >= 3:
            draft.gain_vp(hid, 1, "endgame", "memocorders")
            draft.emit("tech_vp", hid, tile="memocorders")


HANDLERS = {
    "tech_reveal": _reveal_tech,
    "tech_marked": _show_marked_tile,
    "acquire_tech": _acquire_tech,
    "negotiators_back": _return_negotiators,
    "negotiator": _gain_negotiator,
    "tech_negotiation": _tech_negotiation,
    "training_drones": _flip_training_drones,
    "flagship": _flip_flagship,
    "freighter": _use_freighter,
    "shipping_first": _first_shipping_reward,
    "ship_troops": _ship_troops,
    "transports": _deploy_transported,
    "commission": _commission_dreadnought,
    "dreadnoughts": _dreadnoughts_after_combat,
    "post": _post_dreadnought,
    "offer": _buy_offer,
}

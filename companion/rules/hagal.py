"""House Hagal: every rival behaviour. How a Rival chooses and resolves its cards (its
Agent turn, deployment with the Expert rule, Signets, swords in Combat, its Influence
choice) and spends its resources for VP; the Rise of Ix choices it makes (Freighter, Tech
tile, dreadnought flag) for the mechanics in `ix`.

Sources: [RB p.19-20] base rulebook, [FAQ] Errata & FAQ 2022-02-14, [HAGAL §N] the team's
rulings in shared/rules/HAGAL.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.catalog import FACTIONS, Catalog, Faction, HagalCardDef, SpaceDef
from companion.rules.draft import Draft
from companion.rules.state import MAX_INFLUENCE, MAX_STRENGTH, UNKNOWN_TILE, House, Setup, Task

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
    "rhombur_tech",
    "hundro_freighter",
)
# Where a Rival's dreadnought prefers to take control, after covering an opponent's marker:
# Imperial Basin, then counter-clockwise [IX p.8].
FLAG_ORDER = ("imperial_basin", "arrakeen", "carthag")
BRUTAL_SECOND = "brutal"  # `Task.via` of Brutal Escalation's second swords card
EXPERT_DEPLOYMENT = ("mentat", "kwisatz")  # "Expert" = Mentat; Kwisatz Haderach is Expert+
EXPERT_LEAD = 4  # [FAQ] Solo Play: leading by 4 strength or more (HAGAL §9 verdict)


def reshuffle(draft: Draft) -> None:
    """Shuffle every House Hagal card into a new deck [RB p.19]."""
    draft.hagal_deck.extend(draft.hagal_discard)
    draft.hagal_discard.clear()
    if draft.setup.options.physical_hagal:
        draft.hagal_deck.sort()
    else:
        draft.random().shuffle(draft.hagal_deck)
    draft.emit("hagal_reshuffle", None, cards=len(draft.hagal_deck))


def blocked(draft: Draft, house_id: str, space_id: str) -> bool:
    """A space with an Agent, or marked by an opponent's Voice, stops a rival [HAGAL §2]."""
    if space_id in draft.occupants:
        return True
    owner = draft.voice.get(space_id)
    return owner is not None and owner != house_id


def harvest_target(draft: Draft, house_id: str) -> str | None:
    """Harvest Spice target: among free Maker spaces the most bonus spice, ties to the most
    total spice; none with bonus spice means the card fails [HAGAL §2.6, medium confidence]."""
    best: tuple[int, int, str] | None = None
    for space in draft.board().values():
        if not space.maker or blocked(draft, house_id, space.id):
            continue
        bonus = draft.bonus_spice.get(space.id, 0)
        if bonus <= 0:
            continue
        key = (bonus, space.base_spice, space.id)
        if best is None or key > best:
            best = key
    return best[2] if best else None


def card_side(
    draft: Draft, house_id: str, card: HagalCardDef
) -> tuple[str | None, Faction | None, int]:
    """Space, Influence and Freighter icons of the card for this Rival: a dual card's
    second half applies from 2 Spacing Guild Influence on [IX p.8; FAQ Rivals]."""
    if card.space_if_guild_2 is not None and draft.house(house_id).inf("spacing_guild") >= 2:
        return card.space_if_guild_2, card.influence_if_guild_2, card.freighter_if_guild_2
    return card.space, card.influence, card.freighter


def target(draft: Draft, house_id: str, card: HagalCardDef) -> tuple[str | None, str]:
    """The space a revealed card sends the rival to, or None and the reason to skip it.

    A found space comes with "" or "invasion_ships" (the Rival flips the tile to go
    where an enemy Agent is [IX p.9]).
    """
    if card.harvest:
        space = harvest_target(draft, house_id)
        return (space, "") if space else (None, "no_bonus_spice")
    if card.dreadnought and draft.house(house_id).dn_supply <= 0:
        return None, "two_dreadnoughts"  # skip it, reveal another [IX p.8]
    space_id, _, _ = card_side(draft, house_id, card)
    if space_id is None or space_id not in draft.board():
        return None, "not_on_board"
    for faction, need in draft.board()[space_id].requires_influence.items():
        if draft.house(house_id).inf(faction) < need:
            # Interstellar Shipping needs 2 Guild Influence, Rivals too [IX p.8]; a dual
            # card never falls back to its other half [FAQ Rivals].
            return None, "needs_influence"
    if blocked(draft, house_id, space_id):
        if can_infiltrate(draft, house_id, space_id):
            return space_id, "invasion_ships"
        return None, "occupied"
    return space_id, ""


def can_infiltrate(draft: Draft, house_id: str, space_id: str) -> bool:
    """A solo Rival with Invasion Ships face up ignores enemy Agents (not The Voice, not
    its own Agent) [IX p.7, p.9]."""
    if not (draft.solo and draft.house(house_id).ready("invasion_ships")):
        return False
    voice = draft.voice.get(space_id)
    if voice is not None and voice != house_id:
        return False
    here = [draft.occupants.get(space_id)] + [h for s, h in draft.infiltrators if s == space_id]
    return here[0] is not None and house_id not in here


def card_tasks(draft: Draft, house_id: str, card: HagalCardDef, space: SpaceDef) -> list[Task]:
    """The effects of a placed card, in order [RB p.19]: the rival ignores the space's own
    costs and effects and gets the card's effects only."""
    _, influence, freighter = card_side(draft, house_id, card)
    tasks: list[Task] = []
    if draft.solo and draft.house(house_id).ready("training_drones"):
        tasks.append(Task("training_drones", house_id))  # first chance each round [IX p.9]
    if influence is not None:
        tasks.append(Task("influence", house_id, faction=influence, amount=1))
    if card.troops:
        tasks.append(Task("recruit", house_id, amount=card.troops))
    if card.dreadnought:
        tasks.append(Task("commission", house_id))
    if card.acquire_tech and draft.solo:  # House Hagal ignores Tech tiles [IX p.9]
        tasks.append(
            Task(
                "acquire_tech",
                house_id,
                discount=card.tech_discount,
                or_negotiator=bool(card.negotiator),
            )
        )
    tasks.extend(Task("freighter", house_id) for _ in range(freighter))
    if card.signet and draft.solo:  # Signet icons do nothing in two-player [HAGAL §4]
        tasks.append(Task("signet", house_id))
    if card.harvest:
        tasks.append(Task("harvest", house_id, space=space.id))
    if space.combat:
        if draft.solo:
            tasks.append(Task("flagship", house_id))
        # Any Agent on a Combat space deploys this turn's recruits and up to 2 garrison
        # units, even if the card recruited none [RB p.19; FAQ troops; IX p.8].
        tasks.append(Task("deploy", house_id, amount=2))
    if space.control_bonus is not None:
        tasks.append(Task("control_bonus", house_id, space=space.id))
    return tasks


def freighter_move(house: House) -> str:
    """A Rival advances to the Shipping Track's second step, then recalls [IX p.8]."""
    return "advance" if house.freighter < 2 else "recall"


def tech_choice(draft: Draft, house_id: str, discount: int) -> tuple[int, int, int] | None:
    """The marked face-up tile a Rival buys: the most expensive it can afford with the
    discount and its Negotiators, ties to the topmost stack [IX p.9]. Returns the stack,
    the Negotiators it returns (only as many as lower the price) and the spice it pays."""
    house = draft.house(house_id)
    best: tuple[tuple[int, int], tuple[int, int, int]] | None = None
    for k, stack in enumerate(draft.tech_stacks):
        if not stack or stack[0] == UNKNOWN_TILE:
            continue
        tech = draft.catalog.tech[stack[0]]
        if not tech.hagal_ok:
            continue
        need = max(0, tech.cost - discount)
        used = min(house.negotiators, need)
        pay = need - used
        if pay > house.spice:
            continue
        key = (tech.cost, -k)
        if best is None or key > best[0]:
            best = (key, (k, used, pay))
    return best[1] if best else None


def post_choice(draft: Draft, house_id: str, flags: Sequence[str]) -> str | None:
    """Where a Rival's dreadnought takes control: cover an opponent's Control marker if it
    can, avoid its own, then Imperial Basin, Arrakeen, Carthag [IX p.8]."""

    def key(space: str) -> tuple[int, int]:
        marker = draft.control.get(space)
        cover = 0 if marker not in (None, house_id) else 1 if marker is None else 2
        order = FLAG_ORDER.index(space) if space in FLAG_ORDER else len(FLAG_ORDER)
        return cover, order

    return min(flags, key=key) if flags else None


def influence_choice(draft: Draft, task: Task, options: Sequence[str]) -> str | None:
    """A Rival picks the Faction where it has the least; the table breaks ties [RB p.20]
    (then None: the question is asked)."""
    least = least_influence(draft.house(task.house), options)
    if len(least) > 1:
        draft.ask("rival_influence", task.house, task, least)
        return None
    return least[0]


def least_influence(house: House, options: Sequence[str]) -> list[str]:
    """The Factions among `options` where the rival has the least Influence [RB p.20]."""
    values = {f: house.inf(f) for f in options}
    low = min(values.values())
    return [f for f in options if values[f] == low]


def signet(draft: Draft, house_id: str) -> None:
    """A solo Rival uses its leader's Signet ability if it has the resources [RB p.20, HAGAL §7]."""
    house = draft.house(house_id)
    kind = draft.catalog.leaders[house.leader].rival_signet
    if kind == "gain_solari":
        draft.put(house_id, solari=house.solari + 1)
    elif kind == "gain_spice":
        draft.put(house_id, spice=house.spice + 1)
    elif kind == "gain_water":
        draft.put(house_id, water=house.water + 1)
    elif kind == "baron_scheme":
        if house.solari < 1:
            draft.emit("signet", house_id, leader=house.leader, done=False)
            return
        draft.put(house_id, solari=house.solari - 1, intrigue=house.intrigue + 1)
    elif kind == "rabban_brutality":
        troops = 2 if any(holder == house_id for holder in draft.alliances.values()) else 1
        draft.queue.insert(0, Task("recruit", house_id, amount=troops))
    elif kind == "leto_diplomacy":
        # Pay 1 spice: +1 Influence where an opponent has more, choosing the least.
        others = [h for h in draft.houses.values() if h.id != house_id]
        eligible = tuple(
            f
            for f in FACTIONS
            if house.inf(f) < MAX_INFLUENCE and any(o.inf(f) > house.inf(f) for o in others)
        )
        if house.spice < 1 or not eligible:
            draft.emit("signet", house_id, leader=house.leader, done=False)
            return
        draft.put(house_id, spice=house.spice - 1)
        draft.queue.insert(
            0, Task("choose_influence", house_id, amount=1, picks=1, options=eligible)
        )
    elif kind == "rhombur_tech":
        # Acquire Tech if he can, else the Tech Negotiation icon [IX p.8].
        draft.queue.insert(0, Task("acquire_tech", house_id, or_negotiator=True))
    elif kind == "hundro_freighter":
        # Always spends 1 spice, if he has it, for the Freighter icon [IX p.8].
        if house.spice < 1:
            draft.emit("signet", house_id, leader=house.leader, done=False)
            return
        draft.put(house_id, spice=house.spice - 1)
        draft.queue.insert(0, Task("freighter", house_id))
    draft.emit("signet", house_id, leader=house.leader, done=True)


def convert(draft: Draft, house_id: str) -> None:
    """Spend resources for VP whenever a solo Rival can [RB p.20 Spending Resources]."""
    house = draft.house(house_id)
    if house.kind != "rival":
        return
    if house.owns("spy_satellites") and house.spice >= 3 and draft.turn == house_id:
        # With 3 spice on its turn it trashes Spy Satellites for 1 VP [IX p.9].
        house = draft.put(
            house_id,
            spice=house.spice - 3,
            tech=tuple(t for t in house.tech if t != "spy_satellites"),
        )
        draft.tech_trash.append("spy_satellites")
        draft.gain_vp(house_id, 1, "tech", "spy_satellites")
        draft.emit("spy_satellites", house_id)
    for resource, price in EXCHANGES:
        have = getattr(house, resource)
        if have < price:
            continue
        if resource == "spice" and "ix" in draft.setup.sets and draft.conflict_level != 3:
            continue  # with Rise of Ix, spice waits for a Conflict III [HAGAL §1]
        times = have // price
        house = draft.put(house_id, **{resource: have - times * price})
        for _ in range(times):
            draft.gain_vp(house_id, 1, "exchange", resource)
        draft.emit("exchange", house_id, resource=resource, paid=times * price, vp=times)


def expert(draft: Draft) -> bool:
    """Expert troop deployment applies at Mentat and Kwisatz Haderach [RB p.20]."""
    return draft.solo and draft.setup.difficulty in EXPERT_DEPLOYMENT


def hagal_cards(setup: Setup, catalog: Catalog) -> list[str]:
    """The House Hagal deck for the mode: 1P or 2P cards removed [RB p.19-20; HAGAL §6];
    none with three or four players, where House Hagal does not play [RB p.19]."""
    if setup.multiplayer:
        return []
    drop = "2P" if setup.mode == "solo" else "1P"
    cards: list[str] = []
    for card in catalog.hagal.values():
        if card.set not in setup.sets or card.players == drop:
            continue
        if any(s in setup.sets for s in card.removed_with):
            continue
        cards.extend([card.id] * card.copies)
    return cards


def _draw(draft: Draft, task: Task) -> str | None:
    """Top card of the House Hagal deck, or None after asking the table which card came up."""
    if not draft.hagal_deck:
        if task.kind == "swords" and task.via == BRUTAL_SECOND:
            _reshuffle_between_brutal_cards(draft, task)
        else:
            reshuffle(draft)
    if draft.setup.options.physical_hagal:
        answer = task.answer
        if answer is None:
            draft.ask("hagal_card", task.house, task, sorted(set(draft.hagal_deck)))
            return None
        draft.hagal_deck.remove(answer)
        return answer
    return draft.hagal_deck.pop(0)


def _reshuffle_between_brutal_cards(draft: Draft, task: Task) -> None:
    """Brutal Escalation, the deck empty right after a Rival's first card. Our ruling: RB
    p.19 "If the House Hagal deck is ever empty ..., immediately reshuffle the House Hagal
    cards", every one, so the card just flipped goes into the new deck too. A setting
    keeps that card out, in the discard pile, as still in use for this Combat [IX p.9]."""
    first = draft.hagal_discard[-1]  # the first card of the two, revealed just before
    out = draft.setup.options.brutal_first_card_out
    ruling = "ruling_brutal_first_card_out" if out else "ruling_brutal_reshuffle_all"
    draft.emit(ruling, task.house, card=first, conflict=draft.conflict or "")
    if out:
        draft.hagal_discard.pop()
    reshuffle(draft)
    if out:
        draft.hagal_discard.append(first)


def _reveal(draft: Draft, task: Task, again: Task) -> HagalCardDef | None:
    """Reveal the next House Hagal card into the discard pile. A Reshuffle card reshuffles
    all House Hagal cards, then `again` reveals another [RB p.19]: None then, and None
    while the table is asked which physical card came up."""
    card_id = _draw(draft, task)
    if card_id is None:
        return None
    draft.hagal_discard.append(card_id)
    card = draft.catalog.hagal[card_id]
    if card.reshuffle:
        reshuffle(draft)
        draft.emit("hagal_reshuffle_card", task.house)
        draft.queue.insert(0, again)
        return None
    return card


def _take_rival_turn(draft: Draft, task: Task) -> None:
    """A Rival's Agent turn: reveal cards until one sends it to a space [RB p.19-20]."""
    again = Task("rival_turn", task.house, amount=task.amount + 1)
    card = _reveal(draft, task, again)
    if card is None:
        return
    card_id = card.id
    space, why = target(draft, task.house, card)
    if space is None:
        draft.emit("hagal_skip", task.house, card=card_id, reason=why)
        cards = len(draft.hagal_deck) + len(draft.hagal_discard)  # every House Hagal card
        if task.amount + 1 >= 2 * cards:
            # Not in the rules: every card was tried twice and all spaces are blocked.
            draft.put(task.house, passed=True)
            draft.emit("rival_blocked", task.house)
            return
        draft.queue.insert(0, again)
        return
    if why == "invasion_ships":
        # Invasion Ships: flipped, no discard, to go where an enemy Agent is [IX p.9].
        house = draft.house(task.house)
        draft.put(task.house, flipped=(*house.flipped, "invasion_ships"))
        draft.emit("tech_flip", task.house, tile="invasion_ships")
        draft.infiltrators.append((space, task.house))
    else:
        draft.occupants[space] = task.house
    draft.put(task.house, placed=draft.house(task.house).placed + 1)
    draft.emit("rival_agent", task.house, card=card_id, space=space)
    draft.queue[0:0] = card_tasks(draft, task.house, card, draft.board()[space])


def _recruit(draft: Draft, task: Task) -> None:
    """Recruit up to task.amount troops from supply to the garrison (players keep their own)."""
    house = draft.house(task.house)
    n = min(task.amount, house.supply)
    if n:
        draft.put(task.house, garrison=house.garrison + n)
        draft.recruited += n
    source = {"source": task.via} if task.via else {}  # "shipping" for the Shipping track
    draft.emit("recruit", task.house, troops=n, wanted=task.amount, **source)


def _deploy(draft: Draft, task: Task) -> None:
    """Deploy this turn's recruits plus up to 2 garrison units [RB p.19; FAQ troops].

    A Rival deploys dreadnoughts before troops whenever it can [IX p.8]; they come from
    the garrison, so they count against the 2 (as in the Spice Flow mod, HAGAL §6).
    """
    house = draft.house(task.house)
    dreadnoughts = min(house.dn_garrison, task.amount)
    troops = min(house.garrison, draft.recruited + task.amount - dreadnoughts)
    count = troops + dreadnoughts
    if count <= 0:
        return
    expert_rule = expert(draft) and draft.conflict_level < 3
    if expert_rule and expert_holds(draft, task, count, dreadnoughts):
        return
    draft.put(
        task.house,
        garrison=house.garrison - troops,
        troops=house.troops + troops,
        dn_garrison=house.dn_garrison - dreadnoughts,
        dn_conflict=house.dn_conflict + dreadnoughts,
    )
    draft.recruited = 0
    extra = {"dreadnoughts": dreadnoughts} if dreadnoughts else {}
    draft.emit("deploy", task.house, troops=troops, **extra)


def expert_holds(draft: Draft, task: Task, count: int, dreadnoughts: int = 0) -> bool:
    """Expert deployment: no deployment while leading by 4+ strength in a Conflict I or II
    [FAQ Solo Play, HAGAL §3 verdict]. Human strength is asked when it decides; True while
    the Rival waits for that answer or keeps its units.

    Of the `count` units, `dreadnoughts` come from the garrison. Our ruling keeps them home
    with the troops: the FAQ says to "count a Rival's strength to determine deployment" in
    Rise of Ix, so no unit deploys. The FAQ's "won't deploy troops" and IX p.8's "will
    deploy a dreadnought to the Conflict whenever it can" read the other way: a setting
    deploys the dreadnoughts and keeps only the troops."""
    house = draft.house(task.house)
    lead = house.rival_strength - max(
        [draft.house(r).rival_strength for r in draft.rivals() if r != task.house], default=0
    )
    if lead < EXPERT_LEAD:
        return False
    human = draft.humans()[0]
    answer = task.answer
    if answer is None:
        draft.ask(
            "expert_strength",
            human,
            task,
            minimum=0,
            maximum=MAX_STRENGTH,
            default=draft.house(human).strength,
        )
        return True
    draft.put(human, strength=int(answer))
    draft.emit("strength", human, strength=int(answer))
    if house.rival_strength - int(answer) < EXPERT_LEAD:
        return False
    troops = count - dreadnoughts
    if troops:
        draft.emit("expert_hold", task.house, kept=troops)
    if dreadnoughts:
        deploy = draft.setup.options.expert_dreadnoughts_deploy
        ruling = "ruling_expert_dreadnoughts_deploy" if deploy else "ruling_expert_dreadnoughts"
        draft.emit(ruling, task.house, dreadnoughts=dreadnoughts)
        if deploy:
            house = draft.house(task.house)
            draft.put(
                task.house,
                dn_garrison=house.dn_garrison - dreadnoughts,
                dn_conflict=house.dn_conflict + dreadnoughts,
            )
            draft.emit("deploy", task.house, troops=0, dreadnoughts=dreadnoughts)
    draft.recruited = 0
    return True


def _use_signet(draft: Draft, task: Task) -> None:
    """The Signet icon of a solo Rival's card [RB p.20, HAGAL §7]."""
    signet(draft, task.house)


def _harvest_spice(draft: Draft, task: Task) -> None:
    """Rival Harvest Spice: solo gains base + bonus [RB p.20]; 2P returns bonus [RB p.19]."""
    space = draft.board()[task.space]
    bonus = draft.bonus_spice.get(task.space, 0)
    draft.bonus_spice[task.space] = 0
    gained = space.base_spice + bonus if draft.solo else 0
    if gained:
        draft.put(task.house, spice=draft.house(task.house).spice + gained)
    draft.emit("rival_harvest", task.house, space=task.space, spice=gained, bonus=bonus)


def _queue_swords(draft: Draft, task: Task) -> None:
    """Each Rival with a unit in the Conflict reveals swords, in turn order [RB p.19].

    A dreadnought is a unit: with one, "your swords still count" [IX p.6]. HAGAL §9
    leaves a dreadnought-only Rival open; we follow the Ix rulebook (and Spice Flow),
    and say so in the log; a setting asks for a troop as RB p.19 words it.
    """
    rivals = [hid for hid in draft.order() if not draft.house(hid).is_human]
    if draft.setup.mode == "2p":
        rivals = ["hagal"]
    brutal = draft.setup.options.brutal_escalation and draft.conflict_level == 3
    need_troops = draft.setup.options.swords_need_troops
    tasks: list[Task] = []
    for hid in rivals:
        house = draft.house(hid)
        if house.troops <= 0 and house.dn_conflict > 0:
            ruling = "ruling_dreadnought_no_swords" if need_troops else "ruling_dreadnought_swords"
            draft.emit(ruling, hid)
        if house.troops > 0 or (house.units > 0 and not need_troops):
            tasks.append(Task("swords", hid, amount=2 if brutal else 1))
    draft.queue[0:0] = tasks


def _reveal_swords(draft: Draft, task: Task) -> None:
    """A Rival's combat bonus: the swords of a revealed House Hagal card [RB p.19]."""
    card = _reveal(draft, task, Task("swords", task.house, amount=task.amount))
    if card is None:
        return
    card_id = card.id
    draft.put(task.house, swords=draft.house(task.house).swords + card.swords)
    draft.emit("swords", task.house, card=card_id, swords=card.swords)
    if task.amount > 1:  # Brutal Escalation: two cards in a Conflict III [HAGAL §3]
        draft.queue.insert(0, Task("swords", task.house, amount=task.amount - 1, via=BRUTAL_SECOND))


def convert_rivals(draft: Draft) -> None:
    """Every solo Rival spends what it can for VP [RB p.20]."""
    if draft.solo:
        for rid in draft.rivals():
            convert(draft, rid)


HANDLERS = {
    "rival_turn": _take_rival_turn,
    "recruit": _recruit,
    "deploy": _deploy,
    "signet": _use_signet,
    "harvest": _harvest_spice,
    "combat_bonus": _queue_swords,
    "swords": _reveal_swords,
}

"""A player's own turns: sending an Agent, the Reveal turn, The Voice, the Rise of Ix icons
of their cards, and answers to the questions the engine asks [RB pp.8-13; IX pp.4-7]."""

from __future__ import annotations

from companion.rules import ix
from companion.rules.actions import (
    Dreadnought,
    Freighter,
    IllegalAction,
    Tech,
)
from companion.rules.catalog import FACTION_NAMES
from companion.rules.draft import Draft
from companion.rules.i18n import N_, Message
from companion.rules.state import (
    TRACK_TOP,
    UNKNOWN_TILE,
    Task,
)


def turn_problem(draft: Draft, house: str) -> Message | None:
    """Why this player can't take an Agent or Reveal turn now [RB p.8], or None."""
    if house not in draft.houses or not draft.houses[house].is_human:
        return Message(N_("Only a player at the table can take this turn."))
    if draft.prompt is not None:
        return Message(N_("First answer the question on screen."))
    if draft.phase != "agents":
        return Message(N_("Agent and Reveal turns are taken in Phase 2 only."))
    if draft.turn != house:
        who = draft.houses[draft.turn].name if draft.turn else "nobody"
        return Message(
            N_("It is not %(house)s's turn (now: %(who)s)."),
            house=draft.houses[house].name,
            who=who,
        )
    return None


def _own_turn(draft: Draft, house: str) -> None:
    """Raise IllegalAction unless it is this player's turn to act in Phase 2."""
    problem = turn_problem(draft, house)
    if problem is not None:
        raise IllegalAction(problem)


def space_problem(
    draft: Draft, house_id: str, space_id: str, infiltrate: bool = False
) -> str | None:
    """Why a human can't send an Agent to this space now [RB pp.8-9], or None.

    Infiltration lets an Agent past enemy Agents, never past The Voice or the player's
    own Agent [IX p.7].
    """
    space = draft.board().get(space_id)
    house = draft.houses[house_id]
    if space is None:
        return Message(N_("This space is not on the board in this game."))
    if infiltrate:
        here = [draft.occupants.get(space_id)] + [h for s, h in draft.infiltrators if s == space_id]
        if not draft.ix:
            return Message(N_("Infiltration comes with Rise of Ix cards."))
        if here[0] is None:
            return Message(N_("Nobody is there: send the Agent normally."))
        if house_id in here:
            return Message(
                N_("You already have an Agent there: infiltration works against enemy Agents only.")
            )
    elif space_id in draft.occupants:
        return Message(
            N_("%(house)s already has an Agent there."),
            house=draft.houses[draft.occupants[space_id]].name,
        )
    blocker = draft.voice.get(space_id)
    if blocker is not None and blocker != house_id:
        return Message(N_("%(house)s blocked it with The Voice."), house=draft.houses[blocker].name)
    if house.agents_left <= 0:
        return Message(N_("No Agent left: take your Reveal turn."))
    for faction, need in space.requires_influence.items():
        if house.inf(faction) < need:
            return Message(
                N_("Needs %(need)s %(faction)s Influence."), need=need, faction=_faction(faction)
            )
    if space_id == "swordmaster":
        if house.swordmaster:
            return Message(N_("You already have your Swordmaster."))
        if draft.solo and draft.setup.difficulty == "kwisatz":
            return Message(
                N_("At Kwisatz Haderach difficulty you can't gain a Swordmaster (rulebook p.20).")
            )
    if space_id == "high_council" and house.council_seat:
        return Message(N_("You already have a seat on the High Council."))
    return None


def _faction(faction: str) -> Message:
    """A Faction's name, translatable where it is shown."""
    return Message(FACTION_NAMES.get(faction, faction.replace("_", " ").title()))


def place_agent(draft: Draft, house_id: str, space_id: str, infiltrate: bool = False) -> None:
    """A player sends an Agent to a space: the space's effects the app tracks [RB pp.8-9]."""
    _own_turn(draft, house_id)
    problem = space_problem(draft, house_id, space_id, infiltrate)
    if problem is not None:
        raise IllegalAction(problem)
    space = draft.board()[space_id]
    draft.put(house_id, placed=draft.house(house_id).placed + 1)
    if infiltrate:
        draft.infiltrators.append((space_id, house_id))
        draft.emit("agent", house_id, space=space_id, infiltrate=True)
    else:
        draft.occupants[space_id] = house_id
        draft.emit("agent", house_id, space=space_id)
    if space.faction is not None:
        # Sending an Agent to a Faction space gives 1 Influence there [RB p.7].
        draft.queue.append(Task("influence", house_id, faction=space.faction, amount=1))
    if space.maker:
        bonus = draft.bonus_spice.get(space_id, 0)
        draft.bonus_spice[space_id] = 0
        draft.emit("harvest", house_id, space=space_id, spice=space.base_spice + bonus, bonus=bonus)
    if space_id == "mentat" and not any(h.mentat for h in draft.houses.values()):
        # The Mentat is taken only if it is on its space [RB icon guide].
        draft.put(house_id, mentat=True)
        draft.emit("mentat_taken", house_id)
    if space_id == "swordmaster":
        draft.put(house_id, agents=3, swordmaster=True)
        draft.emit("swordmaster", house_id)
    if space_id == "high_council":
        draft.put(house_id, council_seat=True)
        draft.emit("council_seat", house_id)
    if space_id == "secrets":
        # Each opponent with 4+ Intrigue gives one at random; rivals too [RB p.19, p.18].
        for rid in draft.rivals():
            if draft.house(rid).intrigue >= 4:
                draft.put(rid, intrigue=draft.house(rid).intrigue - 1)
                draft.emit("secrets_steal", house_id, rival=rid)
    if draft.ix:
        # The space's Rise of Ix icons, each optional for the player [IX pp.4-6].
        if space.dreadnought:
            draft.queue.append(Task("commission", house_id))
        if space.ix_choose_one:
            draft.queue.append(Task("tech_negotiation", house_id))
        elif space.acquire_tech:
            draft.queue.append(Task("acquire_tech", house_id, discount=space.tech_discount))
        draft.queue.extend(Task("freighter", house_id) for _ in range(space.freighter))
    if space.control_bonus is not None:
        draft.queue.append(Task("control_bonus", house_id, space=space_id))
    draft.queue.append(Task("next_turn", house_id, via="agent"))


def reveal(draft: Draft, house_id: str) -> None:
    """A player's Reveal turn: they play no more Agents this round."""
    _own_turn(draft, house_id)
    draft.put(house_id, revealed=True)
    draft.emit("reveal", house_id)
    if draft.solo and draft.setup.options.churn:
        # Dice churn: 2d6, trash the Imperium Row card at each position 1-5; 6s are
        # ignored and doubles trash one card [HAGAL §6 solo variants].
        rng = draft.random()
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        draft.emit("churn", house_id, dice=dice, positions=sorted({d for d in dice if d <= 5}))
    draft.queue.append(Task("next_turn", house_id, via="reveal"))


def voice(draft: Draft, house_id: str, space_id: str) -> None:
    """The Voice marks a space for opponents until its owner's next turn [RB p.13]."""
    _own_turn(draft, house_id)
    if space_id not in draft.board():
        raise IllegalAction(N_("This space is not on the board in this game."))
    if space_id in draft.voice:
        raise IllegalAction(N_("That space is already marked by The Voice."))
    # The mark stops opponents until the player's next turn [RB p.13 clarification].
    draft.voice[space_id] = house_id
    draft.emit("voice", house_id, space=space_id)


def ix_problem(draft: Draft, action: Freighter | Dreadnought | Tech) -> Message | None:
    """Why a player can't use this Rise of Ix icon now [IX pp.4-6], or None."""
    house = draft.houses.get(action.house)
    if house is None or not house.is_human:
        return Message(N_("Only a player at the table uses this."))
    if not draft.ix:
        return Message(N_("This comes with the Rise of Ix expansion."))
    if draft.prompt is not None:
        return Message(N_("First answer the question on screen."))
    if draft.phase == "ended":
        return Message(N_("The game is over."))
    match action:
        case Freighter(op="advance"):
            if house.freighter >= TRACK_TOP:
                return Message(N_("The Freighter is on the top step: recall it."))
        case Freighter(op="recall"):
            if house.freighter == 0:
                return Message(N_("The Freighter is already at the bottom of the track."))
        case Dreadnought(op="commission"):
            if house.dn_supply <= 0:
                return Message(N_("Both dreadnoughts are already commissioned."))
        case Dreadnought(op="deploy"):
            if draft.phase != "agents":
                return Message(
                    N_("Units are deployed on Agent turns (an Agent sent to a Combat space).")
                )
            if house.dn_garrison <= 0:
                return Message(N_("No dreadnought in the garrison."))
        case Tech(op="acquire", tile=tile):
            if tile == UNKNOWN_TILE or all(top != tile for _, top in ix.face_up(draft)):
                return Message(N_("Choose a face-up Tech tile."))
        case Tech(op="negotiator"):
            if house.supply <= 0:
                # A Negotiator is a troop from the supply [IX p.4].
                return Message(N_("No troop left in your supply for a Negotiator."))
        case Tech(op="trash", tile=tile):
            if tile not in house.tech:
                return Message(N_("You don't own that Tech tile."))
        case _:
            return Message(N_("Unknown choice."))
    return None


def ix_icon(draft: Draft, action: Freighter | Dreadnought | Tech) -> None:
    """A Rise of Ix icon a player used from a card the app can't see [IX pp.4-6]."""
    problem = ix_problem(draft, action)
    if problem is not None:
        raise IllegalAction(problem)
    house = draft.house(action.house)
    match action:
        case Freighter(op="advance"):
            ix.advance(draft, action.house)
        case Freighter(op="recall"):
            ix.recall(draft, action.house)
        case Dreadnought(op="commission"):
            ix.commission(draft, action.house)
        case Dreadnought(op="deploy"):
            draft.put(
                action.house, dn_garrison=house.dn_garrison - 1, dn_conflict=house.dn_conflict + 1
            )
            draft.emit("deploy", action.house, troops=0, dreadnoughts=1)
        case Tech(op="acquire", tile=tile):
            stack = next(k for k, top in ix.face_up(draft) if top == tile)
            ix.player_takes(draft, action.house, stack)
        case Tech(op="negotiator"):
            draft.put(action.house, negotiators=house.negotiators + 1)
            draft.emit("negotiator", action.house, count=house.negotiators + 1)
        case Tech(op="trash", tile=tile):
            draft.put(action.house, tech=tuple(t for t in house.tech if t != tile))
            draft.tech_trash.append(tile)
            draft.emit("tech_trash", action.house, tile=tile)
            if tile == "spy_satellites":
                # Pay 3 spice and trash it: +1 VP (Spy Satellites tile).
                draft.gain_vp(action.house, 1, "tech", tile)


def choose_problem(draft: Draft, option: str) -> Message | None:
    """Why this is not an answer to the question on screen, or None."""
    p = draft.prompt
    if p is None:
        return Message(N_("There is no question to answer now."))
    if p.number:
        try:
            value = int(option)
        except (TypeError, ValueError):
            return Message(N_("Enter a whole number."))
        if not p.minimum <= value <= p.maximum:
            return Message(N_("Enter a number from %(lo)s to %(hi)s."), lo=p.minimum, hi=p.maximum)
    elif option not in p.options:
        return Message(N_("That is not one of the choices."))
    return None


def answer(draft: Draft, option: str) -> None:
    """The table answers the question on screen: the asking task resumes with the answer."""
    problem = choose_problem(draft, option)
    if problem is not None:
        raise IllegalAction(problem)
    p = draft.prompt
    assert p is not None
    if p.number:
        option = str(int(option))
    draft.prompt = None
    draft.queue.insert(0, p.task.answered(option))

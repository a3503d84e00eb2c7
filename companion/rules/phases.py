"""The round's phases: round start and the Conflict card, whose turn it is, the end of
Combat, the Makers and the Recall [RB pp.8-12 Phases 1-5; RB p.19-20 for rivals]."""

from __future__ import annotations

from companion.rules import ix
from companion.rules.draft import Draft
from companion.rules.setup import swordmaster_round
from companion.rules.state import (
    House,
    Task,
)


def _start_round(draft: Draft, task: Task) -> None:
    """Phase 1: a new round; its Conflict card is revealed next."""
    draft.round += 1
    draft.phase = "round_start"
    if draft.ix:
        ix.round_start(draft)
    if draft.mentat_claim is not None:
        # Sort Through the Chaos: the winner takes the Mentat at the start of the next
        # round [FAQ]; a Conflict reward Mentat is kept for next round [RB icon guide].
        draft.put(draft.mentat_claim, mentat=True)
        draft.emit("mentat_claimed", draft.mentat_claim)
        draft.mentat_claim = None
    draft.queue.insert(0, Task("reveal_conflict"))


def _reveal_conflict(draft: Draft, task: Task) -> None:
    """Reveal the round's Conflict card (the table says which with physical cards) and
    start the Agent turns."""
    slot = draft.conflict_deck[0]
    card = slot.card
    if card is None:
        answer = task.answer
        if answer is None:
            seen = set(draft.conflicts_done)
            options = [
                c.id
                for c in draft.catalog.conflicts.values()
                if c.level == slot.level and c.set in draft.setup.sets and c.id not in seen
            ]
            draft.ask(
                "conflict_card",
                draft.first if draft.house(draft.first).is_human else draft.deciders(),
                task,
                options,
            )
            return
        card = answer
    draft.conflict_deck.pop(0)
    draft.conflict = card
    draft.conflicts_done.append(card)
    conflict = draft.catalog.conflicts[card]
    draft.emit("conflict", None, card=card, level=conflict.level)
    if swordmaster_round(draft.setup) == draft.round:
        # Rival Swordmasters arrive when the card above them is revealed [RB p.20].
        for rid in draft.rivals():
            draft.put(rid, agents=3, swordmaster=True)
            draft.emit("rival_swordmaster", rid)
    space = conflict.controlled_space
    holder = draft.controller(space) if space else None
    if holder is not None:
        # Defensive bonus: the controller may deploy 1 troop from supply [RB p.9]; a
        # dreadnought on the flag gives it to its owner [IX p.6].
        if draft.house(holder).is_human:
            draft.emit("defensive_bonus", holder, space=space, deployed=None)
        elif draft.house(holder).supply > 0:
            draft.put(holder, troops=draft.house(holder).troops + 1)
            draft.emit("defensive_bonus", holder, space=space, deployed=1)
    draft.phase = "agents"
    _next_turn(draft, None)


def _end_turn(draft: Draft, task: Task) -> None:
    """After a turn, hand the turn on [RB p.8]."""
    # Two players: House Hagal acts after each Agent turn of the First Player, while it
    # has an Agent left [RB p.19].
    if draft.setup.mode == "2p" and task.house == draft.first and task.via == "agent":
        hid = "hagal"
        if draft.house(hid).agents_left > 0 and not draft.house(hid).passed:
            draft.turn = hid
            draft.recruited = 0
            draft.queue.insert(0, Task("next_turn", hid, via="hagal"))
            draft.queue.insert(0, Task("rival_turn", hid))
            return
    after = draft.first if task.house == "hagal" else task.house
    _next_turn(draft, after)


def _can_act(house: House) -> bool:
    """A player acts until their Reveal turn; a rival while it has an Agent left."""
    if house.is_human:
        return not house.revealed
    return house.agents_left > 0 and not house.passed


def _next_turn(draft: Draft, after: str | None) -> None:
    """Hand the turn to the next house that can still act [RB p.8], or start Combat."""
    order = draft.order()
    if after is not None:
        i = order.index(after)
        order = order[i + 1 :] + order[: i + 1]
    for hid in order:
        if _can_act(draft.house(hid)):
            draft.turn = hid
            for space, owner in list(draft.voice.items()):
                if owner == hid:
                    del draft.voice[space]  # The Voice lasts until its owner's next turn
            if not draft.house(hid).is_human:
                draft.recruited = 0
                draft.queue.insert(0, Task("next_turn", hid, via="rival"))
                draft.queue.insert(0, Task("rival_turn", hid))
            return
    draft.turn = None
    draft.phase = "combat"
    draft.emit("phase", None, phase="combat")
    humans = draft.humans()
    # From the First Player clockwise, as they play Combat Intrigue cards [RB p.11].
    asked = draft.order() if draft.setup.options.strengths_from_first else humans
    draft.queue[0:0] = [
        Task("combat_bonus"),
        *(Task("strength", h) for h in asked if h in humans),
        Task("resolve"),
    ]


def _end_combat(draft: Draft, task: Task) -> None:
    """Troops in the Conflict go back to supply; combat markers reset [RB p.12]."""
    for hid, house in list(draft.houses.items()):
        if house.troops or house.swords or house.strength:
            draft.put(hid, troops=0, swords=0, strength=0)
    if draft.ix:
        ix.end_posts(draft)
    draft.phase = "makers"
    draft.queue.insert(0, Task("makers"))


def _makers_phase(draft: Draft, task: Task) -> None:
    """1 bonus spice on each Maker space with no Agent [RB p.12 Phase 4]."""
    grown = []
    for space in draft.board().values():
        if space.maker and space.id not in draft.occupants:
            draft.bonus_spice[space.id] = draft.bonus_spice.get(space.id, 0) + 1
            grown.append(space.id)
    draft.emit("makers", None, spaces=grown)
    draft.phase = "recall"
    draft.queue.insert(0, Task("recall"))


def _recall_phase(draft: Draft, task: Task) -> None:
    """End check, then Mentat back, recall, First Player passes [RB p.12 Phase 5]."""
    goal = draft.setup.vp_to_end
    leaders = [h for h in draft.houses.values() if h.kind != "hagal" and h.vp >= goal]
    if leaders or not draft.conflict_deck:
        draft.phase = "ended"
        draft.turn = None
        draft.end_reason = "vp" if leaders else "conflict_deck"
        draft.emit("game_end", None, reason=draft.end_reason, goal=goal)
        if draft.ix:
            ix.endgame(draft)
        return
    agents = _agents_by_house(draft)
    mentat = next((hid for hid, h in draft.houses.items() if h.mentat), None)
    for hid in list(draft.houses):
        draft.put(hid, placed=0, mentat=False, revealed=False, passed=False)
    draft.occupants.clear()
    draft.infiltrators.clear()
    draft.voice.clear()
    seats = draft.seats()
    draft.first = seats[(seats.index(draft.first) + 1) % len(seats)]
    draft.emit("recall", None, first=draft.first, agents=agents, mentat=mentat)
    next_step = "round_end" if draft.setup.options.round_end else "start_round"
    draft.queue.insert(0, Task(next_step))


def _round_end(draft: Draft, task: Task) -> None:
    """Wait for the table to finish the round's chores (rewards, bonus spice, recall, First
    Player marker [RB p.12 Phases 3-5]) before the next round starts [RB p.8 Phase 1]."""
    if task.answer is None:
        asker = draft.first if draft.house(draft.first).is_human else draft.deciders()
        draft.ask("round_end", asker, task, ("start",))
        return
    draft.queue.insert(0, Task("start_round"))


def _agents_by_house(draft: Draft) -> dict[str, list[str]]:
    """The spaces each house's Agents are on, before the Recall."""
    agents: dict[str, list[str]] = {}
    for space, hid in draft.occupants.items():
        agents.setdefault(hid, []).append(space)
    for space, hid in draft.infiltrators:
        agents.setdefault(hid, []).append(space)
    return agents


HANDLERS = {
    "round_end": _round_end,
    "start_round": _start_round,
    "reveal_conflict": _reveal_conflict,
    "next_turn": _end_turn,
    "end_combat": _end_combat,
    "makers": _makers_phase,
    "recall": _recall_phase,
}

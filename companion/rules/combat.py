"""Combat: strengths, placements and the rewards of the Conflict card [RB p.12; FAQ
Conflict], also used for the Acquire effect of a Tech tile [IX p.4]."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from companion.rules.catalog import FACTIONS, Reward
from companion.rules.draft import Draft
from companion.rules.state import (
    MAX_STRENGTH,
    GameState,
    House,
    Task,
)
from companion.rules.text import REWARD_KINDS

PLACES = ("first", "second", "third")


def _enter_strength(draft: Draft, task: Task) -> None:
    """Ask a player's strength in this Combat and record it [RB p.12]."""
    answer = task.answer
    if answer is None:
        draft.ask(
            "strength",
            task.house,
            task,
            minimum=0,
            maximum=MAX_STRENGTH,
            default=draft.house(task.house).strength,
        )
        return
    draft.put(task.house, strength=int(answer))
    draft.emit("strength", task.house, strength=int(answer))


def strengths(state: GameState) -> dict[str, int]:
    """Each house's strength now: entered for humans, troops and swords for rivals."""
    return _strengths(state.houses)


def _strengths(houses: Iterable[House]) -> dict[str, int]:
    return {h.id: (h.strength if h.is_human else h.rival_strength) for h in houses}


def placements(power: dict[str, int], four_players: bool = False) -> dict[str, str]:
    """Who gets which reward [RB p.12 Resolve Combat and Ties; FAQ Conflict].

    Strength 0 gets nothing. A tie for first: no winner, the tied each get the second
    reward. A tie for second: the tied each get the third reward, which exists only with
    four players ("In a 4-player game (only)"; with three "the third-place reward isn't
    available"), so with three combatants they get nothing. A lone third gets the third
    reward only with four players; ties for third get nothing.

    Three of four tied for first (RB p.12 speaks only of two): our ruling, in
    card_db/rulings.toml, is that each gets the second reward and the fourth, if it has
    strength, still competes for the third reward, which no tie used up.

    >>> placements({"a": 8, "b": 8, "c": 4})
    {'a': 'second', 'b': 'second'}
    >>> placements({"a": 9, "b": 4, "c": 4})
    {'a': 'first'}
    >>> placements({"a": 9, "b": 4, "c": 4, "d": 1}, four_players=True)
    {'a': 'first', 'b': 'third', 'c': 'third'}
    >>> placements({"a": 7, "b": 7, "c": 7, "d": 2}, four_players=True)
    {'a': 'second', 'b': 'second', 'c': 'second', 'd': 'third'}
    """
    groups: list[list[str]] = []
    for hid, value in sorted(power.items(), key=lambda kv: -kv[1]):
        if value <= 0:
            break
        if groups and power[groups[-1][0]] == value:
            groups[-1].append(hid)
        else:
            groups.append([hid])
    out: dict[str, str] = {}
    rank = 0  # the place the next group competes for, as an index into PLACES
    for group in groups:
        if rank >= 2:
            if rank == 2 and len(group) == 1 and four_players:
                out[group[0]] = "third"
            break
        if len(group) == 1:
            out[group[0]] = PLACES[rank]
            rank += 1
        else:
            if rank == 0 or four_players:
                out.update(dict.fromkeys(group, PLACES[rank + 1]))
            # A tie takes its place's reward and the next one out of play, however many
            # tie: after a tie for first the others still compete for the third [RB p.12].
            rank += 2
    return out


def _resolve_combat(draft: Draft, task: Task) -> None:
    """Rank the strengths and queue each house's reward [RB p.12; FAQ Conflict]; House
    Hagal takes none [RB p.19]."""
    assert draft.conflict is not None
    conflict = draft.catalog.conflicts[draft.conflict]
    power = _strengths(draft.houses.values())
    places = placements(power, four_players=draft.setup.players == 4)
    draft.emit("combat", None, card=draft.conflict, strengths=power, places=places)
    tasks: list[Task] = []
    for place in PLACES:
        for hid in (h for h in draft.houses if places.get(h) == place):
            if draft.house(hid).kind == "hagal":
                space = conflict.controlled_space
                if place == "first" and space is not None and space in draft.control:
                    # House Hagal never takes rewards, but its win removes the
                    # controller's marker [RB p.19].
                    draft.emit("control_removed", draft.control[space], space=space)
                    del draft.control[space]
                continue
            tasks.append(Task("reward", hid, place=place))
    if draft.ix:
        winner = next((h for h, place in places.items() if place == "first"), "")
        tasks.append(Task("dreadnoughts", winner))
    tasks.append(Task("end_combat"))
    draft.queue[0:0] = tasks


def _give_reward(draft: Draft, task: Task) -> None:
    """One house's reward of the Conflict card for its place [RB p.12]."""
    assert draft.conflict is not None
    conflict = draft.catalog.conflicts[draft.conflict]
    reward: Reward = getattr(conflict, task.place)
    draft.emit("reward", task.house, place=task.place, card=conflict.id)
    draft.queue[0:0] = _reward_tasks(draft, task.house, reward, task.place)
    house = draft.house(task.house)
    if task.place == "first" and house.kind == "rival" and house.owns("windtraps"):
        # Windtraps: +1 water when you win a Conflict; a Rival uses its tiles like a
        # player [IX p.9].
        draft.put(task.house, water=house.water + 1)
        draft.emit("tech_income", task.house, tile="windtraps", water=1)


def _reward_tasks(draft: Draft, hid: str, reward: Reward, place: str) -> list[Task]:
    """Rivals take every kind of reward [RB p.20]; humans get VP, Influence and control
    recorded and are told the rest."""
    house = draft.house(hid)
    tasks: list[Task] = []
    if reward.vp:
        draft.gain_vp(hid, reward.vp, "conflict", draft.conflict or "")
    if house.is_human:
        told = {
            k: getattr(reward, k)
            for k in ("solari", "spice", "water", "intrigue", "troops")
            if getattr(reward, k)
        }
        if told or reward.trash or reward.choose:
            draft.emit(
                "take",
                hid,
                **told,
                trash=reward.trash,
                choose=reward.choose,
                options=[_reward_amounts(o) for o in reward.options],
            )
    else:
        draft.put(
            hid,
            solari=house.solari + reward.solari,
            spice=house.spice + reward.spice,
            water=house.water + reward.water,
            intrigue=house.intrigue + reward.intrigue,
        )
        if reward.troops:
            tasks.append(Task("recruit", hid, amount=reward.troops))
        if reward.choose:
            tasks.append(
                Task(
                    "choose_reward",
                    hid,
                    place=place,
                    picks=reward.choose,
                    options=tuple(str(i) for i in range(len(reward.options))),
                )
            )
    if reward.influence:
        tasks.insert(
            0,
            Task(
                "choose_influence",
                hid,
                amount=reward.influence,
                picks=reward.influence_factions,
                options=FACTIONS,
            ),
        )
    tasks.extend(Task("freighter", hid) for _ in range(reward.freighter))
    tasks.extend(Task("offer", hid, place=place, offer=i) for i in range(len(reward.offers)))
    if reward.control is not None:
        draft.control[reward.control] = hid
        draft.emit("control", hid, space=reward.control)
    if reward.mentat:
        draft.mentat_claim = hid
        draft.emit("mentat_won", hid)
    return tasks


def _reward_amounts(reward: Reward) -> dict[str, int]:
    """What a reward option gives, by kind (the log words it: `text.reward_phrase`)."""
    return {k: getattr(reward, k) for k in REWARD_KINDS if getattr(reward, k)}


def _choose_reward(draft: Draft, task: Task) -> None:
    """A Rival's choice of reward not about Influence: the table decides [RB p.20]."""
    options = task.options
    answer = task.answer
    if answer is None:
        draft.ask("rival_reward", task.house, task, options)
        return
    assert draft.conflict is not None
    reward: Reward = getattr(draft.catalog.conflicts[draft.conflict], task.place)
    chosen = reward.options[int(answer)]
    draft.emit("reward_choice", task.house, reward=_reward_amounts(chosen))
    tasks = _reward_tasks(draft, task.house, chosen, task.place)
    if task.picks > 1:
        tasks.append(
            Task(
                "choose_reward",
                task.house,
                place=task.place,
                picks=task.picks - 1,
                options=tuple(o for o in options if o != answer),
            )
        )
    draft.queue[0:0] = tasks


def _give_tech_reward(draft: Draft, task: Task) -> None:
    """A Tech tile's Acquire effect [IX p.4]: its VP are scored for everyone; a Rival takes
    the rest, a player is told (Influence is chosen and recorded)."""
    tech = draft.catalog.tech[task.tile]
    reward = tech.acquire_reward
    draft.gain_vp(task.house, reward.vp, "tech", tech.id)
    rest = replace(reward, vp=0)
    if not rest.is_empty():
        draft.queue[0:0] = _reward_tasks(draft, task.house, rest, "")


HANDLERS = {
    "strength": _enter_strength,
    "resolve": _resolve_combat,
    "reward": _give_reward,
    "choose_reward": _choose_reward,
    "tech_reward": _give_tech_reward,
}

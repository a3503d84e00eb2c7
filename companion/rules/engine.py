"""The game engine: `new_game`, `apply`, `replay` and `legal_actions`.

`apply(state, action)` is pure. It copies the state into a mutable draft (`Draft`), applies
the action, then runs every automatic step (rival turns, phase changes) until the table
must answer or act again, and freezes the draft into a new `GameState`.

Rules are cited as: [RB p.N] base rulebook, [FAQ] Errata & FAQ 2022-02-14, and
[HAGAL §N] for shared/rules/HAGAL.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from companion.rules import hagal, ix
from companion.rules.actions import (
    HUMAN_ADJUSTABLE,
    IX_FIELDS,
    VP_REASONS,
    Acquire,
    Action,
    Adjust,
    Choose,
    CornerTheMarket,
    Dreadnought,
    Freighter,
    IllegalAction,
    PlaceAgent,
    Reveal,
    SetControl,
    SetTiebreak,
    Tech,
    Voice,
)
from companion.rules.catalog import FACTIONS, Catalog, Reward
from companion.rules.draft import Draft
from companion.rules.state import (
    FACTION_INDEX,
    MAX_INFLUENCE,
    TRACK_TOP,
    TROOPS_PER_HOUSE,
    Acquisition,
    ConflictSlot,
    GameState,
    House,
    Setup,
    Task,
    VpEntry,
)

# Difficulty table [RB p.20]: rival garrison, rival Intrigue, conflict cards above the
# rival Swordmasters (= the round they arrive), 5-Solari Mentat.
DIFFICULTY = {
    "mercenary": {"garrison": 0, "intrigue": 0, "swordmaster_round": 5, "mentat_cost": 2},
    "sardaukar": {"garrison": 3, "intrigue": 1, "swordmaster_round": 4, "mentat_cost": 5},
    "mentat": {"garrison": 3, "intrigue": 1, "swordmaster_round": 3, "mentat_cost": 5},
    "kwisatz": {"garrison": 3, "intrigue": 1, "swordmaster_round": 3, "mentat_cost": 5},
}
EXPERT_DEPLOYMENT = ("mentat", "kwisatz")  # "Expert" = Mentat; Kwisatz Haderach is Expert+
EXPERT_LEAD = 4  # [FAQ] Solo Play: leading by 4 strength or more (HAGAL §9 verdict)
CONFLICT_LEVELS = ((1, 1), (2, 5), (3, 4))  # [RB p.4] setup B: 1 x I, 5 x II, 4 x III
EPIC_LEVELS = ((2, 5), (3, 5))  # [IX p.10] Epic: no Conflict I, 5 x II over 5 x III
MAX_STRENGTH = 200
# What House Hagal has to correct: units, swords, Influence and its Freighter [RB p.19].
HAGAL_FIELDS = ("garrison", "troops", "swords", "freighter", "dn_garrison", "dn_conflict")


# -- public API --------------------------------------------------------------------------


def new_game(setup: Setup, catalog: Catalog) -> GameState:
    """Set up a game [RB pp.4-5, p.19 Two-Player, p.20 Solo] and run to the first question."""
    _check_setup(setup, catalog)
    houses: list[House] = []
    for i, seat in enumerate(setup.humans):
        houses.append(
            House(
                id=f"p{i + 1}", kind="human", name=seat.name, leader=seat.leader, color=seat.color
            )
        )
    if setup.mode == "solo":
        assert setup.difficulty is not None
        diff = DIFFICULTY[setup.difficulty]
        garrison, intrigue = diff["garrison"], diff["intrigue"]
        if setup.options.epic:
            # Epic [IX p.10]: "each player" starts with 5 garrison troops "instead of 3"
            # and draws an Intrigue card. Our ruling for Rivals: those starting with 3
            # troops get 5 (Mercenary Rivals start with none and keep none), and every
            # Rival draws the Intrigue card.
            garrison = 5 if garrison == 3 else garrison
            intrigue += 1
        for i, seat in enumerate(setup.rivals):
            # Everyone starts with 1 water, rivals with the difficulty's extras [RB p.20].
            houses.append(
                House(
                    id=f"r{i + 1}",
                    kind="rival",
                    name=seat.name,
                    leader=seat.leader,
                    color=seat.color,
                    water=1,
                    garrison=garrison,
                    intrigue=intrigue,
                )
            )
        first = "r1"  # the Rival on your left takes the First Player marker [RB p.20]
    else:
        seat = setup.rivals[0]
        # House Hagal: three Agents, no troops in its garrison, no resources [RB p.19].
        houses.append(
            House(id="hagal", kind="hagal", name=seat.name, leader="", color=seat.color, agents=3)
        )
        first = f"p{setup.first_player + 1}"
    state = GameState(
        catalog=catalog,
        setup=setup,
        houses=tuple(houses),
        first=first,
        bonus_spice={s.id: 0 for s in catalog.board(setup.sets).values() if s.maker},
    )
    draft = Draft(state)
    draft.hagal_deck = hagal_cards(setup, catalog)
    if setup.options.physical_hagal:
        draft.hagal_deck.sort()
    else:
        draft.random().shuffle(draft.hagal_deck)
    draft.conflict_deck = _conflict_deck(draft)
    draft.emit("setup", mode=setup.mode, difficulty=setup.difficulty, first=first)
    if draft.ix:
        ix.setup_tech(draft)
    draft.queue.append(Task("start_round"))
    _run(draft)
    return draft.freeze()


def apply(state: GameState, action: Action) -> GameState:
    """Apply one action and every automatic step after it; raise IllegalAction if not allowed."""
    draft = Draft(state)
    _apply(draft, action)
    return draft.freeze()


def replay(state: GameState, actions: Iterable[Action]) -> GameState:
    """Apply a whole log in one draft (the fast path for loading a game)."""
    draft = Draft(state)
    for action in actions:
        _apply(draft, action)
    return draft.freeze()


def legal_actions(state: GameState) -> list[Action]:
    """The flow actions allowed now (answers, placements, reveal); corrections not listed."""
    p = state.prompt
    if p is not None:
        if p.number:
            return [Choose(str(v)) for v in range(p.minimum, p.maximum + 1)]
        return [Choose(o) for o in p.options]
    if state.phase == "agents" and state.turn is not None:
        house = state.house(state.turn)
        if house.is_human:
            draft = Draft(state)
            out: list[Action] = [
                PlaceAgent(house.id, sid)
                for sid in draft.board()
                if _space_problem(draft, house.id, sid) is None
            ]
            out.append(Reveal(house.id))
            return out
    return []


def space_problems(
    state: GameState, house_id: str, infiltrate: bool = False
) -> dict[str, str | None]:
    """For each board space: why `house_id` can't send an Agent there now (with
    Infiltration if `infiltrate`), or None."""
    draft = Draft(state)
    return {sid: _space_problem(draft, house_id, sid, infiltrate) for sid in draft.board()}


def hagal_cards(setup: Setup, catalog: Catalog) -> list[str]:
    """The House Hagal deck for the mode: 1P or 2P cards removed [RB p.19-20; HAGAL §6]."""
    drop = "2P" if setup.mode == "solo" else "1P"
    cards: list[str] = []
    for card in catalog.hagal.values():
        if card.set not in setup.sets or card.players == drop:
            continue
        if any(s in setup.sets for s in card.removed_with):
            continue
        cards.extend([card.id] * card.copies)
    return cards


def mentat_cost(setup: Setup) -> int:
    """The Mentat space costs 5 Solari with the token from Sardaukar difficulty up [RB p.20]."""
    if setup.mode == "solo" and setup.difficulty is not None:
        return DIFFICULTY[setup.difficulty]["mentat_cost"]
    return 2


def swordmaster_round(setup: Setup) -> int | None:
    """The round whose Conflict card sits right above the rival Swordmasters [RB p.20]."""
    if setup.mode != "solo" or setup.difficulty is None:
        return None
    return DIFFICULTY[setup.difficulty]["swordmaster_round"]


# -- setup -------------------------------------------------------------------------------


def _check_setup(setup: Setup, catalog: Catalog) -> None:
    problems: list[str] = []
    if setup.mode not in ("solo", "2p"):
        problems.append(f"Unknown mode {setup.mode!r}.")
    elif setup.mode == "solo":
        if len(setup.humans) != 1 or len(setup.rivals) != 2:
            problems.append("A solo game has one player and two Rivals.")
        if setup.difficulty not in DIFFICULTY:
            problems.append(
                "Choose a difficulty: Mercenary, Sardaukar, Mentat or Kwisatz Haderach."
            )
        for seat in setup.rivals:
            leader = catalog.leaders.get(seat.leader)
            if leader is None:
                problems.append(f"Unknown leader {seat.leader!r} for a Rival.")
            elif not leader.rival_allowed:
                problems.append(f"{leader.name} can't be a Rival (rulebook p.20).")
        if len({s.leader for s in setup.rivals}) < len(setup.rivals):
            problems.append("The two Rivals need different leaders.")
    else:
        if len(setup.humans) != 2 or len(setup.rivals) != 1:
            problems.append("A two-player game has two players and House Hagal.")
        if setup.difficulty is not None:
            problems.append("Difficulty applies to solo games only.")
        if not 0 <= setup.first_player < max(1, len(setup.humans)):
            problems.append("The first player must be one of the two players.")
        if setup.options.brutal_escalation or setup.options.churn:
            problems.append(
                "Brutal Escalation and the Imperium Row churn are solo variants "
                "(Rise of Ix rulebook p.9)."
            )
    for seat in setup.humans:
        if seat.leader not in catalog.leaders:
            problems.append(f"Unknown leader {seat.leader!r}.")
    for seat in (*setup.humans, *setup.rivals):
        leader = catalog.leaders.get(seat.leader)
        if leader is not None and leader.set not in setup.sets:
            problems.append(f"{leader.name} needs the Rise of Ix expansion.")
    leaders = [s.leader for s in setup.humans] + [s.leader for s in setup.rivals if s.leader]
    if len(set(leaders)) < len(leaders):
        problems.append("Each leader can be used only once.")
    colors = [s.color for s in setup.humans + setup.rivals]
    if len(set(colors)) < len(colors):
        problems.append("Each house needs its own color.")
    if any(not s.name.strip() for s in setup.humans + setup.rivals):
        problems.append("Every house needs a name.")
    if "base" not in setup.sets or any(s not in ("base", "ix") for s in setup.sets):
        problems.append("Unknown card sets.")
    elif "ix" not in setup.sets and (setup.options.epic or setup.options.physical_tech):
        problems.append("Epic mode and Tech tiles need the Rise of Ix expansion.")
    if problems:
        raise IllegalAction(" ".join(problems))


def _conflict_deck(draft: Draft) -> list[ConflictSlot]:
    """1 Conflict I on top of 5 Conflict II on top of 4 Conflict III [RB p.4]."""
    levels = EPIC_LEVELS if draft.setup.options.epic else CONFLICT_LEVELS
    if draft.setup.options.physical_conflicts:
        return [ConflictSlot(level, None) for level, n in levels for _ in range(n)]
    rng = draft.random()
    deck: list[ConflictSlot] = []
    for level, n in levels:
        ids = [
            c.id
            for c in draft.catalog.conflicts.values()
            if c.level == level and c.set in draft.setup.sets
        ]
        deck.extend(ConflictSlot(level, cid) for cid in rng.sample(ids, n))
    return deck


# -- action handling ---------------------------------------------------------------------


def _apply(draft: Draft, action: Action) -> None:
    draft.step += 1
    match action:
        case Choose(option=option):
            _answer(draft, option)
        case PlaceAgent(house=house, space=space, infiltrate=infiltrate):
            _place_human(draft, house, space, infiltrate)
        case Reveal(house=house):
            _reveal(draft, house)
        case Voice(house=house, space=space):
            _voice(draft, house, space)
        case Adjust():
            _adjust(draft, action)
        case SetControl(space=space, house=house):
            _set_control(draft, space, house)
        case SetTiebreak():
            _set_tiebreak(draft, action)
        case CornerTheMarket():
            _corner_the_market(draft, action)
        case Acquire():
            _acquire(draft, action)
        case Freighter() | Dreadnought() | Tech():
            _ix_action(draft, action)
        case _:
            raise IllegalAction("Unknown action.")
    _run(draft)


def _own_turn(draft: Draft, house: str) -> None:
    if house not in draft.houses or not draft.houses[house].is_human:
        raise IllegalAction("Only a player at the table can take this turn.")
    if draft.prompt is not None:
        raise IllegalAction("First answer the question on screen.")
    if draft.phase != "agents":
        raise IllegalAction("Agent and Reveal turns are taken in Phase 2 only.")
    if draft.turn != house:
        who = draft.houses[draft.turn].name if draft.turn else "nobody"
        raise IllegalAction(f"It is not {draft.houses[house].name}'s turn (now: {who}).")


def _space_problem(
    draft: Draft, house_id: str, space_id: str, infiltrate: bool = False
) -> str | None:
    """Why a human can't send an Agent to this space now [RB pp.8-9], or None.

    Infiltration lets an Agent past enemy Agents, never past The Voice or the player's
    own Agent [IX p.7].
    """
    space = draft.board().get(space_id)
    house = draft.houses[house_id]
    if space is None:
        return "This space is not on the board in this game."
    if infiltrate:
        here = [draft.occupants.get(space_id)] + [h for s, h in draft.infiltrators if s == space_id]
        if not draft.ix:
            return "Infiltration comes with Rise of Ix cards."
        if here[0] is None:
            return "Nobody is there: send the Agent normally."
        if house_id in here:
            return "You already have an Agent there: infiltration works against enemy Agents only."
    elif space_id in draft.occupants:
        return f"{draft.houses[draft.occupants[space_id]].name} already has an Agent there."
    blocker = draft.voice.get(space_id)
    if blocker is not None and blocker != house_id:
        return f"{draft.houses[blocker].name} blocked it with The Voice."
    if house.agents_left <= 0:
        return "No Agent left: take your Reveal turn."
    for faction, need in space.requires_influence.items():
        if house.inf(faction) < need:
            return f"Needs {need} {faction.replace('_', ' ').title()} Influence."
    if space_id == "swordmaster":
        if house.swordmaster:
            return "You already have your Swordmaster."
        if draft.solo and draft.setup.difficulty == "kwisatz":
            return "At Kwisatz Haderach difficulty you can't gain a Swordmaster (rulebook p.20)."
    if space_id == "high_council" and house.council_seat:
        return "You already have a seat on the High Council."
    return None


def _place_human(draft: Draft, house_id: str, space_id: str, infiltrate: bool = False) -> None:
    _own_turn(draft, house_id)
    problem = _space_problem(draft, house_id, space_id, infiltrate)
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
        draft.queue.append(Task("influence", house_id, space.faction, 1))
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
            draft.queue.append(Task("acquire_tech", house_id, "", space.tech_discount))
        draft.queue.extend(Task("freighter", house_id) for _ in range(space.freighter))
    if space.control_bonus is not None:
        draft.queue.append(Task("control_bonus", house_id, space_id))
    draft.queue.append(Task("next_turn", house_id, "agent"))


def _reveal(draft: Draft, house_id: str) -> None:
    _own_turn(draft, house_id)
    draft.put(house_id, revealed=True)
    draft.emit("reveal", house_id)
    if draft.solo and draft.setup.options.churn:
        # Dice churn: 2d6, trash the Imperium Row card at each position 1-5; 6s are
        # ignored and doubles trash one card [HAGAL §6 solo variants].
        rng = draft.random()
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        draft.emit("churn", house_id, dice=dice, positions=sorted({d for d in dice if d <= 5}))
    draft.queue.append(Task("next_turn", house_id, "reveal"))


def _voice(draft: Draft, house_id: str, space_id: str) -> None:
    _own_turn(draft, house_id)
    if space_id not in draft.board():
        raise IllegalAction("This space is not on the board in this game.")
    if space_id in draft.voice:
        raise IllegalAction("That space is already marked by The Voice.")
    # The mark stops opponents until the player's next turn [RB p.13 clarification].
    draft.voice[space_id] = house_id
    draft.emit("voice", house_id, space=space_id)


def _adjust(draft: Draft, action: Adjust) -> None:
    house = draft.houses.get(action.house)
    if house is None:
        raise IllegalAction("Unknown house.")
    if not isinstance(action.delta, int) or action.delta == 0 or abs(action.delta) > 50:
        raise IllegalAction("A correction changes a number by 1 to 50.")
    if action.field in IX_FIELDS and not draft.ix:
        raise IllegalAction("Freighters, dreadnoughts and Negotiators come with Rise of Ix.")
    if house.is_human and action.field not in HUMAN_ADJUSTABLE:
        raise IllegalAction(
            "Players keep their own resources and troops; the app doesn't track them."
        )
    if (
        house.kind == "hagal"
        and action.field not in HAGAL_FIELDS
        and not action.field.startswith("influence:")
    ):
        raise IllegalAction("House Hagal has no resources and scores no VP (rulebook p.19).")
    if action.reason not in VP_REASONS:
        raise IllegalAction("Unknown reason for a correction.")
    if not house.is_human and action.field == "strength":
        raise IllegalAction("A Rival's strength comes from its troops and swords: correct those.")
    if action.field == "vp":
        if house.vp + action.delta < 0:
            raise IllegalAction("VP can't go below 0.")
        draft.gain_vp(action.house, action.delta, action.reason, "")  # type: ignore[arg-type]
    elif action.field.startswith("influence:"):
        faction = action.field.split(":", 1)[1]
        if faction not in FACTIONS:
            raise IllegalAction("Unknown Faction.")
        if draft.prompt is not None:
            raise IllegalAction("First answer the question on screen.")
        new = house.inf(faction) + action.delta
        if not 0 <= new <= MAX_INFLUENCE:
            raise IllegalAction(f"Influence goes from 0 to {MAX_INFLUENCE}.")
        _set_influence(draft, action.house, faction, new)
    elif action.field in ("solari", "spice", "water", "intrigue", "swords", "strength"):
        new = getattr(house, action.field) + action.delta
        if new < 0:
            raise IllegalAction("That would go below 0.")
        if action.field == "strength" and new > MAX_STRENGTH:
            raise IllegalAction("That strength is out of range.")
        draft.put(action.house, **{action.field: new})
    elif action.field in ("garrison", "troops", "negotiators"):
        new = getattr(house, action.field) + action.delta
        if new < 0 or house.supply - action.delta < 0:
            raise IllegalAction(f"A house has {TROOPS_PER_HOUSE} troops in all.")
        draft.put(action.house, **{action.field: new})
    elif action.field == "freighter":
        new = house.freighter + action.delta
        if not 0 <= new <= TRACK_TOP:
            raise IllegalAction(f"The Freighter goes from step 0 to {TRACK_TOP}.")
        draft.put(action.house, freighter=new)
    elif action.field in ("dn_garrison", "dn_conflict"):
        new = getattr(house, action.field) + action.delta
        if new < 0 or house.dn_supply - action.delta < 0:
            raise IllegalAction("A house has two dreadnoughts.")
        draft.put(action.house, **{action.field: new})
    else:
        raise IllegalAction("That number can't be corrected.")
    _no_negative_vp(draft)
    draft.emit("adjust", action.house, field=action.field, delta=action.delta, reason=action.reason)


def _set_control(draft: Draft, space_id: str, house_id: str) -> None:
    space = draft.board().get(space_id)
    if space is None or space.control_bonus is None:
        raise IllegalAction("Only Arrakeen, Carthag and Imperial Basin have Control markers.")
    if house_id and (house_id not in draft.houses or not draft.scores(house_id)):
        raise IllegalAction("House Hagal never controls a space (rulebook p.19).")
    if house_id:
        draft.control[space_id] = house_id
    else:
        draft.control.pop(space_id, None)
    draft.emit("set_control", house_id or None, space=space_id)


def _set_tiebreak(draft: Draft, action: SetTiebreak) -> None:
    if draft.phase != "ended":
        raise IllegalAction("Tie-breaks are entered at the end of the game.")
    if action.house not in draft.houses or not draft.houses[action.house].is_human:
        raise IllegalAction("Tie-breaks are asked of the players only.")
    values = (action.spice, action.solari, action.water, action.garrison)
    if (
        any(not isinstance(v, int) or v < 0 or v > 999 for v in values)
        or action.garrison > TROOPS_PER_HOUSE
    ):
        raise IllegalAction("Enter counts of 0 or more.")
    draft.put(action.house, tiebreak=values)
    draft.emit("tiebreak", action.house, values=values)


def _corner_the_market(draft: Draft, action: CornerTheMarket) -> None:
    """Corner the Market; each solo Rival counts as two The Spice Must Flow [RB p.20]."""
    if draft.phase != "ended":
        raise IllegalAction("Corner the Market is an Endgame card: play it at the end.")
    if action.house not in draft.houses or not draft.houses[action.house].is_human:
        raise IllegalAction("Only a player can play Corner the Market.")
    if any(e.note == "corner_the_market" for e in draft.ledger):
        raise IllegalAction("Corner the Market was already played.")
    if not (0 <= action.own <= 10 and 0 <= action.other <= 10):
        raise IllegalAction("Count The Spice Must Flow cards: 0 to 10.")
    others = [2 for _ in draft.rivals()] if draft.solo else [action.other]
    gained = 0
    if action.own >= 2:
        gained += 1
        # [FAQ] Corner the Market: an opponent with as many or more denies the second VP.
        if all(action.own > n for n in others):
            gained += 1
    draft.gain_vp(action.house, gained, "endgame", "corner_the_market")
    if not gained:
        draft.ledger.append(VpEntry(action.house, 0, "endgame", draft.round, "corner_the_market"))
    draft.emit("corner_the_market", action.house, own=action.own, vp=gained)


BUYABLE = ("imperium", "reserve")


def _acquire(draft: Draft, action: Acquire) -> None:
    """Record a bought card; its Acquire effects the app tracks (VP, Influence) apply at
    once: The Spice Must Flow's VP is kept even if the card is later trashed [FAQ]."""
    if action.house not in draft.houses or not draft.houses[action.house].is_human:
        raise IllegalAction("Only a player at the table buys cards.")
    card = draft.catalog.cards.get(action.card)
    if card is None or card.kind not in BUYABLE or card.set not in draft.setup.sets:
        raise IllegalAction("That card can't be bought in this game.")
    if not isinstance(action.copy, int) or not 1 <= action.copy <= card.copies:
        raise IllegalAction(f"{card.name} has copies 1 to {card.copies}.")
    owner = next(
        (x for x in draft.acquisitions if x.card == action.card and x.copy == action.copy), None
    )
    if owner is not None and owner.house == action.house:
        raise IllegalAction(f"{draft.houses[action.house].name} already has this {card.name}.")
    if owner is not None and not action.move:
        raise IllegalAction(
            f"This {card.name} (copy {action.copy}) belongs to "
            f"{draft.houses[owner.house].name}: confirm to move it."
        )
    if draft.prompt is not None and card.acquire_influence:
        raise IllegalAction("First answer the question on screen.")
    if owner is not None:
        # A moved copy was recorded for the wrong player: take its effects back.
        draft.acquisitions.remove(owner)
        draft.gain_vp(owner.house, -card.acquire_vp, "card", card.id)
        for faction, n in card.acquire_influence.items():
            old = draft.house(owner.house).inf(faction)
            _set_influence(draft, owner.house, faction, max(0, old - n))
    draft.acquisitions.append(Acquisition(action.house, action.card, action.copy, draft.round))
    draft.emit(
        "acquire",
        action.house,
        card=action.card,
        copy=action.copy,
        moved_from=owner.house if owner else None,
    )
    draft.gain_vp(action.house, card.acquire_vp, "card", card.id)
    for faction, n in card.acquire_influence.items():
        old = draft.house(action.house).inf(faction)
        _set_influence(draft, action.house, faction, min(MAX_INFLUENCE, old + n))
    _no_negative_vp(draft)


def _ix_action(draft: Draft, action: Freighter | Dreadnought | Tech) -> None:
    """A Rise of Ix icon a player used from a card the app can't see [IX pp.4-6]."""
    house = draft.houses.get(action.house)
    if house is None or not house.is_human:
        raise IllegalAction("Only a player at the table uses this.")
    if not draft.ix:
        raise IllegalAction("This comes with the Rise of Ix expansion.")
    if draft.prompt is not None:
        raise IllegalAction("First answer the question on screen.")
    if draft.phase == "ended":
        raise IllegalAction("The game is over.")
    match action:
        case Freighter(op="advance"):
            if house.freighter >= TRACK_TOP:
                raise IllegalAction("The Freighter is on the top step: recall it.")
            ix.advance(draft, action.house)
        case Freighter(op="recall"):
            if house.freighter == 0:
                raise IllegalAction("The Freighter is already at the bottom of the track.")
            ix.recall(draft, action.house)
        case Dreadnought(op="commission"):
            if house.dn_supply <= 0:
                raise IllegalAction("Both dreadnoughts are already commissioned.")
            ix.commission(draft, action.house)
        case Dreadnought(op="deploy"):
            if draft.phase != "agents":
                raise IllegalAction(
                    "Units are deployed on Agent turns (an Agent sent to a Combat space)."
                )
            if house.dn_garrison <= 0:
                raise IllegalAction("No dreadnought in the garrison.")
            draft.put(
                action.house, dn_garrison=house.dn_garrison - 1, dn_conflict=house.dn_conflict + 1
            )
            draft.emit("deploy", action.house, troops=0, dreadnoughts=1)
        case Tech(op="acquire", tile=tile):
            stack = next((k for k, top in ix.face_up(draft) if top == tile), None)
            if stack is None:
                raise IllegalAction("Choose a face-up Tech tile.")
            ix.player_takes(draft, action.house, stack)
        case Tech(op="negotiator"):
            draft.put(action.house, negotiators=house.negotiators + 1)
            draft.emit("negotiator", action.house, count=house.negotiators + 1)
        case Tech(op="trash", tile=tile):
            if tile not in house.tech:
                raise IllegalAction("You don't own that Tech tile.")
            draft.put(action.house, tech=tuple(t for t in house.tech if t != tile))
            draft.tech_trash.append(tile)
            draft.emit("tech_trash", action.house, tile=tile)
            if tile == "spy_satellites":
                # Pay 3 spice and trash it: +1 VP (Spy Satellites tile).
                draft.gain_vp(action.house, 1, "tech", tile)
        case _:
            raise IllegalAction("Unknown choice.")


def _no_negative_vp(draft: Draft) -> None:
    """A correction may not leave a house below 0 VP (the draft is then thrown away)."""
    for house in draft.houses.values():
        if house.vp < 0:
            raise IllegalAction(f"That would take {house.name} below 0 VP: correct VP first.")


# -- prompts -----------------------------------------------------------------------------


def _answer(draft: Draft, option: str) -> None:
    p = draft.prompt
    if p is None:
        raise IllegalAction("There is no question to answer now.")
    if p.number:
        try:
            value = int(option)
        except (TypeError, ValueError):
            raise IllegalAction("Enter a whole number.") from None
        if not p.minimum <= value <= p.maximum:
            raise IllegalAction(f"Enter a number from {p.minimum} to {p.maximum}.")
        option = str(value)
    elif option not in p.options:
        raise IllegalAction("That is not one of the choices.")
    draft.prompt = None
    task = p.task
    draft.queue.insert(
        0, Task(task.kind, task.house, task.ref, task.n, (*task.options, "=" + option))
    )


# -- the automatic part ------------------------------------------------------------------


def _run(draft: Draft) -> None:
    """Process queued tasks until the queue is empty or the table must answer.

    Solo rivals spend resources for VP "at any time" [RB p.20]: after the action itself
    (a correction may give them resources) and after every task.
    """
    _convert_rivals(draft)
    while draft.prompt is None and draft.queue:
        task = draft.queue.pop(0)
        HANDLERS[task.kind](draft, task)
        _convert_rivals(draft)


def _convert_rivals(draft: Draft) -> None:
    if draft.solo:
        for rid in draft.rivals():
            hagal.convert(draft, rid)


def _t_start_round(draft: Draft, task: Task) -> None:
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


def _t_reveal_conflict(draft: Draft, task: Task) -> None:
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


def _t_next_turn(draft: Draft, task: Task) -> None:
    # Two players: House Hagal acts after each Agent turn of the First Player, while it
    # has an Agent left [RB p.19].
    if not draft.solo and task.house == draft.first and task.ref == "agent":
        hid = "hagal"
        if draft.house(hid).agents_left > 0 and not draft.house(hid).passed:
            draft.turn = hid
            draft.recruited = 0
            draft.queue.insert(0, Task("next_turn", hid, "hagal"))
            draft.queue.insert(0, Task("rival_turn", hid))
            return
    after = draft.first if task.house == "hagal" else task.house
    _next_turn(draft, after)


def _can_act(h: House) -> bool:
    if h.is_human:
        return not h.revealed
    return h.agents_left > 0 and not h.passed


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
                draft.queue.insert(0, Task("next_turn", hid, "rival"))
                draft.queue.insert(0, Task("rival_turn", hid))
            return
    draft.turn = None
    draft.phase = "combat"
    draft.emit("phase", None, phase="combat")
    draft.queue[0:0] = [
        Task("combat_bonus"),
        *(Task("strength", h) for h in draft.humans()),
        Task("resolve"),
    ]


def _draw_hagal(draft: Draft, task: Task) -> str | None:
    """Top card of the House Hagal deck, or None after asking the table which card came up."""
    if not draft.hagal_deck:
        hagal.reshuffle(draft)
    if draft.setup.options.physical_hagal:
        answer = task.answer
        if answer is None:
            draft.ask(
                "hagal_card",
                task.house,
                Task(task.kind, task.house, task.ref, task.n, task.choices),
                sorted(set(draft.hagal_deck)),
            )
            return None
        draft.hagal_deck.remove(answer)
        return answer
    return draft.hagal_deck.pop(0)


def _t_rival_turn(draft: Draft, task: Task) -> None:
    card_id = _draw_hagal(draft, task)
    if card_id is None:
        return
    draft.hagal_discard.append(card_id)
    card = draft.catalog.hagal[card_id]
    again = Task("rival_turn", task.house, "", task.n + 1)
    if card.reshuffle:
        # Reshuffle card: reshuffle all House Hagal cards, then reveal again [RB p.19].
        hagal.reshuffle(draft)
        draft.emit("hagal_reshuffle_card", task.house)
        draft.queue.insert(0, again)
        return
    space, why = hagal.target(draft, task.house, card)
    if space is None:
        draft.emit("hagal_skip", task.house, card=card_id, reason=why)
        if task.n + 1 >= 2 * len(hagal_cards(draft.setup, draft.catalog)):
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
    draft.queue[0:0] = hagal.card_tasks(draft, task.house, card, draft.board()[space])


def _t_influence(draft: Draft, task: Task) -> None:
    house = draft.house(task.house)
    new = min(MAX_INFLUENCE, house.inf(task.ref) + task.n)
    _set_influence(draft, task.house, task.ref, new)


def _t_choose_influence(draft: Draft, task: Task) -> None:
    """Gain task.n Influence in a chosen Faction; repeat for int(task.ref) different Factions."""
    options = task.choices
    answer = task.answer
    if answer is None:
        house = draft.house(task.house)
        if house.is_human:
            draft.ask("influence", task.house, task, options)
            return
        # A Rival picks the Faction where it has the least; the table breaks ties [RB p.20].
        least = hagal.least_influence(house, options)
        if len(least) > 1:
            draft.ask("rival_influence", task.house, task, least)
            return
        answer = least[0]
    house = draft.house(task.house)
    draft.emit("influence_choice", task.house, faction=answer, amount=task.n)
    _set_influence(draft, task.house, answer, min(MAX_INFLUENCE, house.inf(answer) + task.n))
    remaining = int(task.ref) - 1
    if remaining > 0:
        rest = tuple(o for o in options if o != answer)
        draft.queue.insert(0, Task("choose_influence", task.house, str(remaining), task.n, rest))


def _t_recruit(draft: Draft, task: Task) -> None:
    house = draft.house(task.house)
    n = min(task.n, house.supply)
    if n:
        draft.put(task.house, garrison=house.garrison + n)
        draft.recruited += n
    draft.emit("recruit", task.house, troops=n, wanted=task.n)


def _t_deploy(draft: Draft, task: Task) -> None:
    """Deploy this turn's recruits plus up to 2 garrison units [RB p.19; FAQ troops].

    A Rival deploys dreadnoughts before troops whenever it can [IX p.8]; they come from
    the garrison, so they count against the 2 (as in the Spice Flow mod, HAGAL §6).
    """
    house = draft.house(task.house)
    dreadnoughts = min(house.dn_garrison, task.n)
    troops = min(house.garrison, draft.recruited + task.n - dreadnoughts)
    count = troops + dreadnoughts
    if count <= 0:
        return
    if hagal.expert(draft) and draft.conflict_level < 3:
        # Expert deployment: no deployment while leading by 4+ strength in a Conflict I
        # or II [FAQ Solo Play, HAGAL §3 verdict]. Human strength is asked when it decides.
        lead = house.rival_strength - max(
            [draft.house(r).rival_strength for r in draft.rivals() if r != task.house], default=0
        )
        if lead >= EXPERT_LEAD:
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
                return
            draft.put(human, strength=int(answer))
            if house.rival_strength - int(answer) >= EXPERT_LEAD:
                draft.emit("expert_hold", task.house, kept=count)
                draft.recruited = 0
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


def _t_signet(draft: Draft, task: Task) -> None:
    hagal.signet(draft, task.house)


def _t_harvest(draft: Draft, task: Task) -> None:
    """Rival Harvest Spice: solo gains base + bonus [RB p.20]; 2P returns bonus [RB p.19]."""
    space = draft.board()[task.ref]
    bonus = draft.bonus_spice.get(task.ref, 0)
    draft.bonus_spice[task.ref] = 0
    gained = space.base_spice + bonus if draft.solo else 0
    if gained:
        draft.put(task.house, spice=draft.house(task.house).spice + gained)
    draft.emit("rival_harvest", task.house, space=task.ref, spice=gained, bonus=bonus)


def _t_control_bonus(draft: Draft, task: Task) -> None:
    """The controller gets the bonus whenever anyone sends an Agent there [RB p.9, p.20]."""
    holder = draft.controller(task.ref)  # a dreadnought on the flag takes the bonus [IX p.6]
    bonus = draft.board()[task.ref].control_bonus
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
        space=task.ref,
        visitor=task.house,
        solari=bonus.solari,
        spice=bonus.spice,
    )


def _t_combat_bonus(draft: Draft, task: Task) -> None:
    """Each Rival with a unit in the Conflict reveals swords, in turn order [RB p.19].

    A dreadnought is a unit: with one, "your swords still count" [IX p.6]. HAGAL §9
    leaves a dreadnought-only Rival open; we follow the Ix rulebook (and Spice Flow).
    """
    rivals = [hid for hid in draft.order() if not draft.house(hid).is_human]
    if not draft.solo:
        rivals = ["hagal"]
    brutal = draft.setup.options.brutal_escalation and draft.conflict_level == 3
    tasks = [
        Task("swords", hid, "", 2 if brutal else 1) for hid in rivals if draft.house(hid).units > 0
    ]
    draft.queue[0:0] = tasks


def _t_swords(draft: Draft, task: Task) -> None:
    card_id = _draw_hagal(draft, task)
    if card_id is None:
        return
    draft.hagal_discard.append(card_id)
    card = draft.catalog.hagal[card_id]
    if card.reshuffle:
        hagal.reshuffle(draft)
        draft.emit("hagal_reshuffle_card", task.house)
        draft.queue.insert(0, Task("swords", task.house, "", task.n))
        return
    draft.put(task.house, swords=draft.house(task.house).swords + card.swords)
    draft.emit("swords", task.house, card=card_id, swords=card.swords)
    if task.n > 1:  # Brutal Escalation: two cards in a Conflict III [HAGAL §3]
        draft.queue.insert(0, Task("swords", task.house, "", task.n - 1))


def _t_strength(draft: Draft, task: Task) -> None:
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
    reward. A tie for second: the tied each get the third reward. A lone third gets the
    third reward only with four players; ties for third get nothing.

    >>> placements({"a": 8, "b": 8, "c": 4})
    {'a': 'second', 'b': 'second'}
    >>> placements({"a": 9, "b": 4, "c": 4})
    {'a': 'first', 'b': 'third', 'c': 'third'}
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
    rank = 1  # the place the next group competes for
    for group in groups:
        if rank == 1:
            if len(group) == 1:
                out[group[0]] = "first"
                rank = 2
            else:
                out.update(dict.fromkeys(group, "second"))
                rank = 3
        elif rank == 2:
            if len(group) == 1:
                out[group[0]] = "second"
                rank = 3
            else:
                out.update(dict.fromkeys(group, "third"))
                rank = 4
        elif rank == 3:
            if len(group) == 1 and four_players:
                out[group[0]] = "third"
            break
        else:
            break
    return out


def _t_resolve(draft: Draft, task: Task) -> None:
    assert draft.conflict is not None
    conflict = draft.catalog.conflicts[draft.conflict]
    power = _strengths(draft.houses.values())
    places = placements(power, four_players=len(draft.houses) >= 4)
    draft.emit("combat", None, card=draft.conflict, strengths=power, places=places)
    tasks: list[Task] = []
    for place in ("first", "second", "third"):
        for hid in (h for h in draft.houses if places.get(h) == place):
            if draft.house(hid).kind == "hagal":
                space = conflict.controlled_space
                if place == "first" and space is not None and space in draft.control:
                    # House Hagal never takes rewards, but its win removes the
                    # controller's marker [RB p.19].
                    draft.emit("control_removed", draft.control[space], space=space)
                    del draft.control[space]
                continue
            tasks.append(Task("reward", hid, place))
    if draft.ix:
        winner = next((h for h, place in places.items() if place == "first"), "")
        tasks.append(Task("dreadnoughts", "", winner))
    tasks.append(Task("end_combat"))
    draft.queue[0:0] = tasks


def _t_reward(draft: Draft, task: Task) -> None:
    assert draft.conflict is not None
    conflict = draft.catalog.conflicts[draft.conflict]
    reward: Reward = getattr(conflict, task.ref)
    draft.emit("reward", task.house, place=task.ref, card=conflict.id)
    draft.queue[0:0] = _reward_tasks(draft, task.house, reward, task.ref)
    house = draft.house(task.house)
    if task.ref == "first" and house.kind == "rival" and house.owns("windtraps"):
        # Windtraps: +1 water when you win a Conflict; a Rival uses its tiles like a
        # player [IX p.9].
        draft.put(task.house, water=house.water + 1)
        draft.emit("tech_income", task.house, tile="windtraps", water=1)


def _reward_tasks(draft: Draft, hid: str, r: Reward, place: str) -> list[Task]:
    """Rivals take every kind of reward [RB p.20]; humans get VP, Influence and control
    recorded and are told the rest."""
    house = draft.house(hid)
    tasks: list[Task] = []
    if r.vp:
        draft.gain_vp(hid, r.vp, "conflict", draft.conflict or "")
    if house.is_human:
        told = {
            k: getattr(r, k)
            for k in ("solari", "spice", "water", "intrigue", "troops")
            if getattr(r, k)
        }
        if told or r.trash or r.choose:
            draft.emit(
                "take",
                hid,
                **told,
                trash=r.trash,
                choose=r.choose,
                options=[_reward_text(o) for o in r.options],
            )
    else:
        draft.put(
            hid,
            solari=house.solari + r.solari,
            spice=house.spice + r.spice,
            water=house.water + r.water,
            intrigue=house.intrigue + r.intrigue,
        )
        if r.troops:
            tasks.append(Task("recruit", hid, "", r.troops))
        if r.choose:
            tasks.append(
                Task(
                    "choose_reward",
                    hid,
                    place,
                    r.choose,
                    tuple(str(i) for i in range(len(r.options))),
                )
            )
    if r.influence:
        tasks.insert(
            0, Task("choose_influence", hid, str(r.influence_factions), r.influence, FACTIONS)
        )
    tasks.extend(Task("freighter", hid) for _ in range(r.freighter))
    tasks.extend(Task("offer", hid, place, i) for i in range(len(r.offers)))
    if r.control is not None:
        draft.control[r.control] = hid
        draft.emit("control", hid, space=r.control)
    if r.mentat:
        draft.mentat_claim = hid
        draft.emit("mentat_won", hid)
    return tasks


def _reward_text(r: Reward) -> str:
    parts = [
        f"{getattr(r, k)} {k}"
        for k in ("vp", "solari", "spice", "water", "intrigue", "troops")
        if getattr(r, k)
    ]
    return ", ".join(parts)


def _t_choose_reward(draft: Draft, task: Task) -> None:
    """A Rival's choice of reward not about Influence: the table decides [RB p.20]."""
    options = task.choices
    answer = task.answer
    if answer is None:
        draft.ask("rival_reward", task.house, task, options)
        return
    assert draft.conflict is not None
    reward: Reward = getattr(draft.catalog.conflicts[draft.conflict], task.ref)
    chosen = reward.options[int(answer)]
    draft.emit("reward_choice", task.house, reward=_reward_text(chosen))
    tasks = _reward_tasks(draft, task.house, chosen, task.ref)
    if task.n > 1:
        tasks.append(
            Task(
                "choose_reward",
                task.house,
                task.ref,
                task.n - 1,
                tuple(o for o in options if o != answer),
            )
        )
    draft.queue[0:0] = tasks


def _t_end_combat(draft: Draft, task: Task) -> None:
    """Troops in the Conflict go back to supply; combat markers reset [RB p.12]."""
    for hid, house in list(draft.houses.items()):
        if house.troops or house.swords or house.strength:
            draft.put(hid, troops=0, swords=0, strength=0)
    if draft.ix:
        ix.end_posts(draft)
    draft.phase = "makers"
    draft.queue.insert(0, Task("makers"))


def _t_makers(draft: Draft, task: Task) -> None:
    """1 bonus spice on each Maker space with no Agent [RB p.12 Phase 4]."""
    grown = []
    for space in draft.board().values():
        if space.maker and space.id not in draft.occupants:
            draft.bonus_spice[space.id] = draft.bonus_spice.get(space.id, 0) + 1
            grown.append(space.id)
    draft.emit("makers", None, spaces=grown)
    draft.phase = "recall"
    draft.queue.insert(0, Task("recall"))


def _t_recall(draft: Draft, task: Task) -> None:
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
    for hid in list(draft.houses):
        draft.put(hid, placed=0, mentat=False, revealed=False, passed=False)
    draft.occupants.clear()
    draft.infiltrators.clear()
    draft.voice.clear()
    seats = draft.seats()
    draft.first = seats[(seats.index(draft.first) + 1) % len(seats)]
    draft.emit("recall", None, first=draft.first)
    draft.queue.insert(0, Task("start_round"))


def _t_alliance(draft: Draft, task: Task) -> None:
    """Several tied players could take a dropped Alliance: the loser chooses [FAQ Alliance]."""
    answer = task.answer
    if answer is None:
        draft.ask("alliance", task.house, task, task.choices)
        return
    _move_alliance(draft, task.ref, answer)


def _set_influence(draft: Draft, hid: str, faction: str, new: int) -> None:
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
            draft.queue.insert(0, Task("alliance", hid, faction, 0, tuple(takers)))
        elif new <= 3:
            _move_alliance(draft, faction, None)


def _move_alliance(draft: Draft, faction: str, to: str | None) -> None:
    holder = draft.alliances.get(faction)
    if holder is not None:
        draft.gain_vp(holder, -1, "alliance", faction)
        del draft.alliances[faction]
    if to is not None:
        draft.alliances[faction] = to
        draft.gain_vp(to, 1, "alliance", faction)
    draft.emit("alliance", to, faction=faction, previous=holder)


def _t_tech_reward(draft: Draft, task: Task) -> None:
    """A Tech tile's Acquire effect [IX p.4]: its VP are scored for everyone; a Rival takes
    the rest, a player is told (Influence is chosen and recorded)."""
    tech = draft.catalog.tech[task.ref]
    reward = tech.acquire_reward
    draft.gain_vp(task.house, reward.vp, "tech", tech.id)
    rest = replace(reward, vp=0)
    if not rest.is_empty():
        draft.queue[0:0] = _reward_tasks(draft, task.house, rest, "")


HANDLERS = {
    "start_round": _t_start_round,
    "reveal_conflict": _t_reveal_conflict,
    "next_turn": _t_next_turn,
    "rival_turn": _t_rival_turn,
    "influence": _t_influence,
    "choose_influence": _t_choose_influence,
    "recruit": _t_recruit,
    "deploy": _t_deploy,
    "signet": _t_signet,
    "harvest": _t_harvest,
    "control_bonus": _t_control_bonus,
    "combat_bonus": _t_combat_bonus,
    "swords": _t_swords,
    "strength": _t_strength,
    "resolve": _t_resolve,
    "reward": _t_reward,
    "choose_reward": _t_choose_reward,
    "end_combat": _t_end_combat,
    "makers": _t_makers,
    "recall": _t_recall,
    "alliance": _t_alliance,
    "tech_reward": _t_tech_reward,
    **ix.HANDLERS,
}

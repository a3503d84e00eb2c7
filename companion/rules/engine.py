"""The game engine: `new_game`, `apply`, `replay` and `legal_actions`.

`apply(state, action)` is pure. It copies the state into a mutable draft (`Draft`), applies
the action, then runs every automatic step (rival turns, phase changes) until the table
must answer or act again, and freezes the draft into a new `GameState`.

Rules are cited as: [RB p.N] base rulebook, [FAQ] Errata & FAQ 2022-02-14, and
[HAGAL §N] for shared/rules/HAGAL.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
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
from companion.rules.catalog import FACTIONS, Catalog, Reward, SpaceDef
from companion.rules.state import (
    FACTION_INDEX,
    MAX_INFLUENCE,
    TRACK_TOP,
    TROOPS_PER_HOUSE,
    Acquisition,
    ConflictSlot,
    Entry,
    GameState,
    House,
    Phase,
    Prompt,
    Setup,
    Task,
    VpEntry,
    VpSource,
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


class Draft:
    """A mutable working copy of a GameState, used inside one `apply` or `replay`."""

    def __init__(self, s: GameState) -> None:
        self.cat: Catalog = s.catalog
        self.setup = s.setup
        self.step = s.step
        self.round = s.round
        self.phase: Phase = s.phase
        self.houses: dict[str, House] = {h.id: h for h in s.houses}
        self.first = s.first
        self.turn = s.turn
        self.occupants = dict(s.occupants)
        self.voice = dict(s.voice)
        self.bonus_spice = dict(s.bonus_spice)
        self.control = dict(s.control)
        self.alliances = dict(s.alliances)
        self.mentat_claim = s.mentat_claim
        self.hagal_deck = list(s.hagal_deck)
        self.hagal_discard = list(s.hagal_discard)
        self.conflict_deck = list(s.conflict_deck)
        self.conflict = s.conflict
        self.conflicts_done = list(s.conflicts_done)
        self.queue = list(s.queue)
        self.prompt = s.prompt
        self.recruited = s.recruited
        self.rng = s.rng
        self.ledger = list(s.ledger)
        self.log = list(s.log)
        self.end_reason = s.end_reason
        self.acquisitions = list(s.acquisitions)
        self.tech_stacks = [list(stack) for stack in s.tech_stacks]
        self.tech_trash = list(s.tech_trash)
        self.posted = dict(s.posted)
        self.infiltrators = list(s.infiltrators)

    def freeze(self) -> GameState:
        return GameState(
            catalog=self.cat,
            setup=self.setup,
            step=self.step,
            round=self.round,
            phase=self.phase,
            houses=tuple(self.houses.values()),
            first=self.first,
            turn=self.turn,
            occupants=self.occupants.copy(),
            voice=self.voice.copy(),
            bonus_spice=self.bonus_spice.copy(),
            control=self.control.copy(),
            alliances=self.alliances.copy(),
            mentat_claim=self.mentat_claim,
            hagal_deck=tuple(self.hagal_deck),
            hagal_discard=tuple(self.hagal_discard),
            conflict_deck=tuple(self.conflict_deck),
            conflict=self.conflict,
            conflicts_done=tuple(self.conflicts_done),
            queue=tuple(self.queue),
            prompt=self.prompt,
            recruited=self.recruited,
            rng=self.rng,
            ledger=tuple(self.ledger),
            log=tuple(self.log),
            end_reason=self.end_reason,
            acquisitions=tuple(self.acquisitions),
            tech_stacks=tuple(tuple(stack) for stack in self.tech_stacks),
            tech_trash=tuple(self.tech_trash),
            posted=self.posted.copy(),
            infiltrators=tuple(self.infiltrators),
        )

    # -- small helpers -------------------------------------------------------------------

    @property
    def solo(self) -> bool:
        return self.setup.mode == "solo"

    def h(self, house_id: str) -> House:
        return self.houses[house_id]

    def put(self, house_id: str, **changes: object) -> House:
        house = replace(self.houses[house_id], **changes)  # type: ignore[arg-type]
        self.houses[house_id] = house
        return house

    def emit(self, kind: str, house: str | None = None, **data: object) -> None:
        self.log.append(Entry(self.step, self.round, kind, house, data))

    def random(self) -> random.Random:
        """A generator drawn from the seed and a counter kept in the state (never global)."""
        self.rng += 1
        return random.Random(self.setup.seed * 1_000_003 + self.rng)

    @property
    def conflict_level(self) -> int:
        return self.cat.conflicts[self.conflict].level if self.conflict else 0

    @property
    def ix(self) -> bool:
        return "ix" in self.setup.sets

    def controller(self, space: str) -> str | None:
        """Who controls a space: a dreadnought covers the Control marker [IX p.6]."""
        post = self.posted.get(space)
        return post.house if post is not None else self.control.get(space)

    def scores(self, house_id: str) -> bool:
        return self.houses[house_id].kind != "hagal"

    def gain_vp(self, house_id: str, delta: int, source: VpSource, note: str = "") -> None:
        if not delta or not self.scores(house_id):
            return
        self.put(house_id, vp=self.houses[house_id].vp + delta)
        self.ledger.append(VpEntry(house_id, delta, source, self.round, note))

    def deciders(self) -> str:
        """Who decides for a rival: "you" in solo [RB p.20]; the First Player in two-player."""
        return self.humans()[0] if self.solo else self.first

    def humans(self) -> list[str]:
        return [h.id for h in self.houses.values() if h.kind == "human"]

    def rivals(self) -> list[str]:
        return [h.id for h in self.houses.values() if h.kind != "human"]

    def seats(self) -> list[str]:
        """Turn-taking seats, clockwise. House Hagal acts outside the rotation (p.19)."""
        return [h.id for h in self.houses.values() if h.kind != "hagal"]

    def order(self) -> list[str]:
        """Seats in turn order, starting with the First Player."""
        seats = self.seats()
        i = seats.index(self.first)
        return seats[i:] + seats[:i]

    def board(self) -> Mapping[str, SpaceDef]:
        return self.cat.board(self.setup.sets)

    def ask(
        self, kind: str, house: str, task: Task, options: Sequence[str] = (), **kw: int
    ) -> None:
        decider = house if self.houses[house].is_human else self.deciders()
        if "minimum" in kw or "maximum" in kw:
            self.prompt = Prompt(kind, house, decider, task, number=True, **kw)  # type: ignore[arg-type]
        else:
            self.prompt = Prompt(kind, house, decider, task, options=tuple(options))


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
        step=0,
        round=0,
        phase="round_start",
        houses=tuple(houses),
        first=first,
        turn=None,
        occupants={},
        voice={},
        bonus_spice={s.id: 0 for s in catalog.board(setup.sets).values() if s.maker},
        control={},
        alliances={},
        mentat_claim=None,
        hagal_deck=(),
        hagal_discard=(),
        conflict_deck=(),
        conflict=None,
        conflicts_done=(),
        queue=(),
        prompt=None,
        recruited=0,
        rng=0,
        ledger=(),
        log=(),
        end_reason=None,
    )
    w = Draft(state)
    w.hagal_deck = hagal_cards(setup, catalog)
    if setup.options.physical_hagal:
        w.hagal_deck.sort()
    else:
        w.random().shuffle(w.hagal_deck)
    w.conflict_deck = _conflict_deck(w)
    w.emit("setup", mode=setup.mode, difficulty=setup.difficulty, first=first)
    if w.ix:
        ix.setup_tech(w)
    w.queue.append(Task("start_round"))
    _run(w)
    return w.freeze()


def apply(state: GameState, action: Action) -> GameState:
    """Apply one action and every automatic step after it; raise IllegalAction if not allowed."""
    w = Draft(state)
    _apply(w, action)
    return w.freeze()


def replay(state: GameState, actions: Iterable[Action]) -> GameState:
    """Apply a whole log in one draft (the fast path for loading a game)."""
    w = Draft(state)
    for action in actions:
        _apply(w, action)
    return w.freeze()


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
            w = Draft(state)
            out: list[Action] = [
                PlaceAgent(house.id, sid)
                for sid in w.board()
                if _space_problem(w, house.id, sid) is None
            ]
            out.append(Reveal(house.id))
            return out
    return []


def space_problems(
    state: GameState, house_id: str, infiltrate: bool = False
) -> dict[str, str | None]:
    """For each board space: why `house_id` can't send an Agent there now (with
    Infiltration if `infiltrate`), or None."""
    w = Draft(state)
    return {sid: _space_problem(w, house_id, sid, infiltrate) for sid in w.board()}


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


def _conflict_deck(w: Draft) -> list[ConflictSlot]:
    """1 Conflict I on top of 5 Conflict II on top of 4 Conflict III [RB p.4]."""
    levels = EPIC_LEVELS if w.setup.options.epic else CONFLICT_LEVELS
    if w.setup.options.physical_conflicts:
        return [ConflictSlot(level, None) for level, n in levels for _ in range(n)]
    rng = w.random()
    deck: list[ConflictSlot] = []
    for level, n in levels:
        ids = [c.id for c in w.cat.conflicts.values() if c.level == level and c.set in w.setup.sets]
        deck.extend(ConflictSlot(level, cid) for cid in rng.sample(ids, n))
    return deck


# -- action handling ---------------------------------------------------------------------


def _apply(w: Draft, action: Action) -> None:
    w.step += 1
    match action:
        case Choose(option=option):
            _answer(w, option)
        case PlaceAgent(house=house, space=space, infiltrate=infiltrate):
            _place_human(w, house, space, infiltrate)
        case Reveal(house=house):
            _reveal(w, house)
        case Voice(house=house, space=space):
            _voice(w, house, space)
        case Adjust():
            _adjust(w, action)
        case SetControl(space=space, house=house):
            _set_control(w, space, house)
        case SetTiebreak():
            _set_tiebreak(w, action)
        case CornerTheMarket():
            _corner_the_market(w, action)
        case Acquire():
            _acquire(w, action)
        case Freighter() | Dreadnought() | Tech():
            _ix_action(w, action)
        case _:
            raise IllegalAction("Unknown action.")
    _run(w)


def _own_turn(w: Draft, house: str) -> None:
    if house not in w.houses or not w.houses[house].is_human:
        raise IllegalAction("Only a player at the table can take this turn.")
    if w.prompt is not None:
        raise IllegalAction("First answer the question on screen.")
    if w.phase != "agents":
        raise IllegalAction("Agent and Reveal turns are taken in Phase 2 only.")
    if w.turn != house:
        who = w.houses[w.turn].name if w.turn else "nobody"
        raise IllegalAction(f"It is not {w.houses[house].name}'s turn (now: {who}).")


def _space_problem(w: Draft, house_id: str, space_id: str, infiltrate: bool = False) -> str | None:
    """Why a human can't send an Agent to this space now [RB pp.8-9], or None.

    Infiltration lets an Agent past enemy Agents, never past The Voice or the player's
    own Agent [IX p.7].
    """
    space = w.board().get(space_id)
    house = w.houses[house_id]
    if space is None:
        return "This space is not on the board in this game."
    if infiltrate:
        here = [w.occupants.get(space_id)] + [h for s, h in w.infiltrators if s == space_id]
        if not w.ix:
            return "Infiltration comes with Rise of Ix cards."
        if here[0] is None:
            return "Nobody is there: send the Agent normally."
        if house_id in here:
            return "You already have an Agent there: infiltration works against enemy Agents only."
    elif space_id in w.occupants:
        return f"{w.houses[w.occupants[space_id]].name} already has an Agent there."
    blocker = w.voice.get(space_id)
    if blocker is not None and blocker != house_id:
        return f"{w.houses[blocker].name} blocked it with The Voice."
    if house.agents_left <= 0:
        return "No Agent left: take your Reveal turn."
    for faction, need in space.requires_influence.items():
        if house.inf(faction) < need:
            return f"Needs {need} {faction.replace('_', ' ').title()} Influence."
    if space_id == "swordmaster":
        if house.swordmaster:
            return "You already have your Swordmaster."
        if w.solo and w.setup.difficulty == "kwisatz":
            return "At Kwisatz Haderach difficulty you can't gain a Swordmaster (rulebook p.20)."
    if space_id == "high_council" and house.council_seat:
        return "You already have a seat on the High Council."
    return None


def _place_human(w: Draft, house_id: str, space_id: str, infiltrate: bool = False) -> None:
    _own_turn(w, house_id)
    problem = _space_problem(w, house_id, space_id, infiltrate)
    if problem is not None:
        raise IllegalAction(problem)
    space = w.board()[space_id]
    w.put(house_id, placed=w.h(house_id).placed + 1)
    if infiltrate:
        w.infiltrators.append((space_id, house_id))
        w.emit("agent", house_id, space=space_id, infiltrate=True)
    else:
        w.occupants[space_id] = house_id
        w.emit("agent", house_id, space=space_id)
    if space.faction is not None:
        # Sending an Agent to a Faction space gives 1 Influence there [RB p.7].
        w.queue.append(Task("influence", house_id, space.faction, 1))
    if space.maker:
        bonus = w.bonus_spice.get(space_id, 0)
        w.bonus_spice[space_id] = 0
        w.emit("harvest", house_id, space=space_id, spice=space.base_spice + bonus, bonus=bonus)
    if space_id == "mentat" and not any(h.mentat for h in w.houses.values()):
        # The Mentat is taken only if it is on its space [RB icon guide].
        w.put(house_id, mentat=True)
        w.emit("mentat_taken", house_id)
    if space_id == "swordmaster":
        w.put(house_id, agents=3, swordmaster=True)
        w.emit("swordmaster", house_id)
    if space_id == "high_council":
        w.put(house_id, council_seat=True)
        w.emit("council_seat", house_id)
    if space_id == "secrets":
        # Each opponent with 4+ Intrigue gives one at random; rivals too [RB p.19, p.18].
        for rid in w.rivals():
            if w.h(rid).intrigue >= 4:
                w.put(rid, intrigue=w.h(rid).intrigue - 1)
                w.emit("secrets_steal", house_id, rival=rid)
    if w.ix:
        # The space's Rise of Ix icons, each optional for the player [IX pp.4-6].
        if space.dreadnought:
            w.queue.append(Task("commission", house_id))
        if space.ix_choose_one:
            w.queue.append(Task("tech_negotiation", house_id))
        elif space.acquire_tech:
            w.queue.append(Task("acquire_tech", house_id, "", space.tech_discount))
        w.queue.extend(Task("freighter", house_id) for _ in range(space.freighter))
    if space.control_bonus is not None:
        w.queue.append(Task("control_bonus", house_id, space_id))
    w.queue.append(Task("next_turn", house_id, "agent"))


def _reveal(w: Draft, house_id: str) -> None:
    _own_turn(w, house_id)
    w.put(house_id, revealed=True)
    w.emit("reveal", house_id)
    if w.solo and w.setup.options.churn:
        # Dice churn: 2d6, trash the Imperium Row card at each position 1-5; 6s are
        # ignored and doubles trash one card [HAGAL §6 solo variants].
        rng = w.random()
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        w.emit("churn", house_id, dice=dice, positions=sorted({d for d in dice if d <= 5}))
    w.queue.append(Task("next_turn", house_id, "reveal"))


def _voice(w: Draft, house_id: str, space_id: str) -> None:
    _own_turn(w, house_id)
    if space_id not in w.board():
        raise IllegalAction("This space is not on the board in this game.")
    if space_id in w.voice:
        raise IllegalAction("That space is already marked by The Voice.")
    # The mark stops opponents until the player's next turn [RB p.13 clarification].
    w.voice[space_id] = house_id
    w.emit("voice", house_id, space=space_id)


def _adjust(w: Draft, a: Adjust) -> None:
    house = w.houses.get(a.house)
    if house is None:
        raise IllegalAction("Unknown house.")
    if not isinstance(a.delta, int) or a.delta == 0 or abs(a.delta) > 50:
        raise IllegalAction("A correction changes a number by 1 to 50.")
    if a.field in IX_FIELDS and not w.ix:
        raise IllegalAction("Freighters, dreadnoughts and Negotiators come with Rise of Ix.")
    if house.is_human and a.field not in HUMAN_ADJUSTABLE:
        raise IllegalAction(
            "Players keep their own resources and troops; the app doesn't track them."
        )
    if (
        house.kind == "hagal"
        and a.field not in HAGAL_FIELDS
        and not a.field.startswith("influence:")
    ):
        raise IllegalAction("House Hagal has no resources and scores no VP (rulebook p.19).")
    if a.reason not in VP_REASONS:
        raise IllegalAction("Unknown reason for a correction.")
    if not house.is_human and a.field == "strength":
        raise IllegalAction("A Rival's strength comes from its troops and swords: correct those.")
    if a.field == "vp":
        if house.vp + a.delta < 0:
            raise IllegalAction("VP can't go below 0.")
        w.gain_vp(a.house, a.delta, a.reason, "")  # type: ignore[arg-type]
    elif a.field.startswith("influence:"):
        faction = a.field.split(":", 1)[1]
        if faction not in FACTIONS:
            raise IllegalAction("Unknown Faction.")
        if w.prompt is not None:
            raise IllegalAction("First answer the question on screen.")
        new = house.inf(faction) + a.delta
        if not 0 <= new <= MAX_INFLUENCE:
            raise IllegalAction(f"Influence goes from 0 to {MAX_INFLUENCE}.")
        _set_influence(w, a.house, faction, new)
    elif a.field in ("solari", "spice", "water", "intrigue", "swords", "strength"):
        new = getattr(house, a.field) + a.delta
        if new < 0:
            raise IllegalAction("That would go below 0.")
        if a.field == "strength" and new > MAX_STRENGTH:
            raise IllegalAction("That strength is out of range.")
        w.put(a.house, **{a.field: new})
    elif a.field in ("garrison", "troops", "negotiators"):
        new = getattr(house, a.field) + a.delta
        if new < 0 or house.supply - a.delta < 0:
            raise IllegalAction(f"A house has {TROOPS_PER_HOUSE} troops in all.")
        w.put(a.house, **{a.field: new})
    elif a.field == "freighter":
        new = house.freighter + a.delta
        if not 0 <= new <= TRACK_TOP:
            raise IllegalAction(f"The Freighter goes from step 0 to {TRACK_TOP}.")
        w.put(a.house, freighter=new)
    elif a.field in ("dn_garrison", "dn_conflict"):
        new = getattr(house, a.field) + a.delta
        if new < 0 or house.dn_supply - a.delta < 0:
            raise IllegalAction("A house has two dreadnoughts.")
        w.put(a.house, **{a.field: new})
    else:
        raise IllegalAction("That number can't be corrected.")
    _no_negative_vp(w)
    w.emit("adjust", a.house, field=a.field, delta=a.delta, reason=a.reason)


def _set_control(w: Draft, space_id: str, house_id: str) -> None:
    space = w.board().get(space_id)
    if space is None or space.control_bonus is None:
        raise IllegalAction("Only Arrakeen, Carthag and Imperial Basin have Control markers.")
    if house_id and (house_id not in w.houses or not w.scores(house_id)):
        raise IllegalAction("House Hagal never controls a space (rulebook p.19).")
    if house_id:
        w.control[space_id] = house_id
    else:
        w.control.pop(space_id, None)
    w.emit("set_control", house_id or None, space=space_id)


def _set_tiebreak(w: Draft, a: SetTiebreak) -> None:
    if w.phase != "ended":
        raise IllegalAction("Tie-breaks are entered at the end of the game.")
    if a.house not in w.houses or not w.houses[a.house].is_human:
        raise IllegalAction("Tie-breaks are asked of the players only.")
    values = (a.spice, a.solari, a.water, a.garrison)
    if (
        any(not isinstance(v, int) or v < 0 or v > 999 for v in values)
        or a.garrison > TROOPS_PER_HOUSE
    ):
        raise IllegalAction("Enter counts of 0 or more.")
    w.put(a.house, tiebreak=values)
    w.emit("tiebreak", a.house, values=values)


def _corner_the_market(w: Draft, a: CornerTheMarket) -> None:
    """Corner the Market; each solo Rival counts as two The Spice Must Flow [RB p.20]."""
    if w.phase != "ended":
        raise IllegalAction("Corner the Market is an Endgame card: play it at the end.")
    if a.house not in w.houses or not w.houses[a.house].is_human:
        raise IllegalAction("Only a player can play Corner the Market.")
    if any(e.note == "corner_the_market" for e in w.ledger):
        raise IllegalAction("Corner the Market was already played.")
    if not (0 <= a.own <= 10 and 0 <= a.other <= 10):
        raise IllegalAction("Count The Spice Must Flow cards: 0 to 10.")
    others = [2 for _ in w.rivals()] if w.solo else [a.other]
    gained = 0
    if a.own >= 2:
        gained += 1
        # [FAQ] Corner the Market: an opponent with as many or more denies the second VP.
        if all(a.own > n for n in others):
            gained += 1
    w.gain_vp(a.house, gained, "endgame", "corner_the_market")
    if not gained:
        w.ledger.append(VpEntry(a.house, 0, "endgame", w.round, "corner_the_market"))
    w.emit("corner_the_market", a.house, own=a.own, vp=gained)


BUYABLE = ("imperium", "reserve")


def _acquire(w: Draft, a: Acquire) -> None:
    """Record a bought card; its Acquire effects the app tracks (VP, Influence) apply at
    once: The Spice Must Flow's VP is kept even if the card is later trashed [FAQ]."""
    if a.house not in w.houses or not w.houses[a.house].is_human:
        raise IllegalAction("Only a player at the table buys cards.")
    card = w.cat.cards.get(a.card)
    if card is None or card.kind not in BUYABLE or card.set not in w.setup.sets:
        raise IllegalAction("That card can't be bought in this game.")
    if not isinstance(a.copy, int) or not 1 <= a.copy <= card.copies:
        raise IllegalAction(f"{card.name} has copies 1 to {card.copies}.")
    owner = next((x for x in w.acquisitions if x.card == a.card and x.copy == a.copy), None)
    if owner is not None and owner.house == a.house:
        raise IllegalAction(f"{w.houses[a.house].name} already has this {card.name}.")
    if owner is not None and not a.move:
        raise IllegalAction(
            f"This {card.name} (copy {a.copy}) belongs to "
            f"{w.houses[owner.house].name}: confirm to move it."
        )
    if w.prompt is not None and card.acquire_influence:
        raise IllegalAction("First answer the question on screen.")
    if owner is not None:
        # A moved copy was recorded for the wrong player: take its effects back.
        w.acquisitions.remove(owner)
        w.gain_vp(owner.house, -card.acquire_vp, "card", card.id)
        for faction, n in card.acquire_influence.items():
            old = w.h(owner.house).inf(faction)
            _set_influence(w, owner.house, faction, max(0, old - n))
    w.acquisitions.append(Acquisition(a.house, a.card, a.copy, w.round))
    w.emit("acquire", a.house, card=a.card, copy=a.copy, moved_from=owner.house if owner else None)
    w.gain_vp(a.house, card.acquire_vp, "card", card.id)
    for faction, n in card.acquire_influence.items():
        old = w.h(a.house).inf(faction)
        _set_influence(w, a.house, faction, min(MAX_INFLUENCE, old + n))
    _no_negative_vp(w)


def _ix_action(w: Draft, a: Freighter | Dreadnought | Tech) -> None:
    """A Rise of Ix icon a player used from a card the app can't see [IX pp.4-6]."""
    house = w.houses.get(a.house)
    if house is None or not house.is_human:
        raise IllegalAction("Only a player at the table uses this.")
    if not w.ix:
        raise IllegalAction("This comes with the Rise of Ix expansion.")
    if w.prompt is not None:
        raise IllegalAction("First answer the question on screen.")
    if w.phase == "ended":
        raise IllegalAction("The game is over.")
    match a:
        case Freighter(op="advance"):
            if house.freighter >= TRACK_TOP:
                raise IllegalAction("The Freighter is on the top step: recall it.")
            ix.advance(w, a.house)
        case Freighter(op="recall"):
            if house.freighter == 0:
                raise IllegalAction("The Freighter is already at the bottom of the track.")
            ix.recall(w, a.house)
        case Dreadnought(op="commission"):
            if house.dn_supply <= 0:
                raise IllegalAction("Both dreadnoughts are already commissioned.")
            ix.commission(w, a.house)
        case Dreadnought(op="deploy"):
            if w.phase != "agents":
                raise IllegalAction(
                    "Units are deployed on Agent turns (an Agent sent to a Combat space)."
                )
            if house.dn_garrison <= 0:
                raise IllegalAction("No dreadnought in the garrison.")
            w.put(a.house, dn_garrison=house.dn_garrison - 1, dn_conflict=house.dn_conflict + 1)
            w.emit("deploy", a.house, troops=0, dreadnoughts=1)
        case Tech(op="acquire", tile=tile):
            stack = next((k for k, top in ix.face_up(w) if top == tile), None)
            if stack is None:
                raise IllegalAction("Choose a face-up Tech tile.")
            ix.player_takes(w, a.house, stack)
        case Tech(op="negotiator"):
            w.put(a.house, negotiators=house.negotiators + 1)
            w.emit("negotiator", a.house, count=house.negotiators + 1)
        case Tech(op="trash", tile=tile):
            if tile not in house.tech:
                raise IllegalAction("You don't own that Tech tile.")
            w.put(a.house, tech=tuple(t for t in house.tech if t != tile))
            w.tech_trash.append(tile)
            w.emit("tech_trash", a.house, tile=tile)
            if tile == "spy_satellites":
                # Pay 3 spice and trash it: +1 VP (Spy Satellites tile).
                w.gain_vp(a.house, 1, "tech", tile)
        case _:
            raise IllegalAction("Unknown choice.")


def _no_negative_vp(w: Draft) -> None:
    """A correction may not leave a house below 0 VP (the draft is then thrown away)."""
    for house in w.houses.values():
        if house.vp < 0:
            raise IllegalAction(f"That would take {house.name} below 0 VP: correct VP first.")


# -- prompts -----------------------------------------------------------------------------


def _answer(w: Draft, option: str) -> None:
    p = w.prompt
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
    w.prompt = None
    t = p.task
    w.queue.insert(0, Task(t.kind, t.house, t.ref, t.n, (*t.options, "=" + option)))


def _answered(t: Task) -> str | None:
    """The table's answer carried by a resumed task, if any."""
    if t.options and t.options[-1].startswith("="):
        return t.options[-1][1:]
    return None


def _opts(t: Task) -> tuple[str, ...]:
    return tuple(o for o in t.options if not o.startswith("="))


# -- the automatic part ------------------------------------------------------------------


def _run(w: Draft) -> None:
    """Process queued tasks until the queue is empty or the table must answer.

    Solo rivals spend resources for VP "at any time" [RB p.20]: after the action itself
    (a correction may give them resources) and after every task.
    """
    _convert_rivals(w)
    while w.prompt is None and w.queue:
        task = w.queue.pop(0)
        HANDLERS[task.kind](w, task)
        _convert_rivals(w)


def _convert_rivals(w: Draft) -> None:
    if w.solo:
        for rid in w.rivals():
            hagal.convert(w, rid)


def _t_start_round(w: Draft, t: Task) -> None:
    w.round += 1
    w.phase = "round_start"
    if w.ix:
        ix.round_start(w)
    if w.mentat_claim is not None:
        # Sort Through the Chaos: the winner takes the Mentat at the start of the next
        # round [FAQ]; a Conflict reward Mentat is kept for next round [RB icon guide].
        w.put(w.mentat_claim, mentat=True)
        w.emit("mentat_claimed", w.mentat_claim)
        w.mentat_claim = None
    w.queue.insert(0, Task("reveal_conflict"))


def _t_reveal_conflict(w: Draft, t: Task) -> None:
    slot = w.conflict_deck[0]
    card = slot.card
    if card is None:
        answer = _answered(t)
        if answer is None:
            seen = set(w.conflicts_done)
            options = [
                c.id
                for c in w.cat.conflicts.values()
                if c.level == slot.level and c.set in w.setup.sets and c.id not in seen
            ]
            w.ask("conflict_card", w.first if w.h(w.first).is_human else w.deciders(), t, options)
            return
        card = answer
    w.conflict_deck.pop(0)
    w.conflict = card
    w.conflicts_done.append(card)
    conflict = w.cat.conflicts[card]
    w.emit("conflict", None, card=card, level=conflict.level)
    if swordmaster_round(w.setup) == w.round:
        # Rival Swordmasters arrive when the card above them is revealed [RB p.20].
        for rid in w.rivals():
            w.put(rid, agents=3, swordmaster=True)
            w.emit("rival_swordmaster", rid)
    space = conflict.controlled_space
    holder = w.controller(space) if space else None
    if holder is not None:
        # Defensive bonus: the controller may deploy 1 troop from supply [RB p.9]; a
        # dreadnought on the flag gives it to its owner [IX p.6].
        if w.h(holder).is_human:
            w.emit("defensive_bonus", holder, space=space, deployed=None)
        elif w.h(holder).supply > 0:
            w.put(holder, troops=w.h(holder).troops + 1)
            w.emit("defensive_bonus", holder, space=space, deployed=1)
    w.phase = "agents"
    _next_turn(w, None)


def _t_next_turn(w: Draft, t: Task) -> None:
    # Two players: House Hagal acts after each Agent turn of the First Player, while it
    # has an Agent left [RB p.19].
    if not w.solo and t.house == w.first and t.ref == "agent":
        hid = "hagal"
        if w.h(hid).agents_left > 0 and not w.h(hid).passed:
            w.turn = hid
            w.recruited = 0
            w.queue.insert(0, Task("next_turn", hid, "hagal"))
            w.queue.insert(0, Task("rival_turn", hid))
            return
    after = w.first if t.house == "hagal" else t.house
    _next_turn(w, after)


def _can_act(h: House) -> bool:
    if h.is_human:
        return not h.revealed
    return h.agents_left > 0 and not h.passed


def _next_turn(w: Draft, after: str | None) -> None:
    """Hand the turn to the next house that can still act [RB p.8], or start Combat."""
    order = w.order()
    if after is not None:
        i = order.index(after)
        order = order[i + 1 :] + order[: i + 1]
    for hid in order:
        if _can_act(w.h(hid)):
            w.turn = hid
            for space, owner in list(w.voice.items()):
                if owner == hid:
                    del w.voice[space]  # The Voice lasts until its owner's next turn
            if not w.h(hid).is_human:
                w.recruited = 0
                w.queue.insert(0, Task("next_turn", hid, "rival"))
                w.queue.insert(0, Task("rival_turn", hid))
            return
    w.turn = None
    w.phase = "combat"
    w.emit("phase", None, phase="combat")
    w.queue[0:0] = [
        Task("combat_bonus"),
        *(Task("strength", h) for h in w.humans()),
        Task("resolve"),
    ]


def _draw_hagal(w: Draft, t: Task) -> str | None:
    """Top card of the House Hagal deck, or None after asking the table which card came up."""
    if not w.hagal_deck:
        hagal.reshuffle(w)
    if w.setup.options.physical_hagal:
        answer = _answered(t)
        if answer is None:
            w.ask(
                "hagal_card",
                t.house,
                Task(t.kind, t.house, t.ref, t.n, _opts(t)),
                sorted(set(w.hagal_deck)),
            )
            return None
        w.hagal_deck.remove(answer)
        return answer
    return w.hagal_deck.pop(0)


def _t_rival_turn(w: Draft, t: Task) -> None:
    card_id = _draw_hagal(w, t)
    if card_id is None:
        return
    w.hagal_discard.append(card_id)
    card = w.cat.hagal[card_id]
    again = Task("rival_turn", t.house, "", t.n + 1)
    if card.reshuffle:
        # Reshuffle card: reshuffle all House Hagal cards, then reveal again [RB p.19].
        hagal.reshuffle(w)
        w.emit("hagal_reshuffle_card", t.house)
        w.queue.insert(0, again)
        return
    space, why = hagal.target(w, t.house, card)
    if space is None:
        w.emit("hagal_skip", t.house, card=card_id, reason=why)
        if t.n + 1 >= 2 * len(hagal_cards(w.setup, w.cat)):
            # Not in the rules: every card was tried twice and all spaces are blocked.
            w.put(t.house, passed=True)
            w.emit("rival_blocked", t.house)
            return
        w.queue.insert(0, again)
        return
    if why == "invasion_ships":
        # Invasion Ships: flipped, no discard, to go where an enemy Agent is [IX p.9].
        house = w.h(t.house)
        w.put(t.house, flipped=(*house.flipped, "invasion_ships"))
        w.emit("tech_flip", t.house, tile="invasion_ships")
        w.infiltrators.append((space, t.house))
    else:
        w.occupants[space] = t.house
    w.put(t.house, placed=w.h(t.house).placed + 1)
    w.emit("rival_agent", t.house, card=card_id, space=space)
    w.queue[0:0] = hagal.card_tasks(w, t.house, card, w.board()[space])


def _t_influence(w: Draft, t: Task) -> None:
    house = w.h(t.house)
    new = min(MAX_INFLUENCE, house.inf(t.ref) + t.n)
    _set_influence(w, t.house, t.ref, new)


def _t_choose_influence(w: Draft, t: Task) -> None:
    """Gain t.n Influence in a chosen Faction; repeat for int(t.ref) different Factions."""
    options = _opts(t)
    answer = _answered(t)
    if answer is None:
        house = w.h(t.house)
        if house.is_human:
            w.ask("influence", t.house, t, options)
            return
        # A Rival picks the Faction where it has the least; the table breaks ties [RB p.20].
        least = hagal.least_influence(house, options)
        if len(least) > 1:
            w.ask("rival_influence", t.house, t, least)
            return
        answer = least[0]
    house = w.h(t.house)
    w.emit("influence_choice", t.house, faction=answer, amount=t.n)
    _set_influence(w, t.house, answer, min(MAX_INFLUENCE, house.inf(answer) + t.n))
    remaining = int(t.ref) - 1
    if remaining > 0:
        rest = tuple(o for o in options if o != answer)
        w.queue.insert(0, Task("choose_influence", t.house, str(remaining), t.n, rest))


def _t_recruit(w: Draft, t: Task) -> None:
    house = w.h(t.house)
    n = min(t.n, house.supply)
    if n:
        w.put(t.house, garrison=house.garrison + n)
        w.recruited += n
    w.emit("recruit", t.house, troops=n, wanted=t.n)


def _t_deploy(w: Draft, t: Task) -> None:
    """Deploy this turn's recruits plus up to 2 garrison units [RB p.19; FAQ troops].

    A Rival deploys dreadnoughts before troops whenever it can [IX p.8]; they come from
    the garrison, so they count against the 2 (as in the Spice Flow mod, HAGAL §6).
    """
    house = w.h(t.house)
    dreadnoughts = min(house.dn_garrison, t.n)
    troops = min(house.garrison, w.recruited + t.n - dreadnoughts)
    count = troops + dreadnoughts
    if count <= 0:
        return
    if hagal.expert(w) and w.conflict_level < 3:
        # Expert deployment: no deployment while leading by 4+ strength in a Conflict I
        # or II [FAQ Solo Play, HAGAL §3 verdict]. Human strength is asked when it decides.
        lead = house.rival_strength - max(
            [w.h(r).rival_strength for r in w.rivals() if r != t.house], default=0
        )
        if lead >= EXPERT_LEAD:
            human = w.humans()[0]
            answer = _answered(t)
            if answer is None:
                w.ask(
                    "expert_strength",
                    human,
                    t,
                    minimum=0,
                    maximum=MAX_STRENGTH,
                    default=w.h(human).strength,
                )
                return
            w.put(human, strength=int(answer))
            if house.rival_strength - int(answer) >= EXPERT_LEAD:
                w.emit("expert_hold", t.house, kept=count)
                w.recruited = 0
                return
    w.put(
        t.house,
        garrison=house.garrison - troops,
        troops=house.troops + troops,
        dn_garrison=house.dn_garrison - dreadnoughts,
        dn_conflict=house.dn_conflict + dreadnoughts,
    )
    w.recruited = 0
    extra = {"dreadnoughts": dreadnoughts} if dreadnoughts else {}
    w.emit("deploy", t.house, troops=troops, **extra)


def _t_signet(w: Draft, t: Task) -> None:
    hagal.signet(w, t.house)


def _t_harvest(w: Draft, t: Task) -> None:
    """Rival Harvest Spice: solo gains base + bonus [RB p.20]; 2P returns bonus [RB p.19]."""
    space = w.board()[t.ref]
    bonus = w.bonus_spice.get(t.ref, 0)
    w.bonus_spice[t.ref] = 0
    gained = space.base_spice + bonus if w.solo else 0
    if gained:
        w.put(t.house, spice=w.h(t.house).spice + gained)
    w.emit("rival_harvest", t.house, space=t.ref, spice=gained, bonus=bonus)


def _t_control_bonus(w: Draft, t: Task) -> None:
    """The controller gets the bonus whenever anyone sends an Agent there [RB p.9, p.20]."""
    holder = w.controller(t.ref)  # a dreadnought on the flag takes the bonus [IX p.6]
    bonus = w.board()[t.ref].control_bonus
    if holder is None or bonus is None or not w.scores(holder):
        return
    if not w.h(holder).is_human:
        w.put(
            holder, solari=w.h(holder).solari + bonus.solari, spice=w.h(holder).spice + bonus.spice
        )
    w.emit(
        "control_bonus",
        holder,
        space=t.ref,
        visitor=t.house,
        solari=bonus.solari,
        spice=bonus.spice,
    )


def _t_combat_bonus(w: Draft, t: Task) -> None:
    """Each Rival with a unit in the Conflict reveals swords, in turn order [RB p.19].

    A dreadnought is a unit: with one, "your swords still count" [IX p.6]. HAGAL §9
    leaves a dreadnought-only Rival open; we follow the Ix rulebook (and Spice Flow).
    """
    rivals = [hid for hid in w.order() if not w.h(hid).is_human]
    if not w.solo:
        rivals = ["hagal"]
    brutal = w.setup.options.brutal_escalation and w.conflict_level == 3
    tasks = [Task("swords", hid, "", 2 if brutal else 1) for hid in rivals if w.h(hid).units > 0]
    w.queue[0:0] = tasks


def _t_swords(w: Draft, t: Task) -> None:
    card_id = _draw_hagal(w, t)
    if card_id is None:
        return
    w.hagal_discard.append(card_id)
    card = w.cat.hagal[card_id]
    if card.reshuffle:
        hagal.reshuffle(w)
        w.emit("hagal_reshuffle_card", t.house)
        w.queue.insert(0, Task("swords", t.house, "", t.n))
        return
    w.put(t.house, swords=w.h(t.house).swords + card.swords)
    w.emit("swords", t.house, card=card_id, swords=card.swords)
    if t.n > 1:  # Brutal Escalation: two cards in a Conflict III [HAGAL §3]
        w.queue.insert(0, Task("swords", t.house, "", t.n - 1))


def _t_strength(w: Draft, t: Task) -> None:
    answer = _answered(t)
    if answer is None:
        w.ask(
            "strength", t.house, t, minimum=0, maximum=MAX_STRENGTH, default=w.h(t.house).strength
        )
        return
    w.put(t.house, strength=int(answer))
    w.emit("strength", t.house, strength=int(answer))


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


def _t_resolve(w: Draft, t: Task) -> None:
    assert w.conflict is not None
    conflict = w.cat.conflicts[w.conflict]
    power = _strengths(w.houses.values())
    places = placements(power, four_players=len(w.houses) >= 4)
    w.emit("combat", None, card=w.conflict, strengths=power, places=places)
    tasks: list[Task] = []
    for place in ("first", "second", "third"):
        for hid in (h for h in w.houses if places.get(h) == place):
            if w.h(hid).kind == "hagal":
                space = conflict.controlled_space
                if place == "first" and space is not None and space in w.control:
                    # House Hagal never takes rewards, but its win removes the
                    # controller's marker [RB p.19].
                    w.emit("control_removed", w.control[space], space=space)
                    del w.control[space]
                continue
            tasks.append(Task("reward", hid, place))
    if w.ix:
        winner = next((h for h, place in places.items() if place == "first"), "")
        tasks.append(Task("dreadnoughts", "", winner))
    tasks.append(Task("end_combat"))
    w.queue[0:0] = tasks


def _t_reward(w: Draft, t: Task) -> None:
    assert w.conflict is not None
    conflict = w.cat.conflicts[w.conflict]
    reward: Reward = getattr(conflict, t.ref)
    w.emit("reward", t.house, place=t.ref, card=conflict.id)
    w.queue[0:0] = _reward_tasks(w, t.house, reward, t.ref)
    house = w.h(t.house)
    if t.ref == "first" and house.kind == "rival" and house.owns("windtraps"):
        # Windtraps: +1 water when you win a Conflict; a Rival uses its tiles like a
        # player [IX p.9].
        w.put(t.house, water=house.water + 1)
        w.emit("tech_income", t.house, tile="windtraps", water=1)


def _reward_tasks(w: Draft, hid: str, r: Reward, place: str) -> list[Task]:
    """Rivals take every kind of reward [RB p.20]; humans get VP, Influence and control
    recorded and are told the rest."""
    house = w.h(hid)
    tasks: list[Task] = []
    if r.vp:
        w.gain_vp(hid, r.vp, "conflict", w.conflict or "")
    if house.is_human:
        told = {
            k: getattr(r, k)
            for k in ("solari", "spice", "water", "intrigue", "troops")
            if getattr(r, k)
        }
        if told or r.trash or r.choose:
            w.emit(
                "take",
                hid,
                **told,
                trash=r.trash,
                choose=r.choose,
                options=[_reward_text(o) for o in r.options],
            )
    else:
        w.put(
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
        w.control[r.control] = hid
        w.emit("control", hid, space=r.control)
    if r.mentat:
        w.mentat_claim = hid
        w.emit("mentat_won", hid)
    return tasks


def _reward_text(r: Reward) -> str:
    parts = [
        f"{getattr(r, k)} {k}"
        for k in ("vp", "solari", "spice", "water", "intrigue", "troops")
        if getattr(r, k)
    ]
    return ", ".join(parts)


def _t_choose_reward(w: Draft, t: Task) -> None:
    """A Rival's choice of reward not about Influence: the table decides [RB p.20]."""
    options = _opts(t)
    answer = _answered(t)
    if answer is None:
        w.ask("rival_reward", t.house, t, options)
        return
    assert w.conflict is not None
    reward: Reward = getattr(w.cat.conflicts[w.conflict], t.ref)
    chosen = reward.options[int(answer)]
    w.emit("reward_choice", t.house, reward=_reward_text(chosen))
    tasks = _reward_tasks(w, t.house, chosen, t.ref)
    if t.n > 1:
        tasks.append(
            Task("choose_reward", t.house, t.ref, t.n - 1, tuple(o for o in options if o != answer))
        )
    w.queue[0:0] = tasks


def _t_end_combat(w: Draft, t: Task) -> None:
    """Troops in the Conflict go back to supply; combat markers reset [RB p.12]."""
    for hid, house in list(w.houses.items()):
        if house.troops or house.swords or house.strength:
            w.put(hid, troops=0, swords=0, strength=0)
    if w.ix:
        ix.end_posts(w)
    w.phase = "makers"
    w.queue.insert(0, Task("makers"))


def _t_makers(w: Draft, t: Task) -> None:
    """1 bonus spice on each Maker space with no Agent [RB p.12 Phase 4]."""
    grown = []
    for space in w.board().values():
        if space.maker and space.id not in w.occupants:
            w.bonus_spice[space.id] = w.bonus_spice.get(space.id, 0) + 1
            grown.append(space.id)
    w.emit("makers", None, spaces=grown)
    w.phase = "recall"
    w.queue.insert(0, Task("recall"))


def _t_recall(w: Draft, t: Task) -> None:
    """End check, then Mentat back, recall, First Player passes [RB p.12 Phase 5]."""
    goal = w.setup.vp_to_end
    leaders = [h for h in w.houses.values() if h.kind != "hagal" and h.vp >= goal]
    if leaders or not w.conflict_deck:
        w.phase = "ended"
        w.turn = None
        w.end_reason = "vp" if leaders else "conflict_deck"
        w.emit("game_end", None, reason=w.end_reason, goal=goal)
        if w.ix:
            ix.endgame(w)
        return
    for hid in list(w.houses):
        w.put(hid, placed=0, mentat=False, revealed=False, passed=False)
    w.occupants.clear()
    w.infiltrators.clear()
    w.voice.clear()
    seats = w.seats()
    w.first = seats[(seats.index(w.first) + 1) % len(seats)]
    w.emit("recall", None, first=w.first)
    w.queue.insert(0, Task("start_round"))


def _t_alliance(w: Draft, t: Task) -> None:
    """Several tied players could take a dropped Alliance: the loser chooses [FAQ Alliance]."""
    answer = _answered(t)
    if answer is None:
        w.ask("alliance", t.house, t, _opts(t))
        return
    _move_alliance(w, t.ref, answer)


def _set_influence(w: Draft, hid: str, faction: str, new: int) -> None:
    """Move a cube: VP at 2, the 4-Influence bonus (humans only), Alliances [RB p.7; FAQ]."""
    house = w.h(hid)
    i = FACTION_INDEX[faction]
    old = house.influence[i]
    if new == old:
        return
    influence = list(house.influence)
    influence[i] = new
    w.put(hid, influence=tuple(influence))
    w.emit("influence", hid, faction=faction, old=old, new=new)
    # Solo rivals score the 2-Influence and Alliance VP [FAQ Solo Play]; Hagal none.
    if old < 2 <= new:
        w.gain_vp(hid, 1, "influence", faction)
    elif new < 2 <= old:
        w.gain_vp(hid, -1, "influence", faction)
    if house.is_human and old < 4 <= new:
        w.emit("influence_bonus", hid, faction=faction)  # rivals never get it [FAQ]
    holder = w.alliances.get(faction)
    if new > old:
        # The first to 4 takes the Alliance; a higher opponent takes it over [RB p.7].
        takes = new >= 4 if holder is None else holder != hid and new > w.h(holder).inf(faction)
        if takes:
            _move_alliance(w, faction, hid)
    elif holder == hid:
        # [FAQ Alliance] A dropping holder loses the token only if it was tied with
        # another player (who takes it) or falls to 3 or lower (the best player at 4+
        # takes it, else it returns to the board); ties between takers are chosen.
        others = [h for h in w.houses.values() if h.id != hid]
        takers = [h.id for h in others if h.inf(faction) == old]
        if not takers and new <= 3:
            top = max((h.inf(faction) for h in others), default=0)
            takers = [h.id for h in others if h.inf(faction) == top and top >= 4]
        if len(takers) == 1:
            _move_alliance(w, faction, takers[0])
        elif takers:
            w.queue.insert(0, Task("alliance", hid, faction, 0, tuple(takers)))
        elif new <= 3:
            _move_alliance(w, faction, None)


def _move_alliance(w: Draft, faction: str, to: str | None) -> None:
    holder = w.alliances.get(faction)
    if holder is not None:
        w.gain_vp(holder, -1, "alliance", faction)
        del w.alliances[faction]
    if to is not None:
        w.alliances[faction] = to
        w.gain_vp(to, 1, "alliance", faction)
    w.emit("alliance", to, faction=faction, previous=holder)


def _t_tech_reward(w: Draft, t: Task) -> None:
    """A Tech tile's Acquire effect [IX p.4]: its VP are scored for everyone; a Rival takes
    the rest, a player is told (Influence is chosen and recorded)."""
    tech = w.cat.tech[t.ref]
    reward = tech.acquire_reward
    w.gain_vp(t.house, reward.vp, "tech", tech.id)
    rest = replace(reward, vp=0)
    if not rest.is_empty():
        w.queue[0:0] = _reward_tasks(w, t.house, rest, "")


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

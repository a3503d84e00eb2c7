"""The immutable game state and the game setup.

A `GameState` is a value: `engine.apply` returns a new one and never changes its input.
Mappings in a state are never mutated after the state is built; the engine copies them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from companion.rules.catalog import FACTIONS, Catalog

Mode = Literal["solo", "2p", "3p", "4p"]
MODES: tuple[Mode, ...] = ("solo", "2p", "3p", "4p")
# Three or four players at the table and no House Hagal: every seat is a human's.
MULTIPLAYER: dict[Mode, int] = {"3p": 3, "4p": 4}
Difficulty = Literal["mercenary", "sardaukar", "mentat", "kwisatz"]
DIFFICULTIES: tuple[Difficulty, ...] = ("mercenary", "sardaukar", "mentat", "kwisatz")
Phase = Literal["round_start", "agents", "combat", "makers", "recall", "ended"]
HouseKind = Literal["human", "rival", "hagal"]
VpSource = Literal[
    "start", "conflict", "influence", "alliance", "exchange", "card", "tech", "endgame", "manual"
]

FACTION_INDEX: dict[str, int] = {f: i for i, f in enumerate(FACTIONS)}
TROOPS_PER_HOUSE = 12  # 16 cubes, 4 of them on the Influence tracks (rulebook p.5, G5)
MAX_INFLUENCE = 6  # six spaces above the bottom one (FAQ, Plans Within Plans)
MAX_STRENGTH = 200  # the highest strength the app accepts
VP_TO_END = 10  # rulebook p.12, Phase 5
VP_TO_END_EPIC = 12  # Rise of Ix rulebook p.10, Epic Game mode
DREADNOUGHTS = 2  # per house (Ix rulebook p.6)
TRACK_TOP = 3  # the Shipping Track has three steps above the bottom (Ix rulebook p.5)
UNKNOWN_TILE = "?"  # a face-down Tech tile the table holds (physical tiles)


@dataclass(frozen=True, slots=True)
class Options:
    """Optional rules chosen at setup."""

    brutal_escalation: bool = False  # HAGAL.md §3, Ix rulebook p.9
    churn: bool = False  # dice-based Imperium Row churn, HAGAL.md §6 (solo variants)
    physical_hagal: bool = False  # the table reveals physical House Hagal cards
    physical_conflicts: bool = False  # the table reveals physical Conflict cards
    epic: bool = False  # Rise of Ix Epic Game mode (Ix rulebook p.10)
    physical_tech: bool = False  # the table shuffles the Tech tiles and says which turn up
    draw_first_player: bool = False  # the app drew `Setup.first_player` from the seed
    # The other reading of six rulings (companion/rules/rulings.py); False, the default,
    # plays the rulebooks' text as we rule it, and is what games stored without them used.
    hagal_dreadnought_home: bool = False  # House Hagal's dreadnought never takes control
    swords_need_troops: bool = False  # a Rival with only dreadnoughts reveals no swords
    epic_rivals_standard: bool = False  # Epic: Rivals start as in a standard game
    expert_dreadnoughts_deploy: bool = False  # Expert deployment holds troops, not dreadnoughts
    transports_kept_after_combat: bool = False  # Troop Transports: no deploying after Combat
    brutal_first_card_out: bool = False  # Brutal Escalation: a reshuffle leaves card 1 out
    # After the Recall the game waits for the table's "Start round N" tap, so the round's
    # chores come before the next round's Rival turns. Logs stored before this step
    # existed have no such tap: `codec.decode_setup` turns it off for them.
    round_end: bool = True
    # Combat asks the players' strengths from the First Player clockwise, the order in which
    # they play Combat Intrigue cards [RB p.11]. Logs stored before this step asked them in
    # seat order: `codec.decode_setup` turns it off for them, so they replay as played.
    strengths_from_first: bool = True
    # Show each player's thinking time (companion/clock.py); changes no rule.
    turn_clock: bool = False


@dataclass(frozen=True, slots=True)
class SeatSetup:
    """One seat at the table: a human player or a rival."""

    name: str
    leader: str
    color: str


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything chosen before the first round; with the seed it fixes the whole game.

    Solo: one human and two rivals, the first rival sitting on the human's left.
    Two players: two humans in clockwise order and House Hagal (its leader is "").
    Three and four players: that many humans in clockwise order and no rivals.
    """

    mode: Mode
    seed: int
    humans: tuple[SeatSetup, ...]
    rivals: tuple[SeatSetup, ...]
    difficulty: Difficulty | None = None
    first_player: int = 0  # two to four players: index into humans
    options: Options = Options()
    sets: tuple[str, ...] = ("base",)

    @property
    def vp_to_end(self) -> int:
        """10 VP end the game [RB p.12], 12 in an Epic game [IX p.10]."""
        return VP_TO_END_EPIC if self.options.epic else VP_TO_END

    @property
    def players(self) -> int:
        """How many people play: 1 to 4."""
        return len(self.humans)

    @property
    def multiplayer(self) -> bool:
        """Three or four players, no House Hagal: none of the solo and two-player rules
        apply [RB p.19-20; IX p.8]."""
        return self.mode in MULTIPLAYER


@dataclass(frozen=True, slots=True)
class House:
    """One house at the table. Resources and troops are tracked for rivals only."""

    id: str
    kind: HouseKind
    name: str
    leader: str
    color: str
    vp: int = 0
    influence: tuple[int, ...] = (0, 0, 0, 0)  # in FACTIONS order
    agents: int = 2  # owned Agents (3 with the Swordmaster)
    placed: int = 0  # Agents on the board this round
    mentat: bool = False  # holds the Mentat as an extra Agent this round
    revealed: bool = False  # humans: Reveal turn taken this round
    passed: bool = False  # rivals: could not place an Agent this round
    swordmaster: bool = False
    council_seat: bool = False
    solari: int = 0
    spice: int = 0
    water: int = 0
    intrigue: int = 0
    garrison: int = 0
    troops: int = 0  # in the Conflict
    swords: int = 0  # rival combat bonus this round
    strength: int = 0  # humans: last strength entered
    tiebreak: tuple[int, int, int, int] | None = None  # humans: spice, Solari, water, garrison
    # Rise of Ix, tracked for every house (Ix rulebook pp.4-6): the Freighter's step on the
    # Shipping Track (0 = bottom), dreadnoughts in the garrison, in the Conflict and on a
    # control flag (the rest are in supply), Negotiators on Ix, Tech tiles owned and the
    # ones flipped face down this round.
    freighter: int = 0
    dn_garrison: int = 0
    dn_conflict: int = 0
    dn_posted: int = 0
    negotiators: int = 0
    tech: tuple[str, ...] = ()
    flipped: tuple[str, ...] = ()

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    @property
    def agents_left(self) -> int:
        return self.agents + (1 if self.mentat else 0) - self.placed

    def inf(self, faction: str) -> int:
        return self.influence[FACTION_INDEX[faction]]

    @property
    def supply(self) -> int:
        """Troops in supply: Negotiators on Ix are troops too (Ix rulebook p.4)."""
        return TROOPS_PER_HOUSE - self.garrison - self.troops - self.negotiators

    @property
    def dn_supply(self) -> int:
        return DREADNOUGHTS - self.dn_garrison - self.dn_conflict - self.dn_posted

    @property
    def units(self) -> int:
        """Units in the Conflict: troops and dreadnoughts (Ix rulebook p.6)."""
        return self.troops + self.dn_conflict

    @property
    def rival_strength(self) -> int:
        """Two per troop and three per dreadnought in the Conflict plus the revealed swords;
        0 without a unit there (rulebook p.19; Ix rulebook p.6: a dreadnought alone keeps
        the strength and the swords)."""
        if not self.units:
            return 0
        return 2 * self.troops + 3 * self.dn_conflict + self.swords

    def owns(self, tile: str) -> bool:
        return tile in self.tech

    def ready(self, tile: str) -> bool:
        """Owns this tile and has not flipped it this round."""
        return tile in self.tech and tile not in self.flipped


@dataclass(frozen=True, slots=True)
class ConflictSlot:
    """A card of the Conflict deck: its level, and its id unless the table holds it face down."""

    level: int
    card: str | None


@dataclass(frozen=True, slots=True)
class Posted:
    """A dreadnought on a control flag: its house and the round it took control. It leaves
    at the end of the next Combat phase (Ix rulebook p.6)."""

    house: str
    round: int


@dataclass(frozen=True, slots=True)
class VpEntry:
    """One line of a house's VP ledger."""

    house: str
    delta: int
    source: VpSource
    round: int
    note: str = ""


@dataclass(frozen=True, slots=True)
class Acquisition:
    """A physical card copy a player bought (recorded from its QR sticker or by hand)."""

    house: str
    card: str
    copy: int
    round: int


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the game log: a structured fact the UI turns into a sentence."""

    step: int
    round: int
    kind: str
    house: str | None = None
    data: Mapping[str, object] = field(default_factory=dict)


class Task(NamedTuple):
    """A unit of pending engine work; the queue lets a prompt pause and resume a turn.

    A NamedTuple rather than a frozen dataclass: as immutable, hashable and compared by
    value, and built several times faster with this many fields (a replay builds a few
    hundred; `companion.sim` measures it).

    Each field holds one thing whatever the kind; a kind fills the ones it needs and leaves
    the others at their defaults:

    - `house`: who acts (for "dreadnoughts", the Combat's winner, "" without one);
    - `amount`: how many: troops to recruit or deploy, Influence to gain, swords cards
      to reveal, House Hagal cards a Rival has revealed this turn;
    - `discount`: spice off a Tech tile's price ("acquire_tech");
    - `space`: a board space ("harvest", "control_bonus");
    - `faction`: a Faction ("influence", "alliance");
    - `place`: a Conflict reward's place, "first", "second" or "third" ("reward",
      "choose_reward", "offer");
    - `offer`: which purchase of that reward ("offer", an index);
    - `tile`: a Tech tile ("tech_reward");
    - `stack`: a Tech stack, by index ("tech_reveal");
    - `picks`: how many different options are still to choose ("choose_influence",
      "choose_reward");
    - `via`: where the task comes from: the turn that ended for "next_turn" ("agent",
      "reveal", "hagal", "rival"), "shipping" for a recruit of the Shipping track, "brutal"
      for the second card of Brutal Escalation ("swords");
    - `or_negotiator`: a Rival that can't buy a tile places a Negotiator instead
      ("acquire_tech");
    - `options`: what the task may choose among (Factions, houses, reward options);
    - `answer`: the table's answer, on a task resumed after its question.
    """

    kind: str
    house: str = ""
    amount: int = 0
    discount: int = 0
    space: str = ""
    faction: str = ""
    place: str = ""
    offer: int = 0
    tile: str = ""
    stack: int = 0
    picks: int = 0
    via: str = ""
    or_negotiator: bool = False
    options: tuple[str, ...] = ()
    answer: str | None = None

    def answered(self, answer: str) -> Task:
        """This task again, carrying the table's answer."""
        return self._replace(answer=answer)


@dataclass(frozen=True, slots=True)
class Prompt:
    """A question the table must answer before the engine can go on.

    `options` lists the allowed answers; a number prompt allows minimum..maximum instead.
    `decider` is the human who answers (for a rival's tie, the rules say "you decide").
    """

    kind: str
    house: str
    decider: str
    task: Task
    options: tuple[str, ...] = ()
    number: bool = False
    minimum: int = 0
    maximum: int = 0
    default: int = 0


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole game at one moment."""

    catalog: Catalog = field(compare=False, repr=False)
    setup: Setup
    houses: tuple[House, ...]
    first: str
    step: int = 0
    round: int = 0
    phase: Phase = "round_start"
    turn: str | None = None
    occupants: Mapping[str, str] = field(default_factory=dict)
    voice: Mapping[str, str] = field(default_factory=dict)
    bonus_spice: Mapping[str, int] = field(default_factory=dict)
    control: Mapping[str, str] = field(default_factory=dict)
    alliances: Mapping[str, str] = field(default_factory=dict)
    mentat_claim: str | None = None
    hagal_deck: tuple[str, ...] = ()
    hagal_discard: tuple[str, ...] = ()
    conflict_deck: tuple[ConflictSlot, ...] = ()
    conflict: str | None = None
    conflicts_done: tuple[str, ...] = ()
    queue: tuple[Task, ...] = ()
    prompt: Prompt | None = None
    recruited: int = 0  # troops the acting rival recruited this turn (deployable, FAQ "troops")
    rng: int = 0
    ledger: tuple[VpEntry, ...] = ()
    log: tuple[Entry, ...] = ()
    end_reason: str | None = None
    acquisitions: tuple[Acquisition, ...] = ()
    # Rise of Ix: the three Tech stacks, top (face-up) tile first, UNKNOWN_TILE for tiles
    # the table has not revealed yet; trashed tiles; dreadnoughts on control flags by
    # space; Agents that infiltrated a space someone else already held (space, house).
    tech_stacks: tuple[tuple[str, ...], ...] = ()
    tech_trash: tuple[str, ...] = ()
    posted: Mapping[str, Posted] = field(default_factory=dict)
    infiltrators: tuple[tuple[str, str], ...] = ()

    @property
    def ix(self) -> bool:
        return "ix" in self.setup.sets

    @property
    def vp_to_end(self) -> int:
        return self.setup.vp_to_end

    def controller(self, space: str) -> str | None:
        """Who controls a space: a dreadnought covers the Control marker (Ix p.6)."""
        post = self.posted.get(space)
        return post.house if post is not None else self.control.get(space)

    def house(self, house_id: str) -> House:
        for h in self.houses:
            if h.id == house_id:
                return h
        raise KeyError(house_id)

    @property
    def humans(self) -> tuple[House, ...]:
        return tuple(h for h in self.houses if h.kind == "human")

    @property
    def rivals(self) -> tuple[House, ...]:
        return tuple(h for h in self.houses if h.kind != "human")

    @property
    def scoring(self) -> tuple[House, ...]:
        """Houses that score VP: everyone but House Hagal in two-player (p.19)."""
        return tuple(h for h in self.houses if h.kind != "hagal")

    @property
    def conflict_level(self) -> int:
        if self.conflict is None:
            return 0
        return self.catalog.conflicts[self.conflict].level

    def owner(self, card: str, copy: int) -> str | None:
        """The house that bought this copy of a card, if any."""
        for a in self.acquisitions:
            if a.card == card and a.copy == copy:
                return a.house
        return None

    @property
    def last_entries(self) -> tuple[Entry, ...]:
        """Log lines produced by the most recent action."""
        out: list[Entry] = []
        for e in reversed(self.log):
            if e.step != self.step:
                break
            out.append(e)
        return tuple(reversed(out))

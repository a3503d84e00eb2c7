"""The frozen views the game templates show: one per board space and side panel."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from companion.rules.catalog import FACTIONS
from companion.rules.scoring import Standing
from companion.rules.state import GameState, House
from companion.services import GameView
from companion.web.language import house_name
from companion.web.language import lazy_word as _l
from companion.web.present.words import faction_name

# The numbers a correction can change on the Fix page.
HOUSE_FIELDS = (
    ("solari", _l("Solari")),
    ("spice", _l("Spice")),
    ("water", _l("Water")),
    ("intrigue", _l("Intrigue")),
    ("garrison", _l("Garrison")),
    ("troops", _l("In Conflict")),
    ("swords", _l("Swords")),
)
# The Rise of Ix ones (House Hagal has no Negotiators).
IX_HOUSE_FIELDS = (
    ("freighter", _l("Freighter step")),
    ("negotiators", _l("Negotiators on Ix")),
    ("dn_garrison", _l("Dreadnoughts in the garrison")),
    ("dn_conflict", _l("Dreadnoughts in the Conflict")),
)


class Chip(NamedTuple):
    """A house as its colored name tag shows it."""

    color: str
    name: str


def chip(house: House) -> Chip:
    return Chip(house.color, house_name(house.name))


class SpaceView(NamedTuple):
    """A board space as the board map shows it (a tuple: made and compared on every
    tap, for each of the 22 spaces)."""

    id: str
    name: str  # in the reader's language
    area: str
    cost: str
    requirement: str
    occupant: Chip | None
    bonus_spice: int | None
    controller: Chip | None
    control_bonus: str
    combat: bool
    voice: Chip | None
    problem: str | None
    tappable: bool
    # Rise of Ix: the dreadnought on the Control flag, Agents that infiltrated the space,
    # and whether the acting player may infiltrate it now.
    dreadnought: Chip | None = None
    covered: Chip | None = None  # the Control marker under the dreadnought
    infiltrators: tuple[Chip, ...] = ()
    infiltrate: bool = False


@dataclass(frozen=True)
class ConflictView:
    card_id: str
    name: str
    level: str
    rewards: tuple[tuple[str, str], ...]
    remaining: int
    # Per house: chip, troops, swords, strength (blank where the table keeps the count),
    # dreadnoughts in the Conflict (Rise of Ix).
    rows: tuple[tuple[Chip, str, str, str, str], ...]
    swords: tuple[tuple[Chip, str, int], ...]  # this round's revealed sword cards
    ix: bool = False
    # Troops and swords are counted for Rivals only: without one (three or four players)
    # the table has no columns for them.
    tracked: bool = True


@dataclass(frozen=True)
class IxHouseView:
    """A house's Rise of Ix pieces: Freighter, dreadnoughts, Negotiators, Tech tiles."""

    id: str
    chip: Chip
    is_human: bool
    freighter: int
    dn_garrison: int
    dn_conflict: int
    dn_posted: int
    dn_supply: int
    negotiators: int
    # Per tile owned: id, name, flipped face down this round.
    tech: tuple[tuple[str, str, bool], ...]
    # A player's tiles on the Tech panel: why the engine refuses each one's Trash button
    # now (None: allowed); empty where no Trash button is shown.
    trash: Mapping[str, str | None] = field(default_factory=dict)


@dataclass(frozen=True)
class StackView:
    """One Tech stack: its face-up tile (id "" when empty, UNKNOWN_TILE before the table
    turned it up) and how many tiles are left in it."""

    number: int
    tile: str
    name: str
    cost: int
    hagal_mark: bool
    left: int
    unknown: bool  # face down: the table turns it up when the app asks
    # A Buy button per player shown: id, chip, and why the engine refuses it now (None:
    # allowed).
    buys: tuple[tuple[str, Chip, str | None], ...] = ()


@dataclass(frozen=True)
class TechView:
    stacks: tuple[StackView, ...]
    trashed: int
    solo: bool  # show the House Hagal mark: solo Rivals buy only marked tiles
    # Whose Buy buttons the stacks show (chips and ids), and the players' Ix pieces.
    buyers: tuple[tuple[str, Chip], ...]
    players: tuple[IxHouseView, ...]


@dataclass(frozen=True)
class IxTurnView:
    """The acting player's Rise of Ix buttons: for each icon, why the engine refuses it
    now, in words, or None when it is allowed."""

    freighter: int
    at_top: bool  # the Freighter on the Shipping track's top step
    advance: str | None
    recall: str | None
    commission: str | None
    deploy: str | None
    negotiator: str | None


class CardEffect(NamedTuple):
    """A card-effect button of the acting player (+1 Influence, +1 VP): the field it
    corrects by 1, its label, its CSS class, and why the engine refuses it now (None:
    allowed)."""

    field: str
    label: str
    cls: str
    refused: str | None


@dataclass(frozen=True)
class CornerView:
    """Corner the Market at the end: the players who may play it now, and whether it asks
    the opponents' count of The Spice Must Flow (not in solo, where Rivals count as 2)."""

    players: tuple[str, ...]
    asks_other: bool


@dataclass(frozen=True)
class RivalView:
    """A rival's panel: its chip, leader, and its numbers as (label, value) rows."""

    chip: Chip
    leader: str
    leader_name: str
    rows: tuple[tuple[str, object], ...]
    ix: IxHouseView | None = None


class ScoreRow(NamedTuple):
    """A house's row of the score: its chip, VP and VP ledger (round, source, note,
    delta; both None for House Hagal, which scores none), and its Influence on each
    track: the value, the cell's classes (" two", " four", " ally") and, on the track
    whose Alliance it holds, the Faction's name ("" elsewhere)."""

    chip: Chip
    vp: int | None
    ledger: tuple[tuple[int, str, str, str], ...] | None
    cells: tuple[tuple[int, str, str], ...]


@dataclass(frozen=True)
class ScoreView:
    # Each Faction's id and name, the Influence columns' heads.
    factions: tuple[tuple[str, str], ...]
    # One row per house, in the houses' order.
    rows: tuple[ScoreRow, ...]


@dataclass
class PromptView:
    kind: str
    question: str
    decider: str
    number: bool
    minimum: int
    maximum: int
    default: int
    options: list[tuple[str, str]] = field(default_factory=list)
    info: list[str] = field(default_factory=list)


@dataclass
class RoundEndView:
    """One round's "End of round" card: its chores, each a list of sentences, and whether
    the table's tap is due."""

    round: int
    combat: list[str] = field(default_factory=list)
    rewards: list[str] = field(default_factory=list)
    cleanup: str = ""  # troops in the Conflict back to supply, Combat markers to 0
    spice: str = ""
    recall: list[str] = field(default_factory=list)
    first: str = ""
    next_conflict: str = ""
    waiting: bool = False


@dataclass
class RivalTurn:
    house: House
    card_id: str
    card: str
    swords: int
    space: str
    lines: list[str] = field(default_factory=list)


@dataclass
class Page:
    """The table screen's content."""

    view: GameView
    state: GameState
    banner: str
    banner_detail: str
    acting: House | None
    prompt: PromptView | None
    phase: str  # the round's phase in words
    # The board's columns, each a list of areas: id, name and spaces.
    board: tuple[tuple[tuple[str, str, tuple[SpaceView, ...]], ...], ...]
    voice_spaces: tuple[tuple[str, str], ...]  # where The Voice can go: id, name
    # The reason the board's spaces don't repeat (present.board.board_wide_problem).
    board_problem: str | None
    rival_turns: list[RivalTurn]
    just_now: list[str]
    log: tuple[tuple[int, str], ...] | None  # None: the drawer fetches it (games.log)
    conflict: ConflictView | None
    standings: list[Standing]  # once the game is over
    score: ScoreView | None  # None: the answer to a tap that changed no score
    rivals: tuple[RivalView, ...]
    purchases: tuple[tuple[Chip, tuple[tuple[str, int, str, int], ...]], ...]
    tech: TechView | None = None  # Rise of Ix games only
    round_end: RoundEndView | None = None  # the RoundEndView the table is doing now
    rounds_ended: tuple[int, ...] = ()  # rounds with an "End of round" card, newest first
    standings_lines: list[str] = field(default_factory=list)  # the winner, then the ties
    change: str = ""  # "undo" or "redo" right after one
    board_changes: list[str] = field(default_factory=list)  # what to change on the board
    ix_turn: IxTurnView | None = None
    card_effects: tuple[CardEffect, ...] = ()  # the acting player's
    corner: CornerView | None = None
    fields: tuple[tuple[str, object], ...] = HOUSE_FIELDS
    ix_fields: tuple[tuple[str, object], ...] = IX_HOUSE_FIELDS
    # The rulings the last tap applied: sentence, and the rules page's kind and id.
    rulings: tuple[tuple[str, str, str], ...] = ()
    seat: Chip | None = None  # the player this screen is (web/seats.py); None: the table's
    seat_choice: bool = False  # two or more players: a screen may be one player's
    # While the game waits for another player than this screen's: whom, and for what.
    waiting: tuple[str, ...] = ()

    @property
    def factions(self) -> tuple[tuple[str, str], ...]:
        """Each Faction's id and name in the reader's language."""
        return tuple((f, faction_name(f)) for f in FACTIONS)

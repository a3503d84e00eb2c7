"""What the table can tell the engine. Each action is one user intent."""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.i18n import Message

ADJUSTABLE = (
    "vp",
    "influence:emperor",
    "influence:spacing_guild",
    "influence:bene_gesserit",
    "influence:fremen",
    "solari",
    "spice",
    "water",
    "intrigue",
    "garrison",
    "troops",
    "swords",
    "strength",
    # Rise of Ix, tracked for every house.
    "freighter",
    "negotiators",
    "dn_garrison",
    "dn_conflict",
)
IX_FIELDS = ("freighter", "negotiators", "dn_garrison", "dn_conflict")
HUMAN_ADJUSTABLE = (*ADJUSTABLE[:5], "strength", *IX_FIELDS)
VP_REASONS = ("manual", "card", "endgame")


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is for the players.

    `message` is the English wording, marked with N_ so the web layer can translate it
    before filling in `values` (its %(name)s placeholders); str() gives it in English.
    A Message may stand for both.
    """

    def __init__(self, message: str, **values: object) -> None:
        if isinstance(message, Message):  # a reason worked out elsewhere, kept translatable
            values = {**message.values, **values}
            text = Message(message.template, **values) if values != message.values else message
            message = message.template
        else:
            text = Message(message, **values)
        super().__init__(str(text))
        self.message = message
        self.values = values
        # The whole Message (a count's keeps its plural), as the web translates it.
        self.text: Message = text


@dataclass(frozen=True, slots=True)
class PlaceAgent:
    """A human's Agent turn: the board space the Agent went to.

    `infiltrate`: the card's Infiltration icon lets the Agent in past enemy Agents
    (Rise of Ix rulebook p.7).
    """

    house: str
    space: str
    infiltrate: bool = False


@dataclass(frozen=True, slots=True)
class Reveal:
    """A human's Reveal turn."""

    house: str


@dataclass(frozen=True, slots=True)
class Choose:
    """The answer to the engine's current prompt (an option id, or a number as text)."""

    option: str


@dataclass(frozen=True, slots=True)
class Voice:
    """The Voice (Intrigue): mark a space opponents can't use until the player's next turn."""

    house: str
    space: str


@dataclass(frozen=True, slots=True)
class Adjust:
    """A correction or an effect the engine can't see (a card's Influence, VP or strength)."""

    house: str
    field: str
    delta: int
    reason: str = "manual"


@dataclass(frozen=True, slots=True)
class SetControl:
    """Correct who holds the Control marker of a space ("" removes it)."""

    space: str
    house: str


@dataclass(frozen=True, slots=True)
class SetTiebreak:
    """At the end: a human's spice, Solari, water and garrisoned troops for tie-breaks."""

    house: str
    spice: int
    solari: int
    water: int
    garrison: int


@dataclass(frozen=True, slots=True)
class CornerTheMarket:
    """At the end: a human plays Corner the Market with this many The Spice Must Flow cards.

    `other` is the most any one opponent holds with two to four players (the other
    player's count in a two-player game); solo Rivals count as two each.
    """

    house: str
    own: int
    other: int = 0


@dataclass(frozen=True, slots=True)
class Acquire:
    """A player bought this copy of a card; `move` confirms taking it from another player."""

    house: str
    card: str
    copy: int
    move: bool = False


@dataclass(frozen=True, slots=True)
class Freighter:
    """A player used a Freighter icon of a card: `op` is "advance" or "recall" (Ix p.5)."""

    house: str
    op: str


@dataclass(frozen=True, slots=True)
class Dreadnought:
    """A player's dreadnought: `op` "commission" (supply to garrison, a card's icon) or
    "deploy" (garrison to the Conflict, when sending an Agent to a Combat space) (Ix p.6)."""

    house: str
    op: str


@dataclass(frozen=True, slots=True)
class Tech:
    """A player's Tech tile: `op` "acquire" (a face-up `tile`, from a card's Acquire Tech),
    "negotiator" (a troop to Ix) or "trash" (an owned `tile`) (Ix p.4)."""

    house: str
    op: str
    tile: str = ""


Action = (
    PlaceAgent
    | Reveal
    | Choose
    | Voice
    | Adjust
    | SetControl
    | SetTiebreak
    | CornerTheMarket
    | Acquire
    | Freighter
    | Dreadnought
    | Tech
)
ACTION_TYPES: tuple[type[Action], ...] = (
    PlaceAgent,
    Reveal,
    Choose,
    Voice,
    Adjust,
    SetControl,
    SetTiebreak,
    CornerTheMarket,
    Acquire,
    Freighter,
    Dreadnought,
    Tech,
)

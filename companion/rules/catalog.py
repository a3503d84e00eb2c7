"""Typed game data the engine reads: board spaces, House Hagal cards, leaders, conflicts.

The records are built by `companion.cards` from the files in `card_db/`; the engine never
reads files itself. Every record has a stable id.

The rules lookup adds the cards players hold (Imperium, starter, Reserve, Control the
Spice), Intrigue cards, Rise of Ix Tech tiles and the Shipping Track. Fields added for
Rise of Ix all have defaults, so every base record keeps its meaning.

The record classes are also card_db's schema: `companion.cards` reads and checks each
record from `dataclasses.fields()`. A field's type gives the kind of value (a Literal its
allowed values; `| None` that a missing key means None), a field with a default may be
left out of a record, and `field(metadata=spec(...))` says what a type can't.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

Faction = Literal["emperor", "spacing_guild", "bene_gesserit", "fremen"]
FACTIONS: tuple[Faction, ...] = ("emperor", "spacing_guild", "bene_gesserit", "fremen")
FACTION_NAMES: Mapping[str, str] = {
    "emperor": "Emperor",
    "spacing_guild": "Spacing Guild",
    "bene_gesserit": "Bene Gesserit",
    "fremen": "Fremen",
}
AgentIcon = Literal[
    "emperor", "spacing_guild", "bene_gesserit", "fremen", "landsraad", "city", "spice_trade"
]
CardSet = Literal["base", "ix"]
Players = Literal["1P", "2P", "both"]
RESOURCES: tuple[str, ...] = ("solari", "spice", "water")
# The cards of a player's deck, by where they come from: the Imperium Deck, the starting
# deck, the Reserve stacks, and Control the Spice (Rise of Ix, Epic mode only).
CardKind = Literal["imperium", "starter", "reserve", "control_the_spice"]
IntrigueType = Literal["plot", "combat", "endgame"]
# When a Tech tile's ability works (Ix rulebook p.4): during the Reveal turn, after a won
# Conflict, at round start, once per round (flip the tile), once then trash it, on any of
# your turns, always, or at the end of the game.
TechTiming = Literal[
    "reveal",
    "after_conflict",
    "round_start",
    "once_per_round",
    "one_time",
    "any_turn",
    "passive",
    "endgame",
]


# The metadata key under which a field carries its `DbField`.
CARD_DB: Final = "card_db"


@dataclass(frozen=True, slots=True)
class DbField:
    """What card_db needs to know about a field beyond its type (see `spec`)."""

    # None: required unless the field has a default.
    required: bool | None = None
    # Allowed values, when the type doesn't list them (a Literal type does).
    values: tuple[object, ...] = ()
    # The name of a list of allowed values kept outside this module (the validator's).
    vocabulary: str = ""
    # The smallest number allowed, the fewest items of a list, or (for an amounts table)
    # the fewest amounts above 0; 0: no limit.
    minimum: int = 0
    # Only Rise of Ix records may use the key (Ix rulebook).
    ix: bool = False
    # False: not a key of the TOML record; the loader supplies the value.
    read: bool = True


def spec(
    *,
    required: bool | None = None,
    values: tuple[object, ...] = (),
    vocabulary: str = "",
    minimum: int = 0,
    ix: bool = False,
    read: bool = True,
) -> Mapping[str, DbField]:
    """Field metadata for card_db: `field(metadata=spec(minimum=1))`."""
    return {CARD_DB: DbField(required, values, vocabulary, minimum, ix, read)}


# The usual cases: a key a record may leave out, and a Rise of Ix key.
OPTIONAL: Final = spec(required=False)
IX: Final = spec(ix=True)


@dataclass(frozen=True, slots=True)
class Resources:
    """An amount of Solari, spice and water (a cost or a gain)."""

    solari: int = 0
    spice: int = 0
    water: int = 0

    def is_empty(self) -> bool:
        return not (self.solari or self.spice or self.water)


@dataclass(frozen=True, slots=True)
class SpaceDef:
    """One board space (Board Space Guide, rulebook pp. 16-19)."""

    id: str
    name: str
    set: CardSet
    icon: AgentIcon
    faction: Faction | None = field(metadata=OPTIONAL)
    cost: Resources
    # Sell Melange has a variable cost ("2-5 spice"); shown as text, never enforced.
    cost_note: str = field(metadata=OPTIONAL)
    requires_influence: Mapping[str, int] = field(metadata=OPTIONAL)
    effects: str
    combat: bool
    maker: bool
    base_spice: int
    control_bonus: Resources | None = field(metadata=OPTIONAL)
    once_per_game: bool
    gives_intrigue: bool
    explanation: str
    removed_with: tuple[CardSet, ...] = ()
    # The Solari, spice and water the space gives outright (its `effects` say it in words;
    # a Maker space's harvest is `base_spice`, Sell Melange's exchange is chosen).
    gain: Resources = Resources()
    # Rise of Ix icons on the space (Ix rulebook p.12): Freighter moves, dreadnoughts to
    # commission, Acquire Tech with `tech_discount` spice off, Negotiators to place on Ix.
    # `ix_choose_one`: the player takes one of these icons, not all (Tech Negotiation).
    freighter: int = field(default=0, metadata=IX)
    dreadnought: int = field(default=0, metadata=IX)
    acquire_tech: bool = field(default=False, metadata=IX)
    tech_discount: int = field(default=0, metadata=IX)
    negotiator: int = field(default=0, metadata=IX)
    ix_choose_one: bool = field(default=False, metadata=IX)


@dataclass(frozen=True, slots=True)
class HagalCardDef:
    """One kind of House Hagal card (rulebook p. 19; HAGAL.md §2)."""

    id: str
    name: str
    set: CardSet
    copies: int = field(metadata=spec(minimum=1))
    players: Players
    # The target space; None for Harvest Spice (chosen at reveal) and Reshuffle.
    space: str | None = field(metadata=OPTIONAL)
    influence: Faction | None = field(metadata=OPTIONAL)
    troops: int
    signet: bool
    swords: int
    harvest: bool
    reshuffle: bool
    explanation: str
    removed_with: tuple[CardSet, ...] = ()
    uncertain: tuple[str, ...] = ()
    # Rise of Ix (Ix rulebook pp.8-9; HAGAL.md §6). Freighter icons; dreadnoughts to
    # commission (the card is skipped when the Rival already has two); Acquire Tech with
    # `tech_discount` spice off; `negotiator`: Negotiators placed instead when the Rival
    # can't afford any tile.
    freighter: int = field(default=0, metadata=IX)
    dreadnought: int = field(default=0, metadata=IX)
    acquire_tech: bool = field(default=False, metadata=IX)
    tech_discount: int = field(default=0, metadata=IX)
    negotiator: int = field(default=0, metadata=IX)
    # The two dual cards: `space`, `influence` and `freighter` apply while the Rival has 0
    # or 1 Spacing Guild Influence; with 2 or more it uses these instead. If the matching
    # space is blocked, the card is not used at all (FAQ, "Rivals").
    space_if_guild_2: str | None = field(default=None, metadata=IX)
    influence_if_guild_2: Faction | None = field(default=None, metadata=IX)
    freighter_if_guild_2: int = field(default=0, metadata=IX)


@dataclass(frozen=True, slots=True)
class LeaderDef:
    """A leader and how a solo Rival uses its Signet ability (rulebook p. 20; HAGAL.md §7)."""

    id: str
    name: str
    set: CardSet
    rival_allowed: bool
    # What the rival does for a Signet icon: see rules.hagal.SIGNETS for the known kinds.
    rival_signet: str = field(metadata=spec(vocabulary="rival_signets"))
    signet_name: str
    signet_text: str
    ability_name: str
    ability_text: str
    rival_explanation: str


@dataclass(frozen=True, slots=True)
class Offer:
    """An optional purchase inside a reward: pay `cost` for `vp` Victory Points."""

    cost: Resources = field(metadata=spec(minimum=1))
    vp: int = field(default=1, metadata=spec(required=True))


@dataclass(frozen=True, slots=True)
class Reward:
    """One reward box of a Conflict card (rulebook back cover)."""

    vp: int = 0
    solari: int = 0
    spice: int = 0
    water: int = 0
    intrigue: int = 0
    troops: int = 0
    # `influence` points to each of `influence_factions` different Factions of the
    # receiver's choice: Skirmish (1 to 1), Grand Vision (2 to 1), Machinations (1 to 2).
    influence: int = 0
    influence_factions: int = 0
    control: str | None = None
    mentat: bool = False
    trash: bool = False
    # "Choose N of": each option is itself a Reward without choices.
    choose: int = 0
    options: tuple[Reward, ...] = ()
    # Rise of Ix: Freighter icons, and purchases the receiver may make, each at most once
    # (Economic Supremacy).
    freighter: int = field(default=0, metadata=IX)
    offers: tuple[Offer, ...] = field(default=(), metadata=IX)

    def is_empty(self) -> bool:
        return self == Reward()


@dataclass(frozen=True, slots=True)
class ConflictDef:
    """A Conflict card: level, controlled space and the three rewards."""

    id: str
    name: str
    set: CardSet
    level: int = field(metadata=spec(values=(1, 2, 3)))
    controlled_space: str | None = field(metadata=OPTIONAL)
    first: Reward
    second: Reward
    third: Reward
    explanation: str
    uncertain: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CardDef:
    """A card for a player's deck: Imperium Deck, starting deck, Reserve, Control the Spice."""

    id: str
    name: str
    set: CardSet
    # Not a key of the record: the file it is in (`imperium.toml`, ...).
    kind: CardKind = field(metadata=spec(read=False))
    # Physical copies; for the starting deck and Control the Spice, copies per player.
    copies: int = field(metadata=spec(minimum=1))
    # Persuasion cost; None for cards nobody buys (starting deck, Control the Spice).
    cost: int | None = field(metadata=OPTIONAL)
    factions: tuple[Faction, ...]
    icons: tuple[AgentIcon, ...]
    # Our paraphrases of the boxes: Agent, Reveal (beyond the plain Persuasion and
    # swords), Acquire, and rules outside the boxes; "" when the card has none.
    agent: str = field(metadata=OPTIONAL)
    persuasion: int = field(metadata=OPTIONAL)
    swords: int = field(metadata=OPTIONAL)
    reveal: str = field(metadata=OPTIONAL)
    acquire: str = field(metadata=OPTIONAL)
    special: str = field(metadata=OPTIONAL)
    explanation: str
    infiltration: bool = field(default=False, metadata=IX)
    unload: bool = field(default=False, metadata=IX)
    # What acquiring the card scores or moves, when the companion tracks it.
    acquire_vp: int = 0
    acquire_influence: Mapping[str, int] = field(default_factory=dict)
    # Control the Spice takes the place of one copy of this starting card.
    replaces: str | None = None
    removed_with: tuple[CardSet, ...] = ()
    uncertain: tuple[str, ...] = ()

    @property
    def per_player(self) -> bool:
        """True when `copies` counts one player's deck (starter, Control the Spice)."""
        return self.kind in ("starter", "control_the_spice")


@dataclass(frozen=True, slots=True)
class IntrigueDef:
    """An Intrigue card: its types and the effect for each type (rulebook p.7)."""

    id: str
    name: str
    set: CardSet
    copies: int = field(metadata=spec(minimum=1))
    types: tuple[IntrigueType, ...] = field(metadata=spec(minimum=1))
    plot: str = field(metadata=OPTIONAL)
    combat: str = field(metadata=OPTIONAL)
    endgame: str = field(metadata=OPTIONAL)
    explanation: str
    uncertain: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TechDef:
    """A Rise of Ix Tech tile (Ix rulebook p.4; solo Rivals p.9)."""

    id: str
    name: str
    set: CardSet
    # Spice cost before discounts.
    cost: int
    # The small House Hagal mark: a solo Rival may acquire this tile.
    hagal_ok: bool
    timing: tuple[TechTiming, ...] = field(metadata=spec(minimum=1))
    acquire: str = field(metadata=OPTIONAL)
    # The part of the acquire effect a Rival collects (resources, Intrigue, troops, VP).
    acquire_reward: Reward = field(metadata=OPTIONAL)
    ability: str
    # How a solo Rival uses the tile (Ix rulebook p.9); "" when it has no special rule.
    rival_rule: str = field(metadata=OPTIONAL)
    explanation: str
    uncertain: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TrackStep:
    """One step of the Shipping Track and what a recall from it (or above) pays."""

    step: int
    effects: str
    reward: Reward = Reward()
    # Dividends: the Solari option also pays every opponent 1 Solari (Rivals always take it).
    dividends: bool = False
    acquire_tech: bool = False
    tech_discount: int = 0


@dataclass(frozen=True, slots=True)
class TrackDef:
    """A track that is not an Agent space: the Rise of Ix Shipping Track (Ix rulebook p.5)."""

    id: str
    name: str
    set: CardSet
    effects: str
    steps: tuple[TrackStep, ...] = field(metadata=spec(minimum=1))
    rival_rule: str
    explanation: str
    uncertain: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Catalog:
    """Everything the engine needs from card_db for one ruleset."""

    version: str
    spaces: Mapping[str, SpaceDef]
    hagal: Mapping[str, HagalCardDef]
    leaders: Mapping[str, LeaderDef]
    conflicts: Mapping[str, ConflictDef]
    extra: Mapping[str, object] = field(default_factory=dict)
    # The rules lookup: deck cards of every kind, Intrigue cards, Tech tiles, tracks.
    cards: Mapping[str, CardDef] = field(default_factory=dict)
    intrigue: Mapping[str, IntrigueDef] = field(default_factory=dict)
    tech: Mapping[str, TechDef] = field(default_factory=dict)
    tracks: Mapping[str, TrackDef] = field(default_factory=dict)
    _boards: dict[tuple[str, ...], Mapping[str, SpaceDef]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def space(self, space_id: str) -> SpaceDef:
        return self.spaces[space_id]

    def board(self, sets: tuple[str, ...]) -> Mapping[str, SpaceDef]:
        """Board spaces in play with these sets (Rise of Ix covers some base spaces)."""
        found = self._boards.get(sets)
        if found is None:
            found = {
                s.id: s
                for s in self.spaces.values()
                if s.set in sets and not any(x in sets for x in s.removed_with)
            }
            self._boards[sets] = found
        return found

"""Typed game data the engine reads: board spaces, House Hagal cards, leaders, conflicts.

The records are built by `companion.cards` from the files in `card_db/`; the engine never
reads files itself. Every record has a stable id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

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
    faction: Faction | None
    cost: Resources
    # Sell Melange has a variable cost ("2-5 spice"); shown as text, never enforced.
    cost_note: str
    requires_influence: Mapping[str, int]
    effects: str
    combat: bool
    maker: bool
    base_spice: int
    control_bonus: Resources | None
    once_per_game: bool
    gives_intrigue: bool
    explanation: str
    removed_with: tuple[CardSet, ...] = ()


@dataclass(frozen=True, slots=True)
class HagalCardDef:
    """One kind of House Hagal card (rulebook p. 19; HAGAL.md §2)."""

    id: str
    name: str
    set: CardSet
    copies: int
    players: Players
    # The target space; None for Harvest Spice (chosen at reveal) and Reshuffle.
    space: str | None
    influence: Faction | None
    troops: int
    signet: bool
    swords: int
    harvest: bool
    reshuffle: bool
    explanation: str
    removed_with: tuple[CardSet, ...] = ()
    uncertain: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LeaderDef:
    """A leader and how a solo Rival uses its Signet ability (rulebook p. 20; HAGAL.md §7)."""

    id: str
    name: str
    set: CardSet
    rival_allowed: bool
    # What the rival does for a Signet icon: see rules.hagal.SIGNETS for the known kinds.
    rival_signet: str
    signet_name: str
    signet_text: str
    ability_name: str
    ability_text: str
    rival_explanation: str


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

    def is_empty(self) -> bool:
        return self == Reward()


@dataclass(frozen=True, slots=True)
class ConflictDef:
    """A Conflict card: level, controlled space and the three rewards."""

    id: str
    name: str
    set: CardSet
    level: int
    controlled_space: str | None
    first: Reward
    second: Reward
    third: Reward
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

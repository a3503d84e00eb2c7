"""Builders for the Rise of Ix rules tests."""

from __future__ import annotations

from dataclasses import replace

from companion.rules.engine import new_game
from companion.rules.state import GameState, Setup
from tests.rules.helpers import (
    catalog,
    house,
    place,
    solo_setup,
    stack,
    two_player_setup,
    vacate,
)

IX = ("base", "ix")
# A space that asks nothing of the player and that no test card targets.
QUIET = "selective_breeding"
# Tiles without the House Hagal mark, to fill stacks in tests.
SPARE_TILES = ("artillery", "minimic_film", "holoprojectors")


def ix_solo_setup(
    difficulty: str = "mentat",
    rivals: tuple[str, str] = ("glossu_rabban", "memnon_thorvald"),
    human: str = "paul_atreides",
    seed: int = 1,
    **options: bool,
) -> Setup:
    """`solo_setup` with Rise of Ix."""
    return replace(solo_setup(difficulty, rivals, human, seed, **options), sets=IX)


def ix_solo(
    difficulty: str = "sardaukar",
    rivals: tuple[str, str] = ("glossu_rabban", "memnon_thorvald"),
    seed: int = 1,
    **options: bool,
) -> GameState:
    """A new Rise of Ix solo game: you (p1) against r1 (First Player) and r2.

    Sardaukar by default: no Expert deployment unless a test asks for it.
    """
    setup = ix_solo_setup(difficulty, rivals, "paul_atreides", seed, **options)
    return new_game(setup, catalog())


def ix_two_player_setup(first_player: int = 0, seed: int = 1, **options: bool) -> Setup:
    """`two_player_setup` with Rise of Ix."""
    return replace(two_player_setup(first_player, seed, **options), sets=IX)


def ix_two_player(first_player: int = 0, seed: int = 1, **options: bool) -> GameState:
    return new_game(ix_two_player_setup(first_player, seed, **options), catalog())


def tiles(state: GameState, *stacks: tuple[str, ...]) -> GameState:
    """The state with these Tech stacks (top tile first); the rest of the 18 tiles trashed."""
    used = {t for s in stacks for t in s}
    rest = tuple(t for t in catalog().tech if t not in used)
    return replace(state, tech_stacks=tuple(stacks), tech_trash=rest)


def rival_turn(
    s: GameState, who: str, *cards: str, space: str = QUIET, **changes: object
) -> GameState:
    """You send an Agent to `space`; then `who` (solo rival, the other one idle) reveals
    `cards` from the top of the House Hagal deck. `changes` apply to `who` first."""
    assert s.turn == "p1"
    other = "r2" if who == "r1" else "r1"
    s = house(s, other, placed=s.house(other).agents)
    if who == "r2":
        s = house(s, "r1", placed=s.house("r1").agents)
    s = house(s, who, **changes)
    targets = [catalog().hagal[c].space for c in cards]
    targets += [catalog().hagal[c].space_if_guild_2 for c in cards]
    s = vacate(s, *(t for t in targets if t), space)
    s = stack(s, *cards)
    return place(s, space)


def hagal_turn(s: GameState, *cards: str, space: str = QUIET, **changes: object) -> GameState:
    """Two-player: the First Player sends an Agent to `space`; House Hagal reveals `cards`."""
    assert s.turn == s.first
    s = house(s, "hagal", **changes)
    targets = [catalog().hagal[c].space for c in cards]
    targets += [catalog().hagal[c].space_if_guild_2 for c in cards]
    s = vacate(s, *(t for t in targets if t), space)
    s = stack(s, *cards)
    return place(s, space)


def transports_turn(s: GameState, troops: int = 0, garrison: int | None = None) -> GameState:
    """r1, owning Troop Transports with its Freighter on step 2 and 1 Fremen Influence,
    reveals the Smuggling card: it recalls from step 2 (the Shipping troops). `troops` in
    the Conflict, `garrison` if given."""
    return rival_turn(
        s,
        "r1",
        "smuggling_or_interstellar_shipping",
        freighter=2,
        tech=("troop_transports",),
        influence=(0, 0, 0, 1),
        troops=troops,
        garrison=s.house("r1").garrison if garrison is None else garrison,
    )

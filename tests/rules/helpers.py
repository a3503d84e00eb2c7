"""Builders for rules tests: set up a game, then rearrange it to the situation under test."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from companion.cards import load_catalog
from companion.rules.actions import Action, Choose, PlaceAgent, Reveal
from companion.rules.catalog import Catalog
from companion.rules.engine import apply, new_game
from companion.rules.state import GameState, Options, SeatSetup, Setup


@cache
def catalog() -> Catalog:
    """Base game and Rise of Ix: a game uses the sets its Setup names."""
    return load_catalog(sets=("base", "ix"))


def solo(
    difficulty: str = "mentat",
    rivals: tuple[str, str] = ("glossu_rabban", "memnon_thorvald"),
    human: str = "paul_atreides",
    seed: int = 1,
    **options: bool,
) -> GameState:
    """A new solo game: you (p1) against r1 (on your left, First Player) and r2."""
    setup = Setup(
        mode="solo",
        seed=seed,
        humans=(SeatSetup("You", human, "green"),),
        rivals=(SeatSetup("Rival A", rivals[0], "red"), SeatSetup("Rival B", rivals[1], "yellow")),
        difficulty=difficulty,  # type: ignore[arg-type]
        options=Options(**options),
    )
    return new_game(setup, catalog())


def two_player(first_player: int = 0, seed: int = 1, **options: bool) -> GameState:
    """A new two-player game: p1 and p2 against House Hagal."""
    setup = Setup(
        mode="2p",
        seed=seed,
        humans=(
            SeatSetup("Ann", "paul_atreides", "green"),
            SeatSetup("Ben", "ilban_richese", "blue"),
        ),
        rivals=(SeatSetup("House Hagal", "", "red"),),
        first_player=first_player,
        options=Options(**options),
    )
    return new_game(setup, catalog())


PLAYERS = (
    SeatSetup("Ann", "paul_atreides", "green"),
    SeatSetup("Ben", "ilban_richese", "blue"),
    SeatSetup("Cal", "glossu_rabban", "red"),
    SeatSetup("Dee", "helena_richese", "yellow"),
)


def multiplayer_setup(
    players: int = 4,
    first_player: int = 0,
    seed: int = 1,
    sets: tuple[str, ...] = ("base",),
    **options: bool,
) -> Setup:
    """A three- or four-player Setup: Ann, Ben, Cal (and Dee) clockwise, no Rival."""
    return Setup(
        mode="3p" if players == 3 else "4p",
        seed=seed,
        humans=PLAYERS[:players],
        rivals=(),
        first_player=first_player,
        options=Options(**options),
        sets=sets,
    )


def multiplayer(
    players: int = 4,
    first_player: int = 0,
    seed: int = 1,
    sets: tuple[str, ...] = ("base",),
    **options: bool,
) -> GameState:
    """A new three- or four-player game (p1..p4 clockwise), at the First Player's turn."""
    return new_game(multiplayer_setup(players, first_player, seed, sets, **options), catalog())


def house(state: GameState, house_id: str, **changes: Any) -> GameState:
    """The state with one house changed."""
    houses = tuple(replace(h, **changes) if h.id == house_id else h for h in state.houses)
    return replace(state, houses=houses)


def stack(state: GameState, *cards: str) -> GameState:
    """Put these House Hagal cards on top of the deck (taken from the deck or discard)."""
    deck = list(state.hagal_deck)
    discard = list(state.hagal_discard)
    for card in cards:
        if card in deck:
            deck.remove(card)
        else:
            discard.remove(card)
    return replace(state, hagal_deck=(*cards, *deck), hagal_discard=tuple(discard))


def run(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state = apply(state, action)
    return state


def place(state: GameState, space: str) -> GameState:
    assert state.turn is not None
    return apply(state, PlaceAgent(state.turn, space))


def reveal(state: GameState) -> GameState:
    assert state.turn is not None
    return apply(state, Reveal(state.turn))


def answer(state: GameState, option: str | int) -> GameState:
    return apply(state, Choose(str(option)))


def kinds(state: GameState) -> list[str]:
    """The log kinds produced by the last action."""
    return [e.kind for e in state.last_entries]


# -- builders for the rule-by-rule tests (test_setup, test_agent_turns, test_rivals, ...) ----


def solo_setup(
    difficulty: str = "mentat",
    rivals: tuple[str, str] = ("glossu_rabban", "memnon_thorvald"),
    human: str = "paul_atreides",
    seed: int = 1,
    **options: bool,
) -> Setup:
    """The Setup `solo()` uses, for tests that check setup validation."""
    return Setup(
        mode="solo",
        seed=seed,
        humans=(SeatSetup("You", human, "green"),),
        rivals=(SeatSetup("Rival A", rivals[0], "red"), SeatSetup("Rival B", rivals[1], "yellow")),
        difficulty=difficulty,  # type: ignore[arg-type]
        options=Options(**options),
    )


def two_player_setup(first_player: int = 0, seed: int = 1, **options: bool) -> Setup:
    """The Setup `two_player()` uses, for tests that check setup validation."""
    return Setup(
        mode="2p",
        seed=seed,
        humans=(
            SeatSetup("Ann", "paul_atreides", "green"),
            SeatSetup("Ben", "ilban_richese", "blue"),
        ),
        rivals=(SeatSetup("House Hagal", "", "red"),),
        first_player=first_player,
        options=Options(**options),
    )


def settle(state: GameState, strength: int = 0) -> GameState:
    """Answer every open prompt: `strength` for strength prompts, the minimum for other
    number prompts (expert_strength), else the first option."""
    while state.prompt is not None:
        p = state.prompt
        if p.number:
            state = answer(state, strength if p.kind == "strength" else p.minimum)
        else:
            state = answer(state, p.options[0])
    return state


def finish_round(state: GameState, strength: int = 0) -> GameState:
    """Play out the round: humans reveal, prompts get default answers (see `settle`).

    Returns the state at the first human input of the next round, or the ended game.
    """
    start = state.round
    while True:
        state = settle(state, strength)
        if state.round != start or state.phase == "ended":
            return state
        state = reveal(state)


def vacate(state: GameState, *spaces: str) -> GameState:
    """The state with these board spaces empty (their Agents simply removed)."""
    occupants = {k: v for k, v in state.occupants.items() if k not in spaces}
    return replace(state, occupants=occupants)


def idle_rivals(state: GameState) -> GameState:
    """The state with every rival out of Agents for this round, so only humans act."""
    for h in state.rivals:
        state = house(state, h.id, placed=h.agents + (1 if h.mentat else 0))
    return state


def entries(state: GameState, kind: str, house_id: str | None = None) -> list[dict[str, Any]]:
    """The data of the last action's log entries of this kind (and house, if given)."""
    return [
        dict(e.data)
        for e in state.last_entries
        if e.kind == kind and (house_id is None or e.house == house_id)
    ]

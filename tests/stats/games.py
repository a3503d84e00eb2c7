"""Finished games built through the engine, whose summaries the tests know by hand.

Rivals are kept idle (no Agent turns) so the VP come from the table's own entries
(Adjust, a card's VP or Influence) and from the Conflicts, whose cards the seed fixes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime

from companion import services
from companion.rules.actions import Action, Adjust, Choose, Reveal, SetTiebreak
from companion.rules.engine import apply, new_game
from companion.rules.state import GameState, Options, SeatSetup, Setup
from companion.sim import choose_action, make_setup, play
from tests.rules.helpers import (
    catalog,
    finish_round,
    idle_rivals,
    reveal,
    settle,
    solo,
    two_player,
)
from tests.web.conftest import GameActions

DAY = datetime(2026, 11, 20, 18, 0, 0)


def solo_win() -> GameState:
    """Solo, Mentat, seed 1, two rounds. Round 1: +3 VP from a card; Rival A wins
    Skirmish (no VP), Rival B takes second. Round 2: +2 Emperor Influence (1 VP at 2
    Influence) and +6 VP from a card, so you reach 10 VP [RB p.12 Phase 5]; Rival B wins
    Desert Power (1 VP). Final: you 10, Rival B 1, Rival A 0."""
    s = apply(idle_rivals(solo()), Adjust("p1", "vp", 3, "card"))
    s = finish_round(s, strength=0)
    s = apply(idle_rivals(s), Adjust("p1", "influence:emperor", 2, "card"))
    s = apply(s, Adjust("p1", "vp", 6, "card"))
    return settle(reveal(s), strength=0)


def solo_loss() -> GameState:
    """Solo, Kwisatz Haderach, seed 2, one round: Rival A is given 10 VP, you 2 from a card;
    the game ends at Phase 5 of round 1 [RB p.12]."""
    s = idle_rivals(solo("kwisatz", seed=2))
    s = apply(s, Adjust("r1", "vp", 10, "manual"))
    s = apply(s, Adjust("p1", "vp", 2, "card"))
    return settle(reveal(s), strength=0)


def two_player_game() -> GameState:
    """Two players, seed 1, one round: Ann 10 VP and Ben 4 VP from cards; House Hagal
    scores nothing [RB p.19]."""
    s = apply(two_player(), Adjust("p1", "vp", 10, "card"))
    s = apply(s, Adjust("p2", "vp", 4, "card"))
    while s.phase != "ended":
        s = settle(reveal(s), strength=0)
    return s


FOUR = (
    SeatSetup("Ann", "paul_atreides", "green"),
    SeatSetup("Ben", "ilban_richese", "blue"),
    SeatSetup("Cal", "glossu_rabban", "red"),
    SeatSetup("Dee", "memnon_thorvald", "yellow"),
)


Step = Callable[[GameState, Action], GameState]


def _round_of_reveals(state: GameState, step: Step = apply) -> GameState:
    """Everyone takes a Reveal turn with no strength: the round ends, or the game.
    Prompts get the first option (or 0)."""
    start = state.round
    while state.round == start and state.phase != "ended":
        prompt = state.prompt
        if prompt is None:
            assert state.turn is not None
            state = step(state, Reveal(state.turn))
        else:
            state = step(state, Choose("0" if prompt.number else prompt.options[0]))
    return state


FOUR_PLAYER_SETUP = Setup(mode="4p", seed=1, humans=FOUR, rivals=(), first_player=2)


def four_player_game(step: Step = apply) -> GameState:
    """Four players, seed 1, Cal (p3) First Player; two rounds. Everyone starts on 1 VP
    [RB p.4, G2]. Round 1: Ben +4 VP from a card, Cal +2 Emperor Influence (1 VP at 2
    Influence [RB p.7]), Dee +2 VP from a card. Round 2: Ben +5 (10 VP: the game ends
    [RB p.12 Phase 5]), Cal +3, Dee +2. Cal and Dee tie on 5 VP and spice and Solari;
    Dee has more water and comes second [RB p.12 Endgame]. Final: Ben 10, Dee 5, Cal 5,
    Ann 1. `step` applies each action (the engine, or the services for a stored game)."""
    s = new_game(FOUR_PLAYER_SETUP, catalog())
    s = step(s, Adjust("p2", "vp", 4, "card"))
    s = step(s, Adjust("p3", "influence:emperor", 2, "card"))
    s = step(s, Adjust("p4", "vp", 2, "card"))
    s = _round_of_reveals(s, step)
    s = step(s, Adjust("p2", "vp", 5, "card"))
    s = step(s, Adjust("p3", "vp", 3, "card"))
    s = step(s, Adjust("p4", "vp", 2, "card"))
    s = _round_of_reveals(s, step)
    assert s.phase == "ended"
    s = step(s, SetTiebreak("p3", 3, 2, 1, 0))
    return step(s, SetTiebreak("p4", 3, 2, 2, 0))


def stored_four_player_game(actions: GameActions) -> int:
    """`four_player_game` stored and played through the services."""
    with actions.app.app_context():
        game_id = services.create_game(FOUR_PLAYER_SETUP, actions.catalog)

        def step(_: GameState, action: Action) -> GameState:
            version = services.current_version(game_id)
            return services.act(game_id, action, version, actions.catalog).state

        four_player_game(step)
    return game_id


def three_player_game() -> GameState:
    """Three players (Ann, Ben, Cal of `FOUR`), seed 2, Ben (p2) First Player; one round:
    Ann +10 VP and Ben +3 VP from cards. Nobody starts with VP [RB p.4, G2]. Final: Ann
    10, Ben 3, Cal 0."""
    setup = Setup(mode="3p", seed=2, humans=FOUR[:3], rivals=(), first_player=1)
    s = new_game(setup, catalog())
    s = apply(s, Adjust("p1", "vp", 10, "card"))
    s = apply(s, Adjust("p2", "vp", 3, "card"))
    s = _round_of_reveals(s)
    assert s.phase == "ended"
    return s


def played_game(mode: str, seed: int, sets: tuple[str, ...] = ("base",)) -> GameState:
    """A whole game played by the simulator's scripted players (fixed seed)."""
    setup = make_setup(catalog(), mode, None, seed, Options(), sets)
    final = play(catalog(), setup, check=False).final
    assert final is not None
    return final


def play_to_the_end(actions: GameActions, game_id: int, seed: int) -> GameState:
    """Play a stored game through the services with the simulator's scripted player until
    it ends, as the table would; its final state."""
    rng = random.Random(seed)
    with actions.app.app_context():
        for _ in range(2000):
            view = services.load(game_id, actions.catalog)
            if view.state.phase == "ended":
                return view.state
            services.act(game_id, choose_action(view.state, rng), view.version, actions.catalog)
    raise AssertionError("the game did not end")


def new_multiplayer(
    actions: GameActions, mode: str, seed: int, sets: tuple[str, ...] = ("base",)
) -> int:
    """A stored three- or four-player game (the simulator's setup for this seed), played
    to the end through the services; at the end every player enters tie-break counts, as
    the table does."""
    with actions.app.app_context():
        setup = make_setup(actions.catalog, mode, None, seed, Options(), sets)
        game_id = services.create_game(setup, actions.catalog)
    final = play_to_the_end(actions, game_id, seed)
    rng = random.Random(seed)
    with actions.app.app_context():
        for human in final.humans:
            counts = (rng.randint(0, 9), rng.randint(0, 9), rng.randint(0, 4), rng.randint(0, 6))
            version = services.current_version(game_id)
            services.act(game_id, SetTiebreak(human.id, *counts), version, actions.catalog)
    return game_id

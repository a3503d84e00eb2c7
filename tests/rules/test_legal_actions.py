"""`legal_actions` and `action_problem` agree with `apply`, over the states of simulated
games with fixed seeds: a Rise of Ix icon is listed exactly when `apply` accepts it [IX
pp.4-6], and every refusal has its reason before the tap (the screens grey those buttons)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from companion.rules.actions import (
    Acquire,
    Action,
    Adjust,
    CornerTheMarket,
    IllegalAction,
    SetTiebreak,
    Tech,
)
from companion.rules.catalog import FACTIONS
from companion.rules.engine import (
    action_problem,
    apply,
    buyers,
    card_buyable,
    corner_players,
    ix_icons,
    legal_actions,
    new_game,
)
from companion.rules.state import MAX_INFLUENCE, GameState, Options
from companion.sim import choose_action, make_setup
from tests.rules.helpers import catalog
from tests.rules.ix_helpers import ix_solo

IX = ("base", "ix")
GAMES = [
    ("2p", None, IX, 1),
    ("solo", "mentat", IX, 2),
    ("4p", None, IX, 3),
    ("3p", None, ("base",), 4),
]


def _accepted(state: GameState, action: Action) -> bool:
    try:
        apply(state, action)
    except IllegalAction:
        return False
    return True


def _states(
    mode: str, difficulty: str | None, sets: tuple[str, ...], seed: int
) -> Iterator[GameState]:
    """Every state of one simulated game, and its ended states after each player's
    tie-break entry."""
    setup = make_setup(catalog(), mode, difficulty, seed, Options(), sets)  # type: ignore[arg-type]
    state = new_game(setup, catalog())
    rng = random.Random(seed)
    for _ in range(400):
        yield state
        if state.phase == "ended":
            break
        state = apply(state, choose_action(state, rng))
    for human in state.humans:
        state = apply(state, SetTiebreak(human.id, 1, 1, 1, 1))
        yield state


@pytest.mark.parametrize(("mode", "difficulty", "sets", "seed"), GAMES)
def test_each_ix_icon_is_listed_exactly_when_apply_accepts_it(
    mode: str, difficulty: str | None, sets: tuple[str, ...], seed: int
) -> None:
    listed_somewhere: set[tuple[str, str]] = set()
    refused_somewhere: set[tuple[str, str]] = set()
    for state in _states(mode, difficulty, sets, seed):
        legal = legal_actions(state)
        for house in state.humans:
            for icon in ix_icons(state, house.id):
                accepted = _accepted(state, icon)
                assert (icon in legal) == accepted, (state.step, icon)
                assert (action_problem(state, icon) is None) == accepted, (state.step, icon)
                kind = (type(icon).__name__, icon.op)
                (listed_somewhere if accepted else refused_somewhere).add(kind)
        # Nothing else is listed beside the flow actions and the icons.
        icons = {i for h in state.humans for i in ix_icons(state, h.id)}
        assert all(a in icons or not isinstance(a, Tech) for a in legal)
    if "ix" in sets:
        # The walk met each kind of icon both allowed and refused (the test can fail).
        assert len(listed_somewhere) >= 6 and len(refused_somewhere) >= 5
    else:
        assert not listed_somewhere


@pytest.mark.parametrize(("mode", "difficulty", "sets", "seed"), GAMES)
def test_buyers_corner_and_card_effects_agree_with_apply(
    mode: str, difficulty: str | None, sets: tuple[str, ...], seed: int
) -> None:
    rng = random.Random(seed)
    cards = sorted(catalog().cards)
    corner_seen = False
    for state in _states(mode, difficulty, sets, seed):
        may_buy = buyers(state)
        assert may_buy == tuple(h.id for h in state.humans)
        for house in state.houses:
            card = rng.choice(cards)
            buy = Acquire(house.id, card, 1)
            accepted = _accepted(state, buy)
            assert (action_problem(state, buy) is None) == accepted, (state.step, buy)
            if accepted:
                assert house.id in may_buy and card_buyable(state, card)
            corner = CornerTheMarket(house.id, rng.randint(0, 3), rng.randint(0, 3))
            accepted = _accepted(state, corner)
            assert (action_problem(state, corner) is None) == accepted, (state.step, corner)
            assert (house.id in corner_players(state)) == accepted
            corner_seen |= accepted
            for faction in FACTIONS:  # the card effects' "+1 Influence" buttons
                plus = Adjust(house.id, f"influence:{faction}", 1, "card")
                accepted = _accepted(state, plus)
                assert (action_problem(state, plus) is None) == accepted, (state.step, plus)
    assert corner_seen


def test_plus_one_influence_is_refused_at_the_top_of_the_track_with_its_reason() -> None:
    """A Faction track goes up to 6 [RB p.7]: the card effect's +1 is greyed there."""
    state = ix_solo()
    house = state.humans[0]
    for _ in range(MAX_INFLUENCE):
        state = apply(state, Adjust(house.id, "influence:fremen", 1, "card"))
    plus = Adjust(house.id, "influence:fremen", 1, "card")
    assert not _accepted(state, plus)
    assert str(action_problem(state, plus)) == "Influence goes from 0 to 6."


def test_a_negotiator_needs_a_troop_in_supply() -> None:
    """ "Take a troop from your supply and place it as a Negotiator" [IX p.4]."""
    state = ix_solo()
    house = state.humans[0]
    negotiator = Tech(house.id, "negotiator")
    for _ in range(12):
        assert negotiator in legal_actions(state)
        state = apply(state, negotiator)
    assert negotiator not in legal_actions(state)
    assert (
        str(action_problem(state, negotiator)) == "No troop left in your supply for a Negotiator."
    )
    with pytest.raises(IllegalAction):
        apply(state, negotiator)

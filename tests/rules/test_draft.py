"""The Draft carries every GameState field through `apply`: a field left out would be
reset on every action without any rule test noticing."""

from __future__ import annotations

import random
from dataclasses import fields

from companion.rules.draft import Draft
from companion.rules.engine import apply
from companion.rules.state import GameState, Posted
from companion.sim import choose_action
from tests.rules.ix_helpers import ix_solo


def played_ix_game(actions: int = 40) -> GameState:
    """A Rise of Ix solo game some way in: most fields hold something."""
    rng = random.Random(7)
    state = ix_solo()
    for _ in range(actions):
        if state.phase == "ended":
            break
        state = apply(state, choose_action(state, rng))
    return state


def test_a_draft_freezes_back_into_the_same_state():
    state = played_ix_game()
    frozen = Draft(state).freeze()
    assert frozen == state
    assert frozen.catalog is state.catalog  # not compared by ==


def test_every_field_survives_a_draft_unchanged():
    """Each field set to a value `new_game` never makes must come back from a Draft."""
    state = played_ix_game()
    marked = GameState(
        **{
            **{f.name: getattr(state, f.name) for f in fields(GameState)},
            "mentat_claim": "p1",
            "end_reason": "vp",
            "recruited": 3,
            "posted": {"arrakeen": Posted("r1", 2)},
            "infiltrators": (("carthag", "p1"),),
            "tech_trash": ("spy_satellites",),
        }
    )
    frozen = Draft(marked).freeze()
    for f in fields(GameState):
        assert getattr(frozen, f.name) == getattr(marked, f.name), f.name


def snapshot(state: GameState) -> dict[str, str]:
    """Every compared field's contents, written out (some fields are read-only mappings,
    which can't be deep-copied)."""
    return {f.name: repr(getattr(state, f.name)) for f in fields(GameState) if f.compare}


def test_a_state_is_not_changed_by_the_actions_applied_after_it():
    """Undo goes back to earlier states (companion/state_cache.py keeps them): playing on
    from a state must leave it as it was."""
    state = played_ix_game(30)
    kept = snapshot(state)
    later = state
    rng = random.Random(8)
    for _ in range(30):
        if later.phase == "ended":
            break
        later = apply(later, choose_action(later, rng))
    assert snapshot(later) != kept
    assert snapshot(state) == kept

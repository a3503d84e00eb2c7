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


def test_every_state_field_has_a_draft_attribute():
    annotated = set(Draft.__annotations__)
    missing = [f.name for f in fields(GameState) if f.name not in annotated]
    assert missing == []
    assert annotated == {f.name for f in fields(GameState)}


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


def test_a_frozen_state_keeps_nothing_the_draft_changes_later():
    state = played_ix_game()
    draft = Draft(state)
    frozen = draft.freeze()
    draft.occupants["arrakeen"] = "p1"
    draft.tech_stacks[0].append("x")
    draft.log.clear()
    assert frozen == state
    assert isinstance(frozen.log, tuple)
    assert isinstance(frozen.tech_stacks[0], tuple)

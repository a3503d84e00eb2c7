"""Recording bought cards (issue 5): the copy, its owner, and the Acquire effects the
companion tracks (VP and Influence)."""

from __future__ import annotations

import pytest

from companion.cards import load_catalog
from companion.rules.actions import Acquire, IllegalAction
from companion.rules.engine import apply
from companion.rules.history import History
from tests.rules.helpers import solo, two_player


def test_the_spice_must_flow_gives_its_vp_when_bought():
    """FAQ, The Spice Must Flow: the VP for acquiring it is kept even if it is trashed."""
    s = apply(solo(), Acquire("p1", "the_spice_must_flow", 3))
    assert s.owner("the_spice_must_flow", 3) == "p1"
    assert s.house("p1").vp == 1
    assert [(e.source, e.note) for e in s.ledger if e.house == "p1"] == [
        ("card", "the_spice_must_flow")
    ]


def test_an_acquire_effect_that_gives_influence_moves_the_cubes():
    """CHOAM Directorship's Acquire box: +1 Influence with each Faction (card_db)."""
    s = apply(solo(), Acquire("p1", "choam_directorship", 1))
    assert s.house("p1").influence == (1, 1, 1, 1)


def test_a_copy_can_be_bought_only_once():
    s = apply(two_player(), Acquire("p1", "the_spice_must_flow", 1))
    with pytest.raises(IllegalAction, match="already has"):
        apply(s, Acquire("p1", "the_spice_must_flow", 1))
    with pytest.raises(IllegalAction, match="confirm to move"):
        apply(s, Acquire("p2", "the_spice_must_flow", 1))


def test_moving_a_copy_takes_its_effects_back_from_the_first_buyer():
    s = apply(two_player(), Acquire("p1", "the_spice_must_flow", 1))
    s = apply(s, Acquire("p2", "the_spice_must_flow", 1, move=True))
    assert s.owner("the_spice_must_flow", 1) == "p2"
    assert (s.house("p1").vp, s.house("p2").vp) == (0, 1)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Acquire("r1", "the_spice_must_flow", 1), "player at the table"),
        (Acquire("p1", "no_such_card", 1), "can't be bought"),
        (Acquire("p1", "the_spice_must_flow", 11), "copies 1 to 10"),
        (Acquire("p1", "the_spice_must_flow", 0), "copies 1 to 10"),
        (Acquire("p1", "convincing_argument", 1), "can't be bought"),  # starting deck
    ],
)
def test_refused_purchases_change_nothing(action, message):
    s = solo()
    with pytest.raises(IllegalAction, match=message):
        apply(s, action)
    assert s.acquisitions == ()


def test_a_rise_of_ix_card_is_not_bought_in_a_base_game():
    s = solo()
    everything = load_catalog(sets=("base", "ix"))
    ix_card = next(
        c.id for c in everything.cards.values() if c.set == "ix" and c.kind == "imperium"
    )
    with pytest.raises(IllegalAction, match="can't be bought"):
        apply(s, Acquire("p1", ix_card, 1))


def test_undo_takes_a_purchase_back():
    history = History(solo()).do(Acquire("p1", "the_spice_must_flow", 2))
    assert history.state.house("p1").vp == 1
    undone = history.undo()
    assert undone.state.acquisitions == () and undone.state.house("p1").vp == 0
    assert undone.redo().state == history.state

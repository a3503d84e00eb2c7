"""The screens take what is possible from the engine: every card-effect, Rise of Ix, Tech
and purchase button is greyed exactly when `apply` refuses its action, with the engine's
reason as its title; nothing in web/ or templates/ decides what is legal."""

from __future__ import annotations

import random

from companion.rules.actions import (
    Acquire,
    Action,
    Adjust,
    CornerTheMarket,
    IllegalAction,
    SetTiebreak,
)
from companion.rules.engine import action_problem, apply
from companion.rules.state import GameState
from companion.sim import choose_action
from companion.web import forms
from tests.web import pages
from tests.web.conftest import GameActions

WATCHED = ("freighter", "dreadnought", "tech", "adjust")
IGNORED = ("csrf_token", "version", "created")


def _accepted(state: GameState, action: Action) -> bool:
    try:
        apply(state, action)
    except IllegalAction:
        return False
    return True


def _buttons(body: str) -> list[tuple[Action, bool, str]]:
    """The page's watched action buttons: the action each posts, greyed, title."""
    out = []
    for form in pages.forms(body):
        if form.method != "post" or form.fields.get("action") not in WATCHED:
            continue
        if form.fields["action"] == "adjust" and form.fields.get("reason") != "card":
            continue  # the Fix page's corrections are checked as they apply
        action = forms.action_from({k: v for k, v in form.fields.items() if k not in IGNORED})
        out.append((action, form.disabled[0], form.titles[0]))
    return out


def test_ix_and_card_effect_buttons_are_greyed_exactly_when_the_engine_refuses(
    game: GameActions,
) -> None:
    game_id = game.new_2p(expansion="ix")
    rng = random.Random(5)
    seen: set[tuple[str, bool]] = set()
    for _ in range(45):
        state = game.state(game_id)
        if state.phase == "ended":
            break
        for action, greyed, title in _buttons(game.page(game_id)):
            accepted = _accepted(state, action)
            assert greyed == (not accepted), (state.step, action)
            if greyed:
                assert title == str(action_problem(state, action)), (state.step, action)
            seen.add((type(action).__name__, greyed))
        game.do(game_id, choose_action(state, rng))
    # Both kinds of button met, allowed and greyed: the test can fail.
    assert {("Freighter", True), ("Freighter", False), ("Tech", True), ("Tech", False)} <= seen
    assert ("Adjust", False) in seen


def test_plus_one_influence_is_greyed_at_six_with_the_reason(game: GameActions) -> None:
    """A Faction track goes up to 6 [RB p.7]: the +1 button is greyed there, not a 422."""
    game_id = game.new_2p()
    turn = game.state(game_id).turn
    assert turn is not None
    for _ in range(6):
        game.do(game_id, Adjust(turn, "influence:fremen", 1, "card"))
    body = game.page(game_id)
    (plus,) = pages.action_forms(body, action="adjust", field="influence:fremen", reason="card")
    assert plus.disabled == [True]
    assert plus.titles == ["Influence goes from 0 to 6."]
    (emperor,) = pages.action_forms(body, action="adjust", field="influence:emperor", reason="card")
    assert emperor.disabled == [False]


def test_the_buy_page_greys_a_purchase_the_engine_refuses(game: GameActions) -> None:
    """A card whose Acquire gives Influence waits for the question on screen to be answered
    (the engine refuses it until then); the buttons say so."""
    game_id = game.new_2p(expansion="ix")
    state = game.state(game_id)
    influence_card = next(
        c.id
        for c in state.catalog.cards.values()
        if c.acquire_influence and c.kind == "imperium" and c.set in state.setup.sets
    )
    rng = random.Random(2)
    while state.prompt is None:
        game.do(game_id, choose_action(state, rng))
        state = game.state(game_id)
    body = game.client.get(f"/games/{game_id}/buy?q={influence_card}").get_data(as_text=True)
    buys = pages.action_forms(body, card=influence_card)
    assert buys and all(f.disabled == [True] for f in buys)
    for f in buys:
        refused = Acquire(f.fields["house"], influence_card, int(f.fields["copy"]))
        assert not _accepted(state, refused)
        assert f.titles == [str(action_problem(state, refused))]


def test_corner_the_market_is_offered_to_the_players_the_engine_lets_play_it(
    game: GameActions,
) -> None:
    """Corner the Market is played once, at the end [RB p.12]."""
    game_id = game.new_2p()
    rng = random.Random(1)
    for _ in range(600):
        state = game.state(game_id)
        if state.phase == "ended":
            break
        game.do(game_id, choose_action(state, rng))
    state = game.state(game_id)
    assert state.phase == "ended"
    for human in state.humans:
        game.do(game_id, SetTiebreak(human.id, 0, 0, 0, 0))
    corners = pages.action_forms(game.page(game_id), action="corner")
    assert sorted(f.fields["house"] for f in corners) == sorted(h.id for h in state.humans)
    assert all("other" in f.fields for f in corners)  # two players: the opponent's count
    first = state.humans[0].id
    game.do(game_id, CornerTheMarket(first, 2, 1))
    assert not pages.action_forms(game.page(game_id), action="corner")
    assert not _accepted(game.state(game_id), CornerTheMarket(state.humans[1].id, 2, 0))

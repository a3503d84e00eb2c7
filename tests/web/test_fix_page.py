"""The Fix page: each minus and plus is greyed with the engine's own reason when
`action_problem` would refuse it (VP below 0, Influence above 6 [RB p.7; FAQ Plans Within
Plans], a question under way), and works at the End of Round card."""

from __future__ import annotations

from companion.rules.actions import Adjust
from companion.rules.engine import action_problem
from tests.web import pages
from tests.web.conftest import GameActions
from tests.web.test_round_end_page import play_to_round_end


def adjust_buttons(game: GameActions, game_id: int) -> list[tuple[Adjust, bool, str]]:
    """Every correction button of the Fix page: its action, disabled, title."""
    body = game.client.get(f"/games/{game_id}/fix").get_data(as_text=True)
    found = []
    for form in pages.action_forms(body, action="adjust", view="fix"):
        f = form.fields
        action = Adjust(f["house"], f["field"], int(f["delta"]), "manual")
        found.append((action, form.disabled[0], form.titles[0]))
    return found


def assert_buttons_follow_the_engine(game: GameActions, game_id: int) -> list[Adjust]:
    """Disabled exactly when the engine refuses, titled with its reason; the refused ones."""
    state = game.state(game_id)
    buttons = adjust_buttons(game, game_id)
    assert buttons
    for action, disabled, title in buttons:
        problem = action_problem(state, action)
        assert disabled == (problem is not None), (action, problem)
        assert title == (problem or ""), action
    return [action for action, disabled, _title in buttons if disabled]


def test_vp_at_0_and_influence_at_6_are_greyed_with_the_engines_reason(game):
    game_id = game.new_solo()
    game.do(game_id, Adjust("p1", "influence:fremen", 6, "manual"))
    refused = assert_buttons_follow_the_engine(game, game_id)
    state = game.state(game_id)
    assert state.house("p1").vp == 2  # 2 Influence and the Alliance [RB p.7]
    assert state.house("r1").vp == 0
    assert Adjust("r1", "vp", -1, "manual") in refused
    assert Adjust("p1", "vp", -1, "manual") not in refused
    assert Adjust("p1", "influence:fremen", 1, "manual") in refused  # at the top, 6
    assert Adjust("p1", "influence:fremen", -1, "manual") not in refused
    body = game.client.get(f"/games/{game_id}/fix").get_data(as_text=True)
    assert 'title="VP can&#39;t go below 0."' in body
    assert 'title="Influence goes from 0 to 6."' in body


def test_influence_is_fixed_at_the_round_end_card(game):
    """The Fix page at the End of Round card used to offer the Influence buttons and then
    refuse them ("answer the question on the screen first")."""
    game_id = game.new_solo()
    play_to_round_end(game, game_id)
    refused = assert_buttons_follow_the_engine(game, game_id)
    assert Adjust("p1", "influence:emperor", 1, "manual") not in refused
    body = game.client.get(f"/games/{game_id}/fix").get_data(as_text=True)
    (plus,) = pages.action_forms(
        body, action="adjust", house="p1", field="influence:emperor", delta="1"
    )
    fields = {k: v for k, v in plus.fields.items() if k not in ("csrf_token", "version")}
    assert game.act_form(game_id, fields).status_code == 303
    state = game.state(game_id)
    assert state.house("p1").inf("emperor") == 1
    assert state.prompt is not None and state.prompt.kind == "round_end"
    assert 'id="round-end"' in game.page(game_id)


def test_while_a_question_is_under_way_influence_is_greyed(game):
    game_id = game.new_solo()
    while game.state(game_id).prompt is None:
        state = game.state(game_id)
        assert state.turn is not None
        game.act(game_id, action="reveal", house=state.turn)
    refused = assert_buttons_follow_the_engine(game, game_id)
    assert Adjust("p1", "influence:emperor", 1, "manual") in refused


def test_control_markers_offer_every_scoring_house_and_none(game):
    """House Hagal never controls a space [RB p.19]: in a two-player game its name is not
    among the Control marker buttons."""
    game_id = game.new_2p()
    body = game.client.get(f"/games/{game_id}/fix").get_data(as_text=True)
    for space in ("arrakeen", "carthag", "imperial_basin"):
        forms = pages.action_forms(body, action="set_control", space=space)
        assert sorted(f.fields["house"] for f in forms) == ["", "p1", "p2"]
    (carthag,) = pages.action_forms(body, action="set_control", space="carthag", house="p2")
    fields = {k: v for k, v in carthag.fields.items() if k not in ("csrf_token", "version")}
    assert game.act_form(game_id, fields).status_code == 303
    assert game.state(game_id).control.get("carthag") == "p2"

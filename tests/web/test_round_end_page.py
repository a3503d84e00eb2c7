"""The "End of round" card on the table screen and from the log [RB p.12 Phases 3-5]."""

from __future__ import annotations

import re

from companion.rules.actions import Choose, Reveal
from tests.web import pages
from tests.web.conftest import GameActions


def play_to_round_end(game: GameActions, game_id: int) -> None:
    """Reveal every turn and answer every question (0, first option) until the round ends."""
    while True:
        state = game.state(game_id)
        prompt = state.prompt
        if prompt is not None and prompt.kind == "round_end":
            return
        if prompt is not None:
            game.do(game_id, Choose("0" if prompt.number else prompt.options[0]))
        else:
            assert state.turn is not None
            game.do(game_id, Reveal(state.turn))


def test_the_round_end_card_waits_for_the_start_tap(game):
    game_id = game.new_solo()
    play_to_round_end(game, game_id)
    body = game.page(game_id)
    assert "End of Round 1" in body
    assert "Pass the First Player marker to" in body
    assert "Reveal the next Conflict card:" in body
    # With strength 0 the Rivals win: their rewards say what they are [RB p.20].
    assert re.search(r"Rival takes the first-place reward of [^<:]+: [^<]+\.", body)
    start = pages.action_forms(body, action="choose", option="start")
    assert len(start) == 1 and "Start round 2" in body
    # Nothing of round 2 happened yet: no Rival card is shown.
    assert 'class="hagal-card' not in body
    answer = game.client.post(start[0].action, data=start[0].fields, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    after = answer.get_data(as_text=True)
    assert 'id="round-end"' not in after and 'class="hagal-card' in after
    assert game.state(game_id).round == 2


def test_the_card_stays_reachable_from_the_log(game):
    game_id = game.new_solo()
    play_to_round_end(game, game_id)
    game.do(game_id, Choose("start"))
    body = game.page(game_id)
    assert f"/games/{game_id}/rounds/1" in body
    card = game.client.get(f"/games/{game_id}/rounds/1")
    assert card.status_code == 200
    text = card.get_data(as_text=True)
    assert "End of Round 1" in text and "Pass the First Player marker to" in text
    assert "Start round" not in text


def test_a_round_not_ended_has_no_card(game):
    game_id = game.new_solo()
    for round_number in (1, 0, 99):
        answer = game.client.get(f"/games/{game_id}/rounds/{round_number}")
        assert answer.status_code == 404
        assert "has not ended yet" in answer.get_data(as_text=True)
    assert game.client.get("/games/999/rounds/1").status_code == 404


def test_the_card_says_to_clear_the_conflict_after_the_rewards(game):
    """RB p.12: "each player takes their troops from the Conflict and puts them in their
    supply (not their garrison). Reset all Combat markers to 0": said once, for the houses
    that were in the Conflict (strength above 0)."""
    game_id = game.new_solo()
    play_to_round_end(game, game_id)
    state = game.state(game_id)
    combat = next(e for e in state.log if e.kind == "combat")
    strengths = combat.data["strengths"]
    assert isinstance(strengths, dict)
    fought = [h.name for h in state.houses if strengths.get(h.id, 0) > 0]
    assert fought and "Ann" not in fought  # Ann typed 0: she had no troops there
    body = game.page(game_id)
    line = re.search(r"After the Combat</strong> ([^<]+)</li>", body)
    assert line is not None
    assert line.group(1).startswith("Return the troops of ")
    assert line.group(1).endswith(
        " from the Conflict to their supply (not the garrison), then reset every Combat "
        "marker to 0."
    )
    assert all(name in line.group(1) for name in fought) and "Ann" not in line.group(1)
    # The chore comes after the rewards and before the bonus spice (RB p.12, Phases 3-4).
    assert body.index("first-place reward") < line.start() < body.index("Bonus spice</strong>")

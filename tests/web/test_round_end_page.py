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

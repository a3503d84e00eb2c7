"""What the answer to a tap leaves out (issue 26's tap budget): the log, which its drawer
fetches when opened, and the scoreboard when the tap changed no score. Every full page,
and every answer that is not to this screen's own tap, has both."""

from __future__ import annotations

from companion import services
from companion.rules.actions import PlaceAgent, Reveal
from companion.rules.engine import legal_actions
from tests.web import pages
from tests.web.conftest import GameActions
from tests.web.test_four_player_taps import FOUR_PLAYERS

LAZY_LOG = 'hx-trigger="intersect once"'
SCOREBOARD = 'id="scoreboard"'


def _four_players(game: GameActions) -> int:
    with game.app.app_context():
        return services.create_game(FOUR_PLAYERS, game.catalog)


def _place(game: GameActions, game_id: int, space: str) -> str:
    state = game.state(game_id)
    (action,) = [a for a in legal_actions(state) if isinstance(a, PlaceAgent) and a.space == space]
    return game.do(game_id, action, htmx=True).get_data(as_text=True)


def test_a_taps_answer_leaves_the_log_to_its_drawer_which_fetches_it(game: GameActions) -> None:
    game_id = _four_players(game)
    whole = game.page(game_id)
    assert LAZY_LOG not in whole and 'class="log panel"' in whole  # without htmx: all there
    answer = _place(game, game_id, "wealth")
    assert LAZY_LOG in answer and 'class="log panel"' not in answer
    (url,) = [v for tag, attr, v in pages.urls(answer) if attr == "hx-get" and "/log" in v]
    assert url == f"/games/{game_id}/log"
    log = game.client.get(url).get_data(as_text=True)
    first = game.state(game_id).log[-1]
    assert 'class="log panel"' in log and f"R{first.round}" in log
    assert "Wealth" in log  # the placement's line
    assert game.client.get("/games/999/log").status_code == 404


def test_the_scoreboard_comes_with_a_tap_only_when_the_score_changed(game: GameActions) -> None:
    game_id = _four_players(game)
    # Wealth gives Influence with the Emperor: the score changes.
    assert SCOREBOARD in _place(game, game_id, "wealth")
    # Arrakeen gives a troop and a card: nothing the scoreboard shows.
    answer = _place(game, game_id, "arrakeen")
    assert SCOREBOARD not in answer and 'id="game"' in answer
    # Undo takes the Arrakeen placement back: still the same score.
    assert SCOREBOARD not in game.undo(game_id, htmx=True).get_data(as_text=True)
    undone = game.undo(game_id, htmx=True).get_data(as_text=True)  # the Influence goes
    assert SCOREBOARD in undone
    # A screen that follows the game (its GET), and a refused tap, get the whole area.
    assert SCOREBOARD in game.page(game_id, htmx=True)
    stale = game.act_form(game_id, pages.form_for(Reveal("p1")), htmx=True, version=0)
    assert stale.status_code == 409 and SCOREBOARD in stale.get_data(as_text=True)

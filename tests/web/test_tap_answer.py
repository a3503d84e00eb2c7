"""What the answer to a tap of the table screen leaves out (issue 26's tap budget): the
regions the tap did not change (the board, the drawers, the Conflict, the End of Round
card), the log, which its drawer fetches when opened, and the scoreboard when the tap
changed no score. Every full page, and every answer that is not to this screen's own tap
(a GET, a refused or stale tap), has everything. Swapped into the screen the tap was made
on, the answer gives exactly the screen a GET of the game gives."""

from __future__ import annotations

import random

from companion import services
from companion.rules.actions import PlaceAgent, Reveal
from companion.rules.engine import legal_actions
from companion.sim import choose_action
from tests.web import pages
from tests.web.conftest import GameActions
from tests.web.test_four_player_taps import FOUR_PLAYERS
from tests.web.test_table_parts import same_screen, screen

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
    assert SCOREBOARD not in answer and 'id="banner"' in answer
    # Undo takes the Arrakeen placement back: still the same score.
    assert SCOREBOARD not in game.undo(game_id, htmx=True).get_data(as_text=True)
    undone = game.undo(game_id, htmx=True).get_data(as_text=True)  # the Influence goes
    assert SCOREBOARD in undone
    # A screen that follows the game (its GET), and a refused tap, get the whole area.
    assert SCOREBOARD in game.page(game_id, htmx=True)
    stale = game.act_form(game_id, pages.form_for(Reveal("p1")), htmx=True, version=0)
    assert stale.status_code == 409 and SCOREBOARD in stale.get_data(as_text=True)
    assert 'id="game"' in stale.get_data(as_text=True)


def test_a_taps_answer_swaps_in_only_the_regions_that_changed(game: GameActions) -> None:
    game_id = _four_players(game)
    first = game.do(game_id, PlaceAgent("p1", "wealth"), htmx=True)
    # The banner takes the place of the one shown; the rest comes out of band.
    assert first.headers["HX-Retarget"] == "#banner"
    assert first.headers["HX-Reswap"] == "outerHTML"
    answer = first.get_data(as_text=True)
    ids = pages.parse(answer).ids
    assert {"banner", "question", "actions", "board"} <= set(ids)
    # Nobody bought a card or has a Rival: the drawers stay, but for the log's body.
    assert "drawers" not in ids and "log-body" in ids
    assert 'id="game"' not in answer and "conflict" not in ids  # the Conflict is the same
    # A GET of the game (what another screen fetches) is the whole area.
    assert 'id="game"' in game.page(game_id, htmx=True)


def test_the_answers_to_taps_swapped_in_give_the_screen_a_get_gives(game: GameActions) -> None:
    """Thirty-odd taps of a four-player game (placements, Reveal turns, strengths, the
    round's end, and an Undo every seventh tap), each answer swapped into the screen it was
    tapped on: the screen is the one a GET of the game gives (after Undo, the GET that a
    plain form's Undo leads to), so an answer that leaves out a region that changed fails.
    The regions a tap left in place come up too."""
    game_id = _four_players(game)
    rng = random.Random(3)
    shown = game.page(game_id, htmx=True)
    kinds: set[tuple[str, str | None, bool]] = set()
    left: set[str] = set()
    for step in range(32):
        state = game.state(game_id)
        if state.phase == "ended":
            break
        kinds.add(screen(state))
        version = pages.version(shown)  # what static/app.js posts
        if step % 7 == 6 and game.view(game_id).can_undo:
            answer = game.undo(game_id, htmx=True, version=version)
            fresh = game.client.get(f"/games/{game_id}?after=undo", headers={"HX-Request": "true"})
        else:
            form = pages.form_for(choose_action(state, rng))
            answer = game.act_form(game_id, form, htmx=True, version=version)
            fresh = game.client.get(f"/games/{game_id}", headers={"HX-Request": "true"})
        assert answer.status_code == 200, step
        body = answer.get_data(as_text=True)
        left |= {"board", "drawers", "conflict"} - set(pages.parse(body).ids)
        shown = pages.tapped(shown, body)
        assert same_screen(shown) == same_screen(fresh.get_data(as_text=True)), step
    assert len(kinds) >= 4, kinds
    assert {"board", "conflict"} <= left, left

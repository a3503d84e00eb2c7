"""Issue 27's language sweep (tests/browser/sweep.py) of the golden three-player game
(`three_player_physical_cards`): Japanese and Korean at the first moment of each kind of
question (every step with LANGUAGE_SWEEP=every). It is played to its end at every step
and size in the browser in English, Polish and Japanese (test_multiplayer_games.py)."""

from __future__ import annotations

from tests.browser import sweep
from tests.browser import test_play_in_browser as play

pytestmark = play.pytestmark
app = play.app
base_url = play.base_url


def test_three_player_physical_cards_keeps_the_question_in_view_in_two_languages(app, base_url):
    sweep.play_golden(app, base_url, "three_player_physical_cards", ("ja", "ko"), every=False)

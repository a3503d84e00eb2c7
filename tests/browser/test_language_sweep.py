"""Issue 27's language sweep: the golden games (tests/golden/) in Japanese and Korean (the
solo ones in English too) on the table screen at 1280x800, 800x1280, 1024x768 and
390x844, and on the live view at 1280x720, 1920x1080 and 390x844.

Each game is replayed through the service layer (the taps themselves are tested by
test_table_fits.py and test_multiplayer_games.py, which play in the browser); a device a
language shows it at the first moment of each kind of question (the phase, the prompt's
kind, a number pad or up to four options or more, a player's turn), the end included,
and checks there what those tests check after a tap: no page scroll, nothing wider than
its box, the question's panels whole and every control of it inside the viewport and the
element at its own centre (check_sizes); and the live view on one screen with its score
at the first moment of each phase (it shows no question).
Kinds, not every step: the five games have 582 steps and 43 kinds, and one kind in one
language (a page load, four sizes, one screenshot) took 3 to 8 s of this shared 2-core
machine (README). One screenshot a kind, the sizes in turn, to test-artifacts/screens/.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from companion import services
from companion.rules.codec import decode, decode_setup
from companion.rules.state import GameState
from tests.browser import test_play_in_browser as play
from tests.browser.test_table_fits import HTML_LANG, SIZES, check_live, check_sizes

pytestmark = play.pytestmark
app = play.app
base_url = play.base_url

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
# Solo base, solo Rise of Ix at Kwisatz Haderach (the Expert deployment), two, three and
# four players (the four with Rise of Ix), each in the languages it is checked in here:
# the two-, three- and four-player games are played in English at every step in the
# browser already (test_table_fits.py, test_multiplayer_games.py).
GAMES = {
    "solo_mercenary": ("en", "ja", "ko"),
    "ix_solo_kwisatz_epic_physical_tech": ("en", "ja", "ko"),
    "two_player": ("ja", "ko"),
    "three_player_physical_cards": ("ja", "ko"),
    "ix_four_player_epic_physical": ("ja", "ko"),
}


def kind(state: GameState) -> tuple[object, ...]:
    """What shapes the table screen: the phase, the prompt's kind, a number pad or
    options (up to four, or five and more: two rows), a player's Agent turn."""
    p = state.prompt
    options = 0 if p is None or p.number else 1 + (len(p.options) >= 5)
    turn = p is None and state.phase == "agents" and state.turn is not None
    return (state.phase, p.kind if p else None, bool(p and p.number), options, turn)


@pytest.mark.parametrize("name", GAMES)
def test_a_golden_game_in_three_languages_keeps_the_question_in_view(app, base_url, name):
    from playwright.sync_api import sync_playwright

    data = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    catalog = app.extensions["catalog"]
    with app.app_context():
        game_id = services.create_game(decode_setup(data["setup"]), catalog)
    url = f"{base_url}/games/{game_id}"
    started = time.perf_counter()
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=play.CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        pages = {}
        for language in GAMES[name]:  # a device each: the language is the device's choice
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            table, live = context.new_page(), context.new_page()
            table.goto(f"{base_url}/language/{language}?next=/")
            assert table.locator("html").get_attribute("lang") == HTML_LANG[language]
            pages[language] = (table, live)
        seen: list[tuple[object, ...]] = []
        phases: set[str] = set()  # the live view shows no question: once a phase is enough
        actions = [decode(a) for a in data["actions"]]
        for step in range(len(actions) + 1):
            with app.app_context():
                view = services.load(game_id, catalog)
                if kind(view.state) not in seen:
                    seen.append(kind(view.state))
                    for language, (table, live) in pages.items():
                        game = f"golden-{name}-{language}"
                        table.goto(url)
                        table.wait_for_selector(f"#game[data-version='{view.version}']")
                        # One screenshot a kind, at each size in turn (a screenshot
                        # costs more than a size's checks), and every failing one.
                        at = (len(seen) % len(SIZES),)
                        screen = check_sizes(table, game, step, set(), False, at)
                        if view.state.phase not in phases:
                            check_live(live, f"{url}/live", game, step, set(), screen, at)
                    phases.add(view.state.phase)
                if step < len(actions):
                    services.act(game_id, actions[step], view.version, catalog)
        browser.close()
    spent = time.perf_counter() - started
    print(f"{name}: {len(actions)} steps, {len(seen)} kinds checked, {spent:.1f} s")
    assert seen[-1][0] == "ended", seen

"""A real Chromium opens the history, a four-player game's summary and the statistics
per player count, with three- and four-player games among the stored ones, at a tablet's
1280x800 and a phone's 390x844, in English and in Japanese and Korean: nothing sticks out
sideways, and the page says its language. Screenshots go to test-artifacts/screens/
(git-ignored), named `history-<lang>-<width>x<height>-<page>.png`: look at them.

Debian's chromium, driven by Playwright; never a downloaded browser. Skipped when no
chromium is installed.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from flask import Flask

from companion import create_app
from companion.db import db
from companion.stats.sample import store_games
from tests.browser import test_play_in_browser as play
from tests.browser.test_table_fits import SCREENS, choose_language
from tests.stats.games import stored_four_player_game
from tests.web.conftest import GameActions

pytestmark = play.pytestmark
base_url = play.base_url
page = play.page
SIZES = ((1280, 800), (390, 844))
LANGUAGES = ("en", "ja", "ko")


@pytest.fixture
def app(tmp_path) -> Flask:
    """18 sample games (two of each kind: solo, 2, 3 and 4 players) and a four-player game
    whose tie on VP was broken by water (tests/stats/games.py)."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "browser-test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'history.sqlite'}",
        }
    )
    with app.app_context():
        db.create_all()
        store_games(18, app.extensions["catalog"], datetime(2026, 11, 1, 18))
    app.config["FOUR_PLAYER_GAME"] = stored_four_player_game(GameActions(app, app.test_client()))
    return app


# What each page must show, found by place rather than by English words.
PAGES = (
    ("history", "/history", ".record-list li"),
    ("history-4p", "/history?mode=4p", ".record-list li"),
    ("summary-4p", "/games/{four}/summary", "svg.chart polyline"),
    ("stats", "/stats", ".big-numbers"),
    ("stats-4p", "/stats?mode=4p", ".bars .bar-row"),
    ("stats-ann-3p", "/stats?player=Ann&mode=3p", ".big-numbers"),
)
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('main *')]
    .filter(e => e.getBoundingClientRect().right > width + 1 && !e.closest('.scroll'))
    .map(e => e.tagName.toLowerCase() + '.' + e.className + ': ' + e.textContent.slice(0, 40));
  return {page: document.documentElement.scrollWidth > width, wide: wide.slice(0, 5)};
}"""


SCROLLED = """() => [...document.querySelectorAll('.scroll')]
  .filter(e => e.scrollWidth > e.clientWidth + 1)
  .map(e => e.closest('section').querySelector('h2').textContent)"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_history_summary_and_statistics_of_three_and_four_player_games(
    app, base_url, page, language
):
    if language != "en":
        choose_language(page, base_url, language)
    SCREENS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        for name, path, shown in PAGES:
            page.goto(base_url + path.format(four=app.config["FOUR_PLAYER_GAME"]))
            assert page.locator("html").get_attribute("lang") == language
            assert page.locator(shown).count() > 0, f"{name}: nothing in {shown}"
            layout = page.evaluate(OVERFLOW)
            if layout["page"] or layout["wide"]:
                problems.append(f"{name} {width}x{height}: {layout}")
            if name.startswith("summary"):  # four houses' columns fit without a sideways scroll
                scrolled = page.evaluate(SCROLLED)
                if scrolled:
                    problems.append(f"{name} {width}x{height}: tables scroll: {scrolled}")
            page.screenshot(
                path=str(SCREENS / f"history-{language}-{width}x{height}-{name}.png"),
                full_page=True,
            )
    assert problems == []

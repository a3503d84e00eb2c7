"""A real Chromium opens the history, one game's summary with its charts, and the
statistics page at both tablet sizes: nothing overflows, nothing is asked of another host,
and times are shown in the browser's own time zone.

Debian's chromium, driven by Playwright; never a downloaded browser. Skipped when no
chromium is installed (CI installs it).
"""

from __future__ import annotations

import random
import re

import pytest
from flask import Flask

from companion import create_app, services
from companion.db import db
from companion.rules.state import Difficulty
from companion.sim import choose_action, make_setup
from tests.browser.test_play_in_browser import CHROMIUM, base_url, pytestmark  # noqa: F401

SIZES = ((1280, 800), (800, 1280))


@pytest.fixture
def app(tmp_path) -> Flask:
    """Two finished games (solo and two players) and one in progress."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "browser-test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'history.sqlite'}",
        }
    )
    with app.app_context():
        db.create_all()
        catalog = app.extensions["catalog"]
        games: tuple[tuple[int, str, Difficulty | None], ...] = (
            (5, "solo", "mentat"),
            (3, "2p", None),
        )
        for seed, mode, difficulty in games:
            game_id = services.create_game(make_setup(catalog, mode, difficulty, seed), catalog)
            rng = random.Random(seed)
            view = services.load(game_id, catalog)
            while view.state.phase != "ended":
                view = services.act(game_id, choose_action(view.state, rng), view.version, catalog)
        services.create_game(make_setup(catalog, "solo", "kwisatz", 9), catalog)
    return app


def _fits(tab) -> bool:
    return bool(
        tab.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    )


def test_history_summary_and_statistics_at_both_tablet_sizes(base_url):  # noqa: F811
    from playwright.sync_api import sync_playwright

    outside: list[str] = []
    refused: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        for width, height in SIZES:
            tab = browser.new_page(
                viewport={"width": width, "height": height}, timezone_id="Asia/Tokyo"
            )
            tab.on(
                "request", lambda r: None if r.url.startswith(base_url) else outside.append(r.url)
            )
            tab.on("response", lambda r: refused.append(r.url) if r.status >= 400 else None)
            tab.on("console", lambda m: refused.append(m.text) if m.type == "error" else None)

            tab.goto(base_url + "/")
            tab.get_by_role("link", name="All 2 finished games, export and import").click()
            tab.wait_for_url("**/history")
            assert tab.locator(".record-list li").count() == 2
            assert _fits(tab), f"the history overflows at {width}x{height}"
            # Times in the browser's zone (Tokyo, UTC+9), not the UTC text the server wrote.
            first_time = tab.locator(".record-list time").first
            assert "UTC" not in first_time.inner_text()

            tab.locator(".record-list a").first.click()
            tab.wait_for_url("**/summary")
            assert tab.locator("svg.chart").count() == 2
            assert tab.locator("svg.chart polyline").count() >= 4
            assert "wins with" in tab.locator("h1").inner_text()
            assert _fits(tab), f"the summary overflows at {width}x{height}"

            tab.get_by_role("link", name="Statistics").first.click()
            tab.wait_for_url("**/stats")
            assert "games played" in tab.locator(".big-numbers").inner_text()
            assert tab.locator(".simulated").count() == 1
            assert _fits(tab), f"the statistics overflow at {width}x{height}"
            tab.close()
        # A Japanese page in an English browser: the times in Japanese, the language chosen
        # in the menu (issue 28: "Nov 28, 2026, 9:54 AM" on a Japanese page), not the browser's.
        context = browser.new_context(locale="en-US", timezone_id="Asia/Tokyo")
        context.add_cookies([{"name": "lang", "value": "ja", "url": base_url}])
        tab = context.new_page()
        tab.goto(base_url + "/history")
        shown = tab.locator(".record-list time").first.inner_text()
        assert "UTC" not in shown and re.search("[A-Za-z]", shown) is None, shown
        context.close()
        browser.close()
    assert outside == [], f"requests to other hosts: {outside}"
    assert refused == [], f"refused requests or console errors: {refused}"

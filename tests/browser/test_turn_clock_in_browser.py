"""In a real Chromium: the turn clock of the player the game waits for ticks on the table
screen (static/clock.js), and goes on ticking in the scoreboard an htmx tap brings in.

Debian's chromium, driven by Playwright; never a downloaded browser.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.test_play_in_browser import CHROMIUM
from tests.browser.test_play_in_browser import app as app  # the same app fixture
from tests.browser.test_play_in_browser import base_url as base_url
from tests.browser.test_play_in_browser import page as page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed"),
]
SCREENS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"
RUNNING = ".turn-clock.thinking .clock-now time"


def ticks(page) -> None:
    """The running clock's text changes by itself (no request: static/clock.js)."""
    before = page.locator(RUNNING).inner_text()
    page.wait_for_function(
        "([selector, before]) => document.querySelector(selector)?.textContent !== before",
        arg=[RUNNING, before],
    )


def test_the_thinking_players_clock_ticks(page, base_url):
    page.goto(f"{base_url}/games/new")
    page.locator("input[name=mode][value='2p']").check()
    page.fill("#p1_name", "Ann")
    page.fill("#p2_name", "Ben")
    page.locator("input[name=turn_clock]").check()
    page.get_by_role("button", name="Set up the table").click()
    page.get_by_role("link", name="Start playing").click()
    page.wait_for_selector("#game")
    assert page.locator(".turn-clock").count() == 2  # Ann and Ben, not House Hagal
    # The clock starts with the first tap (before it, the table was setting up).
    assert page.locator(".turn-clock.thinking").count() == 0
    # A tap: the scoreboard comes back out of band, and Ben's clock ticks in it.
    page.locator("button.space-button").first.click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.turn-clock.thinking')]"
        ".map(clock => clock.closest('tr').textContent.includes('Ben')).join() === 'true'"
    )
    ticks(page)
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.locator("#scoreboard").screenshot(path=str(SCREENS / "turn-clock-scoreboard.png"))

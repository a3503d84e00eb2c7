"""The table screen in other languages (issue 14): a real Chromium plays a solo round in
Japanese and in Polish and a two-player round in Simplified Chinese, and after every tap
checks, at 1280x800 and 800x1280, that nothing sticks out sideways and that the page says
its language in <html lang>. CJK fonts may be missing on the machine: this checks the
layout, not the glyphs. Screenshots go to test-artifacts/screens/ (git-ignored).
"""

from __future__ import annotations

import re

from tests.browser import test_play_in_browser as play
from tests.browser.test_table_fits import FIT_PROBLEMS, SCREENS, TABLET

pytestmark = play.pytestmark
app = play.app
base_url = play.base_url
page = play.page

SIDEWAYS = re.compile(r"sideways|sticks out|wider than it")
ASKED = "#prompt [data-numpad], #prompt .options button, button.space-button"
REVEAL = "form:has(input[name=action][value=reveal]) button"


def choose_language(page, base_url: str, code: str) -> None:
    """Pick the language from the top bar's menu, as a player would."""
    page.goto(base_url + "/")
    page.locator(".lang-menu > summary").click()
    page.locator(f".lang-menu a[href^='/language/{code}']").click()
    page.wait_for_load_state()


def start(page, base_url: str, mode: str, names: tuple[str, ...]) -> None:
    """Set up a game through the new-game form (buttons found by place, not by words)."""
    page.goto(base_url + "/games/new")
    page.locator(f"input[name=mode][value='{mode}']").check()
    for seat, name in enumerate(names, 1):
        page.fill(f"#p{seat}_name", name)
    page.locator("form button[type=submit].big").click()
    page.locator("a.button.primary.big").click()
    page.wait_for_selector("#game")


def round_number(page) -> int:
    """The banner's round ("ラウンド1", "Runda 1", "第1轮"): its first number."""
    found = re.search(r"\d+", page.locator("#game .banner .round").inner_text())
    assert found
    return int(found.group())


def take_one_step(page) -> str:
    """Do what the table asks, as tests/browser/test_play_in_browser.py does, but find the
    Reveal button by its action rather than its English label."""
    if page.locator(ASKED).count():
        return play.take_one_step(page)
    page.locator(REVEAL).click()
    return "reveal"


def check_layout(page, game: str, step: int, html_lang: str) -> None:
    """At both tablet sizes: the page's language, nothing wider than the screen."""
    assert page.locator("html").get_attribute("lang") == html_lang
    SCREENS.mkdir(parents=True, exist_ok=True)
    for width, height in TABLET:
        page.set_viewport_size({"width": width, "height": height})
        problems = [p for p in page.evaluate(FIT_PROBLEMS, []) if SIDEWAYS.search(p)]
        page.screenshot(path=str(SCREENS / f"{game}-{width}x{height}-{step:02d}.png"))
        assert problems == [], f"{game} step {step} at {width}x{height}: {problems}"


def play_round(page, game: str, html_lang: str, limit: int) -> list[str]:
    """Play round 1 into round 2, checking the layout before and after every step."""
    steps: list[str] = []
    check_layout(page, game, 0, html_lang)
    for step in range(1, limit + 1):
        if round_number(page) >= 2:
            break
        page.set_viewport_size({"width": 1280, "height": 800})
        version = page.locator("#game").get_attribute("data-version")
        steps.append(take_one_step(page))
        play.changed(page, version)
        check_layout(page, game, step, html_lang)
    assert round_number(page) == 2, steps
    return steps


def test_a_solo_round_in_japanese_fits_the_tablet(page, base_url):
    choose_language(page, base_url, "ja")
    start(page, base_url, "solo", ("アン",))
    steps = play_round(page, "ja-solo", "ja", limit=40)
    assert "number" in steps  # the number pad was on screen, in Japanese
    assert "左のライバル" in page.locator("body").inner_text()


def test_a_solo_round_in_polish_fits_the_tablet(page, base_url):
    choose_language(page, base_url, "pl")
    start(page, base_url, "solo", ("Przemysław Szczęśniak",))
    play_round(page, "pl-solo", "pl", limit=40)
    assert "Lewy rywal" in page.locator("body").inner_text()


def test_a_two_player_round_in_simplified_chinese_fits_the_tablet(page, base_url):
    choose_language(page, base_url, "zh_Hans")
    start(page, base_url, "2p", ("安娜", "Wolfeschlegelsteinhausenberger"))
    play_round(page, "zh-2p", "zh-Hans", limit=60)
    assert "海格家族" in page.locator("body").inner_text()

"""The new-game form for three and four players in a real Chromium, on a tablet (landscape
and portrait) and a phone: only the chosen mode's fields show, nothing is wider than the
screen, and the default form sets up a game with no typing; its checklist follows.

Screenshots of each step go to test-artifacts/screens/ (git-ignored), named
new-<mode>-<width>x<height>-<step>.png: look at them after a change of the form.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import test_play_in_browser as play

pytestmark = play.pytestmark
app = play.app
base_url = play.base_url
page = play.page

SCREENS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"
VIEWPORTS = [(1280, 800), (800, 1280), (390, 844)]


def _too_wide(page) -> list[str]:
    """The form's elements that stick out of the screen sideways."""
    found = []
    width = page.viewport_size["width"]
    for element in page.locator("form.wizard :is(fieldset, label, input, select, button)").all():
        if not element.is_visible():
            continue
        box = element.bounding_box()
        if box is not None and (box["x"] < 0 or box["x"] + box["width"] > width + 0.5):
            found.append(element.evaluate("e => e.outerHTML.slice(0, 80)"))
    return found


def _shot(page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / name), full_page=True)


@pytest.mark.parametrize(("width", "height"), VIEWPORTS)
@pytest.mark.parametrize("mode", ["3p", "4p"])
def test_the_default_form_sets_up_three_or_four_players(page, base_url, mode, width, height):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(base_url + "/games/new")
    page.locator(f"input[name=mode][value='{mode}']").check()
    players = int(mode[0])
    size = f"{width}x{height}"
    _shot(page, f"new-{mode}-{size}-1-form.png")
    for n in range(1, 5):
        assert page.locator(f"#p{n}_leader").is_visible() == (n <= players), n
    for hidden in ("difficulty", "physical_hagal", "hagal_color", "epic_rivals_standard"):
        assert not page.locator(f"[name={hidden}]").first.is_visible(), hidden
    first = page.locator(f"input[name=first_player_{mode}]")
    assert first.count() == players + 1 and first.first.is_checked()  # drawn by the app
    assert page.locator("input[name=first_player]").first.is_visible() is False
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert _too_wide(page) == []
    # The typed names show in the first-player choice.
    page.fill("#p3_name", "Cal")
    assert page.locator(f"fieldset[data-modes='{mode}'] [data-name-of=p3_name]").inner_text() == (
        "Cal"
    )
    # Rise of Ix with Epic: its options show, the Rivals' rulings stay hidden.
    page.locator("input[name=expansion][value=ix]").check()
    page.locator("input[name=epic]").check()
    assert not page.locator("input[name=hagal_dreadnought_home]").is_visible()
    assert not page.locator("input[name=swords_need_troops]").is_visible()
    _shot(page, f"new-{mode}-{size}-2-ix.png")
    page.get_by_role("button", name="Set up the table").click()
    page.wait_for_selector("text=Start playing")
    text = page.locator("main").inner_text()
    assert "Cal plays Glossu" in text
    assert "The app drew the first player at random" in text
    assert ("every Score marker starts on the 1 space" in text) == (players == 4)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    _shot(page, f"new-{mode}-{size}-3-checklist.png")

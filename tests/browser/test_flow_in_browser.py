"""The round's flow in a real Chromium: the "End of round" card waits for its tap, Undo
says what to take back, and the new-game form names the First Player as typed.

The same Debian chromium and fixtures as the game test.
"""

from __future__ import annotations

from tests.browser import test_play_in_browser as play

pytestmark = play.pytestmark
app = play.app
base_url = play.base_url
page = play.page


def start_solo(page, base_url: str) -> None:
    page.goto(base_url + "/games/new")
    page.locator("input[name=mode][value=solo]").check()
    page.fill("#p1_name", "Ann")
    page.get_by_role("button", name="Set up the table").click()
    page.get_by_role("link", name="Start playing").click()
    page.wait_for_selector("#game")


def step(page) -> None:
    version = page.locator("#game").get_attribute("data-version")
    play.take_one_step(page)
    play.changed(page, version)


def test_the_round_end_card_waits_and_undo_says_what_to_take_back(page, base_url):
    start_solo(page, base_url)
    for _ in range(40):
        if page.locator("#round-end").count():
            break
        step(page)
    card = page.locator("#round-end").inner_text()
    assert "End of Round 1" in card and "Pass the First Player marker to" in card
    assert play.round_number(page) == 1
    assert page.locator(".hagal-card").count() == 0  # no Rival turn of round 2 yet
    start = page.get_by_role("button", name="Start round 2")
    version = page.locator("#game").get_attribute("data-version")
    start.click()
    play.changed(page, version)
    assert play.round_number(page) == 2 and page.locator("#round-end").count() == 0
    assert page.locator(".hagal-card").count() >= 1

    version = page.locator("#game").get_attribute("data-version")
    page.get_by_role("button", name="Undo").click()
    play.changed(page, version)
    changes = page.locator("#board-changes").inner_text()
    assert "Back to Round 1." in changes and "take the Agent back from" in changes
    assert page.locator(".hagal-card").count() == 0
    assert page.locator("#round-end").count() == 1  # the card waits again


def test_the_first_player_choice_follows_the_typed_names(page, base_url):
    page.goto(base_url + "/games/new")
    page.locator("input[name=mode][value='2p']").check()
    page.fill("#p1_name", "Anna")
    page.fill("#p2_name", "Dora")
    labels = page.locator("[data-name-of]")
    assert [labels.nth(i).inner_text() for i in range(2)] == ["Anna", "Dora"]
    page.fill("#p2_name", "")
    assert labels.nth(1).inner_text() == "Player 2"

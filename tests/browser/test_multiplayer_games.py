"""Issue 26, in a real Chromium: a four-player Rise of Ix game (in Polish, the longest
words) and a three-player base game (in Japanese) played to the end through the table
screen. English, Japanese and Korean are checked at every step of the golden games by
test_sweep_*.py (playing these two again in English cost CI 140 s of a worker).

After every tap, at 1280x800, 800x1280, 1024x768 and 390x844, the page must not scroll,
nothing may be wider than its box, and every control of the question the table answers now (buttons,
fields, number-pad keys, the board's spaces on a player's turn) must be inside the
viewport and be the element at its own centre (controls_in_view.js), the question's
panels whole (a phone's included: four houses' End of Round card, the end's entries and
the winner's line). A screenshot for each kind of screen at each size, the first time it
shows, and every failing one, go to test-artifacts/screens/ (git-ignored), named
`<game>-<width>x<height>-<step>-<kind>.png`.

The games are short but meet every kind of question: Agent placements (with Infiltrate in
Rise of Ix), Reveal turns, each player's Combat strength on the number pad (the others'
strengths listed), a reward's choice, the End of Round card, then +1 VP (a card effect)
until two players reach 10 VP, the standings with their tie broken by the counts the
players enter, and Corner the Market with "the most any one opponent holds".

Two more tests: the same turn open on four devices and tapped on all four at once, where
exactly one tap lands (the game's version check) and the others see the game as it is;
and a phone (390x844) that shows whose turn it is, takes its player's turn on the board,
and follows the tablet's taps (static/follow.js).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from companion import services
from companion.rules.state import Options, SeatSetup, Setup
from tests.browser import test_play_in_browser as play
from tests.browser.test_table_fits import check_sizes

pytestmark = play.pytestmark
app = play.app
base_url = play.base_url
page = play.page

# Four long Polish names and a Japanese one, in seat order (clockwise).
NAMES = (
    "Przemysław Szczęśniak",
    "Małgorzata Wiśniewska-Brzęczyszczykiewicz",
    "渡辺 さくら子",
    "Grzegorz Brzęczyszczykiewicz",
)
LEADERS = ("paul_atreides", "glossu_rabban", "memnon_thorvald", "ilban_richese")
COLORS = ("green", "red", "yellow", "blue")
HTML_LANG = {"en": "en", "pl": "pl", "ja": "ja"}
# Round 1's strengths, in the order the players are asked: a first, a second and (with
# four players) a third place, so that each reward is given.
ROUND_ONE_STRENGTHS = ("7", "5", "3", "1")
GOAL = 10  # VP that end the game [RB p.12]
REVEAL = "#game .turn form:has(input[name=action][value=reveal]) button"
PLUS_VP = "#game .turn form:has(input[name=field][value=vp]) button"


def new_game(app, players: int, ix: bool) -> int:
    """A three- or four-player game stored as the set-up form would (the second player
    starts: the First Player marker is not always the first seat's)."""
    setup = Setup(
        mode="4p" if players == 4 else "3p",
        seed=7,
        humans=tuple(SeatSetup(NAMES[i], LEADERS[i], COLORS[i]) for i in range(players)),
        rivals=(),
        first_player=1,
        options=Options(),
        sets=("base", "ix") if ix else ("base",),
    )
    with app.app_context():
        return services.create_game(setup, app.extensions["catalog"])


@dataclass
class Table:
    """What the players do: round 1 played on the board, then +1 VP on their turns for
    the two players who go to 10, strength 0 from round 2 on (no more rewards)."""

    players: int
    ix: bool
    strengths_asked: int = 0
    infiltrated: bool = False
    seen: set[str] = field(default_factory=set)
    shot: set[tuple[str, int]] = field(default_factory=set)  # screenshots taken, by kind and size

    def vp(self, page, color: str) -> int:
        return int(page.locator(f"#scoreboard tr:has(.chip.c-{color}) .vpnum").inner_text())

    def step(self, page) -> str:
        """Do what the table screen asks now; the kind of question answered."""
        round_ = round_number(page)
        if page.locator("#prompt [data-numpad]").count():
            value = "0"
            if round_ == 1:
                value = ROUND_ONE_STRENGTHS[self.strengths_asked % self.players]
                self.strengths_asked += 1
            # The pad lists the others' strengths [issue 26].
            assert page.locator("#prompt .strengths li").count() == self.players - 1
            page.locator("#prompt .key[data-key='C']").click()
            page.locator(f"#prompt .key[data-key='{value}']").click()
            page.locator("#prompt button[type=submit]").click()
            return "strength"
        if page.locator("#round-end").count():
            page.locator("#prompt .options button").first.click()
            return "round end"
        if page.locator("#prompt .options button").count():
            page.locator("#prompt .options button").first.click()
            return "choice"
        acting = re.search(r"\bc-(\w+)", page.locator("#game .banner").get_attribute("class") or "")
        assert acting, "no player's turn, no question"
        color = acting.group(1)
        if round_ >= 2:
            if color in COLORS[:2] and self.vp(page, color) < GOAL:
                page.locator(PLUS_VP).click()
                return "card VP"
            page.locator(REVEAL).click()
            return "reveal"
        infiltrate = page.locator("#game button.infiltrate-button")
        if self.ix and not self.infiltrated and infiltrate.count():
            self.infiltrated = True
            infiltrate.first.click()
            return "infiltrate"
        spaces = page.locator("#game button.space-button:not(.infiltrate-button)")
        if spaces.count():
            # Spaces taken are greyed with the reason, not tappable.
            assert page.locator("#game .space.occupied button:not(.infiltrate-button)").count() == 0
            spaces.first.click()
            return "place"
        page.locator(REVEAL).click()
        return "reveal"


def round_number(page) -> int:
    found = re.search(r"\d+", page.locator("#game .banner .round").inner_text())
    assert found
    return int(found.group())


def play_to_the_end(page, base_url: str, game: str, game_id: int, table: Table) -> None:
    check_sizes(page, game, 0, table.shot, score=True)
    for step in range(1, 400):
        if page.locator("#end").count():
            break
        version = page.locator("#game").get_attribute("data-version")
        table.seen.add(table.step(page))
        play.changed(page, version)
        assert page.locator("#error").count() == 0, page.locator("#error").inner_text()
        check_sizes(page, game, step, table.shot, score=True)
    else:
        raise AssertionError(f"{game}: no end after 400 steps: {sorted(table.seen)}")
    finish(page, game, step, table)


def finish(page, game: str, step: int, table: Table) -> None:
    """The end: two players tie at 10 VP; their counts break the tie [RB p.12], then one
    plays Corner the Market."""
    assert page.locator("#end-entry form:has(input[value=tiebreak])").count() == table.players
    top = page.locator("#end .standings tbody tr")
    assert top.count() == table.players
    for seat, spice in ((0, "4"), (1, "6")):
        row = page.locator("#end-entry form:has(input[value=tiebreak])").nth(seat)
        version = page.locator("#game").get_attribute("data-version")
        row.locator("input[name=spice]").fill(spice)
        row.locator("button").click()
        play.changed(page, version)
        step += 1
        check_sizes(page, game, step, table.shot, score=True)
    # The second seat wins the tie on spice: the winner's line names them.
    winner = page.locator("#end p.winner").inner_text()
    assert NAMES[1] in winner and NAMES[0] not in winner, winner
    corner = page.locator("#end-entry form:has(input[value=corner])")
    assert corner.count() == table.players
    if table.players > 2:  # the question with several opponents [RB p.12]
        assert corner.first.locator("input[name=other]").count() == 1
    version = page.locator("#game").get_attribute("data-version")
    corner.nth(2).locator("input[name=own]").fill("2")
    corner.nth(2).locator("input[name=other]").fill("1")
    corner.nth(2).locator("button").click()
    play.changed(page, version)
    check_sizes(page, game, step + 1, table.shot, score=True)
    assert page.locator("#end-entry form:has(input[value=corner])").count() == 0


EVERY_KIND = {"place", "reveal", "strength", "choice", "round end", "card VP"}


@pytest.mark.parametrize("language", ["pl"])
def test_a_four_player_rise_of_ix_game_to_the_end(page, app, base_url, language):
    game_id = new_game(app, 4, ix=True)
    page.goto(f"{base_url}/language/{language}?next=/games/{game_id}")
    page.wait_for_selector("#game")
    assert page.locator("html").get_attribute("lang") == HTML_LANG[language]
    table = Table(4, ix=True)
    play_to_the_end(page, base_url, f"4p-ix-{language}", game_id, table)
    assert table.seen >= EVERY_KIND | {"infiltrate"}, table.seen


@pytest.mark.parametrize("language", ["ja"])
def test_a_three_player_base_game_to_the_end(page, app, base_url, language):
    game_id = new_game(app, 3, ix=False)
    page.goto(f"{base_url}/language/{language}?next=/games/{game_id}")
    page.wait_for_selector("#game")
    assert page.locator("html").get_attribute("lang") == HTML_LANG[language]
    table = Table(3, ix=False)
    play_to_the_end(page, base_url, f"3p-base-{language}", game_id, table)
    assert table.seen >= EVERY_KIND, table.seen


def test_four_devices_tapping_the_same_turn_at_once_land_one_tap(app, base_url):
    """Four phones on the table screen, each tapping a different board space for the same
    turn at the same moment: the game takes exactly one tap (its version check), and the
    three others say the game changed on another screen and show it as it is."""
    from playwright.sync_api import sync_playwright

    game_id = new_game(app, 4, ix=False)
    url = f"{base_url}/games/{game_id}"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=play.CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        devices = [
            browser.new_context(viewport={"width": 390, "height": 844}).new_page() for _ in range(4)
        ]
        for device in devices:
            device.goto(url)
            device.wait_for_selector("#game[data-version='0']")
        # Each device clicks at the same instant of the shared clock, a moment from now
        # (Playwright drives one page at a time, so the clicks are scheduled in the pages).
        at = devices[0].evaluate("Date.now()") + 1500
        for i, device in enumerate(devices):
            device.locator("#game button.space-button").nth(i).evaluate(
                "(button, at) => setTimeout(() => button.click(), at - Date.now())", at
            )
        for device in devices:
            device.wait_for_selector("#game[data-version='1']", timeout=5000)
            device.wait_for_selector("#game:not(.htmx-request)")
        refused = [device.locator("#error").count() for device in devices]
        browser.close()
    assert sorted(refused) == [0, 1, 1, 1]
    with app.app_context():
        state = services.load(game_id, app.extensions["catalog"]).state
    assert state.step == 1 and len(state.occupants) == 1  # one Agent on the board, not four


def test_a_player_takes_their_turn_on_a_phone_and_the_tablet_follows(app, base_url):
    """A phone (390x844 portrait) made the second player's screen (web/seats.py) says
    whose turn it is and, on that player's turn, has the board to tap; the tablet follows
    within the poll's second, and the phone follows the tablet's tap the same way
    (static/follow.js), then waits on the others' turns with no space to tap."""
    from playwright.sync_api import sync_playwright

    game_id = new_game(app, 4, ix=True)
    url = f"{base_url}/games/{game_id}"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=play.CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        tablet = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        for device in (phone, tablet):
            device.goto(url)
            device.wait_for_selector("#game[data-version='0']")
        phone.locator("a.seat-link").click()  # "This screen: the whole table"
        phone.locator("a.seat-choice", has_text=NAMES[1]).click()
        phone.wait_for_selector("#game[data-version='0']")
        assert NAMES[1] in phone.locator("a.seat-link").inner_text()
        # The second seat holds the First Player marker: the banner names them.
        banner = phone.locator("#game .banner h1")
        assert NAMES[1] in banner.inner_text()
        box = phone.locator("#game .banner").bounding_box()
        assert box is not None and box["y"] + box["height"] < 844  # on the first screen
        assert phone.evaluate("document.scrollingElement.scrollWidth") == 390
        space = phone.locator("#game button.space-button").first
        name = space.locator(".space-name").inner_text().strip()
        space.click()  # scrolled to, as a player scrolls down to the board
        phone.wait_for_selector("#game[data-version='1']")
        tablet.wait_for_selector("#game[data-version='1']", timeout=2500)
        taken = tablet.locator("#game .space.occupied", has_text=name)
        assert taken.locator(f".chip.c-{COLORS[1]}").count() == 1
        # Now the third seat's turn: the phone waits for it, with no space to tap.
        assert NAMES[2] in tablet.locator("#game .banner h1").inner_text()
        assert NAMES[2] in phone.locator("#waiting h2").inner_text()
        assert phone.locator("#game button.space-button").count() == 0
        # Taken on the tablet: the phone follows.
        tablet.locator(REVEAL).click()
        tablet.wait_for_selector("#game[data-version='2']")
        phone.wait_for_selector("#game[data-version='2']", timeout=2500)
        assert NAMES[3] in banner.inner_text()
        assert NAMES[3] in phone.locator("#waiting h2").inner_text()
        browser.close()

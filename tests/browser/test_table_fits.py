"""The table screen fits a tablet in both orientations at every step of a round (issue 20).

A real Chromium plays a solo base round, a two-player round and a Rise of Ix round. After
every tap it checks, at 1280x800 and at 800x1280, that the page does not scroll, that
nothing sticks out sideways, and that what the table must do now, the Conflict's
strengths and the score are on the screen. A screenshot of every step goes to
test-artifacts/screens/ (git-ignored) for a person to look at.
"""

from __future__ import annotations

from pathlib import Path

from tests.browser import test_play_in_browser as play

pytestmark = play.pytestmark
app = play.app
base_url = play.base_url
page = play.page

SCREENS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"
TABLET = ((1280, 800), (800, 1280))

# Run in the page: what breaks the "one screen" rule, as a list of sentences.
FIT_PROBLEMS = (Path(__file__).parent / "fit_problems.js").read_text(encoding="utf-8")


def needed_in_view(page) -> list[str]:
    """What must be on the screen now: the score, the board, the Conflict's strengths
    and the first thing the table must do (the final standings, a question, a Rival's
    card, a player's turn)."""
    needed = ["#scoreboard table.score", "#game .board"]
    if page.locator("#conflict").count():
        needed.append("#conflict .strength")
    # A Rival's card: its house, card and space; a long list of what its pieces do may
    # run on below the fold (the "More below" button scrolls to it).
    for now in ("#end", "#prompt", "#game .hagal-card .where", "#game .turn"):
        if page.locator(now).count():
            needed.append(now)
            break
    return needed


def check_fits(page, game: str, step: int) -> None:
    """At both tablet sizes: no scrolling, no overflow, the essentials on screen; a
    screenshot of each."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    for width, height in TABLET:
        page.set_viewport_size({"width": width, "height": height})
        problems = page.evaluate(FIT_PROBLEMS, needed_in_view(page))
        page.screenshot(path=str(SCREENS / f"{game}-{width}x{height}-{step:02d}.png"))
        assert problems == [], f"{game} step {step} at {width}x{height}: {problems}"


def start(page, base_url: str, mode: str, names: tuple[str, ...], ix: bool = False) -> None:
    """Set up a game through the new-game form and open its table screen."""
    page.goto(base_url + "/games/new")
    page.locator(f"input[name=mode][value='{mode}']").check()
    if ix:
        page.locator("input[name=expansion][value=ix]").check()
    for seat, name in enumerate(names, 1):
        page.fill(f"#p{seat}_name", name)
    page.get_by_role("button", name="Set up the table").click()
    page.get_by_role("link", name="Start playing").click()
    page.wait_for_selector("#game")


def play_round_checking(page, game: str, limit: int) -> list[str]:
    """Play round 1 into round 2, checking the fit before and after every step."""
    steps: list[str] = []
    check_fits(page, game, 0)
    for step in range(1, limit + 1):
        if play.round_number(page) >= 2:
            break
        page.set_viewport_size({"width": 1280, "height": 800})
        version = page.locator("#game").get_attribute("data-version")
        steps.append(play.take_one_step(page))
        play.changed(page, version)
        check_fits(page, game, step)
    assert play.round_number(page) == 2, steps
    return steps


def test_a_solo_base_round_fits_the_tablet(page, base_url):
    start(page, base_url, "solo", ("Ann",))
    steps = play_round_checking(page, "solo", limit=40)
    assert "number" in steps  # the combat strength was asked, with the Conflict on screen


def test_a_two_player_round_fits_the_tablet(page, base_url):
    start(page, base_url, "2p", ("Alexandra Konstantinova", "Wolfeschlegelsteinhausenberger"))
    play_round_checking(page, "2p", limit=60)


def test_a_rise_of_ix_round_fits_the_tablet(page, base_url):
    start(page, base_url, "solo", ("Przemysław Szczęśniak",), ix=True)
    play_round_checking(page, "ix", limit=60)
    # The drawers open over the board and push nothing off the screen.
    for step, drawer in enumerate(("log", "tech", "rivals"), 90):
        page.set_viewport_size({"width": 1280, "height": 800})
        page.locator(f"#drawer-{drawer} > summary").click()
        assert page.locator(f"#drawer-{drawer} .drawer-body").is_visible()
        assert page.locator(f"#drawer-{drawer} .panel").first.inner_text().strip()
        check_fits(page, f"ix-{drawer}", step)
        page.locator(f"#drawer-{drawer} [data-close-drawer]").click()
        assert not page.locator(f"#drawer-{drawer} .drawer-body").is_visible()

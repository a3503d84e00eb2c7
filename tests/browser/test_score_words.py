"""Issue 27, in a real Chromium: the score's headers and names in Japanese and Chinese keep
their words whole.

A browser breaks Chinese and Japanese between any two characters, so a narrow header read
"フレイメ/ン" (Fremen), "勝/利/点" and a Rival "左のライ/バル". The score's column headers (the
House, VP, the four Factions) and its houses' names now break only between words
(companion/web/line_breaks.py, static/app.css): laid out with Range.getClientRects, every
word of them is on one line. A word here is a run of katakana, or a run of kanji, hanzi and
kana that ends at a separator (・ ·), a space, katakana, or after the particle 的 (so
"ベネ・|ゲセリット|修道女会", "左手边的|对手", "プレイヤー1"). The names of a solo or a
two-player game (Rivals and House Hagal included) show whole, not cut by an ellipsis; and
the score still fits its box, the page neither scrolls nor is wider than the screen. The
turn's card-effect buttons keep their words whole too ("+1 ベネ・ゲセ/リット修道女会" was).

Checked on a solo, a two-player and a four-player game (long Polish names and a Japanese
one) as they start, in ja, zh-Hans and zh-Hant, on the table screen at 1280x800,
800x1280, 1024x768 and 390x844 and on the live view at 1280x720, 1366x768, 1920x1080 and
390x844: one page a game and a screen, resized. The score at the narrow sizes (800x1280,
390x844, the live view's 1280x720) and every failing one goes to
test-artifacts/screens/words-<language>-<game>-<screen>-<size>.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import services
from companion.rules.state import Options, SeatSetup, Setup
from tests.browser import test_play_in_browser as play
from tests.browser.test_multiplayer_games import NAMES
from tests.browser.test_table_fits import FIT_PROBLEMS, PHONE_WIDTH, SCREENS, SIZES, solo

pytestmark = play.pytestmark
app = play.app
base_url = play.base_url
page = play.page

LIVE_SIZES = ((1280, 720), (1366, 768), (1920, 1080), (390, 844))
SHOTS = ((800, 1280), (390, 844), (1280, 720))  # the narrow scores, and every failing one
HTML_LANG = {"ja": "ja", "zh_Hans": "zh-Hans", "zh_Hant": "zh-Hant"}
# What each language's headers must show whole (its catalog's Faction names, "VP").
WORDS = {
    "ja": ("勝利点", "皇帝", "宇宙協会", "ゲセリット", "修道女会", "フレイメン"),
    "zh_Hans": ("胜利点", "皇帝", "宇航公会", "杰瑟里特姐妹会", "弗雷曼人"),
    "zh_Hant": ("勝利點", "皇帝", "宇航公會", "潔瑟睿德女修會", "弗瑞曼人"),
}
# Run in the page: the words of the score's headers and names seen, and the problems.
WORDS_WHOLE = (Path(__file__).parent / "words_whole.js").read_text(encoding="utf-8")


def new_games(app) -> dict[str, int]:
    """A solo game (two Rivals), a two-player one (House Hagal) and a four-player one."""
    two = Setup(
        mode="2p",
        seed=4,
        humans=(
            SeatSetup("Player 1", "paul_atreides", "green"),
            SeatSetup("Player 2", "glossu_rabban", "red"),
        ),
        rivals=(SeatSetup("House Hagal", "", "yellow"),),
        first_player=0,
        options=Options(),
        sets=("base",),
    )
    four = Setup(
        mode="4p",
        seed=7,
        humans=tuple(
            SeatSetup(name, leader, color)
            for name, leader, color in zip(
                NAMES,
                ("paul_atreides", "glossu_rabban", "memnon_thorvald", "ilban_richese"),
                ("green", "red", "yellow", "blue"),
                strict=True,
            )
        ),
        rivals=(),
        first_player=1,
        options=Options(),
        sets=("base", "ix"),
    )
    setups = {"solo": solo("mercenary", ("base",), 3), "two": two, "four": four}
    with app.app_context():
        catalog = app.extensions["catalog"]
        return {name: services.create_game(setup, catalog) for name, setup in setups.items()}


@pytest.mark.parametrize("language", ["ja", "zh_Hans", "zh_Hant"])
def test_the_score_keeps_chinese_and_japanese_words_whole(page, app, base_url, language):
    SCREENS.mkdir(parents=True, exist_ok=True)
    games = new_games(app)
    page.goto(f"{base_url}/language/{language}?next=/")
    assert page.locator("html").get_attribute("lang") == HTML_LANG[language]
    for game, game_id in games.items():
        for screen, sizes, url in (
            ("table", SIZES, f"/games/{game_id}"),
            ("live", LIVE_SIZES, f"/games/{game_id}/live"),
        ):
            page.set_viewport_size({"width": sizes[0][0], "height": sizes[0][1]})
            page.goto(base_url + url)
            for width, height in sizes:
                page.set_viewport_size({"width": width, "height": height})
                where = f"{language} {game} {screen} at {width}x{height}"
                found = page.evaluate(WORDS_WHOLE, game != "four")
                # The score whole on the screen, but on a phone's table screen (where it
                # sits under the game's column).
                needed = [] if screen == "table" and width < PHONE_WIDTH else ["#scoreboard"]
                fit = page.evaluate(FIT_PROBLEMS, needed)
                missing = set(WORDS[language]) - set(found["seen"])
                if (width, height) in SHOTS or missing or found["problems"] or fit:
                    name = f"words-{language}-{game}-{screen}-{width}x{height}.png"
                    page.locator("#scoreboard").screenshot(path=str(SCREENS / name))
                assert not missing, (where, found["seen"])
                if screen == "table" and game == "two":  # Player 1's turn: its buttons
                    assert found["buttons"] > 0, where
                assert found["problems"] == [], (where, found["problems"])
                assert fit == [], (where, fit)

"""The question of the moment in full view, and the live view on one screen (issues 20
and 27).

A real Chromium plays round 1 into round 2 of a solo base game in Japanese, a solo Rise of
Ix game at Kwisatz Haderach (the Expert deployment's questions [RB p.20]) in Korean and a
two-player game with an Undo and a Redo in English. After every tap, at 1280x800,
800x1280, 1024x768 and 390x844: the page does not scroll, no text is wider than its box,
every control of the question (the prompt's buttons and number-pad keys, the End of Round
card, the Undo list, Undo and Redo; on a tablet the player's turn and the board's spaces
too, on a phone the turn's Reveal) is inside the viewport and is the element at its own
centre, and the question's panels are whole, not cut by a panel's scroll. The live view
of the same moment, in the same language, must fit 1280x720, 1920x1080 and 390x844 with
its score on screen: three pages of those sizes that follow the game (LIVE_FOLLOWED,
shared with the language sweep, sweep.py). A screenshot for each kind of screen at each size,
the first time it shows, and every failing one, go to test-artifacts/screens/
(git-ignored): look at them after a layout change. tests/browser/test_multiplayer_games.py
does the same for the four- and three-player games to their end, test_sweep_*.py (code
in sweep.py) for the golden games in three languages at every step.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from companion import services
from companion.rules.state import Difficulty, Options, SeatSetup, Setup
from tests.browser import test_play_in_browser as play

pytestmark = play.pytestmark
app = play.app
base_url = play.base_url
page = play.page

SCREENS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"
SIZES = ((1280, 800), (800, 1280), (1024, 768), (390, 844))
LIVE_SIZES = ((1280, 720), (1920, 1080), (390, 844))
PHONE_WIDTH = 640
ALL = (0, 1, 2, 3)  # every size's index
# The question's panels: each must be whole on the screen when it shows.
QUESTION = ("#prompt", "#round-end", "#board-changes", "#end", "#end-entry")
HTML_LANG = {"en": "en", "ja": "ja", "ko": "ko"}
REVEAL = "#game .turn form:has(input[name=action][value=reveal]) button"

# Run in the page: what breaks the "one screen" rule, as a list of sentences.
FIT_PROBLEMS = (Path(__file__).parent / "fit_problems.js").read_text(encoding="utf-8")
CONTROLS_IN_VIEW = (Path(__file__).parent / "controls_in_view.js").read_text(encoding="utf-8")
# Both checks in one call (a round trip a size, not five): the question's panels shown
# now must be whole; `score` adds the score on a tablet. Also says the kind of screen
# (which question's parts show), to take one screenshot per kind and size. `win`: the
# window checked (a frame's, from its parent page: sweep.py), this one unless said.
TABLE_CHECK = f"""([phone, question, score], win = window) => {{
  const document = win.document;
  const shown = ({CONTROLS_IN_VIEW})(phone, win);
  const needed = question.filter((q) => document.querySelector(q));
  const fit = ({FIT_PROBLEMS})(
    phone || !score ? needed : ["#scoreboard table.score", ...needed], win);
  const parts = {{ pad: "#prompt [data-numpad]", prompt: "#prompt", "round-end": "#round-end",
    changes: "#board-changes", turn: "#game .turn", rival: "#game .hagal-card",
    end: "#end-entry" }};
  const kind = Object.keys(parts).filter((k) => document.querySelector(parts[k])).join("+");
  return {{ problems: [...shown.problems, ...fit], count: shown.count, kind: kind || "other" }};
}}"""

# What a screen following the game shows once it changed (static/follow.js): the table's
# game area and scoreboard, or the live view's board, replaced by the server's answer to
# a following screen (rendered once per version and language), and app.js's "more below"
# mark on the "what now" column; then checked, all in one evaluate (htmx's own swap and
# settle lay a page out about six times). `answer` is the HTML; `selectors` the elements
# it replaces; `win` as above. The answer is brought in as a morph: an element equal to
# the one shown stays, one whose attributes' values differ gets them and its children
# morphed, any other (other attributes, children or tag; every form field, <details> and
# <dialog>) is replaced; then the element must serialize exactly as the answer does, or
# the check fails. The page is the answer, as after htmx's swap, but only what changed
# is styled and laid out again, as on the tablet that tapped (its answer swaps in only
# the regions that changed: web/present/regions.py): a tenth to a fifth of a moment's
# CPU in the language sweep (sweep.py).
SWAP = """(answer, selectors, win = window) => {
  const document = win.document;
  const fragment = document.createRange().createContextualFragment(answer);
  const whole = /^(INPUT|SELECT|TEXTAREA|DETAILS|DIALOG|SCRIPT)$/;
  const morph = (shown, next) => {
    if (shown.nodeType !== next.nodeType || shown.nodeName !== next.nodeName) {
      shown.replaceWith(next);
    } else if (shown.nodeType !== Node.ELEMENT_NODE) {
      if (shown.nodeValue !== next.nodeValue) shown.nodeValue = next.nodeValue;
    } else if (!shown.isEqualNode(next)) {
      const kids = [...shown.childNodes];
      const nextKids = [...next.childNodes];
      const names = (el) => [...el.attributes].map((a) => a.name).join(" ");
      const other = kids.length !== nextKids.length || names(shown) !== names(next);
      if (whole.test(shown.nodeName) || other) {
        shown.replaceWith(next);
        return;
      }
      for (const a of next.attributes) {
        if (shown.getAttribute(a.name) !== a.value) shown.setAttribute(a.name, a.value);
      }
      kids.forEach((kid, n) => morph(kid, nextKids[n]));
    }
  };
  for (const selector of selectors) {
    const now = fragment.querySelector(selector);
    now.removeAttribute("hx-swap-oob");
    const expected = now.outerHTML;
    morph(document.querySelector(selector), now);
    const made = document.querySelector(selector).outerHTML;
    if (made !== expected) throw new Error(`${selector} is not the server's answer after the swap`);
  }
  document.dispatchEvent(new win.CustomEvent("htmx:afterSettle", { detail: {} }));
}"""
TABLE_FOLLOWED = f"""([answer, ...args], win = window) => {{
  if (answer) ({SWAP})(answer, ["#game", "#scoreboard"], win);
  const version = win.document.querySelector("#game").dataset.version;
  return {{ ...({TABLE_CHECK})(args, win), version }};
}}"""
# The live view's problems; also every Rival's card whole on the screen (the side column and
# the room under the board cut what does not fit), and on a landscape screen (static/live.css)
# every Tech stack and every house's Rise of Ix pieces whole in the room under the board.
LIVE_FOLLOWED = f"""([answer, ...args], win = window) => {{
  if (answer) ({SWAP})(answer, ["#live"], win);
  const doc = win.document;
  const version = doc.querySelector("#live").dataset.version;
  const problems = ({FIT_PROBLEMS})(args, win);
  const cut = (part, what) => {{
    let bottom = win.innerHeight, right = win.innerWidth;
    for (let box = part.parentElement; box; box = box.parentElement) {{
      const style = win.getComputedStyle(box);
      if (style.display === "contents" || style.overflow === "visible") continue;
      const room = box.getBoundingClientRect();
      bottom = Math.min(bottom, room.bottom);
      right = Math.min(right, room.right);
    }}
    const mine = part.getBoundingClientRect();
    if (mine.height && mine.bottom <= bottom + 0.5 && mine.right <= right + 0.5) return;
    const words = part.textContent.replace(/\\s+/g, " ").trim().slice(0, 30);
    problems.push(`${{what}}: "${{words}}" is cut off`);
  }};
  for (const part of doc.querySelectorAll("#live .rival")) cut(part, "Rival card");
  if (win.innerWidth > 1000 && win.innerWidth > win.innerHeight)
    for (const part of doc.querySelectorAll(".live-tech .stack, .live-tech .ix-player"))
      cut(part, "Tech tiles");
  return {{ problems, version }};
}}"""


def check_sizes(
    page, game: str, step: int, shot: set[tuple[str, int]], score: bool, at: Sequence[int] = ALL
) -> str:
    """At every size (the page is at the first; back to it after): no scrolling, nothing
    clipped, the question whole and every control of it uncovered, in one evaluate a size.
    A screenshot for each kind of screen at each size (of those `at`) the first time it
    shows (`shot` remembers), and for every failure, to test-artifacts/screens/; the
    kind of screen."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    for n, (width, height) in enumerate(SIZES):
        if n:
            page.set_viewport_size({"width": width, "height": height})
        found = page.evaluate(TABLE_CHECK, [width < PHONE_WIDTH, list(QUESTION), score])
        problems = found["problems"]
        if (n in at and (found["kind"], n) not in shot) or problems:
            shot.add((found["kind"], n))
            name = f"{game}-{width}x{height}-{step:03d}-{found['kind']}.png"
            page.screenshot(path=str(SCREENS / name))
        assert found["count"] > 0, f"{game} step {step} at {width}x{height}: no control to check"
        assert problems == [], f"{game} step {step} at {width}x{height}: {problems}"
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    return str(found["kind"])


def choose_language(page, base_url: str, code: str) -> None:
    """Pick the language from the top bar's menu, as a player would."""
    page.goto(base_url + "/")
    page.locator(".lang-menu > summary").click()
    page.locator(f".lang-menu a[href^='/language/{code}']").click()
    page.wait_for_load_state()


def open_lives(page, url: str) -> list[Any]:
    """The live view on its own screens, one a size (a TV, a phone), in the language of
    `page`'s device (its cookies): opened once, then following the game (check_live)."""
    context = page.context.browser.new_context()
    context.add_cookies(page.context.cookies())
    lives = []
    for width, height in LIVE_SIZES:
        live = context.new_page()
        live.set_viewport_size({"width": width, "height": height})
        live.goto(url)
        lives.append(live)
    return lives


def check_live(
    lives: list[Any], url: str, game: str, step: int, shot: set[tuple[str, int]], kind: str
) -> None:
    """The live view of this moment (its board's answer swapped into each of `lives`, as
    static/follow.js does): one screen at every size, its score on it; a screenshot at
    each size for each kind of table screen the first time (`shot`), and for every
    failure."""
    answer = lives[0].context.request.get(f"{url}/board", headers={"HX-Request": "true"})
    assert answer.ok, f"live {game} step {step}: {answer.status}"
    html = answer.text()
    for n, (live, (width, height)) in enumerate(zip(lives, LIVE_SIZES, strict=True)):
        found = live.evaluate(LIVE_FOLLOWED, [html, "#scoreboard table.score"])
        problems = found["problems"]
        if (f"live-{kind}", n) not in shot or problems:
            shot.add((f"live-{kind}", n))
            name = f"live-{game}-{width}x{height}-{step:03d}-{kind}.png"
            live.screenshot(path=str(SCREENS / name))
        assert problems == [], f"live {game} step {step} at {width}x{height}: {problems}"


def round_number(page) -> int:
    """The banner's round ("ラウンド1", "1라운드", "Round 1"): its first number."""
    found = re.search(r"\d+", page.locator("#game .banner .round").inner_text())
    assert found
    return int(found.group())


def take_step(page, rng: random.Random, undo: bool) -> str:
    """Do what the table asks (the answers and spaces drawn from `rng`), or Undo."""
    pad = page.locator("#prompt [data-numpad]")
    if pad.count():
        page.locator("#prompt .key[data-key='C']").click()
        page.locator(f"#prompt .key[data-key='{rng.randrange(10)}']").click()
        page.locator("#prompt button[type=submit]").click()
        return "strength"
    options = page.locator("#prompt .options button")
    if options.count():
        kind = "round end" if page.locator("#round-end").count() else "choice"
        options.nth(rng.randrange(options.count())).click()
        return kind
    if undo:
        page.locator(".banner .undo button").first.click()
        return "undo"
    spaces = page.locator("#game button.space-button")
    if spaces.count() and rng.random() < 0.8:
        spaces.nth(rng.randrange(spaces.count())).click()
        return "place"
    page.locator(REVEAL).click()
    return "reveal"


def play_round(page, base_url: str, game: str, setup: Setup, language: str, app) -> list[str]:
    """Play round 1 into round 2 in `language`, checking the table and the live view
    before and after every tap; Undo at the first Agent turn after the first tap, then Redo.
    Prints the taps and their time (what a step's checks cost, for the README)."""
    with app.app_context():
        game_id = services.create_game(setup, app.extensions["catalog"])
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{base_url}/language/{language}?next=/games/{game_id}")
    page.wait_for_selector("#game")
    assert page.locator("html").get_attribute("lang") == HTML_LANG[language]
    live_url = f"{base_url}/games/{game_id}/live"
    lives = open_lives(page, live_url)
    rng = random.Random(1)
    steps: list[str] = []
    shot: set[tuple[str, int]] = set()
    started = time.perf_counter()
    for step in range(80):
        kind = check_sizes(page, game, step, shot, score=False)
        check_live(lives, live_url, game, step, shot, kind)
        if round_number(page) >= 2:
            break
        version = page.locator("#game").get_attribute("data-version")
        if steps[-1:] == ["undo"]:
            page.locator(".banner .undo button").nth(1).click()
            steps.append("redo")
        else:
            steps.append(take_step(page, rng, undo="undo" not in steps and len(steps) >= 1))
        play.changed(page, version)
    lives[0].context.close()
    spent = time.perf_counter() - started
    print(f"{game}: {len(steps)} taps, {spent:.1f} s, {spent / (len(steps) + 1):.2f} s a step")
    assert round_number(page) == 2, steps
    return steps


def solo(difficulty: Difficulty, sets: tuple[str, ...], seed: int) -> Setup:
    return Setup(
        mode="solo",
        seed=seed,
        humans=(SeatSetup("Przemysław Szczęśniak", "paul_atreides", "green"),),
        rivals=(
            SeatSetup("Left Rival", "glossu_rabban", "red"),
            SeatSetup("Right Rival", "memnon_thorvald", "yellow"),
        ),
        difficulty=difficulty,
        options=Options(),
        sets=sets,
    )


def test_a_solo_base_round_in_japanese_keeps_the_question_in_view(page, app, base_url):
    steps = play_round(page, base_url, "solo-ja", solo("mercenary", ("base",), 3), "ja", app)
    assert {"strength", "round end", "undo", "redo"} <= set(steps), steps


def test_a_solo_rise_of_ix_expert_round_in_korean_keeps_the_question_in_view(page, app, base_url):
    setup = solo("kwisatz", ("base", "ix"), 5)
    steps = play_round(page, base_url, "ix-ko", setup, "ko", app)
    assert {"strength", "round end", "undo", "redo"} <= set(steps), steps


@pytest.mark.parametrize("language", ["en"])
def test_a_two_player_round_keeps_the_question_in_view(page, app, base_url, language):
    setup = Setup(
        mode="2p",
        seed=4,
        humans=(
            SeatSetup("Alexandra Konstantinova", "paul_atreides", "green"),
            SeatSetup("Wolfeschlegelsteinhausenberger", "glossu_rabban", "red"),
        ),
        rivals=(SeatSetup("House Hagal", "", "yellow"),),
        first_player=0,
        options=Options(),
        sets=("base",),
    )
    steps = play_round(page, base_url, f"2p-{language}", setup, language, app)
    assert {"strength", "round end", "undo", "redo"} <= set(steps), steps


def test_the_drawers_open_over_the_board_and_push_nothing_off(page, app, base_url):
    with app.app_context():
        game_id = services.create_game(solo("mentat", ("base", "ix"), 5), app.extensions["catalog"])
    page.goto(f"{base_url}/games/{game_id}")
    SCREENS.mkdir(parents=True, exist_ok=True)
    for step, drawer in enumerate(("log", "tech", "rivals"), 90):
        page.locator(f"#drawer-{drawer} > summary").click()
        assert page.locator(f"#drawer-{drawer} .drawer-body").is_visible()
        assert page.locator(f"#drawer-{drawer} .panel").first.inner_text().strip()
        for width, height in SIZES[:3]:
            page.set_viewport_size({"width": width, "height": height})
            problems = page.evaluate(FIT_PROBLEMS, [])
            assert problems == [], f"{drawer} drawer at {width}x{height}: {problems}"
        page.screenshot(path=str(SCREENS / f"drawer-{drawer}-{step}.png"))
        page.set_viewport_size({"width": 1280, "height": 800})
        page.locator(f"#drawer-{drawer} [data-close-drawer]").click()
        assert not page.locator(f"#drawer-{drawer} .drawer-body").is_visible()

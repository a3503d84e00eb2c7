"""Issue 27's language sweep, shared by its test files (test_sweep_*.py, one a golden game,
so that pytest-xdist's --dist loadfile spreads them over the workers).

A golden game (tests/golden/) is replayed through the service layer (the taps themselves
are tested by test_table_fits.py and test_multiplayer_games.py, which play in the
browser) and, at every step, checked in each of its languages on the table screen at
1280x800, 800x1280, 1024x768 and 390x844 and on the live view at 1280x720, 1920x1080 and
390x844: the table screen as those tests check it after a tap (no page scroll, nothing
wider than its box, the question's panels whole and every control of it inside the
viewport and the element at its own centre); the live view: one screen, its score on it.
A game that is not checked at every step (the three-player one) is checked in every
language at the first moment of each kind of question (`kind`); LANGUAGE_SWEEP=every
checks every language at every step of every game.

Each language is a device of its own (the language is the device's choice): one page
holding seven frames, one a size (the frame's size is the screen's: its own viewport,
media queries and `innerHeight`), opened once on the game and never resized nor
reloaded. After a step, each frame brings the new screen in as a second tablet or a TV
following the game does (static/follow.js: the server's answer, rendered once per
version and language, swapped in) and is checked, the seven in one evaluate of the
device's page (TABLE_FOLLOWED, LIVE_FOLLOWED in test_table_fits.py, given the frame's
window). The frames lie outside the page's viewport, so chromium lays them out (the
checks ask for it) but never paints nor rasterizes them: a third of a moment's CPU when
each size was a page of its own, all painted after every swap. A screenshot moves its
frame into view first. The app forbids being framed (`frame-ancestors 'none'`), so the
device's context takes that one directive out of the game's pages' answers, nothing else.

Measured on this shared 2-core machine (2026-11-29, load 4 to 9, the first 30 steps of
solo_mercenary; psutil CPU of this process, Playwright's driver and chromium: `time`
misses chromium): a moment (seven screens) took 0.63 s of CPU with a page a size (0.75
to 0.8 s at load 2 to 5), chromium's renderers 0.49 s of it; 0.55 s once fit_problems.js
stopped laying out closed <details> on their own; 0.31 to 0.34 s with the frames (no
paint, no raster) and one evaluate a device; 0.24 to 0.30 s with the morph
(test_table_fits.py's SWAP). The five files alone (-n 2 --dist loadfile, load 2.6 to
3.7): 466 s of CPU, 295 s of wall, the four-player game's 783 moments 243 s on one
worker (0.29 s a moment, page loads and screenshots included), the four others 238 s on
the other. Screenshots: one at the first moment of each kind, the sizes and the
languages in turn, and of the live view at the first moment of each phase; every failing
screen too. To test-artifacts/screens/.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from companion import services
from companion.rules.codec import decode, decode_setup
from companion.rules.state import GameState
from tests.browser import test_play_in_browser as play
from tests.browser.test_table_fits import (
    HTML_LANG,
    LIVE_FOLLOWED,
    LIVE_SIZES,
    PHONE_WIDTH,
    QUESTION,
    SCREENS,
    SIZES,
    TABLE_FOLLOWED,
)

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
# LANGUAGE_SWEEP=every: every language a file knows at every step of its game (the
# three-player game too, which is checked per kind of question otherwise).
EVERY_LANGUAGE_EVERY_STEP = os.environ.get("LANGUAGE_SWEEP") == "every"
# The device's own page: small, its frames outside it (not painted).
PAGE = {"width": 320, "height": 240}
AWAY = "100000px"  # a frame's left edge, outside the page
# The game's pages (the table screen, the live view), whose answer the frames load.
FRAMED = re.compile(r"/games/\d+(/live)?$")
# Opens the frames, the table screen's four sizes then the live view's three.
FRAMES = f"""(specs) => {{
  for (const [src, view, width, height] of specs) {{
    const frame = document.createElement("iframe");
    frame.src = src;
    frame.dataset.view = view;
    frame.style.cssText = `position: fixed; top: 0; left: {AWAY}; border: 0; z-index: 9;
      width: ${{width}}px; height: ${{height}}px;`;
    document.body.append(frame);
  }}
}}"""
LOADED = """() => [...document.querySelectorAll("iframe")].every((frame) => {
  const shown = frame.contentDocument && frame.contentDocument.querySelector("[data-version]");
  return shown && frame.contentDocument.readyState === "complete";
})"""
# A moment: every frame brings in its view's answer (none at the first moment: the
# frames opened on it) and is checked; their findings in the frames' order.
MOMENT = f"""([table, live, question]) => [...document.querySelectorAll("iframe")].map((frame) => {{
  const win = frame.contentWindow;
  if (frame.dataset.view === "live")
    return ({LIVE_FOLLOWED})([live, "#scoreboard table.score"], win);
  return ({TABLE_FOLLOWED})([table, win.innerWidth < {PHONE_WIDTH}, question, false], win);
}})"""
SHOW = """([n, left]) => { document.querySelectorAll("iframe")[n].style.left = left; }"""


def cpu_seconds() -> float:
    """CPU time of this process and its children (the server runs in this process,
    Playwright's driver and chromium under it), for the figure printed."""
    me = psutil.Process()
    total = 0.0
    for process in [me, *me.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.Error:  # ended meanwhile
            continue
        total += times.user + times.system
    return total


def kind(state: GameState) -> tuple[object, ...]:
    """What shapes the table screen: the phase, the prompt's kind, a number pad or
    options (up to four, or five and more: two rows), a player's Agent turn."""
    p = state.prompt
    options = 0 if p is None or p.number else 1 + (len(p.options) >= 5)
    turn = p is None and state.phase == "agents" and state.turn is not None
    return (state.phase, p.kind if p else None, bool(p and p.number), options, turn)


@dataclass
class Device:
    """A device in one language: its page, holding a frame per table size and per live
    size (`sizes`, in the frames' order)."""

    language: str
    page: Any = None
    request: Any = None  # the device's own requests (its cookie: its language)
    sizes: list[tuple[str, tuple[int, int]]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # refused requests, console errors


def framed(route: Any) -> None:
    """The game's page as the server answers it, but for the one directive that forbids
    showing it in a frame."""
    response = route.fetch()
    headers = dict(response.headers)
    policy = headers.get("content-security-policy", "")
    headers["content-security-policy"] = re.sub(r";?\s*frame-ancestors [^;]*", "", policy)
    route.fulfill(response=response, headers=headers)


def open_device(browser: Any, base_url: str, url: str, language: str) -> Device:
    device = Device(language)
    context = browser.new_context()
    context.route(FRAMED, framed)
    device.request = context.request
    page = device.page = context.new_page()
    page.set_viewport_size(PAGE)
    refused = device.refused
    page.on("response", lambda r: refused.append(r.url) if r.status >= 400 else None)
    page.on("console", lambda m: refused.append(m.text) if m.type == "error" else None)
    page.goto(f"{base_url}/language/{language}?next=/")  # chooses the language
    assert page.locator("html").get_attribute("lang") == HTML_LANG[language]
    views = (("table", url, SIZES), ("live", f"{url}/live", LIVE_SIZES))
    specs = [(src, view, w, h) for view, src, sizes in views for w, h in sizes]
    page.evaluate(FRAMES, specs)
    page.wait_for_function(LOADED)
    device.sizes = [(view, (w, h)) for _, view, w, h in specs]
    return device


def screenshot(device: Device, n: int, path: Path) -> None:
    """Frame `n` as its screen shows it: moved into the page, the page at its size."""
    width, height = device.sizes[n][1]
    device.page.set_viewport_size({"width": width, "height": height})
    device.page.evaluate(SHOW, [n, "0px"])
    device.page.screenshot(path=str(path))
    device.page.evaluate(SHOW, [n, AWAY])
    device.page.set_viewport_size(PAGE)


def check_moment(
    device: Device, url: str, game: str, step: int, version: int, screen: dict[str, int | None]
) -> None:
    """Every frame of the device brought to `version` (at step 0 they opened on it) and
    checked: the table screen at its four sizes, the live view at its three. Screenshots
    as `screen` says: the table at the size `screen["table"]`, the live view at
    `screen["live"]` (None: none)."""
    answers: list[str | None] = [None, None]
    if step:
        for n, path in enumerate((url, f"{url}/live/board")):
            answer = device.request.get(path, headers={"HX-Request": "true"})
            assert answer.ok, f"{game} step {step}: {path} answered {answer.status}"
            answers[n] = answer.text()
    found_all = device.page.evaluate(MOMENT, [*answers, list(QUESTION)])
    tables = 0
    for n, ((view, (width, height)), found) in enumerate(zip(device.sizes, found_all, strict=True)):
        problems = found["problems"]
        if view == "table":
            where = f"{game} step {step} at {width}x{height}"
            assert found["version"] == str(version), f"{where}: not followed"
            if tables == screen["table"] or problems:
                name = f"{game}-{width}x{height}-{step:03d}-{found['kind']}.png"
                screenshot(device, n, SCREENS / name)
            assert found["count"] > 0, f"{where}: no control to check"
            assert problems == [], f"{where}: {problems}"
            tables += 1
        else:
            where = f"live {game} step {step} at {width}x{height}"
            assert found["version"] == str(version), f"{where}: not followed"
            if n - tables == screen["live"] or problems:
                screenshot(device, n, SCREENS / f"live-{game}-{width}x{height}-{step:03d}.png")
            assert problems == [], f"{where}: {problems}"


def play_golden(
    app: Any, base_url: str, name: str, languages: tuple[str, ...], every: bool
) -> None:
    """Replay the golden game `name`, checking it in `languages` at every step (`every`,
    or LANGUAGE_SWEEP=every) or at the first moment of each kind of question only."""
    from playwright.sync_api import sync_playwright

    # The frames follow the game when this test says, not on their own every second.
    app.config["LIVE_POLL_MS"] = 3_600_000
    data = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    catalog = app.extensions["catalog"]
    with app.app_context():
        game_id = services.create_game(decode_setup(data["setup"]), catalog)
    url = f"{base_url}/games/{game_id}"
    SCREENS.mkdir(parents=True, exist_ok=True)
    started, cpu_before = time.perf_counter(), cpu_seconds()
    actions = [decode(a) for a in data["actions"]]
    every = every or EVERY_LANGUAGE_EVERY_STEP
    seen: list[tuple[object, ...]] = []
    phases: set[str] = set()
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=play.CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        devices = [open_device(browser, base_url, url, language) for language in languages]
        checked = 0
        for step in range(len(actions) + 1):
            with app.app_context():
                view = services.load(game_id, catalog)
            new_kind = kind(view.state) not in seen
            if new_kind:
                seen.append(kind(view.state))
            new_phase = view.state.phase not in phases
            phases.add(view.state.phase)
            for n, device in enumerate(devices if new_kind or every else []):
                # One screenshot a kind, the sizes and languages in turn, and the live
                # view's at the first moment of a phase (a new phase is a new kind; it
                # shows no question): a screenshot costs as much as a moment.
                mine = {
                    "table": len(seen) % len(SIZES) if new_kind else None,
                    "live": len(phases) % len(LIVE_SIZES) if new_phase else None,
                }
                screen = {
                    "table": mine["table"] if len(seen) % len(devices) == n else None,
                    "live": mine["live"] if len(phases) % len(devices) == n else None,
                }
                game = f"golden-{name}-{device.language}"
                check_moment(device, url, game, step, view.version, screen)
                checked += 1
            if step < len(actions):
                with app.app_context():
                    services.act(game_id, actions[step], view.version, catalog)
        cpu = cpu_seconds() - cpu_before
        browser.close()
    spent = time.perf_counter() - started
    print(
        f"{name}: {len(actions)} steps, {len(seen)} kinds, {checked} moments checked "
        f"(7 screens each): {spent:.1f} s, {cpu:.1f} s of CPU (this process, the driver "
        f"and chromium), {cpu / checked * 1000:.0f} ms a moment"
    )
    for device in devices:
        assert device.refused == [], f"{device.language}: {device.refused}"
    assert seen[-1][0] == "ended", seen

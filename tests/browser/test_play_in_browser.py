"""A real Chromium plays a solo game at Mentat difficulty through the table screen.

Debian's chromium, driven by Playwright; never a downloaded browser. Skipped when no
chromium is installed (CI installs it).
"""

from __future__ import annotations

import random
import re
import shutil
import threading
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from flask import Flask
from werkzeug.serving import make_server

from companion import create_app, services
from companion.db import db
from companion.rules.actions import Action
from companion.rules.engine import apply, new_game
from companion.sim import choose_action, make_setup
from companion.web import games as games_module

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed"),
]


@pytest.fixture
def app(tmp_path, monkeypatch) -> Flask:
    # Every run plays the same games: with the route's random seed, one Rise of Ix game in
    # seven began with a Tech tile whose Influence question hid the Freighter button.
    monkeypatch.setattr(games_module, "secrets", SimpleNamespace(randbelow=lambda n: 1 % n))
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "browser-test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'browser.sqlite'}",
        }
    )
    with app.app_context():
        db.create_all()
    return app


@pytest.fixture
def base_url(app) -> Iterator[str]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture
def page(base_url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        tab = browser.new_page(viewport={"width": 1280, "height": 800})
        outside: list[str] = []
        refused: list[str] = []
        tab.on(
            "request", lambda r: outside.append(r.url) if not r.url.startswith(base_url) else None
        )
        tab.on("response", lambda r: refused.append(r.url) if r.status >= 400 else None)
        # The console says what the response events miss, such as /favicon.ico.
        tab.on("console", lambda m: refused.append(m.text) if m.type == "error" else None)
        yield tab
        browser.close()
        assert outside == [], f"requests to other hosts: {outside}"
        assert refused == [], f"refused requests or console errors: {refused}"


def round_number(page) -> int:
    text = page.locator("#game .banner .round").inner_text()
    found = re.search(r"Round (\d+)", text)
    assert found, text
    return int(found.group(1))


def changed(page, version: str | None) -> None:
    """Wait until htmx has swapped in a newer version of the game (CSS only: the page's
    Content-Security-Policy forbids eval, which wait_for_function would need)."""
    page.wait_for_selector(f"#game:not([data-version='{version}'])")


def take_one_step(page) -> str:
    """Do what the table screen asks: answer the prompt, place an Agent or reveal."""
    if page.locator("#prompt [data-numpad]").count():
        page.locator("#prompt .key", has_text="C").click()
        page.locator("#prompt .key", has_text="7").click()
        page.locator("#prompt button[type=submit]").click()
        return "number"
    if page.locator("#prompt .options button").count():
        page.locator("#prompt .options button").first.click()
        return "option"
    spaces = page.locator("button.space-button")
    if spaces.count():
        spaces.first.click()
        return "place"
    page.get_by_role("button", name="Reveal turn").click()
    return "reveal"


def play_to_round(page, target: int, limit: int) -> list[str]:
    """Take up to `limit` steps until the banner shows round `target`; the steps taken."""
    steps: list[str] = []
    for _ in range(limit):
        if round_number(page) >= target:
            break
        version = page.locator("#game").get_attribute("data-version")
        steps.append(take_one_step(page))
        changed(page, version)
    return steps


def log_text(page) -> str:
    """The game log's words, read from its drawer as a player would open it."""
    page.locator("#drawer-log > summary").click()
    text = str(page.locator(".log").inner_text())
    page.locator("#drawer-log [data-close-drawer]").click()
    return text


def test_a_full_solo_round_with_combat_and_undo(page, base_url):
    page.goto(base_url + "/games/new")
    page.locator("input[name=mode][value=solo]").check()
    page.locator("input[name=difficulty][value=mentat]").check()
    page.fill("#p1_name", "Ann")
    page.get_by_role("button", name="Set up the table").click()
    assert "Set up the table" in page.locator("h1").inner_text()
    assert "5 Solari token" in page.content()  # Mentat difficulty checklist
    page.get_by_role("link", name="Start playing").click()
    page.wait_for_selector("#game")
    page.evaluate("window.__marker = 'kept'")
    assert round_number(page) == 1

    # Place an Agent, then undo it: the space is free again and the page never reloaded.
    first_space = page.locator("button.space-button").first
    name = first_space.locator(".space-name").inner_text().strip()
    version = page.locator("#game").get_attribute("data-version")
    first_space.click()
    changed(page, version)
    assert page.locator(".occupant", has_text="Ann").count() == 1
    version = page.locator("#game").get_attribute("data-version")
    page.get_by_role("button", name="Undo").click()
    changed(page, version)
    assert page.locator(".occupant .chip.c-green").count() == 0
    assert page.locator("button.space-button .space-name", has_text=name).count() >= 1
    assert page.evaluate("window.__marker") == "kept"

    steps = play_to_round(page, 2, limit=40)
    assert round_number(page) == 2, steps
    assert "number" in steps  # the combat strength was entered on the number pad
    assert "reveal" in steps
    log = log_text(page)
    assert "Combat for" in log and "Phase 4" in log and "Phase 5" in log
    assert page.evaluate("window.__marker") == "kept"  # htmx swaps only, no reload
    # The scoreboard is swapped out of band and shows the same VP as the rival panels.
    assert page.locator("#scoreboard .vpnum").count() == 3

    # Rules lookup from the game (issue 4): a space's info button opens its rules in a
    # dialog over the game, which stays as it was.
    version = page.locator("#game").get_attribute("data-version")
    page.locator("#space-carthag .info").click()
    page.wait_for_selector("#rules-dialog[open] #rules-panel-title")
    assert "Carthag" in page.locator("#rules-dialog").inner_text()
    page.locator("#rules-dialog form[method=dialog] button").first.click()
    assert page.locator("#rules-dialog[open]").count() == 0
    assert page.locator("#game").get_attribute("data-version") == version
    assert page.evaluate("window.__marker") == "kept"

    page.set_viewport_size({"width": 800, "height": 1280})
    assert page.locator("button.space-button").first.bounding_box()["height"] >= 48
    assert page.locator("#space-carthag .info").bounding_box()["height"] >= 48


def test_a_two_player_rise_of_ix_round_with_tech_freighter_and_dreadnought(page, base_url):
    """Rise of Ix in the browser: buy a face-up Tech tile, move the Freighter, commission
    a dreadnought, then play the round through combat (IX pp.4-6)."""
    page.goto(base_url + "/games/new")
    page.locator("input[name=mode][value='2p']").check()
    page.locator("input[name=expansion][value=ix]").check()
    # Long names (up to 40 characters are allowed) must not push anything off the screen.
    page.fill("#p1_name", "Alexandra Konstantinova")
    page.fill("#p2_name", "Wolfeschlegelsteinhausenbergerdorff Sr")
    page.get_by_role("button", name="Set up the table").click()
    assert "Tech tiles" in page.content()  # the Ix checklist
    page.get_by_role("link", name="Start playing").click()
    page.locator("#drawer-tech > summary").click()  # the Tech tiles' drawer over the board
    page.wait_for_selector("#tech")
    assert page.locator("#space-smuggling").count() == 1
    assert page.locator("#space-sell_melange").count() == 0

    first_tile = page.locator("#tech .stack strong").first.inner_text()
    version = page.locator("#game").get_attribute("data-version")
    page.locator("#tech .buy button").first.click()
    changed(page, version)
    assert first_tile in page.locator("#tech .ix-player").first.inner_text()

    for label in ("Freighter to step 1", "Commission dreadnought"):
        version = page.locator("#game").get_attribute("data-version")
        page.get_by_role("button", name=label).click()
        changed(page, version)
    mine = page.locator("#tech .ix-player").first.inner_text()  # still open after 3 taps
    assert "step 1 of 3" in mine and "1 garrison" in mine
    page.locator("#drawer-tech [data-close-drawer]").click()

    steps = play_to_round(page, 2, limit=60)
    assert round_number(page) == 2, steps
    assert "Combat for" in log_text(page)
    # Nothing runs past the screen's edge in either orientation: the Conflict's table with
    # its Dreadnoughts column and House Hagal ran 49 px past a 1280 px screen, and a long
    # name widened the side column and stuck out of its board space.
    for width, height in ((1280, 800), (800, 1280)):
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        table = page.locator("#conflict table.strength").bounding_box()
        panel = page.locator("#conflict").bounding_box()
        assert table["x"] + table["width"] <= panel["x"] + panel["width"]


def strength_asked_again(app: Flask) -> int:
    """A stored solo Mentat game at its Combat question whose number pad opens on the
    strength already entered this round (asked earlier by an Expert rival's deployment
    [RB p.20]); its id."""
    catalog = app.extensions["catalog"]
    for seed in range(1, 40):
        setup = make_setup(catalog, "solo", "mentat", seed)
        state, rng = new_game(setup, catalog), random.Random(seed)
        actions: list[Action] = []
        while state.phase != "ended" and len(actions) < 400:
            p = state.prompt
            if p is not None and p.kind == "strength" and p.default > 0:
                with app.app_context():
                    game_id = services.create_game(setup, catalog)
                    for version, action in enumerate(actions):
                        services.act(game_id, action, version, catalog)
                return game_id
            action = choose_action(state, rng)
            state = apply(state, action)
            actions.append(action)
    raise AssertionError("no game asked the Combat strength after an Expert question")


def test_the_number_pads_first_digit_replaces_the_strength_it_opens_with(page, app, base_url):
    """Tapping 9 on a pad that shows the 7 entered earlier this round enters 9, not 79."""
    game_id = strength_asked_again(app)
    page.goto(f"{base_url}/games/{game_id}")
    value = page.locator("#prompt .numpad-value")
    shown = value.input_value()
    assert shown != "0"
    key = page.locator("#prompt .key")
    key.filter(has_text=re.compile("^9$")).click()
    assert value.input_value() == "9"
    key.filter(has_text=re.compile("^5$")).click()
    assert value.input_value() == "95"
    key.filter(has_text="⌫").click()
    assert value.input_value() == "9"
    version = page.locator("#game").get_attribute("data-version")
    page.locator("#prompt button[type=submit]").click()
    changed(page, version)
    assert "strength: 9." in log_text(page)

"""The turn clock on the new-game form, the table screen and the summary page; the marks
kept per game stay those of the whole log while reading only the events that changed."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from sqlalchemy import update

from companion import clock_store, services
from companion.db import db
from companion.db.models import GameEvent
from companion.rules.actions import PlaceAgent
from companion.rules.state import Options
from companion.sim import choose_action, make_setup
from tests.stats.games import play_to_the_end

T0 = datetime(2020, 1, 1, 20, 0, 0)  # long past: a running stretch shows its cap


def set_times(game, game_id: int, times: dict[int, datetime]) -> None:
    """Give the stored events these times (by seq), and forget the clock's kept marks."""
    with game.app.app_context():
        for seq, moment in times.items():
            db.session.execute(
                update(GameEvent)
                .where(GameEvent.game_id == game_id, GameEvent.seq == seq)
                .values(created_at=moment)
            )
        db.session.commit()
    game.app.extensions.pop("clock_marks", None)


def place(game, game_id: int) -> PlaceAgent:
    action = next(a for a in game.legal(game_id) if isinstance(a, PlaceAgent))
    game.do(game_id, action)
    return action


def clocks(body: str) -> list[str]:
    """Each turn clock on the page, its tags stripped: "1:55" or "11:05 ▸ 10:00"."""
    spans = re.findall(r'<span class="turn-clock[^"]*"[^>]*>(.*?)</span></th>', body, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", s).split()) for s in spans]


def test_the_new_game_form_offers_the_turn_clock_off(client):
    body = client.get("/games/new").get_data(as_text=True)
    box = re.search(r'<input type="checkbox" name="turn_clock"[^>]*>', body)
    assert box is not None and "checked" not in box.group(0)


@pytest.mark.parametrize(("sent", "on"), [({"turn_clock": "on"}, True), ({}, False)])
def test_the_form_sets_the_option(game, sent, on):
    game_id = game.new_2p(**sent)
    assert game.state(game_id).setup.options.turn_clock is on
    assert game.state(game_id).setup.options == replace(Options(), turn_clock=on)


def test_the_table_shows_each_players_thinking_time_when_on(game):
    game_id = game.new_2p(turn_clock="on")
    first = place(game, game_id)  # Ann's Agent turn; House Hagal plays; Ben thinks
    assert first.house == "p1"
    assert place(game, game_id).house == "p2"  # Ben thought 1:05
    assert place(game, game_id).house == "p1"  # Ann thought 1:55; Ben thinks since 20:03
    set_times(
        game,
        game_id,
        {1: T0, 2: T0 + timedelta(seconds=65), 3: T0 + timedelta(minutes=3)},
    )
    body = game.page(game_id)
    # Ann, Ben (thinking: his 1:05 and this turn, stopped at 10 minutes), no clock for Hagal.
    assert clocks(body) == ["1:55", "11:05 ▸ 10:00"]
    assert 'data-clock-now="600" data-clock-cap="600"' in body
    assert 'datetime="PT115S"' in body
    assert "/static/clock.js" in body
    # The htmx answer of the next tap carries them in the out-of-band scoreboard.
    set_times(game, game_id, {})
    reveal = game.act(game_id, htmx=True, action="reveal", house="p2")
    assert reveal.status_code == 200
    answer = reveal.get_data(as_text=True)
    assert len(clocks(answer)) == 2 and 'id="scoreboard"' in answer


def test_the_table_shows_no_clock_when_off(game):
    game_id = game.new_2p()
    place(game, game_id)
    for body in (game.page(game_id), game.page(game_id, htmx=True)):
        assert "turn-clock" not in body and "clock.js" not in body


def step(game, game_id: int, htmx: bool = False) -> None:
    """Tap the first thing the table can do now (a placement, a Reveal, an answer)."""
    game.do(game_id, game.legal(game_id)[0], htmx)


@pytest.mark.parametrize("mode", ["solo", "2p", "3p", "4p"])
def test_every_mode_clocks_its_humans_only(game, mode):
    setup = make_setup(game.catalog, mode, "mentat" if mode == "solo" else None, 3)
    setup = replace(setup, options=Options(turn_clock=True))
    with game.app.app_context():
        game_id = services.create_game(setup, game.catalog)
    for _ in range(3):
        step(game, game_id)
    body = game.page(game_id)
    shown = clocks(body)
    assert len(shown) == len(setup.humans)
    assert sum("▸" in c for c in shown) == 1  # whoever the game waits for


def test_the_kept_marks_follow_taps_undo_and_redo_reading_only_the_changed_events(
    game, monkeypatch
):
    game_id = game.new_2p(turn_clock="on")
    for _ in range(3):
        step(game, game_id)
    game.page(game_id)  # the marks of the whole log, kept
    read_after: list[int] = []
    times = clock_store._times

    def counting(game_id: int, after: int) -> list[tuple[int, datetime]]:
        read_after.append(after)
        return times(game_id, after)

    monkeypatch.setattr(clock_store, "_times", counting)
    step(game, game_id, htmx=True)
    for change in (game.undo, game.redo, game.undo, game.undo):
        assert change(game_id, htmx=True).status_code == 200
    step(game, game_id, htmx=True)
    # Each change read the events after all but the last kept mark (3 marks, 4, 3, 4, 3, 2).
    assert read_after == [2, 3, 2, 3, 2, 1]
    with game.app.app_context():
        view = services.load(game_id, game.catalog)
        kept = clock_store.clock_of(view, game.catalog)
        game.app.extensions.pop("clock_marks", None)
        services.forget_cache()  # rebuilt from the stored log, as after a restart
        fresh = clock_store.clock_of(services.load(game_id, game.catalog), game.catalog)
    assert kept == fresh
    assert fresh is not None and sum(fresh.turns.values()) == 3


def test_the_summary_shows_each_players_thinking_and_average_per_turn(game, client):
    game_id = game.new_2p(turn_clock="on", seed=5)
    play_to_the_end(game, game_id, 5)
    events = game.events(game_id)
    set_times(game, game_id, {seq: T0 + timedelta(seconds=30 * seq) for seq, _, _ in events})
    body = client.get(f"/games/{game_id}/summary").get_data(as_text=True)
    assert "Time spent thinking" in body
    turns = {"p1": 0, "p2": 0}
    for _, undone, action in events:
        if not undone and action.get("type") in ("PlaceAgent", "Reveal"):
            turns[action["house"]] += 1
    rows = re.findall(
        r'<td class="left"><span class="chip c-\w+">(\w+)</span></td>\s*'
        r"<td>([\d:]+)</td>\s*<td>(\d+)</td>\s*<td>([\d:]+)</td>",
        body,
    )
    assert [(name, int(n)) for name, _total, n, _avg in rows] == [
        ("Ann", turns["p1"]),
        ("Ben", turns["p2"]),
    ]
    # Every stretch is 30 s here: each total is a multiple of it.
    for _name, total, _n, _avg in rows:
        minutes, seconds = map(int, total.split(":")[-2:])
        assert (60 * minutes + seconds) % 30 == 0 and total != "0:00"


def test_the_summary_has_no_thinking_times_when_off(game, client):
    game_id = game.new_2p(seed=5)
    play_to_the_end(game, game_id, 5)
    body = client.get(f"/games/{game_id}/summary").get_data(as_text=True)
    assert "Time spent thinking" not in body


def test_the_kept_clock_equals_a_rebuild_after_any_run_of_changes(game):
    """Taps, Undos (more than the clocks kept) and Redos, with the clock read after some
    of them only (as when another screen made the changes): always the rebuilt clock."""
    game_id = game.new_2p(turn_clock="on", seed=4)
    rng = random.Random(4)
    with game.app.app_context():
        for step_number in range(80):
            view = services.load(game_id, game.catalog)
            roll = rng.random()
            if roll < 0.15 and view.can_undo:
                for _ in range(rng.choice([1, 1, 3, 10])):
                    if not services.load(game_id, game.catalog).can_undo:
                        break
                    view = services.undo(game_id, view.version, game.catalog)
            elif roll < 0.25 and view.can_redo:
                view = services.redo(game_id, view.version, game.catalog)
            elif view.state.phase != "ended":
                action = choose_action(view.state, rng)
                view = services.act(game_id, action, view.version, game.catalog)
            if rng.random() < 0.5:
                continue  # not shown: the next reading catches up several changes
            kept = clock_store.clock_of(view, game.catalog)
            saved = game.app.extensions["clock_marks"]
            game.app.extensions["clock_marks"] = clock_store.MarkCache()  # rebuilt from the log
            rebuilt = clock_store.clock_of(view, game.catalog)
            game.app.extensions["clock_marks"] = saved
            assert kept == rebuilt, step_number
            assert kept is not None

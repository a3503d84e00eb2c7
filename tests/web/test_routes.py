"""Every route: pages vs htmx fragments, 303/409/422/404/400/204, undo/redo, CSRF, no other host.

Games are driven through the forms the table screen shows, as a player tapping would.
"""

from __future__ import annotations

import html
import random
import re
import threading
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import pytest
from itsdangerous import TimestampSigner
from markupsafe import escape
from sqlalchemy import event

from companion import services
from companion.db import db
from companion.rules import codec
from companion.rules.actions import Action, Choose, IllegalAction, PlaceAgent, Reveal
from companion.rules.engine import apply
from companion.sim import choose_action
from companion.web import games as games_module
from tests import database
from tests.db.ids import give_id_again
from tests.web import pages
from tests.web.conftest import (
    HX,
    SOLO_FORM,
    TWO_PLAYER_FORM,
    GameActions,
    dispose,
    make_app,
)

MISSING = 999_999


def in_game_fragment(body: str, text: str) -> bool:
    """`text` is shown inside <main id="game">, i.e. in place of the table screen."""
    start = body.find('<main id="game"')
    end = body.find("</main>", start)
    return start >= 0 and text in body[start:end]


def refusal(state, action) -> str:
    """The message the engine gives for an illegal action (escaped as a page shows it)."""
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    return str(escape(str(caught.value)))


def play_to(game: GameActions, game_id: int, stop, limit: int = 200) -> None:
    """Post legal actions (first legal placement, else the first choice) until `stop(state)`."""
    for _ in range(limit):
        state = game.state(game_id)
        if stop(state):
            return
        action: Action
        if state.prompt is not None:
            p = state.prompt
            action = Choose("7") if p.number else Choose(p.options[0])
        else:
            legal = game.legal(game_id)
            places = [a for a in legal if isinstance(a, PlaceAgent)]
            action = places[0] if places else next(a for a in legal if isinstance(a, Reveal))
        game.do(game_id, action)
    raise AssertionError("the game never got there")


def at_strength_prompt(state) -> bool:
    return state.prompt is not None and state.prompt.kind == "strength"


# -- every page renders ----------------------------------------------------------------

PAGES = [
    "/",
    "/games/new",
    "/games/{id}/setup",
    "/games/{id}",
    "/games/{id}/live",
    "/games/{id}/live/board",
]


@pytest.mark.parametrize("mode", ["solo", "2p"])
@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders(game, client, path, mode):
    game_id = game.new_solo() if mode == "solo" else game.new_2p()
    response = client.get(path.format(id=game_id))
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert "HX-Request" in response.vary
    body = response.get_data(as_text=True)
    if path.endswith("/live/board"):
        assert "<html" not in body and 'id="live"' in body
    else:
        assert body.lstrip().startswith("<!doctype html>")
        assert '<meta name="csrf-token"' in body


def test_home_lists_games_to_resume_and_finished_games(game, client):
    assert "No game in progress." in client.get("/").get_data(as_text=True)
    solo = game.new_solo()
    two = game.new_2p()
    body = client.get("/").get_data(as_text=True)
    for game_id in (solo, two):
        assert f'href="/games/{game_id}"' in body
        assert str(escape(game.view(game_id).title)) in body
    assert 'href="/print"' in body  # the QR stickers are one tap from home


def test_home_says_which_games_are_rise_of_ix_and_epic(game, client):
    game.new_solo()
    game.new_2p(expansion="ix")
    game.new_solo(expansion="ix", epic="on")
    lines = [
        re.sub(r"\s+", " ", html.unescape(m)).strip()
        for m in re.findall(
            r'<a class="gamecard[^"]*"[^>]*>.*?<span>(.*?)</span>',
            client.get("/").get_data(as_text=True),
            re.S,
        )
    ]
    kinds = sorted(line.split(" · Round")[0] for line in lines)
    assert kinds == ["Solo", "Solo · Rise of Ix (Epic)", "Two players · Rise of Ix"]


def test_setup_checklist_follows_the_choices(game, client):
    mentat = client.get(f"/games/{game.new_solo('mentat')}/setup").get_data(as_text=True)
    mercenary = client.get(f"/games/{game.new_solo('mercenary')}/setup").get_data(as_text=True)
    assert "5 Solari token" in mentat
    assert "5 Solari token" not in mercenary
    assert "1 Solari and 1 spice" in mercenary
    assert 'href="/games/1"' in mentat  # "Start playing" leads to the table


def _played_to_the_end(game: GameActions, game_id: int, seed: int) -> str:
    rng = random.Random(seed)
    with game.app.app_context():
        for _ in range(2000):
            view = services.load(game_id, game.catalog)
            if view.state.phase == "ended":
                break
            services.act(game_id, choose_action(view.state, rng), view.version, game.catalog)
    assert game.state(game_id).phase == "ended"
    return game.page(game_id)


def test_a_finished_game_shows_the_standings(game, client):
    game_id = game.new_solo(seed=5)
    body = _played_to_the_end(game, game_id, 5)
    assert 'id="end"' in body
    assert pages.action_forms(body, action="tiebreak", house="p1")
    # Corner the Market counts each solo Rival as two The Spice Must Flow [RB p.20].
    assert "Solo Rivals count as holding two The Spice Must Flow" in body
    # The live view (a TV, a phone) shows who won too, with nothing to enter.
    live = client.get(f"/games/{game_id}/live").get_data(as_text=True)
    assert 'id="live-standings"' in live and "Final standings" in live
    assert not pages.action_forms(live, action="tiebreak")
    home = client.get("/").get_data(as_text=True)
    assert "Finished games" in home and f'href="/games/{game_id}/summary"' in home


def test_a_finished_two_player_game_asks_both_players_and_no_solo_rule(game):
    """Two players: each player's tie-break resources and Corner the Market with the
    opponent's count; the solo Rivals' two The Spice Must Flow [RB p.20] don't apply."""
    body = _played_to_the_end(game, game.new_2p(seed=3), 3)
    for house in ("p1", "p2"):
        assert pages.action_forms(body, action="tiebreak", house=house)
        assert pages.action_forms(body, action="corner", house=house)
    assert "Solo Rivals" not in body
    assert "Other Endgame cards: use +1 VP in the corrections." in body


def test_corner_the_market_leaves_the_end_panel_once_played(game):
    """Corner the Market is played once [RB p.12]: after it, its form is gone for both
    players (a second one was refused with an error), the tie-break forms stay."""
    game_id = game.new_2p(seed=3)
    _played_to_the_end(game, game_id, 3)
    response = game.act(game_id, action="corner", house="p1", own="2", other="0")
    assert response.status_code == 303
    body = game.page(game_id)
    assert not pages.action_forms(body, action="corner")
    assert pages.action_forms(body, action="tiebreak", house="p2")
    assert "Corner the Market" in game.page(game_id)  # its VP line in the log and ledger


# -- full page vs htmx fragment --------------------------------------------------------


def test_the_table_page_is_a_whole_document_with_one_scoreboard(game):
    body = game.page(game.new_solo())
    assert body.lstrip().startswith("<!doctype html>") and "</html>" in body
    assert body.count('<main id="game"') == 1
    assert body.count('id="scoreboard"') == 1
    assert "hx-swap-oob" not in body


def test_an_htmx_request_gets_the_game_fragment_and_an_oob_scoreboard(game, client):
    game_id = game.new_solo()
    response = client.get(f"/games/{game_id}", headers=HX)
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    assert not re.search(r"<(html|head|body)[\s>]", body)
    assert body.lstrip().startswith('<main id="game"')
    assert body.count('<main id="game"') == 1
    ids = pages.parse(body).ids
    assert ids.count("scoreboard") == 1
    # The OOB twin comes after the fragment, never nested inside it (STYLE.md §2.5).
    oob = re.search(r'<aside id="scoreboard"[^>]*hx-swap-oob="true"', body)
    assert oob is not None
    assert oob.start() > body.index("</main>")
    assert pages.version(body) == 0


def test_a_history_restore_gets_the_full_page(game, client):
    game_id = game.new_solo()
    response = client.get(f"/games/{game_id}", headers={**HX, "HX-History-Restore-Request": "true"})
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    assert body.lstrip().startswith("<!doctype html>")
    assert "hx-swap-oob" not in body


def _requests_of_every_kind(game: GameActions) -> list[tuple[str, str, Any, Any, int]]:
    """(method, path, form, headers, expected status) covering every route and outcome."""
    game_id = game.new_solo()
    version = game.version(game_id)
    stamp = game.stamp(game_id)
    place = pages.form_for(next(a for a in game.legal(game_id) if isinstance(a, PlaceAgent))) | {
        "version": str(version),
        "created": stamp,
    }
    return [
        ("GET", "/", {}, {}, 200),
        ("GET", "/games/new", {}, {}, 200),
        ("GET", f"/games/{game_id}/setup", {}, {}, 200),
        ("GET", f"/games/{game_id}", {}, {}, 200),
        ("GET", f"/games/{game_id}", {}, HX, 200),
        ("GET", f"/games/{game_id}/live", {}, {}, 200),
        ("GET", f"/games/{game_id}/live/board?v={version}", {}, HX, 200),
        ("GET", f"/games/{MISSING}", {}, {}, 404),
        ("GET", f"/games/{MISSING}", {}, HX, 404),
        ("GET", "/no/such/page", {}, {}, 404),
        ("GET", "/static/app.css", {}, {}, 200),
        ("POST", f"/games/{game_id}/undo", {"version": str(version), "created": stamp}, {}, 422),
        ("POST", f"/games/{game_id}/actions", {"action": "reveal", "house": "p1"}, HX, 409),
        ("POST", f"/games/{game_id}/actions", place, HX, 200),
        (
            "POST",
            f"/games/{game_id}/undo",
            {"version": str(version + 1), "created": stamp},
            {},
            303,
        ),
        ("POST", "/games", {"mode": "solo"}, {}, 422),
        ("POST", "/games", SOLO_FORM, {}, 303),
        ("POST", f"/games/{game_id}/delete", {}, {}, 409),
        ("POST", f"/games/{game_id}/delete", {"created": stamp}, {}, 303),
        ("GET", f"/games/{game_id}", {}, {}, 404),
        ("DELETE", f"/games/{MISSING}", {}, {}, 405),
    ]


def test_every_response_varies_on_hx_request(game, client):
    for method, path, form, headers, status in _requests_of_every_kind(game):
        with client.open(path, method=method, data=form, headers=headers) as response:
            pass
        assert response.status_code == status, (method, path)
        assert "HX-Request" in response.vary, (method, path, response.status_code)


# -- posting actions -------------------------------------------------------------------


def test_a_plain_post_answers_303_to_the_table(game, client):
    game_id = game.new_solo()
    body = game.page(game_id)
    form = pages.action_forms(body, action="place")[0]
    response = client.post(form.action, data=form.fields)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}"
    assert game.version(game_id) == 1
    assert game.state(game_id).occupants[form.fields["space"]] == "p1"
    after = game.page(game_id)
    assert pages.version(after) == 1
    assert f'id="space-{form.fields["space"]}"' in after


def test_an_htmx_post_answers_200_with_the_fragments(game, client):
    game_id = game.new_solo()
    form = pages.action_forms(game.page(game_id, htmx=True), action="place")[0]
    assert form.htmx and form.attrs["hx-target"] == "#game"
    response = client.post(form.attrs["hx-post"], data=form.fields, headers=HX)
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Location" not in response.headers
    assert "<html" not in body
    assert pages.version(body) == 1
    assert 'hx-swap-oob="true"' in body and body.count('id="scoreboard"') == 1
    assert game.state(game_id).occupants[form.fields["space"]] == "p1"


def test_every_post_form_on_the_table_works_without_javascript(game):
    """Each form has method, action and the version; an htmx form posts where it says."""
    body = game.page(game.new_solo())
    post_forms = [f for f in pages.forms(body) if f.method == "post"]
    assert len(post_forms) > 20
    for form in post_forms:
        assert form.action.startswith("/games/")
        assert form.fields.get("version") == "0"
        assert "csrf_token" in form.fields
        if form.htmx:
            assert form.attrs["hx-post"] == form.action


# -- illegal actions: 422, message in place, nothing stored ----------------------------


def _occupied(game, game_id):
    state = game.state(game_id)
    space = next(iter(state.occupants))
    return state, PlaceAgent("p1", space)


def _wrong_house_solo(game, game_id):
    return game.state(game_id), PlaceAgent("r1", "conspire")


def _unknown_space(game, game_id):
    return game.state(game_id), PlaceAgent("p1", "the_moon")


def _no_question(game, game_id):
    return game.state(game_id), Choose("emperor")


def _bad_option(game, game_id):
    play_to(game, game_id, lambda s: s.prompt is not None and not s.prompt.number)
    return game.state(game_id), Choose("not-an-option")


def _strength_too_high(game, game_id):
    play_to(game, game_id, at_strength_prompt)
    state = game.state(game_id)
    assert state.prompt is not None
    return state, Choose(str(state.prompt.maximum + 1))


def _strength_not_a_number(game, game_id):
    play_to(game, game_id, at_strength_prompt)
    return game.state(game_id), Choose("seven")


def _placing_during_a_prompt(game, game_id):
    play_to(game, game_id, at_strength_prompt)
    return game.state(game_id), PlaceAgent("p1", "conspire")


ILLEGAL: dict[str, Callable[..., Any]] = {
    "occupied space": _occupied,
    "a rival's house": _wrong_house_solo,
    "unknown space": _unknown_space,
    "answer without a question": _no_question,
    "not one of the choices": _bad_option,
    "strength out of range": _strength_too_high,
    "strength not a number": _strength_not_a_number,
    "placing during a prompt": _placing_during_a_prompt,
}


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize("case", list(ILLEGAL))
def test_an_illegal_action_answers_422_with_the_message_and_stores_nothing(game, case, htmx):
    game_id = game.new_solo()
    state, action = ILLEGAL[case](game, game_id)
    message = refusal(state, action)
    before = game.snapshot(game_id)
    response = game.act(game_id, htmx=htmx, **pages.form_for(action))
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert in_game_fragment(body, message), message
    assert 'role="alert"' in body
    assert ("<html" in body) is not htmx
    assert pages.version(body) == before[0]
    assert game.snapshot(game_id) == before
    assert game.state(game_id, fresh=True) == before[2]


def test_the_wrong_player_in_a_two_player_game_gets_422(game):
    game_id = game.new_2p(first_player="0")
    state = game.state(game_id)
    assert state.turn == "p1"
    message = refusal(state, PlaceAgent("p2", "conspire"))
    assert "Ben" in message and "Ann" in message
    before = game.snapshot(game_id)
    response = game.act(game_id, htmx=True, action="place", house="p2", space="conspire")
    assert response.status_code == 422
    assert in_game_fragment(response.get_data(as_text=True), message)
    assert game.snapshot(game_id) == before


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"action": "fly"}, "Unknown action."),
        ({}, "Missing action."),
        ({"action": "place", "house": "p1"}, "Missing space."),
        ({"action": "adjust", "house": "p1", "field": "vp", "delta": "lots"}, "whole number"),
        ({"action": "adjust", "house": "p1", "field": "vp", "delta": "99"}, "1 to 50"),
        ({"action": "adjust", "house": "r1", "field": "charisma", "delta": "1"}, "be corrected"),
        ({"action": "adjust", "house": "p1", "field": "spice", "delta": "1"}, "track them"),
        ({"action": "tiebreak", "house": "p1", "spice": "1", "solari": "1"}, "Missing water."),
        ({"action": "place", "house": "p1", "space": "x" * 81}, "too long"),
    ],
)
def test_a_malformed_action_form_answers_422(game, fields, message):
    game_id = game.new_solo()
    before = game.snapshot(game_id)
    response = game.act(game_id, htmx=True, **fields)
    assert response.status_code == 422
    assert in_game_fragment(response.get_data(as_text=True), message)
    assert game.snapshot(game_id) == before


def test_nothing_to_undo_or_redo_answers_422(game):
    game_id = game.new_solo()
    before = game.snapshot(game_id)
    for response in (game.undo(game_id, htmx=True), game.redo(game_id)):
        assert response.status_code == 422
    assert "Nothing to undo." in game.undo(game_id, htmx=True).get_data(as_text=True)
    assert "Nothing to redo." in game.redo(game_id, htmx=True).get_data(as_text=True)
    assert game.snapshot(game_id) == before


# -- stale versions: 409 with the fresh view, applied once -----------------------------


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_a_double_submit_is_applied_once(game, client, htmx):
    game_id = game.new_solo()
    form = pages.action_forms(game.page(game_id), action="place")[0]
    headers = HX if htmx else {}
    first = client.post(form.action, data=form.fields, headers=headers)
    second = client.post(form.action, data=form.fields, headers=headers)
    assert first.status_code == (200 if htmx else 303)
    assert second.status_code == 409
    body = second.get_data(as_text=True)
    assert "changed on another screen" in body
    assert pages.version(body) == 1  # the fresh view, not the stale one
    assert ("<html" in body) is not htmx
    assert game.version(game_id) == 1
    assert game.event_count(game_id) == 1
    assert list(game.state(game_id).occupants.values()).count("p1") == 1


def test_a_second_device_with_an_old_page_gets_409_and_the_fresh_view(game, app):
    game_id = game.new_solo()
    tablet, phone = app.test_client(), app.test_client()
    tablet_forms = pages.action_forms(game.page(game_id), action="place")
    phone_page = phone.get(f"/games/{game_id}").get_data(as_text=True)
    phone_forms = pages.action_forms(phone_page, action="place")
    mine, theirs = tablet_forms[0], phone_forms[1]
    assert mine.fields["space"] != theirs.fields["space"]

    assert tablet.post(mine.action, data=mine.fields).status_code == 303
    response = phone.post(theirs.action, data=theirs.fields, headers=HX)
    body = response.get_data(as_text=True)
    assert response.status_code == 409
    assert pages.version(body) == 1
    assert in_game_fragment(body, f'id="space-{mine.fields["space"]}"')
    state = game.state(game_id)
    assert state.occupants.get(mine.fields["space"]) == "p1"
    assert theirs.fields["space"] not in state.occupants
    assert game.event_count(game_id) == 1


@pytest.mark.parametrize("version", [None, "", "abc", "1.0", "-1", "99", "9" * 40])
def test_a_missing_or_wrong_version_answers_409(game, client, version):
    game_id = game.new_solo()
    data = {"action": "reveal", "house": "p1"}
    if version is not None:
        data["version"] = version
    before = game.snapshot(game_id)
    for path in ("actions", "undo", "redo"):
        response = client.post(f"/games/{game_id}/{path}", data=data, headers=HX)
        assert response.status_code == 409, path
    assert game.snapshot(game_id) == before


def test_a_stale_undo_does_not_undo_twice(game):
    game_id = game.new_solo()
    game.do(game_id, game.legal(game_id)[0])
    game.do(game_id, game.legal(game_id)[0])
    assert game.undo(game_id, version=2).status_code == 303
    assert game.undo(game_id, version=2).status_code == 409
    assert [undone for _seq, undone, _a in game.events(game_id)] == [False, True]


# -- races between two devices (a real SQLite file, two threads) -----------------------


@pytest.fixture
def file_app(tmp_path, monkeypatch):
    app = make_app(SQLALCHEMY_DATABASE_URI=database.file_uri(tmp_path / "race.sqlite"))
    actions = GameActions(app, app.test_client())
    monkeypatch.setattr(games_module, "secrets", SimpleNamespace(randbelow=lambda n: 1))
    yield actions
    dispose(app)


def run_between_read_and_write(monkeypatch, other) -> list[Any]:
    """Make `other` (the other device's request) complete right after this request read
    the game (from the state cache or the database) and before it writes: the
    interleaving two taps a few milliseconds apart produce on the threaded server."""
    real_read = services._posted_from
    answers: list[Any] = []

    def racing_read(*args):
        read = real_read(*args)
        if not answers:
            answers.append(None)
            thread = threading.Thread(target=lambda: answers.append(other()))
            thread.start()
            thread.join()
        return read

    monkeypatch.setattr(services, "_posted_from", racing_read)
    return answers


def test_the_race_harness_lets_the_other_device_win(file_app, monkeypatch):
    game = file_app
    game_id = game.new_solo()
    place = pages.form_for(next(a for a in game.legal(game_id) if isinstance(a, PlaceAgent)))
    other = pages.form_for([a for a in game.legal(game_id) if isinstance(a, PlaceAgent)][1])
    stamp = game.stamp(game_id)
    answers = run_between_read_and_write(
        monkeypatch,
        lambda: (
            game.app.test_client()
            .post(f"/games/{game_id}/actions", data=other | {"version": "0", "created": stamp})
            .status_code
        ),
    )
    response = game.act(game_id, version=0, htmx=True, **place)
    assert answers[1] == 303
    assert response.status_code in (409, 422)
    assert game.event_count(game_id) == 1
    assert game.state(game_id, fresh=True).occupants[other["space"]] == "p1"
    assert place["space"] not in game.state(game_id).occupants


def test_a_double_tap_that_loses_the_race_gets_409(file_app, monkeypatch):
    game = file_app
    game_id = game.new_solo()
    place = pages.form_for(next(a for a in game.legal(game_id) if isinstance(a, PlaceAgent)))
    answers = run_between_read_and_write(
        monkeypatch, lambda: game.act(game_id, version=0, htmx=True, **place).status_code
    )
    response = game.act(game_id, version=0, htmx=True, **place)
    assert answers[1] == 200
    assert game.event_count(game_id) == 1  # holds: nothing is applied twice
    assert response.status_code == 409, response.get_data(as_text=True)[:300]


def test_a_double_tapped_undo_that_loses_the_race_gets_409(file_app, monkeypatch):
    game = file_app
    game_id = game.new_solo()
    game.do(game_id, next(a for a in game.legal(game_id) if isinstance(a, PlaceAgent)))
    answers = run_between_read_and_write(
        monkeypatch, lambda: game.undo(game_id, version=1, htmx=True).status_code
    )
    response = game.undo(game_id, version=1, htmx=True)
    assert answers[1] == 200
    assert [undone for _s, undone, _a in game.events(game_id)] == [True]  # undone once
    assert response.status_code == 409, response.get_data(as_text=True)[:300]


def test_an_action_on_a_game_deleted_meanwhile_gets_404(file_app, monkeypatch):
    game = file_app
    game_id = game.new_solo()
    game.app.config["PROPAGATE_EXCEPTIONS"] = False
    place = pages.form_for(next(a for a in game.legal(game_id) if isinstance(a, PlaceAgent)))
    answers = run_between_read_and_write(monkeypatch, lambda: game.delete(game_id).status_code)
    response = game.act(game_id, version=0, **place)
    assert answers[1] == 303
    assert game.game_count() == 0 and game.all_event_count() == 0  # holds: nothing stored
    assert response.status_code == 404


class RecordingLock:
    """Stands in for the app's write lock and logs when it is taken and let go."""

    def __init__(self, log: list[str]) -> None:
        self.lock = threading.Lock()
        self.log = log

    def __enter__(self) -> None:
        self.lock.acquire()
        self.log.append("lock")

    def __exit__(self, *exc: object) -> None:
        self.log.append("unlock")
        self.lock.release()


def test_a_write_holds_the_write_lock_from_its_update_to_its_commit(file_app, monkeypatch):
    """Writes of one process queue on a lock, not on SQLite's busy handler, which sleeps."""
    game = file_app
    game_id = game.new_solo()
    log: list[str] = []
    monkeypatch.setitem(game.app.extensions, "game_write_lock", RecordingLock(log))
    with game.app.app_context():
        engine = db.engine

    def statement(*args: object) -> None:
        log.append("sql")

    def commit(*args: object) -> None:
        log.append("commit")

    event.listen(engine, "before_cursor_execute", statement)
    event.listen(engine, "commit", commit)
    try:
        game.do(game_id, next(a for a in game.legal(game_id) if isinstance(a, PlaceAgent)))
        game.undo(game_id, htmx=True)
        game.redo(game_id)
    finally:
        event.remove(engine, "before_cursor_execute", statement)
        event.remove(engine, "commit", commit)
    events = "".join("(" if e == "lock" else ")" if e == "unlock" else e[0] for e in log)
    # Each write: the UPDATE of the game, the INSERT or UPDATE of its event, the commit.
    assert re.findall(r"\((\w*)\)", events) == ["ssc"] * 3
    assert "c" not in re.sub(r"\(\w*\)", "", events)  # reads go on outside the lock
    assert game.version(game_id) == 3


# -- unknown game: 404 everywhere ------------------------------------------------------

ROUTES = [
    ("GET", "/games/{id}"),
    ("GET", "/games/{id}/setup"),
    ("GET", "/games/{id}/delete"),
    ("GET", "/games/{id}/live"),
    ("GET", "/games/{id}/live/board"),
    ("GET", "/games/{id}/live/board?v=0"),
    ("POST", "/games/{id}/actions"),
    ("POST", "/games/{id}/undo"),
    ("POST", "/games/{id}/redo"),
    ("POST", "/games/{id}/delete"),
]


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize("method, path", ROUTES)
@pytest.mark.parametrize("game_id", [MISSING, 0, "deleted", "abc", -1])
def test_an_unknown_game_is_404_on_every_route(game, client, method, path, htmx, game_id):
    if game_id == "deleted":
        game_id = game.new_solo()
        assert game.delete(game_id).status_code == 303
    form = {"version": "0", "action": "reveal", "house": "p1"}
    response = client.open(
        path.format(id=game_id), method=method, data=form, headers=HX if htmx else {}
    )
    body = response.get_data(as_text=True)
    assert response.status_code == 404
    assert 'role="alert"' in body
    assert ("<html" in body) is not htmx


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize("method, path", ROUTES)
@pytest.mark.parametrize("game_id", [2**31 - 1, 2**31, 2**63 - 1, 2**63, 10**30])
def test_a_game_id_beyond_sql_integers_is_404(app, client, method, path, htmx, game_id):
    app.config["PROPAGATE_EXCEPTIONS"] = False  # the status a browser would see
    form = {"version": "0", "action": "reveal", "house": "p1"}
    response = client.open(
        path.format(id=game_id), method=method, data=form, headers=HX if htmx else {}
    )
    assert response.status_code == 404


@pytest.mark.parametrize(
    "form",
    [{}, {"version": "0"}, {"version": "0", "action": "fly"}, {"action": "place", "house": "p1"}],
)
def test_a_malformed_action_for_an_unknown_game_is_404(app, client, form):
    app.config["PROPAGATE_EXCEPTIONS"] = False  # the status a browser would see
    response = client.post(f"/games/{MISSING}/actions", data=form, headers=HX)
    assert response.status_code == 404


# -- creating a game -------------------------------------------------------------------


def without(form: dict[str, str], *names: str) -> dict[str, str]:
    return {k: v for k, v in form.items() if k not in names}


BAD_SETUPS = {
    "Paul Atreides as a rival": (
        SOLO_FORM | {"r1_leader": "paul_atreides", "p1_leader": "leto_atreides"},
        "Paul Atreides can&#39;t be a Rival",
    ),
    "Helena Richese as a rival": (
        SOLO_FORM | {"r2_leader": "helena_richese"},
        "Helena Richese can&#39;t be a Rival",
    ),
    "same color twice": (SOLO_FORM | {"r2_color": "green"}, "Each house needs its own color."),
    "same color twice (2p)": (
        TWO_PLAYER_FORM | {"hagal_color": "blue"},
        "Each house needs its own color.",
    ),
    "a color that is not a player color": (
        SOLO_FORM | {"p1_color": "purple"},
        "Choose one of the four player colors.",
    ),
    "unknown difficulty": (SOLO_FORM | {"difficulty": "godlike"}, "Choose a difficulty."),
    "missing difficulty": (without(SOLO_FORM, "difficulty"), "Missing difficulty."),
    "missing mode": (without(SOLO_FORM, "mode"), "Missing mode."),
    "unknown mode": (SOLO_FORM | {"mode": "5p"}, "Choose solo, two, three or four players."),
    "missing leader": (without(SOLO_FORM, "r1_leader"), "Missing r1_leader."),
    "unknown leader": (SOLO_FORM | {"p1_leader": "shaddam"}, "Unknown leader"),
    "the same rival twice": (
        SOLO_FORM | {"r2_leader": "glossu_rabban"},
        "The two Rivals need different leaders.",
    ),
    "one leader twice (2p)": (
        TWO_PLAYER_FORM | {"p2_leader": "paul_atreides"},
        "Each leader can be used only once.",
    ),
    "a third first player (2p)": (
        TWO_PLAYER_FORM | {"first_player": "2"},
        "The first player must be one of the two players.",
    ),
    "a very long name": (SOLO_FORM | {"p1_name": "A" * 500}, "p1_name is too long."),
    "an empty form": ({}, "Missing mode."),
}


@pytest.mark.parametrize("case", list(BAD_SETUPS))
def test_a_bad_setup_answers_422_with_a_clear_message_and_stores_nothing(game, client, case):
    form, message = BAD_SETUPS[case]
    response = client.post("/games", data=form)
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert message in body
    assert re.search(r'role="alert">[^<]*' + re.escape(message), body)
    assert game.game_count() == 0 and game.all_event_count() == 0
    # The form comes back with the player's choices kept.
    if form.get("p1_name") == "Ann":
        assert 'value="Ann"' in body


def test_a_good_setup_redirects_to_the_checklist(game, client):
    response = client.post("/games", data=TWO_PLAYER_FORM | {"first_player": "1"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/games/1/setup"
    state = game.state(1)
    assert state.setup.mode == "2p" and state.turn == "p2"


# -- undo and redo through the routes --------------------------------------------------


def test_undo_and_redo_restore_exact_states(game):
    game_id = game.new_solo()
    states = [game.state(game_id)]
    for i in range(6):
        state = states[-1]
        if state.prompt is not None:
            action = Choose("5") if state.prompt.number else Choose(state.prompt.options[-1])
        else:
            legal = game.legal(game_id)
            action = legal[i % len(legal)]
        game.do(game_id, action, htmx=i % 2 == 0)
        states.append(game.state(game_id))
    assert len({s.step for s in states}) == len(states)

    for k in range(len(states) - 1, 0, -1):
        response = game.undo(game_id, htmx=k % 2 == 0)
        assert response.status_code == (200 if k % 2 == 0 else 303)
        assert game.state(game_id) == states[k - 1]
        assert game.state(game_id, fresh=True) == states[k - 1]
    assert game.undo(game_id).status_code == 422
    for k in range(1, len(states)):
        response = game.redo(game_id, htmx=True)
        assert response.status_code == 200
        assert pages.version(response.get_data(as_text=True)) == game.version(game_id)
        assert game.state(game_id) == states[k]
        assert game.state(game_id, fresh=True) == states[k]
    assert game.redo(game_id).status_code == 422


def test_a_new_action_after_undo_drops_the_redo(game):
    game_id = game.new_solo()
    first, second = game.legal(game_id)[:2]
    game.do(game_id, first)
    assert game.undo(game_id).status_code == 303
    assert game.view(game_id).can_redo
    game.do(game_id, second)
    view = game.view(game_id)
    assert not view.can_redo
    assert game.redo(game_id).status_code == 422
    assert game.events(game_id) == [(1, False, codec.encode(second))]


def test_the_undo_button_takes_back_the_rival_turns_too(game, client):
    game_id = game.new_solo()
    before = game.state(game_id)
    body = game.page(game_id)
    client.post(**_form_post(pages.action_forms(body, action="place")[0]))
    assert len(game.state(game_id).occupants) > len(before.occupants) + 1  # rivals moved too
    undo = next(f for f in pages.forms(game.page(game_id)) if f.action.endswith("/undo"))
    assert client.post(undo.action, data=undo.fields).status_code == 303
    assert game.state(game_id) == before


def _form_post(form: pages.Form) -> dict[str, Any]:
    return {"path": form.action, "data": form.fields}


# -- delete ----------------------------------------------------------------------------


def test_delete_removes_the_game_and_its_events(game, client):
    keep = game.new_2p()
    game_id = game.new_solo()
    game.do(game_id, game.legal(game_id)[0])
    game.do(keep, game.legal(keep)[0])
    response = game.delete(game_id)
    assert response.status_code == 303
    assert response.headers["Location"] == "/"
    assert client.get(f"/games/{game_id}").status_code == 404
    assert game.events(game_id) == []
    home = client.get("/").get_data(as_text=True)
    assert f'href="/games/{game_id}"' not in home
    assert f'href="/games/{keep}"' in home
    assert game.event_count(keep) == 1
    assert game.delete(game_id).status_code == 404


def test_the_home_pages_delete_asks_first_then_deletes_through_its_form(game, client):
    """Deleting can't be undone: the home page's Delete opens a page that names the game,
    changes nothing, and offers the form that deletes it, or a way back."""
    keep = game.new_2p()
    game_id = game.new_solo(p1_name="Ann")
    game.do(game_id, game.legal(game_id)[0])
    home = client.get("/").get_data(as_text=True)
    links = [url for tag, attr, url in pages.urls(home) if url.endswith("/delete")]
    assert links == [f"/games/{game_id}/delete", f"/games/{keep}/delete"]  # newest first
    ask = client.get(links[0])
    assert ask.status_code == 200
    body = ask.get_data(as_text=True)
    assert "Ann vs" in body and "can't bring it back" in body
    assert game.event_count(game_id) == 1  # asking changed nothing
    (form,) = pages.action_forms(body)
    assert form.action == f"/games/{game_id}/delete" and not form.htmx
    assert ("a", "href", "/") in pages.urls(body)  # "Keep it"
    done = client.post(form.action, data=form.fields)
    assert done.status_code == 303 and done.headers["Location"] == "/"
    assert client.get(f"/games/{game_id}").status_code == 404
    assert client.get(links[0]).status_code == 404  # the question for a deleted game
    assert game.event_count(keep) == 0 and client.get(f"/games/{keep}").status_code == 200


def test_a_new_game_that_reuses_a_deleted_id_shows_its_own_page(game, client):
    old = game.new_solo(p1_name="Ann")
    assert "Ann" in game.page(old)  # rendered and cached at version 0
    assert game.delete(old).status_code == 303
    # Ids are never reused, but a backup restored can give one again (games made after
    # the backup): the id sequence goes back.
    give_id_again(game.app, old)
    new = game.new_2p(p1_name="Zed", p2_name="Yul")
    assert new == old
    body = game.page(new)
    assert "Zed" in body and "Ann" not in body


# -- a whole round through HTTP --------------------------------------------------------


def next_form(body: str) -> tuple[str, pages.Form]:
    """What a player at the table taps next: the prompt, a free space, or Reveal."""
    for form in pages.forms(body):
        if "data-numpad" in form.attrs:
            return "number", form
    choices = pages.action_forms(body, action="choose")
    if choices:
        return "option", choices[0]
    places = pages.action_forms(body, action="place")
    if places:
        return "place", places[0]
    reveals = pages.action_forms(body, action="reveal")
    assert reveals, "the table screen offers nothing to do"
    return "reveal", reveals[0]


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_full_solo_round_ends_in_combat_with_a_typed_strength(game, client, htmx):
    game_id = game.new_solo("mentat")
    body = game.page(game_id)
    steps: list[str] = []
    for _ in range(40):
        if game.state(game_id).round >= 2:
            break
        kind, form = next_form(body)
        data = dict(form.fields)
        if kind == "number":
            assert game.state(game_id).phase == "combat"
            data["option"] = "9"  # typed on the number pad
        steps.append(kind)
        if htmx:
            response = client.post(form.attrs["hx-post"], data=data, headers=HX)
            assert response.status_code == 200, response.get_data(as_text=True)
            body = response.get_data(as_text=True)
            assert "<html" not in body
        else:
            response = client.post(form.action, data=data)
            assert response.status_code == 303
            body = client.get(response.headers["Location"]).get_data(as_text=True)
        assert pages.version(body) == game.version(game_id) == len(steps)
    state = game.state(game_id)
    assert state.round == 2, steps
    assert "place" in steps and "reveal" in steps and "number" in steps
    assert any(e.kind == "strength" and e.data == {"strength": 9} for e in state.log)
    assert state.conflicts_done  # the Conflict was fought and discarded
    assert game.state(game_id, fresh=True) == state


# -- CSRF ------------------------------------------------------------------------------


def test_a_post_without_the_csrf_token_is_400_with_a_readable_message(csrf_game, csrf_client):
    response = csrf_client.post("/games", data=SOLO_FORM)
    body = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "This page expired" in body and "reload it" in body
    assert csrf_game.game_count() == 0


def test_an_action_without_the_csrf_token_is_400_and_nothing_changes(csrf_game, csrf_client):
    page = csrf_client.get("/games/new").get_data(as_text=True)
    token = pages.csrf_meta(page)
    game_id = csrf_game.create(SOLO_FORM | {"csrf_token": token})
    before = csrf_game.snapshot(game_id)
    for headers in ({}, HX, {**HX, "X-CSRFToken": "forged"}):
        response = csrf_client.post(
            f"/games/{game_id}/actions",
            data={"version": "0", "action": "reveal", "house": "p1"},
            headers=headers,
        )
        assert response.status_code == 400
        assert "This page expired" in response.get_data(as_text=True)
    assert csrf_client.post(f"/games/{game_id}/undo", data={"version": "0"}).status_code == 400
    assert csrf_client.post(f"/games/{game_id}/delete").status_code == 400
    assert csrf_game.snapshot(game_id) == before


def test_the_hidden_token_of_the_new_game_form_works(csrf_game, csrf_client):
    page = csrf_client.get("/games/new").get_data(as_text=True)
    form = next(f for f in pages.forms(page) if f.action == "/games")
    assert form.fields["csrf_token"]
    response = csrf_client.post("/games", data=form.fields)
    assert response.status_code == 303
    assert csrf_game.game_count() == 1


def test_a_table_form_posted_as_rendered_passes_csrf(csrf_game, csrf_client):
    token = pages.csrf_meta(csrf_client.get("/games/new").get_data(as_text=True))
    game_id = csrf_game.create(SOLO_FORM | {"csrf_token": token})
    body = csrf_client.get(f"/games/{game_id}").get_data(as_text=True)
    form = pages.action_forms(body, action="place")[0]
    assert csrf_client.post(form.action, data=form.fields).status_code == 303
    assert csrf_game.version(game_id) == 1


def test_htmx_sends_the_token_in_the_x_csrftoken_header(csrf_game, csrf_client):
    token = pages.csrf_meta(csrf_client.get("/games/new").get_data(as_text=True))
    game_id = csrf_game.create(SOLO_FORM | {"csrf_token": token})
    body = csrf_client.get(f"/games/{game_id}").get_data(as_text=True)
    meta = pages.csrf_meta(body)
    assert f'"X-CSRFToken": "{meta}"' in html.unescape(body)  # hx-headers on <body>
    form = pages.action_forms(body, action="place")[0]
    data = {k: v for k, v in form.fields.items() if k != "csrf_token"}
    response = csrf_client.post(
        form.attrs["hx-post"], data=data, headers={**HX, "X-CSRFToken": meta}
    )
    assert response.status_code == 200
    assert pages.version(response.get_data(as_text=True)) == 1
    undo = {"version": "1", "created": form.fields["created"]}
    response = csrf_client.post(
        f"/games/{game_id}/undo", data=undo, headers={**HX, "X-CSRFToken": meta}
    )
    assert response.status_code == 200
    assert csrf_game.version(game_id) == 2


def test_each_session_gets_its_own_token_in_the_same_cached_page(csrf_game, csrf_app):
    tablet, phone = csrf_app.test_client(), csrf_app.test_client()
    token = pages.csrf_meta(tablet.get("/games/new").get_data(as_text=True))
    csrf_game.client = tablet
    game_id = csrf_game.create(SOLO_FORM | {"csrf_token": token})
    tablet_page = tablet.get(f"/games/{game_id}").get_data(as_text=True)
    phone_page = phone.get(f"/games/{game_id}").get_data(as_text=True)
    tablet_token, phone_token = pages.csrf_meta(tablet_page), pages.csrf_meta(phone_page)
    assert tablet_token != phone_token
    assert "\x00" not in tablet_page + phone_page  # no placeholder left behind
    for body, token in ((tablet_page, tablet_token), (phone_page, phone_token)):
        tokens = {f.fields.get("csrf_token") for f in pages.forms(body) if f.method == "post"}
        assert tokens == {token}
    form = pages.action_forms(phone_page, action="place")[0]
    # The phone's own token passes CSRF; the tablet's token is not the phone's.
    forged = form.fields | {"csrf_token": tablet_token}
    assert phone.post(form.action, data=forged).status_code == 400
    assert phone.post(form.action, data=form.fields).status_code == 303


def test_a_token_stays_valid_all_night_without_a_time_limit(csrf_game, csrf_app, monkeypatch):
    """create_app sets no time limit (a game night lasts longer than an hour): a page left
    open for a day still posts."""
    assert csrf_app.config["WTF_CSRF_TIME_LIMIT"] is None
    clock = [1_800_000_000]
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: clock[0])
    tablet = csrf_app.test_client()
    token = pages.csrf_meta(tablet.get("/games/new").get_data(as_text=True))
    csrf_game.client = tablet
    game_id = csrf_game.create(SOLO_FORM | {"csrf_token": token})
    page = tablet.get(f"/games/{game_id}").get_data(as_text=True)
    form = pages.action_forms(page, action="place")[0]
    clock[0] += 86_400  # a day later, the page's token still passes
    response = tablet.post(form.attrs["hx-post"], data=form.fields, headers=HX)
    assert response.status_code == 200
    # and a token from the first page too
    answer = tablet.get(f"/games/{game_id}").get_data(as_text=True)
    form = pages.action_forms(answer, action="reveal")[0]
    response = tablet.post(form.attrs["hx-post"], data={**form.fields, "csrf_token": token})
    assert response.status_code == 303


def test_with_a_time_limit_each_answer_gets_a_newly_signed_token(csrf_app, monkeypatch):
    csrf_app.config["WTF_CSRF_TIME_LIMIT"] = 3600
    clock = [1_800_000_000]
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: clock[0])
    client = csrf_app.test_client()
    first = pages.csrf_meta(client.get("/games/new").get_data(as_text=True))
    clock[0] += 60
    second = pages.csrf_meta(client.get("/games/new").get_data(as_text=True))
    assert first != second  # signed at its own time, as Flask-WTF does
    clock[0] += 3600  # the first one is now too old; the second is not
    form = {**SOLO_FORM}
    assert client.post("/games", data=form | {"csrf_token": first}).status_code == 400
    assert client.post("/games", data=form | {"csrf_token": second}).status_code == 303


def test_a_token_of_another_session_or_forged_is_refused(csrf_game, csrf_app):
    tablet, phone = csrf_app.test_client(), csrf_app.test_client()
    token = pages.csrf_meta(tablet.get("/games/new").get_data(as_text=True))
    phone_token = pages.csrf_meta(phone.get("/games/new").get_data(as_text=True))
    assert tablet.post("/games", data=SOLO_FORM | {"csrf_token": token}).status_code == 303
    headers = {**HX, "X-CSRFToken": token}
    assert tablet.post("/games", data=SOLO_FORM, headers=headers).status_code == 303
    forged = token[:-5] + ("x" if token[-5] != "x" else "y") + token[-4:]  # signature changed
    for other in (phone_token, forged, "é" * 12, ""):
        response = tablet.post("/games", data=SOLO_FORM | {"csrf_token": other})
        assert response.status_code == 400, other
    assert csrf_game.game_count() == 2


def test_over_https_every_token_is_checked_with_the_referrer(csrf_game, csrf_app):
    client = csrf_app.test_client()
    https = {"base_url": "https://table.local"}
    token = pages.csrf_meta(client.get("/games/new", **https).get_data(as_text=True))
    form = SOLO_FORM | {"csrf_token": token}
    response = client.post("/games", data=form, **https)
    assert response.status_code == 400  # Flask-WTF: the referrer header is missing
    assert "Referer header" in response.get_data(as_text=True)  # not "This page expired"
    referred = {"Referer": "https://table.local/games/new"}
    assert client.post("/games", data=form, headers=referred, **https).status_code == 303


def test_gets_never_need_a_token(csrf_game, csrf_client):
    token = pages.csrf_meta(csrf_client.get("/games/new").get_data(as_text=True))
    game_id = csrf_game.create(SOLO_FORM | {"csrf_token": token})
    for path in PAGES:
        assert csrf_client.get(path.format(id=game_id)).status_code == 200


# -- the live view ---------------------------------------------------------------------


def test_the_live_page_polls_the_board_with_its_version(game, client):
    game_id = game.new_solo()
    body = client.get(f"/games/{game_id}/live").get_data(as_text=True)
    assert 'id="live-standings"' not in body  # only once the game is over
    # static/follow.js polls data-poll with ?v= the version #live shows
    assert f'<meta name="follow" data-poll="/games/{game_id}/live/board" data-get=""' in body
    assert '<div id="live" class="live" data-version="0">' in body
    assert not pages.action_forms(body)  # read only


def test_the_live_board_answers_empty_while_nothing_changed(game, client):
    """Empty and 200, not 204: waitress closes the connection after a 204."""
    game_id = game.new_solo()
    response = client.get(f"/games/{game_id}/live/board?v=0", headers=HX)
    assert response.status_code == 200
    assert response.data == b""
    assert response.headers["Content-Length"] == "0"
    assert response.headers["HX-Reswap"] == "none"
    assert "HX-Request" in response.vary

    game.do(game_id, game.legal(game_id)[0])
    response = client.get(f"/games/{game_id}/live/board?v=0", headers=HX)
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" not in body and body.lstrip().startswith('<div id="live"')
    assert pages.version(body) == 1
    assert client.get(f"/games/{game_id}/live/board?v=1", headers=HX).data == b""


@pytest.mark.parametrize("query", ["", "?v=", "?v=abc", "?v=-1", "?v=1&v=0", "?v=" + "9" * 400])
def test_the_live_board_sends_the_board_for_any_other_version(game, client, query):
    game_id = game.new_solo()
    response = client.get(f"/games/{game_id}/live/board{query}", headers=HX)
    assert response.status_code == 200
    assert pages.version(response.get_data(as_text=True)) == 0


# -- nothing from another host ---------------------------------------------------------

ALLOWED_SOURCES = {"'self'", "'none'", "'unsafe-inline'", "data:"}


def csp(response) -> dict[str, list[str]]:
    policy = response.headers["Content-Security-Policy"]
    directives = [d.split() for d in policy.split(";") if d.strip()]
    return {d[0]: d[1:] for d in directives}


def _pages_of_every_kind(game: GameActions, client) -> dict[str, str]:
    solo = game.new_solo()
    two = game.new_2p()
    play_to(game, solo, at_strength_prompt)
    bodies = {
        "home": client.get("/"),
        "new": client.get("/games/new"),
        "new (422)": client.post("/games", data={"mode": "solo"}),
        "setup solo": client.get(f"/games/{solo}/setup"),
        "setup 2p": client.get(f"/games/{two}/setup"),
        "table (prompt)": client.get(f"/games/{solo}"),
        "table fragment": client.get(f"/games/{solo}", headers=HX),
        "table 2p": client.get(f"/games/{two}"),
        "table 422": game.act(solo, action="choose", option="x"),
        "live": client.get(f"/games/{two}/live"),
        "live board": client.get(f"/games/{two}/live/board"),
        "404": client.get(f"/games/{MISSING}"),
        "404 route": client.get("/nowhere"),
        "405": client.get(f"/games/{solo}/actions"),
    }
    for name, response in bodies.items():
        assert response.status_code < 500, name
    return {name: r.get_data(as_text=True) for name, r in bodies.items()}


def test_the_csp_header_forbids_other_hosts(game, client):
    game_id = game.new_solo()
    for path in [*PAGES, f"/games/{MISSING}", "/static/app.js"]:
        with client.get(path.format(id=game_id)) as response:
            pass
        policy = csp(response)
        assert policy["default-src"] == ["'self'"], path
        assert policy["script-src"] == ["'self'"], path  # no inline script, no eval
        assert policy["connect-src"] == ["'self'"], path
        assert policy["frame-ancestors"] == ["'none'"], path
        for directive, sources in policy.items():
            assert set(sources) <= ALLOWED_SOURCES, (directive, sources)
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def _is_local(url: str) -> bool:
    parts = urlsplit(url.strip())
    return (not parts.scheme and not parts.netloc) or parts.scheme in ("data", "mailto")


def test_no_page_references_another_host(game, client):
    seen_static: set[str] = set()
    for name, body in _pages_of_every_kind(game, client).items():
        assert not re.search(r"(?<![\w/])//[a-z0-9.-]+\.[a-z]{2,}", body, re.I), name
        assert not re.search(r"url\(\s*['\"]?(https?:)?//", body, re.I), name
        for tag, attribute, url in pages.urls(body):
            assert _is_local(url), (name, tag, attribute, url)
            if url.startswith("/static/"):
                seen_static.add(url)
    assert any("/static/vendor/htmx-2." in u for u in seen_static)
    for url in sorted(seen_static):
        path = url.partition("?")[0]  # without the content hash (companion/web/assets.py)
        with client.get(url) as response:
            assert response.status_code == 200, url
            text = response.get_data(as_text=True) if path.endswith((".css", ".js")) else ""
        if path.endswith((".css", ".js")) and "/vendor/" not in path:
            assert not re.search(r"https?://", text), url
            assert not re.search(r"url\(\s*['\"]?//|@import", text), url


def test_the_htmx_config_swaps_409_and_422(client):
    """htmx 2 swaps no 4xx by default: the page must opt 409 and 422 in (STYLE.md §2.5)."""
    body = client.get("/").get_data(as_text=True)
    config = pages.parse(body).metas["htmx-config"]
    assert '"code": "409", "swap": true' in config
    assert '"code": "422", "swap": true' in config


def test_the_session_cookie_stays_on_this_site(csrf_client):
    """Issue 17, finding 13: SameSite=Lax, so another site's form can't post with it."""
    response = csrf_client.get("/games/new")
    cookie = response.headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie

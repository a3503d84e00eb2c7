"""Four devices at one table (issue 29): the table screen's htmx answer is made once per
game version and shared (companion/web/answers.py). A device whose tap came too late, or
that follows the game, sees the game as it is now, never a screen of an older version,
in its own language, with its own session's CSRF token, and exactly what rendering the
screen for that request gives. A late tap of a screen that showed the version the
applied tap was made on gets what that tap got: only what changed, swapped in."""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jinja2_fragments.flask import render_block, render_blocks

from companion import services
from companion.rules.actions import PlaceAgent
from companion.web import answers as answers_module
from companion.web import table as table_screen
from companion.web.answers import CSRF_MARK, ERROR_MARK, Answers, filled
from tests.web import pages
from tests.web.conftest import HX, SOLO_FORM, GameActions
from tests.web.test_table_parts import same_screen

STALE = "The game changed on another screen (or you tapped twice): here it is now."
CSRF_VALUE = re.compile(r'(name="csrf_token" value=")[^"]*(")')


def rendered_now(app: Flask, game_id: int, error: str | None, score: bool = True) -> str:
    """The htmx answer as rendering it for this request gives (no sharing), CSRF tokens
    left out."""
    with app.test_request_context(headers=HX):
        view = services.load(game_id, app.extensions["catalog"])
        context = table_screen.table_context(view, error, log=False, score=score)
        context["clock_cells"] = ()
        blocks = ["game", "scoreboard_oob"] if score else ["game"]
        return without_tokens(render_blocks(table_screen.TABLE, blocks, **context))


def without_tokens(html: str) -> str:
    return CSRF_VALUE.sub(r"\1\2", html)


def places(game: GameActions, game_id: int) -> list[dict[str, str]]:
    actions = [a for a in game.legal(game_id) if isinstance(a, PlaceAgent)]
    return [pages.form_for(a) for a in actions]


def tap(client: FlaskClient, game_id: int, fields: dict[str, str], version: int, stamp: str):
    data = fields | {"version": str(version), "created": stamp}
    return client.post(f"/games/{game_id}/actions", data=data, headers=HX)


def can_place(body: str, space: str) -> bool:
    return bool(pages.action_forms(body, action="place", space=space))


def test_stale_devices_see_each_new_version_never_an_older_one(game: GameActions) -> None:
    game_id = game.new_solo()
    stamp = game.stamp(game_id)
    devices = [game.app.test_client() for _ in range(4)]
    shown = [d.get(f"/games/{game_id}", headers=HX).get_data(as_text=True) for d in devices]
    first, second = places(game, game_id)[:2]
    mine = first["space"]
    # All four tap at version 0: the first is applied, the three others get version 1,
    # as the answer to the first gave it: what changed, swapped into their screens.
    answer = tap(devices[0], game_id, first, 0, stamp)
    assert answer.status_code == 200 and pages.version(answer.get_data(as_text=True)) == 1
    for device, screen in zip(devices[1:], shown[1:], strict=True):
        stale = tap(device, game_id, second, 0, stamp)
        body = stale.get_data(as_text=True)
        assert stale.status_code == 409 and stale.headers["HX-Retarget"] == "#banner"
        assert pages.version(body) == 1 and not can_place(body, mine) and STALE in body
        assert 'id="game"' not in body  # only what changed
        now = same_screen(rendered_now(game.app, game_id, STALE))
        assert same_screen(pages.tapped(screen, body)) == now
    assert game.event_count(game_id) == 1
    # Undo on the first device: a following screen's fetch and a tap made from the
    # version-1 screen both get version 2, where the space is free again.
    assert game.undo(game_id, htmx=True, version=1).status_code == 200
    followed = devices[1].get(f"/games/{game_id}", headers=HX).get_data(as_text=True)
    assert pages.version(followed) == 2 and can_place(followed, mine)
    assert STALE not in followed and 'id="error"' not in followed
    assert without_tokens(followed) == rendered_now(game.app, game_id, None)
    late = tap(devices[2], game_id, second, 1, stamp)
    body = late.get_data(as_text=True)
    assert late.status_code == 409 and pages.version(body) == 2 and can_place(body, mine)
    # A device taps from its fresh screen: applied; the others' old screens get version 3.
    applied = tap(devices[3], game_id, second, 2, stamp)
    assert applied.status_code == 200
    for device in devices[:3]:
        body = tap(device, game_id, first, 2, stamp).get_data(as_text=True)
        assert pages.version(body) == 3 and not can_place(body, second["space"])
    assert game.event_count(game_id) == 1  # the new tap dropped the undone one
    occupants = game.state(game_id).occupants
    assert occupants.get(second["space"]) == "p1" and mine not in occupants


def test_the_tap_that_made_a_version_and_the_stale_ones_share_one_render(
    game: GameActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = game.new_solo()
    stamp = game.stamp(game_id)
    first, second = places(game, game_id)[:2]
    made: list[tuple[str, int]] = []

    def counted(template: str, block: str, **context: object) -> str:
        if block in ("game", "changed"):
            made.append((block, context["version"]))  # type: ignore[arg-type]
        return render_block(template, block, **context)

    monkeypatch.setattr(table_screen, "render_block", counted)
    devices = [game.app.test_client() for _ in range(4)]
    assert tap(devices[0], game_id, first, 0, stamp).status_code == 200
    assert [tap(d, game_id, second, 0, stamp).status_code for d in devices[1:]] == [409] * 3
    for device in devices:
        assert device.get(f"/games/{game_id}", headers=HX).status_code == 200
    # The applied tap's answer (what changed) served the three late taps too; the
    # following screens' fetches are one render of the whole game area.
    assert made == [("changed", 1), ("game", 1)]


def test_a_late_tap_of_an_older_screen_gets_the_whole_game_area(game: GameActions) -> None:
    """What changed since the version the applied tap was made on is no answer for a
    screen that showed an earlier one: it gets the whole game area as it is now."""
    game_id = game.new_solo()
    stamp = game.stamp(game_id)
    first, second = places(game, game_id)[:2]
    assert tap(game.client, game_id, first, 0, stamp).status_code == 200
    assert game.undo(game_id, htmx=True, version=1).status_code == 200
    late = game.app.test_client()
    body = tap(late, game_id, second, 0, stamp).get_data(as_text=True)
    assert pages.version(body) == 2 and 'id="game"' in body and STALE in body
    assert without_tokens(body) == rendered_now(game.app, game_id, STALE)


def test_a_refusal_shows_its_own_message_on_the_shared_screen(game: GameActions) -> None:
    game_id = game.new_solo()
    first = places(game, game_id)[0]
    game.act_form(game_id, first, htmx=True)
    taken = game.act_form(game_id, first | {"house": "p1"}, htmx=True)
    body = taken.get_data(as_text=True)
    assert taken.status_code == 422
    message = re.search(r'id="error">([^<]*)</p>', body)
    assert message and message.group(1) and STALE not in body
    expected = rendered_now(game.app, game_id, None).replace(
        '<div class="question" id="question">\n',
        f'<div class="question" id="question">\n<p class="error alerts" '
        f'role="alert" id="error">{message.group(1)}</p>',
        1,
    )
    assert without_tokens(body) == expected


def test_each_device_gets_its_own_token_and_its_own_language(
    csrf_game: GameActions, csrf_app: Flask
) -> None:
    tablet, phone, polish = (csrf_app.test_client() for _ in range(3))
    polish.set_cookie("lang", "pl")
    token = pages.csrf_meta(tablet.get("/games/new").get_data(as_text=True))
    csrf_game.client = tablet
    game_id = csrf_game.create(SOLO_FORM | {"csrf_token": token})
    stamp = csrf_game.stamp(game_id)
    first, second = places(csrf_game, game_id)[:2]
    pages_of = {c: c.get(f"/games/{game_id}").get_data(as_text=True) for c in (phone, polish)}
    applied = tablet.post(
        f"/games/{game_id}/actions",
        data=first | {"version": "0", "created": stamp, "csrf_token": token},
        headers=HX,
    )
    assert applied.status_code == 200
    answers = {}
    for client, page in pages_of.items():
        own = pages.csrf_meta(page)
        stale = client.post(
            f"/games/{game_id}/actions",
            data=second | {"version": "0", "created": stamp},
            headers={**HX, "X-CSRFToken": own},
        )
        body = stale.get_data(as_text=True)
        assert stale.status_code == 409 and pages.version(body) == 1
        assert CSRF_MARK not in body and ERROR_MARK not in body
        tokens = {f.fields["csrf_token"] for f in pages.forms(body) if f.method == "post"}
        assert len(tokens) == 1 and tokens != {token}
        assert (STALE in body) is (client is phone)
        answers[client] = body
    assert "Gra zmieniła się na innym ekranie" in answers[polish]
    assert "Dziennik gry" in answers[polish] and "Game log" not in answers[polish]
    assert "Game log" in answers[phone]
    # The token in each shared answer is that device's: its next tap (no header) passes.
    for client, body in answers.items():
        form = pages.action_forms(body, action="place")[0]
        assert client.post(form.action, data=form.fields, headers=HX).status_code in (200, 409)


# -- the store of answers ---------------------------------------------------------------


def test_an_answer_is_made_once_while_other_requests_wait_for_it() -> None:
    answers = Answers[str]()
    inside, release = threading.Event(), threading.Event()
    calls: list[str] = []

    def slow() -> str:
        calls.append("first")
        inside.set()
        release.wait(10)
        return "made once"

    def other() -> str:
        calls.append("other")
        return "made twice"

    got: list[str] = []
    first = threading.Thread(target=lambda: got.append(answers.answer((1, "a"), 3, "en", slow)))
    first.start()
    inside.wait(10)
    waiting = [
        threading.Thread(target=lambda: got.append(answers.answer((1, "a"), 3, "en", other)))
        for _ in range(3)
    ]
    for thread in waiting:
        thread.start()
    release.set()
    for thread in (first, *waiting):
        thread.join(10)
    assert calls == ["first"] and got == ["made once"] * 4


def test_a_stale_tap_waits_for_the_applied_taps_answer_being_made_and_only_then() -> None:
    """A stale tap that comes while the tap that made the version renders its answer
    waits for that answer (web/table.py); with none being made it does not wait."""
    answers = Answers[str | None]()
    game = (1, "a")
    assert answers.wait(game, 2, "since 1") is None  # nothing made, nothing waited for
    inside, release = threading.Event(), threading.Event()

    def rendering() -> str:
        inside.set()
        release.wait(10)
        return "what changed"

    applied = threading.Thread(target=lambda: answers.answer(game, 2, "since 1", rendering))
    applied.start()
    inside.wait(10)
    got: list[str | None] = []
    stale = threading.Thread(target=lambda: got.append(answers.wait(game, 2, "since 1")))
    stale.start()
    stale.join(0.2)
    assert stale.is_alive() and got == []  # waiting, not rendering on its own
    release.set()
    stale.join(10)
    applied.join(10)
    assert got == ["what changed"]
    assert answers.wait(game, 2, "since 0") is None  # another screen version's: none


def test_a_failed_render_is_not_kept_and_the_waiting_ones_render_themselves() -> None:
    answers = Answers[str]()

    def failing() -> str:
        raise RuntimeError("template broke")

    with pytest.raises(RuntimeError):
        answers.answer((1, "a"), 1, "en", failing)
    assert answers.answer((1, "a"), 1, "en", lambda: "fine") == "fine"


def test_a_new_version_replaces_the_old_ones_answers() -> None:
    answers = Answers[str](games=2, per_version=2)
    game = (7, "2026-11-28T10:00:00")
    answers.put(game, 1, "en", "v1")
    assert answers.get(game, 1, "en") == "v1"
    answers.put(game, 2, "en", "v2")
    assert answers.get(game, 1, "en") is None and answers.get(game, 2, "en") == "v2"
    answers.put(game, 1, "pl", "late v1")  # a slow request of the older version
    assert answers.get(game, 1, "pl") is None and answers.get(game, 2, "en") == "v2"
    answers.put(game, 2, "pl", "v2 pl")
    answers.put(game, 2, "ja", "v2 ja")  # over the bound: rendered, not kept
    assert answers.get(game, 2, "pl") == "v2 pl" and answers.get(game, 2, "ja") is None
    # Another game with the same id (deleted, its id used again) shares nothing.
    assert answers.get((7, "2026-11-28T11:00:00"), 2, "en") is None
    answers.put((8, "x"), 1, "en", "8")
    answers.put((9, "x"), 1, "en", "9")  # the least recently used game is dropped
    assert answers.get(game, 2, "en") is None


def test_filled_puts_in_the_token_and_the_message_or_leaves_the_element_out() -> None:
    html = (
        f'<main><div class="question">\n<p class="error alerts" id="error">{ERROR_MARK}</p>\n'
        f'<input name="csrf_token" value="{CSRF_MARK}"><input value="{CSRF_MARK}"></main>'
    )
    asked: list[int] = []

    def token() -> str:
        asked.append(1)
        return "tok"

    assert filled(html, token, "It's <late>") == (
        '<main><div class="question">\n<p class="error alerts" id="error">It&#39;s &lt;late&gt;'
        '</p>\n<input name="csrf_token" value="tok"><input value="tok"></main>'
    )
    assert filled(html, token, None) == (
        '<main><div class="question">\n\n<input name="csrf_token" value="tok">'
        '<input value="tok"></main>'
    )
    assert filled("<p>no form</p>", token, None) == "<p>no form</p>" and len(asked) == 2
    assert answers_module.CSRF_MARK.isalnum() and answers_module.ERROR_MARK.isalnum()


def test_a_running_turn_clock_is_shown_as_of_each_request(
    game: GameActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = game.new_2p(turn_clock="on")
    first = next(a for a in game.legal(game_id) if isinstance(a, PlaceAgent))
    game.do(game_id, first)
    now = datetime.now(UTC).replace(tzinfo=None)
    shown = []
    for later in (5, 47):
        monkeypatch.setattr(table_screen, "utc_now", lambda s=later: now + timedelta(seconds=s))
        body = game.client.get(f"/games/{game_id}", headers=HX).get_data(as_text=True)
        shown.append(re.findall(r'data-clock-now="(\d+)"', body))
    assert shown[0] and shown[1] and shown[0] != shown[1]

"""Which language a page is shown in: the menu's cookie, then Accept-Language, then English."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import get_translations

from companion.rules.actions import IllegalAction
from companion.rules.engine import new_game
from companion.rules.state import Entry
from companion.sim import make_setup
from companion.web.language import refusal
from companion.web.locales import COOKIE, LANGUAGES, TRANSLATIONS, compile_catalogs, locale_for_tag
from companion.web.present.story import sentence
from tests.web.conftest import SOLO_FORM


def html_lang(client: FlaskClient, **headers: str) -> str:
    page = client.get("/", headers=headers).get_data(as_text=True)
    found = re.search(r'<html lang="([^"]+)"', page)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(
    ("tag", "locale"),
    [
        ("zh-CN", "zh_Hans"),
        ("zh-SG", "zh_Hans"),
        ("zh-Hans-CN", "zh_Hans"),
        ("zh", "zh_Hans"),
        ("zh-TW", "zh_Hant"),
        ("zh-HK", "zh_Hant"),
        ("zh-Hant-HK", "zh_Hant"),
        ("pl-PL", "pl"),
        ("ja", "ja"),
        ("ko-KR", "ko"),
        ("en-GB", "en"),
        ("de-DE", None),
        ("", None),
    ],
)
def test_browser_tags_map_to_catalogs(tag: str, locale: str | None) -> None:
    assert locale_for_tag(tag) == locale


@pytest.mark.parametrize(
    ("accept", "lang"),
    [
        ("ja", "ja"),
        ("zh-CN,zh;q=0.9", "zh-Hans"),
        ("zh-TW", "zh-Hant"),
        ("ko-KR,ko;q=0.9,en;q=0.5", "ko"),
        ("pl", "pl"),
        ("de-DE,fr;q=0.8", "en"),  # none of ours: English
        ("de-DE,pl;q=0.5", "pl"),  # the first one we have
    ],
)
def test_accept_language_picks_the_page_language(
    client: FlaskClient, accept: str, lang: str
) -> None:
    assert html_lang(client, **{"Accept-Language": accept}) == lang


def test_no_accept_language_is_english(client: FlaskClient) -> None:
    assert html_lang(client) == "en"


def test_the_menu_choice_wins_over_the_browser_and_returns_to_the_page(
    client: FlaskClient,
) -> None:
    answer = client.get("/language/pl?next=/cards?q=spice")
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/cards?q=spice"
    assert html_lang(client, **{"Accept-Language": "ja"}) == "pl"
    page = client.get("/", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert "Nowa gra" in page  # "New game" in Polish


def test_each_device_follows_its_own_choice(client: FlaskClient) -> None:
    client.get("/language/ko")
    other = client.application.test_client()  # the live view on a TV
    assert html_lang(client) == "ko"
    assert html_lang(other, **{"Accept-Language": "zh-TW"}) == "zh-Hant"


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "", "x"])
def test_the_menu_never_leaves_this_server(client: FlaskClient, target: str) -> None:
    answer = client.get("/language/ja", query_string={"next": target})
    assert answer.headers["Location"] == "/"


def test_an_unknown_language_is_refused_and_changes_nothing(client: FlaskClient) -> None:
    answer = client.get("/language/xx?next=/")
    assert answer.status_code == 404
    assert "no such language" in answer.get_data(as_text=True)
    assert COOKIE not in answer.headers.get("Set-Cookie", "")
    assert html_lang(client) == "en"


def test_the_menu_lists_every_language_in_its_own_name(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    for language in LANGUAGES:
        assert f'lang="{language.html_lang}"' in page
        assert language.name in page


def test_pages_vary_on_language(client: FlaskClient) -> None:
    vary = client.get("/").headers["Vary"]
    assert "Accept-Language" in vary
    assert "Cookie" in vary


def test_stale_catalogs_are_compiled(tmp_path: Path) -> None:
    root = tmp_path
    shutil.copytree(TRANSLATIONS / "pl", root / "pl")
    (root / "pl" / "LC_MESSAGES" / "messages.mo").unlink(missing_ok=True)
    assert [p.parent.parent.name for p in compile_catalogs(root)] == ["pl"]
    assert compile_catalogs(root) == []  # up to date: nothing to do


def test_a_refused_action_is_told_in_the_readers_language(client: FlaskClient) -> None:
    """The engine's refusal (N_-marked, filled in after translation) reaches ja and pl."""
    created = client.post("/games", data=SOLO_FORM)
    assert created.status_code == 303
    game_url = created.headers["Location"].removesuffix("/setup")
    page = client.get(game_url).get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', page)
    stamp = re.search(r'name="created" value="([^"]+)"', page)
    assert version is not None and stamp is not None
    for lang, words in (("ja", "元に戻す操作がありません。"), ("pl", "Nie ma czego cofnąć.")):
        answer = client.post(
            f"{game_url}/undo",
            data={"version": version.group(1), "created": stamp.group(1)},
            headers={"Accept-Language": lang},
        )
        assert answer.status_code == 422
        assert words in answer.get_data(as_text=True)


def test_a_refusal_with_values_fills_them_in_after_translating(app: Flask) -> None:
    exc = IllegalAction("Enter a number from %(lo)s to %(hi)s.", lo=0, hi=20)
    assert str(exc) == "Enter a number from 0 to 20."  # English for logs and tests
    with app.test_request_context("/", headers={"Accept-Language": "ko"}):
        assert refusal(exc) == "0부터 20까지의 수를 입력하세요."


def test_why_a_space_is_greyed_is_told_in_the_readers_language(client: FlaskClient) -> None:
    """Sietch Tabr needs 2 Fremen Influence [RB p.9]: the reason and the Faction's name
    are both translated."""
    game_url = client.post("/games", data=SOLO_FORM).headers["Location"].removesuffix("/setup")
    expected = {
        "pl": "Wymaga 2 pkt wpływu u frakcji Fremeni.",
        "ja": "フレイメンへの影響力2以上が必要です。",
        "zh-TW": "需要2點弗瑞曼人影響力。",
    }
    for lang, words in expected.items():
        page = client.get(game_url, headers={"Accept-Language": lang}).get_data(as_text=True)
        assert words in page


def test_the_logs_inner_words_are_translated_too(app: Flask) -> None:
    """A House Hagal card skipped [HAGAL §3]: the reason inside the sentence is translated."""
    catalog = app.extensions["catalog"]
    state = new_game(make_setup(catalog, "solo", "mentat", seed=1), catalog)
    rival = state.houses[1].id
    skip = Entry(1, 1, "hagal_skip", rival, {"card": "arrakeen", "reason": "occupied"})
    with app.test_request_context("/", headers={"Accept-Language": "pl"}):
        line = sentence(skip, state, get_translations())
    assert "pole jest zajęte" in line  # "the space is taken"
    assert "odkryj kolejną kartę" in line  # "reveal another card"


def test_a_factions_name_in_the_log_is_translated(app: Flask) -> None:
    catalog = app.extensions["catalog"]
    state = new_game(make_setup(catalog, "solo", "mentat", seed=1), catalog)
    rival = state.houses[1].id
    data = {"faction": "fremen", "old": 0, "new": 1}
    gain = Entry(1, 1, "influence", rival, data)
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        line = sentence(gain, state, get_translations())
    assert "フレイメンへの影響力 0 → 1" in line


def test_an_apps_catalogs_are_its_own(tmp_path: Path) -> None:
    """Each app has its own Babel: Flask-Babel keeps loaded catalogs by locale alone, so
    an app with a catalog directory of its own (which has no messages catalog, and whose
    empty catalog's English plural rule Flask-Babel copies over Japanese's) must not hand
    its Japanese to the next app: with a shared Babel, "3 spice" stayed English after it."""
    from tests.web.conftest import dispose, make_app

    other = make_app(BABEL_TRANSLATION_DIRECTORIES=f"{TRANSLATIONS};{tmp_path}")
    with other.test_request_context(headers={"Accept-Language": "ja"}):
        # That app's catalogs as Flask-Babel merges them: the empty one's rule last.
        assert get_translations().plural(3) == 1
    dispose(other)
    app = make_app()
    with app.test_request_context(headers={"Accept-Language": "ja"}):
        assert get_translations().plural(3) == 0  # Japanese has one form [CLDR]
        assert get_translations().ungettext("%(n)s spice", "%(n)s spice", 3) == "%(n)s香料"
    dispose(app)

"""Dates and times in the page's language, written by the server with Babel (issue 28: "Nov
28, 2026, 9:54 AM" on a Japanese page): the chosen language, never the browser's locale."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from flask import Flask

from companion.web.history import local_time, moment_text
from tests.web.conftest import SOLO_FORM, make_app

MOMENT = datetime(2026, 11, 28, 9, 54, tzinfo=UTC)
TIME = re.compile(r'<time datetime="[^"]+" data-local>([^<]*)</time>')


@pytest.fixture(scope="module")
def one_app() -> Flask:
    """One app for the module (making one costs about two seconds)."""
    return make_app()


@pytest.mark.parametrize(
    ("lang", "shown"),
    [
        ("en", "Nov 28, 2026, 9:54\u202fAM"),  # a narrow no-break space, as CLDR
        ("ja", "2026/11/28 9:54"),
        ("ko", "2026. 11. 28. 오전 9:54"),
        ("zh_Hans", "2026年11月28日 09:54"),
        ("zh_Hant", "2026年11月28日 上午9:54"),
        ("pl", "28 lis 2026, 09:54"),
    ],
)
def test_a_moment_is_written_in_the_chosen_language(one_app: Flask, lang: str, shown: str) -> None:
    # An English browser: the cookie (the menu's choice) decides.
    headers = {"Cookie": f"lang={lang}", "Accept-Language": "en-US"}
    with one_app.test_request_context(headers=headers):
        assert moment_text(MOMENT) == shown
        assert local_time("2026-11-28T09:54:00Z")["text"].startswith(shown)


def test_a_japanese_home_page_shows_a_japanese_date(one_app: Flask) -> None:
    client = one_app.test_client()
    assert client.post("/games", data=SOLO_FORM).status_code == 303
    client.set_cookie("lang", "ja")
    page = client.get("/", headers={"Accept-Language": "en-US"}).get_data(as_text=True)
    times = TIME.findall(page)
    assert times, page
    for shown in times:
        assert re.fullmatch(r"\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}\D*", shown), shown
        assert re.search(r"AM|PM|[A-Z][a-z]{2} ", shown) is None, shown

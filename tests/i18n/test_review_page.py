"""The translators' review page (/language/review?lang=ko, companion/web/review.py): the
golden games' sentences in one language beside the English (issue 28)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from flask import Flask

from companion.web.review import GOLDEN
from tests.i18n.catalogs import LOCALES, catalog
from tests.web.conftest import dispose, make_app

ROW = re.compile(
    r'<tr class="review-[a-z-]+"><td>[^<]*</td>'
    r'<td lang="en">([^<]*)</td><td lang="[^"]+">([^<]*)</td></tr>'
)
SMALL = "solo_kwisatz_churn.json"  # the smallest golden game: every language in seconds


@pytest.fixture(scope="module")
def small_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """An app whose review page reads one golden game."""
    folder = tmp_path_factory.mktemp("golden")
    shutil.copy(GOLDEN / SMALL, folder / SMALL)
    app = make_app(REVIEW_GAMES=str(folder))
    yield app
    dispose(app)


def rows(html: str) -> list[tuple[str, str]]:
    return [(unescape(english), unescape(shown)) for english, shown in ROW.findall(html)]


@pytest.mark.parametrize("lang", LOCALES)
def test_the_review_page_shows_each_sentence_beside_its_english(
    small_app: Flask, lang: str
) -> None:
    answer = small_app.test_client().get(f"/language/review?lang={lang}")
    assert answer.status_code == 200
    found = dict(rows(answer.get_data(as_text=True)))
    # A known sentence of the game, in English and in the catalog's words for it.
    english = "Phase 4: add 1 bonus spice to The Great Flat and Hagga Basin."
    assert english in found
    assert "Phase" not in found[english] and "Great" not in found[english], found[english]
    assert catalog(lang).get("Phase 4: add 1 bonus spice to %(spaces)s.") is not None
    # Questions and round-end lines too, each English text once.
    page = answer.get_data(as_text=True)
    assert 'class="review-prompt"' in page and 'class="review-round-end"' in page
    english_texts = [e for e, _shown in rows(page)]
    assert len(english_texts) == len(set(english_texts)) > 50


def test_the_review_page_reads_every_golden_game(app: Flask) -> None:
    page = app.test_client().get("/language/review?lang=ja").get_data(as_text=True)
    names = {p.stem for p in GOLDEN.glob("*.json")}
    assert all(f'lang="en">{name}</h2>' in page for name in names)
    found = dict(rows(page))
    shown = found["Round 1: reveal the Conflict card Secure Imperial Basin (level 2)."]
    assert shown.startswith("ラウンド1\uff1a紛争カード") and "帝国盆地の確保" in shown, shown


@pytest.mark.parametrize("query", ["", "?lang=en", "?lang=xx", "?lang=%00"])
def test_the_review_page_without_a_language_lists_them(small_app: Flask, query: str) -> None:
    answer = small_app.test_client().get("/language/review" + query)
    assert answer.status_code == (200 if query == "" else 404)
    page = answer.get_data(as_text=True)
    assert all(f"/language/review?lang={code}" in page for code in LOCALES)


def test_without_the_golden_games_the_review_page_says_so(tmp_path: Path) -> None:
    app = make_app(REVIEW_GAMES=str(tmp_path / "missing"))
    answer = app.test_client().get("/language/review?lang=pl")
    assert answer.status_code == 404
    assert "tests/golden" in answer.get_data(as_text=True)
    dispose(app)

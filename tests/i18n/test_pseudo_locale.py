"""Pages rendered in a pseudo-locale: every catalog message shows as ⟦…⟧, so any English
word left outside the brackets passed no gettext.

Proper names (leaders, spaces, cards, the players' own names, the language menu) are
allowed; so are the words of LATER below (none left). A new English word on these pages
fails the test.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import get_babel

from companion import create_app
from companion.db import db
from companion.web import games as games_module
from companion.web.language import LANGUAGES, TRANSLATIONS
from tests.web.conftest import SOLO_FORM, TWO_PLAYER_FORM

PSEUDO = "eo"  # any locale Babel knows and the app has no catalog for
OPEN, CLOSE = "⟦", "⟧"
# English the pages still show, with where it comes from; each is work for later.
LATER: set[str] = set()


@pytest.fixture
def pseudo_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FlaskClient]:
    """A client of an app whose only catalog wraps every message in ⟦…⟧ (fixed seed)."""
    monkeypatch.setattr(games_module, "secrets", SimpleNamespace(randbelow=lambda n: 1 % n))
    with (TRANSLATIONS / "messages.pot").open("rb") as pot_file:
        template = read_po(pot_file)
    catalog = Catalog(locale=PSEUDO)
    for message in template:
        if not message.id:
            continue
        ids = (message.id,) if isinstance(message.id, str) else message.id
        wrapped = tuple(OPEN + i + CLOSE for i in ids)
        catalog.add(message.id, wrapped[0] if isinstance(message.id, str) else wrapped)
    folder = tmp_path / PSEUDO / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "messages.mo").open("wb") as mo_file:
        write_mo(mo_file, catalog)
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "BABEL_TRANSLATION_DIRECTORIES": str(tmp_path),
        }
    )
    with app.app_context():
        db.create_all()
    get_babel(app).locale_selector = lambda: PSEUDO
    yield app.test_client()


def proper_names(app: Flask) -> set[str]:
    """Capitalized words of the names of everything in the catalog, the seats and the menu
    (so "and" or "of" in a card's name excuse nothing)."""
    catalog = app.extensions["catalog"]
    names = [language.name for language in LANGUAGES] + [SOLO_FORM["p1_name"], "Player"]
    names += [TWO_PLAYER_FORM["p1_name"], TWO_PLAYER_FORM["p2_name"]]
    for kind in (catalog.spaces, catalog.leaders, catalog.conflicts, catalog.hagal):
        names += [item.name for item in kind.values()]
    for kind in (catalog.cards, catalog.intrigue, catalog.tech):
        names += [item.name for item in kind.values()]
    return {w for name in names for w in re.findall(r"[A-Z][A-Za-z]+", name)}


def english_left(html: str) -> set[str]:
    """Words of three letters or more outside every ⟦…⟧ and outside tags and scripts."""
    text = unescape(re.sub(r"(?s)<script.*?</script>|<style.*?</style>|<[^>]+>", " ", html))
    while True:  # innermost first: a message may hold another one (a plural, a name)
        shorter = re.sub(OPEN + "[^" + OPEN + CLOSE + "]*" + CLOSE, " ", text)
        if shorter == text:
            break
        text = shorter
    text = re.sub(r"https?://\S+", " ", text)  # an address (the home page's LAN one) is no word
    return set(re.findall(r"[A-Za-z][A-Za-z'\u2019-]{2,}", text))


def test_the_game_pages_pass_every_word_through_gettext(pseudo_client: FlaskClient) -> None:
    created = pseudo_client.post("/games", data=SOLO_FORM)
    game = created.headers["Location"].removesuffix("/setup")
    allowed = proper_names(pseudo_client.application) | LATER
    for url in ("/", "/games/new", f"{game}/setup", game, f"{game}/live", "/no-such-page"):
        answer = pseudo_client.get(url)
        left = english_left(answer.get_data(as_text=True)) - allowed
        assert (url, sorted(left)) == (url, [])


def test_the_other_pages_of_a_game_pass_every_word_through_gettext(
    pseudo_client: FlaskClient,
) -> None:
    """A two-player game's screens, the Fix, delete and purchase pages, history, statistics
    and the scan page."""
    solo = pseudo_client.post("/games", data=SOLO_FORM).headers["Location"].removesuffix("/setup")
    created = pseudo_client.post("/games", data=TWO_PLAYER_FORM)
    game = created.headers["Location"].removesuffix("/setup")
    allowed = proper_names(pseudo_client.application) | LATER
    pages = (game, f"{game}/live", f"{game}/fix", f"{solo}/fix", f"{solo}/delete", f"{solo}/buy")
    for url in (*pages, "/history", "/stats", "/scan"):
        answer = pseudo_client.get(url)
        assert answer.status_code == 200, url
        left = english_left(answer.get_data(as_text=True)) - allowed
        assert (url, sorted(left)) == (url, [])

"""Pages rendered in a pseudo-locale: every message of both catalogs (the app's own words,
messages.po, and card_db's, cards.po) shows as ⟦…⟧ in full-width letters (U+FF21 to
U+FF5A), so any word left in plain ASCII letters passed no gettext: outside every message,
or as a value filled into one (a card's name in a log line).

The only English allowed: the players' own names and the language menu, the English name a
page shows beside a card's name (<span class="en-name" lang="en">), NOT_WORDS (PNG, III) and
the words of LATER below. Names of cards, spaces and leaders are card_db texts: they must be
in brackets too. A new English word on these pages fails the test.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from html import unescape
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import get_babel

from companion import create_app
from companion.cards.index import KIND_NAMES
from companion.db import db
from companion.web import games as games_module
from companion.web.locales import LANGUAGES, TRANSLATIONS
from tests.i18n.catalogs import extracted_entries
from tests.web.conftest import SOLO_FORM, TWO_PLAYER_FORM, GameActions

PSEUDO = "eo"  # any locale Babel knows and the app has no catalog for
OPEN, CLOSE = "⟦", "⟧"
# English the pages still show, with where it comes from; each is work for later.
LATER: set[str] = set()
# Words that are no English: a file format, a Roman numeral (Conflict III), and the
# pseudo-locale's own "and" and months (Esperanto's, from CLDR: lists are joined by Babel's
# format_list, dates written by Babel: "28 Nov 2026").
NOT_WORDS = {"PNG", "III", "kaj", *Locale(PSEUDO).months["format"]["abbreviated"].values()}
# What a search below types, which its page repeats ("Nothing matches “arakeen”").
TYPED = {"arakeen", "water", "solari"}
EN_NAME = re.compile(r'(?s)<span class="en-name" lang="en">.*?</span>')


PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[-+ #0]*\d*(?:\.\d+)?[a-zA-Z%]")


def pseudo(text: str) -> str:
    """`text` in ⟦…⟧, its ASCII letters full width, its placeholders as they are."""
    parts = PLACEHOLDER.split(text)
    holders = PLACEHOLDER.findall(text)
    wide = [re.sub(r"[A-Za-z]", lambda m: chr(ord(m[0]) + 0xFEE0), p) for p in parts]
    return OPEN + "".join(w + h for w, h in zip(wide, [*holders, ""], strict=True)) + CLOSE


def _write_pseudo_catalog(pot: Path | None, mo: Path) -> None:
    """A catalog holding every message of `pot`, each translated by `pseudo`; `pot` None:
    every message the code and templates mark now (a message not yet extracted into
    messages.pot is a word the catalogs will have, not English left)."""
    ids_found: list[tuple[str | tuple[str, ...], str | None]]  # id, context
    if pot is None:
        ids_found = [(m, context) for m, context, _where in extracted_entries()]
    else:
        with pot.open("rb") as pot_file:
            ids_found = [
                (m.id if isinstance(m.id, str) else tuple(m.id), m.context)
                for m in read_po(pot_file)
            ]
        ids_found = [(i, context) for i, context in ids_found if i]
    catalog = Catalog(locale=PSEUDO)
    for message_id, context in ids_found:
        ids = (message_id,) if isinstance(message_id, str) else message_id
        wrapped = tuple(pseudo(i) for i in ids)
        string = wrapped[0] if isinstance(message_id, str) else wrapped
        catalog.add(message_id, string, context=context)
    with mo.open("wb") as mo_file:
        write_mo(mo_file, catalog)


@pytest.fixture
def pseudo_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FlaskClient]:
    """A client of an app whose only catalogs (the app's words and card_db's) show every
    message through `pseudo` (fixed seed)."""
    monkeypatch.setattr(games_module, "secrets", SimpleNamespace(randbelow=lambda n: 1 % n))
    folder = tmp_path / PSEUDO / "LC_MESSAGES"
    folder.mkdir(parents=True)
    _write_pseudo_catalog(None, folder / "messages.mo")
    _write_pseudo_catalog(TRANSLATIONS / "cards.pot", folder / "cards.mo")
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


def unextracted_sources(app: Flask) -> set[str]:
    """Words of the rules concepts' `sources` (card_db/concepts.toml) that cards.pot lacks:
    companion/cards/i18n.py's TEXT_KEYS has `source` but not `sources` (work for later,
    allowed on the concept pages only)."""
    with (TRANSLATIONS / "cards.pot").open("rb") as pot_file:
        extracted = {m.id for m in read_po(pot_file) if m.id}
    concepts = app.extensions["card_lookup"].index.concepts
    missing = {s for c in concepts for s in c.sources if s not in extracted}
    return {w for s in missing for w in re.findall(r"[A-Za-z][A-Za-z'\u2019-]{2,}", s)}


def proper_names(app: Flask) -> set[str]:
    """Capitalized words of the players' names and the language menu, and NOT_WORDS
    (card_db's names are no longer excused: they pass through the cards catalog)."""
    names = [language.name for language in LANGUAGES] + [SOLO_FORM["p1_name"], "Player"]
    names += [TWO_PLAYER_FORM["p1_name"], TWO_PLAYER_FORM["p2_name"]]
    return {w for name in names for w in re.findall(r"[A-Z][A-Za-z]+", name)} | NOT_WORDS


def english_left(html: str) -> set[str]:
    """Words of three plain ASCII letters or more, outside tags and scripts and outside the
    English name beside a card's name (inside a message too: a value filled in)."""
    html = EN_NAME.sub(" ", html)
    text = unescape(re.sub(r"(?s)<script.*?</script>|<style.*?</style>|<[^>]+>", " ", html))
    text = re.sub(r"https?://\S+", " ", text)  # an address (the home page's LAN one) is no word
    # A name before a pseudo-translated "'s" keeps its apostrophe (Ann's, s full width).
    words = re.findall(r"[A-Za-z][A-Za-z'\u2019-]{2,}", text)
    return {w.rstrip("'\u2019-") for w in words}


def assert_translated(
    client: FlaskClient, urls: Iterable[str], allowed: set[str], status: int | None = 200
) -> None:
    """Each page answers `status` (None: any) with no English word outside `allowed`."""
    for url in urls:
        answer = client.get(url)
        assert status is None or answer.status_code == status, url
        left = english_left(answer.get_data(as_text=True)) - allowed
        assert (url, sorted(left)) == (url, [])


def test_the_game_pages_pass_every_word_through_gettext(pseudo_client: FlaskClient) -> None:
    created = pseudo_client.post("/games", data=SOLO_FORM)
    game = created.headers["Location"].removesuffix("/setup")
    allowed = proper_names(pseudo_client.application) | LATER
    urls = ("/", "/games/new", f"{game}/setup", game, f"{game}/live", "/no-such-page")
    assert_translated(pseudo_client, urls, allowed, status=None)


def test_the_other_pages_of_a_game_pass_every_word_through_gettext(
    pseudo_client: FlaskClient,
) -> None:
    """A two-player game's screens, the Fix, delete and purchase pages (a search, a card
    bought: the table's drawer of cards bought), history, statistics and the scan page."""
    solo = pseudo_client.post("/games", data=SOLO_FORM).headers["Location"].removesuffix("/setup")
    created = pseudo_client.post("/games", data=TWO_PLAYER_FORM)
    game = created.headers["Location"].removesuffix("/setup")
    actions = GameActions(pseudo_client.application, pseudo_client)
    solo_id = int(solo.rsplit("/", 1)[-1])
    fields = {
        "version": actions.version(solo_id),
        "created": actions.stamp(solo_id),
        "house": "p1",
        "card": "carryall",
        "copy": 1,
    }
    assert pseudo_client.post(f"{solo}/buy", data=fields).status_code == 303
    assert 'id="purchases"' in pseudo_client.get(solo).get_data(as_text=True)
    allowed = proper_names(pseudo_client.application) | LATER
    pages = (game, f"{game}/live", f"{game}/fix", f"{solo}/fix", f"{solo}/delete", f"{solo}/buy")
    bought = (solo, f"{solo}/buy?q=carry", f"{solo}/buy?bought=carryall/1")
    assert_translated(pseudo_client, (*pages, *bought, "/history", "/stats", "/scan"), allowed)


def _first_of_each_kind(app: Flask) -> list[str]:
    """The page of one item of every kind of the rules lookup (the first of each)."""
    items = app.extensions["card_lookup"].index.items
    found: dict[str, str] = {}
    for item in items:
        found.setdefault(item.kind, f"/cards/{item.kind}/{item.id}")
    assert set(found) == set(KIND_NAMES)
    return list(found.values())


def test_the_rules_lookup_passes_every_word_through_gettext(pseudo_client: FlaskClient) -> None:
    """Its list, searches (with a "did you mean"), a page and a dialog panel of each kind,
    a concept page, and the items whose pages say the most (rulings written from fields,
    related groups, House Hagal facts, rewards)."""
    app = pseudo_client.application
    allowed = proper_names(app) | LATER
    pages = [
        "/cards",
        "/cards?q=water",
        "/cards?q=arakeen",
        "/cards?kind=conflict&level=2",
        "/cards?q=solari&kind=space",
        *_first_of_each_kind(app),
        "/cards/space/arrakeen",
        "/cards/space/hagga_basin",
        "/cards/space/interstellar_shipping",
        "/cards/hagal/foldspace_or_interstellar_shipping",
        "/cards/hagal/harvest_spice",
        "/cards/hagal/dreadnought_1p",
        "/cards/hagal/carthag",
        "/cards/leader/glossu_rabban",
        "/cards/conflict/secure_imperial_basin",
        "/cards/tech/spy_satellites",
        "/cards/imperium/carryall",
        "/cards/track/shipping_track",
        "/cards/space/arrakeen/panel",
        "/cards/concept/control",
        "/cards/concept/control/panel",
    ]
    for url in pages:
        answer = pseudo_client.get(url)
        assert answer.status_code == 200, url
        left = english_left(answer.get_data(as_text=True)) - allowed - TYPED
        if url.startswith("/cards/concept/"):
            left -= unextracted_sources(app)
        assert (url, sorted(left)) == (url, [])


def test_the_print_page_passes_every_word_through_gettext(pseudo_client: FlaskClient) -> None:
    allowed = proper_names(pseudo_client.application) | LATER
    for url in ("/print", "/print?kind=leader&set=all", "/print?kind=tech&set=ix"):
        answer = pseudo_client.get(url)
        assert answer.status_code == 200, url
        html = answer.get_data(as_text=True)
        assert 'class="en-name" lang="en"' in html  # each sticker's English name beside it
        left = english_left(html) - allowed
        assert (url, sorted(left)) == (url, [])


def test_the_english_beside_a_card_is_the_only_card_name_left(pseudo_client: FlaskClient) -> None:
    """The check is not empty: a page of the rules lookup shows the English name, marked,
    and without the mark the test would see it."""
    html = pseudo_client.get("/cards/space/arrakeen").get_data(as_text=True)
    assert '<span class="en-name" lang="en">Arrakeen</span>' in html
    assert "Arrakeen" in english_left(html.replace('class="en-name"', 'class="other"'))


# The actions a table plays, in the order a test picks them: answer the question, send an
# Agent, reveal; whatever else the engine offers (corrections) is left alone.
PLAYED = ("Choose", "PlaceAgent", "Reveal")


def _played_pages(actions: GameActions, game_id: int, steps: int) -> Iterator[str]:
    """The table screen after each of `steps` actions the rules allow, picked by PLAYED."""
    for _step in range(steps):
        legal = actions.legal(game_id)
        picks = [a for kind in PLAYED for a in legal if type(a).__name__ == kind]
        if not picks:
            return
        actions.do(game_id, picks[0])
        yield actions.page(game_id)


@pytest.mark.parametrize(
    "form",
    [
        {**SOLO_FORM, "expansion": "ix", "epic": "on"},
        {**TWO_PLAYER_FORM, "expansion": "ix"},
        SOLO_FORM,
    ],
    ids=["solo-ix-epic", "2p-ix", "solo-base"],
)
def test_a_played_game_passes_every_word_through_gettext(
    pseudo_client: FlaskClient, form: dict[str, str]
) -> None:
    """Rounds played on the table screen (45 actions, or until only other actions are left):
    Rival turns with their House Hagal cards, the log, questions, Combat, the round-end card,
    Tech tiles, the end; Undo's list of board changes; then the live view, a round's card
    and a finished game's record."""
    app = pseudo_client.application
    actions = GameActions(app, pseudo_client)
    created = pseudo_client.post("/games", data=form)
    game_id = int(created.headers["Location"].split("/")[-2])
    allowed = proper_names(app) | LATER
    shown = 0
    for number, html in enumerate(_played_pages(actions, game_id, 45)):
        left = english_left(html) - allowed
        assert (number, sorted(left)) == (number, [])
        shown += 1
    state = actions.state(game_id)
    assert shown > 30 and state.round >= 2  # a whole round played, its card shown
    urls = [f"/games/{game_id}/live", f"/games/{game_id}/rounds/1"]
    if state.phase == "ended":  # its record: leaders, Conflicts won, cards bought
        urls += ["/history", f"/games/{game_id}/summary", "/stats"]
    assert_translated(pseudo_client, urls, allowed)
    undone = actions.undo(game_id, htmx=True)  # what to put back on the board, in words
    assert undone.status_code == 200 and 'id="board-changes"' in undone.get_data(as_text=True)
    left = english_left(undone.get_data(as_text=True)) - allowed
    assert ("undo", sorted(left)) == ("undo", [])

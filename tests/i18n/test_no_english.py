"""The golden games (tests/golden) played in Japanese, Korean, Simplified and Traditional
Chinese and Polish show no English word (issue 28): not on the table screen, in the log,
on the round-end cards, in the set-up checklist or in the summary. Allowed: the players'
names (placeholders), the small English name beside a card's name (<span
class="en-name" lang="en">) and the language menu.

Everything the log, the questions and the round-end cards say in each game comes from
companion/web/review.py (the translators' review page), in the language; the pages are the
real routes, shown at the states of the games (services.load answers with them). An
English word that is left is either a missing `_()` in the code (fix the code) or a
message the catalog has not translated yet (the failure names the word: translators fill
it in); this test is not excused for either.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from html import unescape

import pytest
from flask import Flask

from companion import services
from companion.rules.catalog import Catalog
from companion.rules.state import GameState
from companion.services import GameView, Storage
from companion.web.locales import LANGUAGES
from companion.web.review import GOLDEN, ReviewGame, game_texts, in_language, review_games
from tests.i18n.catalogs import catalog, forms, messages
from tests.web.conftest import dispose, make_app

LOCALES = ("ja", "ko", "zh_Hans", "zh_Hant", "pl")
CJK = frozenset({"ja", "ko", "zh_Hans", "zh_Hant"})
WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019-]+")
EN_NAME = re.compile(r'(?s)<span class="en-name" lang="en">.*?</span>')
# Not English: the Roman numerals of the Conflict levels (Conflict II).
NOT_WORDS = frozenset({"II", "III"})


def _no_placeholders(text: str) -> str:
    """A message without its placeholders' names (%(card)s is no word), addresses and
    names of files and commands (rulings.toml, companion.serve)."""
    text = re.sub(r"https?://\S+", " ", PLACEHOLDER.sub(" ", text))
    return re.sub(r"[\w-]*[A-Za-z][._][\w.-]*", " ", text)


PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[-+ #0]*\d*(?:\.\d+)?[a-zA-Z%]")


@cache
def vocabulary(locale: str) -> frozenset[str]:
    """Every Latin word of the language's translations (both catalogs): a word a
    translation uses itself (pl "Landsraad", ja "CHOAM", a source's name "Spice Flow") is
    the language's. Kept as written: a CJK text's capitalized name does not excuse the
    same word in lower case (pl: see `english_in`)."""
    words: set[str] = set()
    for domain in ("messages", "cards"):
        for message in messages(locale, domain):
            for text in forms(message):
                words.update(WORD.findall(_no_placeholders(text)))
    return frozenset(words)


@cache
def lower_vocabulary(locale: str) -> frozenset[str]:
    return frozenset(w.lower() for w in vocabulary(locale))


@cache
def english_vocabulary() -> frozenset[str]:
    """Every word of the English message ids (both catalogs), lower case."""
    words: set[str] = set()
    for domain in ("messages", "cards"):
        for message in catalog("pl", domain):
            ids = (message.id,) if isinstance(message.id, str) else message.id
            for text in ids:
                words.update(w.lower() for w in WORD.findall(_no_placeholders(text)))
    return frozenset(words)


@cache
def names() -> frozenset[str]:
    """The words of the golden games' player names and of the language menu."""
    import json

    found = {w for language in LANGUAGES for w in WORD.findall(language.name)}
    for path in GOLDEN.glob("*.json"):
        setup = json.loads(path.read_text(encoding="utf-8"))["setup"]
        for seat in [*setup["humans"], *setup.get("rivals", [])]:
            found.update(WORD.findall(seat["name"]))
    return frozenset(found)


def english_in(text: str, locale: str) -> set[str]:
    """The English words of `text` in `locale`'s page: in a CJK language any Latin word
    its catalogs do not use; in Polish a word of the English ids that Polish never uses."""
    left = set()
    for word in WORD.findall(text):
        word = word.rstrip("'\u2019-")
        if word in names() or word in NOT_WORDS:
            continue
        if locale in CJK:
            english = word not in vocabulary(locale)
        else:
            lower = word.lower()
            english = lower in english_vocabulary() and lower not in lower_vocabulary(locale)
        if english:
            left.add(word)
    return left


def page_text(html: str) -> str:
    """A page's words as read: no tags, scripts, styles or English names beside a card's."""
    html = EN_NAME.sub(" ", html)
    html = re.sub(r"(?s)<script.*?</script>|<style.*?</style>|<[^>]+>", " ", html)
    return unescape(html)


@pytest.fixture(scope="module")
def app() -> Iterator[Flask]:
    app = make_app()
    yield app
    dispose(app)


@pytest.fixture(scope="module")
def golden(app: Flask) -> tuple[ReviewGame, ...]:
    return review_games(GOLDEN, app.extensions["catalog"])


@pytest.mark.parametrize("locale", LOCALES)
def test_the_log_questions_and_round_end_cards_have_no_english(
    app: Flask, golden: tuple[ReviewGame, ...], locale: str
) -> None:
    found: dict[str, str] = {}  # an English word: the first text it is in
    with app.test_request_context("/"), in_language(locale):
        for game in golden:
            for _kind, text in game_texts(game):
                for word in english_in(text, locale):
                    found.setdefault(word, f"{game.name}: {text}")
    assert found == {}


def table_states(golden: tuple[ReviewGame, ...]) -> dict[str, list[GameState]]:
    """The states each game's table screen is looked at in: its end, and the first state
    of each kind of question (the first game that asks it)."""
    asked: set[str] = set()
    shown: dict[str, list[GameState]] = {}
    for game in golden:
        shown[game.name] = []
        for state in game.questions:
            if state.prompt is not None and state.prompt.kind not in asked:
                asked.add(state.prompt.kind)
                shown[game.name].append(state)
        shown[game.name].append(game.final)
    return shown


@pytest.mark.parametrize("locale", LOCALES)
def test_the_pages_of_the_golden_games_have_no_english(
    app: Flask, golden: tuple[ReviewGame, ...], locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checklist at each game's start, the table screen (its panels, the Rivals',
    the scores, the question), the log, the last round's card and the summary."""
    shown: dict[int, GameView] = {}
    real_load = services.load

    def load(game_id: int, catalog: Catalog, storage: Storage | None = None) -> GameView:
        return shown[game_id] if game_id in shown else real_load(game_id, catalog, storage)

    monkeypatch.setattr(services, "load", load)
    client = app.test_client()
    client.set_cookie("lang", locale)
    found: dict[str, str] = {}

    def look(url: str) -> None:
        answer = client.get(url)
        assert answer.status_code == 200, url
        for word in english_in(page_text(answer.get_data(as_text=True)), locale):
            found.setdefault(word, url)

    states = table_states(golden)
    catalog = app.extensions["catalog"]
    with app.app_context():
        for game in golden:
            game_id = services.create_game(game.final.setup, catalog)
            view = real_load(game_id, catalog)
            look(f"/games/{game_id}/setup")  # the checklist, at the game's start
            for state in states[game.name]:
                shown[game_id] = replace(view, state=state)
                look(f"/games/{game_id}")
            shown[game_id] = replace(view, state=game.final)
            look(f"/games/{game_id}/log")
            rounds = sorted({e.round for e in game.final.log if e.kind == "recall"})
            look(f"/games/{game_id}/rounds/{rounds[-1]}")
            look(f"/games/{game_id}/summary")
    assert sorted(f"{word}: {where}" for word, where in found.items()) == []


def test_english_in_finds_english_and_not_the_languages_own_words() -> None:
    assert english_in("Cal: choose the Faction for +1 Influence.", "ja") == {
        "choose",
        "the",
        "Faction",
        "for",
        "Influence",
    }
    assert english_in("Ann: 황제 영향력 1 → 2. VP 0, CHOAM", "ko") == {"VP", "CHOAM"} - {
        w for w in ("CHOAM",) if w in vocabulary("ko")
    }
    assert english_in("Rival 1 bierze 2 karty intrygi.", "pl") == set()
    assert english_in("Rival 1 takes 2 Intrigue cards.", "pl") >= {"takes", "cards"}
    assert english_in('<span class="en-name" lang="en">Spy</span>', "ja") != set()
    assert english_in(page_text('x <span class="en-name" lang="en">Spy</span>'), "ja") == set()

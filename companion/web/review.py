"""The translators' review page (`/language/review?lang=ko`): every log sentence, prompt and
round-end line of the golden games (the recorded whole games of tests/golden) in one
language beside the English, so a reviewer reads the sentences as players see them.

The golden games are files of the repository, not of an installed app: without them the
page says so (404).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import force_locale
from flask_babel import lazy_gettext as _l

from companion.rules.catalog import Catalog
from companion.rules.codec import decode, decode_setup
from companion.rules.engine import apply, new_game
from companion.rules.state import GameState
from companion.web.htmx import error_answer
from companion.web.language import forget_page_language, page_translations
from companion.web.language import gettext as _
from companion.web.locales import BY_CODE, DEFAULT, LANGUAGES
from companion.web.present.prompts import prompt_view
from companion.web.present.round_end import round_end, rounds_ended
from companion.web.present.story import sentence

bp = Blueprint("review", __name__)
GOLDEN = Path(__file__).resolve().parents[2] / "tests" / "golden"
# What a line of the page is, for the reviewer (the page's column "Where").
KINDS = {
    "log": _l("Log"),
    "prompt": _l("Question"),
    "answer": _l("Answer"),
    "round end": _l("End of round"),
}


@dataclass(frozen=True, slots=True)
class ReviewGame:
    """A golden game: its file's name, each state that asked a new question, and the end."""

    name: str
    questions: tuple[GameState, ...]
    final: GameState


@dataclass(frozen=True, slots=True)
class Line:
    kind: str  # one of KINDS
    english: str
    shown: str  # in the language under review


def review_games(folder: Path, catalog: Catalog) -> tuple[ReviewGame, ...]:
    """Each golden game of `folder`, replayed action by action."""
    games = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        state = new_game(decode_setup(data["setup"]), catalog)
        questions = [state] if state.prompt is not None else []
        for encoded in data["actions"]:
            before = state.prompt
            state = apply(state, decode(encoded))
            if state.prompt is not None and state.prompt != before:
                questions.append(state)
        games.append(ReviewGame(path.stem, tuple(questions), state))
    return tuple(games)


@contextmanager
def in_language(code: str) -> Iterator[None]:
    """Words in `code`'s language inside (the page's own catalogs, looked up once per
    request and kept in `g`, are looked up again)."""
    with force_locale(code):
        forget_page_language()
        try:
            yield
        finally:
            forget_page_language()


def game_texts(game: ReviewGame) -> list[tuple[str, str]]:
    """What the table shows of `game` in the current language, as (kind, text): each log
    sentence, each question with its answers, each round's "End of round" card."""
    final = game.final
    translations = page_translations()
    texts = [("log", sentence(entry, final, translations)) for entry in final.log]
    for state in game.questions:
        asked = prompt_view(state)
        if asked is None:
            continue
        texts.append(("prompt", asked.question))
        texts += [("prompt", str(line)) for line in asked.info]
        texts += [("answer", str(label)) for _value, label in asked.options]
    for number in sorted(rounds_ended(final)):
        card = round_end(final, number)
        if card is None:
            continue
        chores = [*card.combat, *card.rewards, card.cleanup, card.spice, *card.recall]
        chores += [card.first, card.next_conflict]
        texts += [("round end", str(line)) for line in chores if line]
    return texts


def review_lines(game: ReviewGame, code: str) -> list[Line]:
    """`game`'s texts in English beside the same texts in `code`'s language, each English
    text once."""
    with in_language(DEFAULT):
        english = game_texts(game)
    with in_language(code):
        shown = game_texts(game)
    seen: set[str] = set()
    lines = []
    for (kind, text), (_kind, translated) in zip(english, shown, strict=True):
        if text not in seen:
            seen.add(text)
            lines.append(Line(kind, text, translated))
    return lines


def golden_folder() -> Path:
    return Path(current_app.config.get("REVIEW_GAMES", GOLDEN))


@bp.get("/language/review")
def review() -> ResponseReturnValue:
    code = request.args.get("lang", "")
    if code not in BY_CODE or code == DEFAULT:
        return _choose(code)
    folder = golden_folder()
    if not folder.is_dir():
        return error_answer(
            404, _("The review page reads the golden games of the repository (tests/golden).")
        )
    kept = current_app.extensions.setdefault("review_games", {})
    if folder not in kept:  # replayed once: the files do not change while the server runs
        kept[folder] = review_games(folder, current_app.extensions["catalog"])
    games = kept[folder]
    shown = [(game.name, review_lines(game, code)) for game in games]
    return render_template(
        "review.html", reviewed=BY_CODE[code], games=shown, kinds=KINDS, english=BY_CODE[DEFAULT]
    )


def _choose(code: str) -> ResponseReturnValue:
    """No language under review (or English): the list of languages to review."""
    others = [language for language in LANGUAGES if language.code != DEFAULT]
    problem = _("There is no such language to review.") if code else None
    page = render_template(
        "review.html",
        reviewed=None,
        games=[],
        choices=others,
        problem=problem,
        kinds=KINDS,
        english=BY_CODE[DEFAULT],
    )
    return page, 404 if code else 200

"""The words of card_db in all five languages: every text in the cards catalogs, and a
source for every translated name (companion/cards/i18n.py; README: Languages)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.cards.i18n import NAME_KEYS, ORIGIN, card_db_texts, extract, texts
from tests.i18n.catalogs import CARD_LOCALES, LOCALES, ROOT, forms, messages, singular

CARD_DB = ROOT / "card_db"
SEEDS = ROOT.parent / "shared" / "reference"  # the rulebooks, beside the repository


def test_extraction_finds_the_visible_texts_and_no_ids() -> None:
    source = b"""\
[[card]]
id = "crysknife"
name = "Crysknife"
icons = ["fremen", "spice_trade"]
agent = "+1 Fremen Influence."
uncertain = ["The FAQ is silent."]
cost = 3
"""
    handle = io.BytesIO(source)
    handle.name = "card_db/base/imperium.toml"
    found = [(line, text, where) for line, _f, text, where in extract(handle, None, None, {})]
    assert found == [
        (1, "Crysknife", ["imperium:crysknife name"]),
        (1, "+1 Fremen Influence.", ["imperium:crysknife agent"]),
        (1, "The FAQ is silent.", ["imperium:crysknife uncertain"]),
    ]


def test_nested_tables_are_read_with_their_record() -> None:
    data = {"concept": [{"id": "alliance", "figure": [{"res": "vp", "label": "The token"}]}]}
    assert list(texts(data)) == [(0, "concept:alliance figure label", "The token")]


@pytest.mark.parametrize("locale", CARD_LOCALES)
def test_the_catalog_holds_every_text_of_card_db(locale: str) -> None:
    """After a card_db change: pybabel extract + update for the cards domain (README)."""
    in_catalog = {singular(m) for m in messages(locale, "cards") if all(forms(m))}
    assert sorted(set(card_db_texts(CARD_DB)) - in_catalog) == []


def _names(locale: str) -> list[tuple[str, str, list[str]]]:
    """(English name, translation, translator comments) of every name in the catalog."""
    return [
        (singular(m), forms(m)[0], m.user_comments)
        for m in messages(locale, "cards")
        if any(c.rsplit(" ", 1)[-1] in NAME_KEYS for c in m.auto_comments)
    ]


@pytest.mark.parametrize("locale", CARD_LOCALES)
def test_every_translated_name_says_where_it_comes_from(locale: str) -> None:
    names = _names(locale)
    assert len(names) > 200
    unsourced = [(en, text) for en, text, notes in names if not any(map(ORIGIN.match, notes))]
    assert unsourced == []


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the localized rulebooks are not beside the repo")
@pytest.mark.parametrize("locale", CARD_LOCALES)
def test_names_from_a_rulebook_are_on_the_line_it_cites(locale: str) -> None:
    wrong = []
    for en, text, notes in _names(locale):
        for note in notes:
            found = ORIGIN.match(note)
            if found is None or not found.group(1).startswith("seed "):
                continue
            name, line = found.group(1).removeprefix("seed ").rsplit(":", 1)
            path = SEEDS / "seeds" / Path(name).name
            lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
            if text not in lines[int(line) - 1]:
                wrong.append((en, text, note))
    assert wrong == []


def test_every_language_has_its_card_catalog() -> None:
    assert CARD_LOCALES == LOCALES


def test_a_deck_card_named_as_a_space_has_a_name_of_its_own() -> None:
    """The Japanese rulebook names the Reserve card Foldspace 〈空間転移〉 (seed 004, line 159)
    and its board space 《宇宙航路》 (line 280): the card's name is a message of context
    "card", the space's the plain one."""
    ja = {(m.context, singular(m)): forms(m)[0] for m in messages("ja", "cards")}
    assert ja[("card", "Foldspace")] == "空間転移"
    assert ja[(None, "Foldspace")] == "宇宙航路"

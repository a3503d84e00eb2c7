"""card_db/rulings.toml: every key is checked, `python -m companion.cards` reports its
problems, and every ruling shows on its item's page."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from flask import get_template_attribute
from flask.testing import FlaskClient
from markupsafe import escape

from companion.cards import default_root, load_catalog, present_sets
from companion.cards.__main__ import main
from companion.lookup import load_lookup
from companion.lookup.rulings import RULINGS_FILE, RulingsError, load_rulings, problems
from tests.lookup.conftest import HX

CARD_DB = default_root()
FIRST = """[[ruling]]
item = "imperium:assassination_mission"
source = "FAQ, Assassination Mission"
"""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A writable copy of the real card_db, for editing its rulings."""
    return Path(shutil.copytree(CARD_DB, tmp_path / "card_db"))


def edit(root: Path, old: str, new: str) -> None:
    """Replace the first `old` in the copy's rulings.toml."""
    text = (root / RULINGS_FILE).read_text(encoding="utf-8")
    assert old in text, old
    (root / RULINGS_FILE).write_text(text.replace(old, new, 1), encoding="utf-8")


def found(root: Path) -> list[str]:
    return problems(root, load_catalog(root, present_sets(root)))


def test_the_rulings_file_has_no_problems() -> None:
    assert found(CARD_DB) == []


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            'item = "imperium:assassination_mission"',
            'item = "imperium:assassination"',
            "imperium:assassination: 'item' is 'imperium:assassination', which no set file has "
            "(expected 'kind:id')",
        ),
        (
            'item = "imperium:assassination_mission"',
            'item = "assassination_mission"',
            "assassination_mission: 'item' is 'assassination_mission', which no set file has "
            "(expected 'kind:id')",
        ),
        (
            'source = "FAQ, Assassination Mission"\n',
            "",
            "imperium:assassination_mission: missing required key 'source'",
        ),
        (
            'source = "FAQ, Assassination Mission"',
            'source = "a forum post"',
            "imperium:assassination_mission: 'source' is 'a forum post', which cites no known "
            "document (the FAQ, a page of either rulebook, or the House Hagal rules)",
        ),
        (
            'source = "FAQ, Assassination Mission"',
            'source = "FAQ, Assassination Mission"\nconfidence = "high"',
            "imperium:assassination_mission: unknown key 'confidence' (expected: item, source, "
            "text)",
        ),
        (
            'item = "imperium:assassination_mission"',
            "item = 7",
            "ruling #1: 'item' must be a non-empty string",
        ),
        (
            'source = "FAQ, Assassination Mission"',
            'source = " "',
            "imperium:assassination_mission: 'source' must be a non-empty string",
        ),
    ],
)
def test_every_key_of_a_ruling_is_checked(db: Path, old: str, new: str, expected: str) -> None:
    edit(db, old, new)
    assert f"{RULINGS_FILE}: {expected}" in found(db)


def test_a_ruling_listed_twice_is_reported(db: Path) -> None:
    path = db / RULINGS_FILE
    text = path.read_text(encoding="utf-8")
    start = text.index(FIRST)
    block = text[start : text.index("\n\n", start) + 2]
    path.write_text(text + "\n" + block, encoding="utf-8")
    expected = "imperium:assassination_mission: the same ruling is listed twice"
    assert found(db) == [f"{RULINGS_FILE}: {expected}"]


def test_the_file_itself_is_checked(db: Path) -> None:
    edit(db, FIRST, '[rulings]\nnote = "x"\n\n' + FIRST)
    assert found(db) == [f"{RULINGS_FILE}: unknown top-level key 'rulings' (use [[ruling]])"]
    (db / RULINGS_FILE).write_text("[[ruling]\n", encoding="utf-8")
    assert found(db)[0].startswith(f"{RULINGS_FILE}: invalid TOML:")
    (db / RULINGS_FILE).unlink()
    assert found(db) == [f"{RULINGS_FILE}: file not found"]


def test_a_ruling_with_problems_is_not_loaded(db: Path) -> None:
    edit(db, 'item = "imperium:assassination_mission"', 'item = "imperium:nobody"')
    with pytest.raises(RulingsError, match="imperium:nobody"):
        load_rulings(db, load_catalog(db, present_sets(db)))


def test_python_dash_m_companion_cards_checks_the_rulings(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(db, 'source = "FAQ, Assassination Mission"\n', "")
    assert main(["--root", str(db)]) == 1
    captured = capsys.readouterr()
    expected = "imperium:assassination_mission: missing required key 'source'"
    assert f"{RULINGS_FILE}: {expected}" in captured.out
    assert "1 problem(s)" in captured.err


def test_text_over_several_lines_reads_as_one_paragraph() -> None:
    (carryall,) = load_lookup(CARD_DB).rulings["imperium:carryall"]
    assert carryall.text == (
        "The base spice it doubles is 1 at Imperial Basin, 2 at Hagga Basin and 3 at The Great "
        "Flat; bonus spice is not doubled."
    )
    assert carryall.source == "FAQ, Carryall"


def test_every_page_and_panel_shows_its_item_rulings(client: FlaskClient) -> None:
    """Each item rulings.toml names, on its page, its panel and its htmx answer. (Every
    item's page and panel answer 200: tests/lookup/test_pages.py.)"""
    lookup = load_lookup(CARD_DB)
    with client.application.app_context():
        iconize = get_template_attribute("cards/_macros.html", "iconize")
    ruled = [item for item in lookup.index.items if item.entry.key in lookup.rulings]
    assert {item.entry.key for item in ruled} == set(lookup.rulings)
    for item in ruled:
        url = f"/cards/{item.kind}/{item.id}"
        pages = [client.get(url), client.get(url + "/panel"), client.get(url, headers=HX)]
        for response in pages:
            assert response.status_code == 200, url
            html = response.get_data(as_text=True)
            for ruling in lookup.rulings.get(item.entry.key, ()):
                shown = f'{iconize(ruling.text)} <span class="rl-source">({escape(ruling.source)})'
                assert shown in html, (url, ruling.text)

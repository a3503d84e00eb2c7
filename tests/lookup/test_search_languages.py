"""Issue 14, "Done when": searching the rules for a space, a leader and a card by its name
in each language finds it first, with the names the localized rulebooks give
(shared/reference/seeds/: 000 zh-Hans, 001 zh-Hant, 002 pl, 004 ja base game, 003 ko Rise
of Ix; file:line beside each name).

These use the real `cards` catalogs (companion/translations/<locale>/LC_MESSAGES/cards.po),
so they run for each language whose catalog exists (tests/i18n/catalogs.py CARD_LOCALES);
the search logic itself is tested with small catalogs in test_search_i18n.py. A name here
that the catalog spells otherwise fails with the catalog's spelling, to compare with the
rulebook's.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from companion.cards.languages import ENGLISH
from companion.cards.search import TIER_NAME_EXACT, Query, SearchIndex
from companion.web.locales import BY_CODE
from tests.i18n.catalogs import CARD_LOCALES
from tests.lookup.conftest import HX

# (language, item, the rulebook's name, where the rulebook gives it)
SEED_NAMES: tuple[tuple[str, str, str, str], ...] = (
    ("zh_Hans", "space:carthag", "迦太格", "000_b73cfef8a0a569ce.txt:586"),
    ("zh_Hans", "leader:paul_atreides", "保罗·厄崔迪", "000_b73cfef8a0a569ce.txt:189"),
    ("zh_Hans", "imperium:duncan_idaho", "邓肯·艾达荷", "000_b73cfef8a0a569ce.txt:585"),
    ("zh_Hant", "space:carthag", "迦太奇", "001_0c56dfb28abc1b55.txt:534"),
    ("zh_Hant", "leader:paul_atreides", "保羅·亞崔迪", "001_0c56dfb28abc1b55.txt:223"),
    ("zh_Hant", "imperium:duncan_idaho", "鄧肯·艾德侯", "001_0c56dfb28abc1b55.txt:534"),
    ("pl", "space:carthag", "Kartagin", "002_bcc1a9abb3bab087.txt:455"),
    ("pl", "leader:paul_atreides", "Paul Atryda", "002_bcc1a9abb3bab087.txt:996"),
    ("pl", "imperium:sardaukar_legion", "Legion sardaukarów", "002_bcc1a9abb3bab087.txt:623"),
    ("ja", "space:carthag", "カルタゴ", "004_0bbc76c9a0894518.txt:575"),
    ("ja", "leader:ilban_richese", "イルバン・リチェス伯爵", "004_0bbc76c9a0894518.txt:256"),
    ("ja", "imperium:duncan_idaho", "ダンカン・アイダホ", "004_0bbc76c9a0894518.txt:575"),
    ("ko", "space:interstellar_shipping", "성간 거래", "003_e26098fc9ff374f3.txt:441"),
    ("ko", "leader:ilesa_ecaz", "일레사 에카즈", "003_e26098fc9ff374f3.txt:583"),
    ("ko", "imperium:esmar_tuek", "에스마르 튜엑", "003_e26098fc9ff374f3.txt:401"),
)
CHECKED = [row for row in SEED_NAMES if row[0] in CARD_LOCALES]


def _catalog_name(index: SearchIndex, language: str, key: str) -> str:
    item = index.by_key[tuple(key.split(":", 1))]  # type: ignore[index]
    gettext = index.languages.get(language)
    return gettext(item.entry.name) if gettext else item.entry.name


@pytest.mark.parametrize(("language", "key", "name", "source"), CHECKED)
def test_the_rulebooks_name_finds_the_item_first(
    index: SearchIndex, language: str, key: str, name: str, source: str
) -> None:
    spelled = _catalog_name(index, language, key)
    hits = index.find(Query(text=name, language=language)).hits
    assert hits, f"{name} ({source}) finds nothing; the catalog names {key} {spelled!r}"
    found = hits[0].item.entry.key
    assert found == key, f"{name} ({source}) finds {found}; the catalog names it {spelled!r}"
    assert hits[0].tier == TIER_NAME_EXACT


@pytest.mark.parametrize(("language", "key", "name", "source"), CHECKED)
def test_an_english_reader_finds_it_by_that_name_too(
    index: SearchIndex, language: str, key: str, name: str, source: str
) -> None:
    hits = index.find(Query(text=name, language=ENGLISH)).hits
    assert hits and hits[0].item.entry.key == key, f"{name} ({source})"


@pytest.mark.parametrize(("language", "key", "name", "source"), CHECKED)
def test_the_search_page_lists_it_first(
    client: FlaskClient, language: str, key: str, name: str, source: str
) -> None:
    kind, item_id = key.split(":")
    tag = BY_CODE[language].html_lang
    response = client.get(
        "/cards", query_string={"q": name}, headers={**HX, "Accept-Language": tag}
    )
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    first_row = page.split('class="rl-row" href="', 1)[1].split('"', 1)[0]
    assert first_row == f"/cards/{kind}/{item_id}", f"{name} ({source})"

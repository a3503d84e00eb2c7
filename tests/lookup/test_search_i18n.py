"""The rules search in every language, with small catalogs written here (not the real
cards.po): names in any language, the reader's own exact name first, CJK and Hangul by
runs of characters, Polish with or without its marks, effect words in the reader's
language and English.

The translations are the localized rulebooks' words (shared/reference/seeds/, file:line
beside each); the two marked "made up" exist only to test a ranking rule.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog as PoCatalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

from companion import create_app
from companion.cards import default_root, load_catalog
from companion.cards.concepts import load_concepts
from companion.cards.languages import load_card_languages
from companion.cards.search import (
    TIER_KIND,
    TIER_NAME_EXACT,
    TIER_NAME_EXACT_OTHER,
    TIER_NAME_PHRASE,
    TIER_NAME_START,
    TIER_NAME_WORDS,
    TIER_TEXT_PHRASE,
    Hit,
    Query,
    SearchIndex,
)
from companion.cards.words import glossary_words, load_words, normalize
from companion.db import db
from companion.lookup import SETS, Lookup
from companion.lookup.rulings import load_rulings
from companion.rules.catalog import Catalog
from tests.lookup.conftest import CONFIG, HX

CARTHAG_EFFECTS = "Recruit 1 troop and draw 1 Intrigue card."
TRANSLATED: dict[str, dict[str, str]] = {
    "ja": {
        "Carthag": "カルタゴ",  # seeds/004_0bbc76c9a0894518.txt:575
        "Duncan Idaho": "ダンカン・アイダホ",  # 004:575
        "Count Ilban Richese": "イルバン・リチェス伯爵",  # 004:256
        "Foldspace": "空間転移",  # 004:159
        CARTHAG_EFFECTS: "1部隊を召集し、策謀カードを1枚引く。",  # 004:577
        "Arrakeen": "迦太格",  # made up: a Japanese name that is another item's zh-Hans name
    },
    "pl": {
        "Carthag": "Kartagin",  # seeds/002_bcc1a9abb3bab087.txt:455
        "Sardaukar Legion": "Legion sardaukarów",  # 002:623
        "Paul Atreides": "Paul Atryda",  # 002:996
        "Wealth": "Majątek",  # 002:618
        "Conspire": "Majatek",  # made up: "Majątek" without its mark, another item's name
    },
    "zh_Hans": {
        "Carthag": "迦太格",  # seeds/000_b73cfef8a0a569ce.txt:586
        "Duncan Idaho": "邓肯·艾达荷",  # 000:585
        "Paul Atreides": "保罗·厄崔迪",  # 000:189
        CARTHAG_EFFECTS: "招募一个部队\uff0c抽一张密牌。",  # 000:1037 (\uff0c: full-width comma)
    },
    "ko": {
        "Interstellar Shipping": "성간 거래",  # seeds/003_e26098fc9ff374f3.txt:441
        "Ilesa Ecaz": "일레사 에카즈",  # 003:583
    },
}


def write_catalogs(root: Path, compiled: bool = True) -> None:
    """Each language's `cards` catalog under root: a .mo (or only a .po)."""
    for locale, messages in TRANSLATED.items():
        folder = root / locale / "LC_MESSAGES"
        folder.mkdir(parents=True)
        catalog = PoCatalog(locale=locale, domain="cards")
        for english, translated in messages.items():
            catalog.add(english, translated)
        if compiled:
            with (folder / "cards.mo").open("wb") as mo_file:
                write_mo(mo_file, catalog)
        else:
            with (folder / "cards.po").open("wb") as po_file:
                write_po(po_file, catalog)


@pytest.fixture(scope="module")
def card_catalog() -> Catalog:
    return load_catalog(default_root(), SETS)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory, card_catalog: Catalog) -> SearchIndex:
    root = tmp_path_factory.mktemp("translations")
    write_catalogs(root)
    languages = load_card_languages(root)
    assert sorted(languages) == ["ja", "ko", "pl", "zh_Hans"]
    words, concepts = load_words(default_root()), load_concepts(default_root())
    return SearchIndex(card_catalog, words, concepts, languages)


def search(index: SearchIndex, text: str, language: str) -> list[Hit]:
    return index.find(Query(text=text, language=language)).hits


def first(index: SearchIndex, text: str, language: str) -> str:
    hits = search(index, text, language)
    assert hits, f"{text!r} ({language}) finds nothing"
    return hits[0].item.entry.key


# -- the reader's own exact name first -------------------------------------------------


@pytest.mark.parametrize(
    ("language", "text", "key"),
    [
        ("ja", "カルタゴ", "space:carthag"),
        ("ja", "ダンカン・アイダホ", "imperium:duncan_idaho"),
        ("ja", "イルバン・リチェス伯爵", "leader:ilban_richese"),
        ("ja", "空間転移", "reserve:foldspace"),
        ("pl", "Kartagin", "space:carthag"),
        ("pl", "Legion sardaukarów", "imperium:sardaukar_legion"),
        ("pl", "Paul Atryda", "leader:paul_atreides"),
        ("zh_Hans", "迦太格", "space:carthag"),
        ("zh_Hans", "邓肯·艾达荷", "imperium:duncan_idaho"),
        ("zh_Hans", "保罗·厄崔迪", "leader:paul_atreides"),
        ("ko", "성간 거래", "space:interstellar_shipping"),
        ("ko", "일레사 에카즈", "leader:ilesa_ecaz"),
    ],
)
def test_the_readers_exact_name_comes_first(
    index: SearchIndex, language: str, text: str, key: str
) -> None:
    hits = search(index, text, language)
    assert hits[0].item.entry.key == key
    assert hits[0].tier == TIER_NAME_EXACT
    assert hits[0].name is None  # the reader's own name: nothing more to show


def test_an_exact_name_in_the_readers_language_ranks_above_one_in_another(
    index: SearchIndex,
) -> None:
    # 迦太格 is Carthag in zh-Hans and (made up) Arrakeen in this Japanese catalog.
    def ranks(language: str) -> dict[str, tuple[int, int]]:
        hits = search(index, "迦太格", language)
        return {h.item.entry.key: (n, h.tier) for n, h in enumerate(hits)}

    ja, zh = ranks("ja"), ranks("zh_Hans")
    assert ja["space:arrakeen"] == (0, TIER_NAME_EXACT)
    assert ja["space:carthag"][1] == TIER_NAME_EXACT_OTHER
    assert zh["space:carthag"] == (0, TIER_NAME_EXACT)
    assert zh["space:arrakeen"][1] == TIER_NAME_EXACT_OTHER
    assert zh["space:arrakeen"][0] > zh["hagal:carthag"][0]  # after every exact own name
    other = next(h for h in search(index, "迦太格", "ja") if h.item.entry.key == "space:carthag")
    assert other.name == "迦太格"  # the other language's name that matched, as written


def test_the_same_name_on_a_space_and_a_house_hagal_card_lists_the_space_first(
    index: SearchIndex,
) -> None:
    hits = search(index, "カルタゴ", "ja")
    assert [h.item.entry.key for h in hits[:2]] == ["space:carthag", "hagal:carthag"]


# -- a name in any language, whatever the reader's -------------------------------------


@pytest.mark.parametrize(
    ("language", "text", "key"),
    [
        ("ja", "Carthag", "space:carthag"),  # English, from a Japanese reader
        ("ja", "Duncan Idaho", "imperium:duncan_idaho"),
        ("ja", "Kartagin", "space:carthag"),  # Polish
        ("en", "カルタゴ", "space:carthag"),  # Japanese, from an English reader
        ("en", "邓肯·艾达荷", "imperium:duncan_idaho"),
        ("pl", "カルタゴ", "space:carthag"),
        ("zh_Hans", "Legion sardaukarów", "imperium:sardaukar_legion"),
        ("ko", "カルタゴ", "space:carthag"),
        ("zh_Hant", "迦太格", "space:carthag"),  # a language without a catalog here
    ],
)
def test_a_name_in_any_language_finds_its_item(
    index: SearchIndex, language: str, text: str, key: str
) -> None:
    hits = search(index, text, language)
    assert hits[0].item.entry.key == key
    assert hits[0].tier == TIER_NAME_EXACT_OTHER
    assert hits[0].name == text


def test_the_english_name_of_an_item_stays_exact_for_an_english_reader(
    index: SearchIndex,
) -> None:
    hits = search(index, "Carthag", "en")
    assert hits[0].item.entry.key == "space:carthag"
    assert hits[0].tier == TIER_NAME_EXACT
    assert hits[0].name is None


# -- CJK: runs of characters -----------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "text", "key", "tier"),
    [
        ("ja", "カルタ", "space:carthag", TIER_NAME_START),
        ("ja", "アイダホ", "imperium:duncan_idaho", TIER_NAME_PHRASE),
        ("ja", "ダンカンアイダホ", "imperium:duncan_idaho", TIER_NAME_EXACT),  # no dot typed
        ("ja", "リチェス", "leader:ilban_richese", TIER_NAME_PHRASE),
        ("ja", "転移", "reserve:foldspace", TIER_NAME_PHRASE),
        ("zh_Hans", "艾达", "imperium:duncan_idaho", TIER_NAME_PHRASE),
        ("zh_Hans", "邓肯艾达荷", "imperium:duncan_idaho", TIER_NAME_EXACT),
        ("zh_Hans", "厄崔迪", "leader:paul_atreides", TIER_NAME_PHRASE),
        ("ko", "성간거래", "space:interstellar_shipping", TIER_NAME_EXACT),  # no space typed
        ("ko", "에카즈", "leader:ilesa_ecaz", TIER_NAME_PHRASE),
    ],
)
def test_part_of_a_cjk_or_hangul_name_finds_it(
    index: SearchIndex, language: str, text: str, key: str, tier: int
) -> None:
    hits = search(index, text, language)
    assert hits[0].item.entry.key == key
    assert hits[0].tier == tier


def test_kana_keep_their_voicing_marks() -> None:
    # NFKD splits ゴ into コ and a mark: the mark stays, or カルタコ would find Carthag.
    assert normalize("カルタゴ") != normalize("カルタコ")
    assert normalize("ｶﾙﾀｺﾞ") == normalize("カルタゴ")  # half-width kana fold to full


def test_characters_out_of_order_rank_below_a_run(index: SearchIndex) -> None:
    # ル and カ are both in カルタゴ, but not as a run: every word of the name, no phrase.
    hits = search(index, "ルカ", "ja")
    assert (hits[0].item.entry.key, hits[0].tier) == ("space:carthag", TIER_NAME_WORDS)
    assert search(index, "カル", "ja")[0].tier == TIER_NAME_START


# -- Polish: case and marks --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("kartagin", "space:carthag"),
        ("KARTAGIN", "space:carthag"),
        ("legion sardaukarow", "imperium:sardaukar_legion"),  # ó typed as o
        ("atryda", "leader:paul_atreides"),
    ],
)
def test_polish_names_without_case_or_marks(index: SearchIndex, text: str, key: str) -> None:
    assert first(index, text, "pl") == key


def test_the_spelling_with_its_marks_ranks_first(index: SearchIndex) -> None:
    # "Majątek" (Wealth) and the made-up "Majatek" (Conspire) fold alike: as typed wins.
    def place(text: str) -> dict[str, tuple[int, int]]:
        hits = search(index, text, "pl")
        return {h.item.entry.key: (n, h.tier) for n, h in enumerate(hits)}

    marked, plain = place("majątek"), place("majatek")
    assert marked["space:wealth"] < marked["space:conspire"]
    assert plain["space:conspire"] < plain["space:wealth"]
    assert plain["space:conspire"][1] == plain["space:wealth"][1] == TIER_NAME_EXACT


def test_polish_l_with_stroke_folds_to_l() -> None:
    assert normalize("Żołnierz") == "zolnierz"


# -- effect words: the reader's language and English -------------------------------------


def test_effect_words_in_the_readers_language_find_the_item(index: SearchIndex) -> None:
    hits = search(index, "策謀カードを1枚引く", "ja")
    assert hits[0].item.entry.key == "space:carthag"
    assert hits[0].tier == TIER_TEXT_PHRASE
    text = hits[0].text
    assert text is not None and text.text == CARTHAG_EFFECTS  # shown through card_text
    zh = search(index, "抽一张密牌", "zh_Hans")
    assert zh[0].item.entry.key == "space:carthag"


def test_english_effect_words_still_match_for_every_reader(index: SearchIndex) -> None:
    english = [h.item.entry.key for h in search(index, "draw 1 intrigue card", "en")]
    for language in ("ja", "pl", "zh_Hans"):
        keys = [h.item.entry.key for h in search(index, "draw 1 intrigue card", language)]
        assert keys[: len(english)] == english


def test_effect_words_of_another_language_are_not_searched(index: SearchIndex) -> None:
    # Names cross languages; effect texts only the reader's and English.
    assert "space:carthag" not in [h.item.entry.key for h in search(index, "抽一张密牌", "ja")]
    assert "space:carthag" not in [h.item.entry.key for h in search(index, "抽一张密牌", "en")]


# -- kinds and places in the glossaries' terms ------------------------------------------


@pytest.mark.parametrize(
    ("language", "text", "kind", "place"),
    [
        ("ja", "指揮官", "leader", None),  # glossary.ja.toml leader
        ("zh_Hans", "领袖", "leader", None),
        ("zh_Hant", "領袖", "leader", None),
        ("ko", "기술 타일", "tech", None),
        ("pl", "lider", "leader", None),
        ("ja", "皇帝", "space", "emperor"),
        ("zh_Hans", "宇航公会", "space", "spacing_guild"),
        ("pl", "Fremeni", "space", "fremen"),
    ],
)
def test_a_glossary_term_for_a_kind_or_a_place_lists_its_items(
    index: SearchIndex, language: str, text: str, kind: str, place: str | None
) -> None:
    hits = search(index, text, language)
    listed = [h for h in hits if h.tier == TIER_KIND]
    expected = [i for i in index.items if i.kind == kind and (place is None or place in i.place)]
    assert expected and len(listed) == len(expected)
    assert {h.item.entry.key for h in listed} == {i.entry.key for i in expected}
    assert all(h.tier <= TIER_KIND for h in hits[: len(listed)])


def test_the_glossary_terms_are_read_per_language() -> None:
    found = glossary_words(default_root())
    assert sorted(found) == ["ja", "ko", "pl", "zh_Hans", "zh_Hant"]
    assert found["ja"]["kinds"]["leader"] == ["指揮官"]
    assert found["pl"]["places"]["spice_trade"] == ["KHOAM"]


# -- typos and loading -----------------------------------------------------------------


def test_a_mistyped_name_of_another_language_is_corrected_to_it(index: SearchIndex) -> None:
    found = index.find(Query(text="kartagn", language="ja"))
    assert found.suggestion == "Kartagin"
    assert found.hits[0].item.entry.key == "space:carthag"
    # One letter more than the rulebook's Kartagin (002:455), as Polish might inflect it.
    found = index.find(Query(text="kartagina", language="pl"))
    assert found.suggestion == "Kartagin"
    assert found.hits[0].item.entry.key == "space:carthag"


def test_a_cjk_name_one_character_off_is_corrected(index: SearchIndex) -> None:
    # カルタド: every character is in Carthag's texts (カード), so it matches loosely; the
    # name one character off (3 of 4, fuzzy.CJK_NAME_CUTOFF) is the better answer.
    loose = index.search(Query(text="カルタド", language="ja"))
    assert loose and all(h.loose for h in loose)
    found = index.find(Query(text="カルタド", language="ja"))
    assert found.suggestion == "カルタゴ"
    assert (found.hits[0].item.entry.key, found.hits[0].tier) == ("space:carthag", TIER_NAME_EXACT)
    # Two characters off of four is no longer that name.
    assert index.find(Query(text="カルドド", language="ja")).suggestion is None


def test_the_english_search_is_the_same_without_catalogs(
    index: SearchIndex, card_catalog: Catalog
) -> None:
    plain = SearchIndex(card_catalog, load_words(default_root()), load_concepts(default_root()))
    for text in ("gurney", "carthag", "spice must", "infiltrat", "2 water", "emperor"):
        with_languages = [h.item.entry.key for h in search(index, text, "en")]
        assert with_languages == [h.item.entry.key for h in plain.find(Query(text=text)).hits]


def test_a_catalog_without_its_mo_is_compiled_in_memory(tmp_path: Path) -> None:
    write_catalogs(tmp_path, compiled=False)
    languages = load_card_languages(tmp_path)
    assert languages["pl"]("Carthag") == "Kartagin"
    assert not list(tmp_path.rglob("*.mo"))  # nothing written


def test_a_mo_older_than_its_po_is_not_read(tmp_path: Path) -> None:
    write_catalogs(tmp_path, compiled=False)
    po = tmp_path / "pl" / "LC_MESSAGES" / "cards.po"
    stale = PoCatalog(locale="pl", domain="cards")
    stale.add("Carthag", "Stara nazwa")
    with po.with_suffix(".mo").open("wb") as mo_file:
        write_mo(mo_file, stale)
    os.utime(po.with_suffix(".mo"), (1, 1))  # older than the .po
    assert load_card_languages(tmp_path)["pl"]("Carthag") == "Kartagin"
    os.utime(po, (0, 0))  # now the .mo is the newer: it is read
    assert load_card_languages(tmp_path)["pl"]("Carthag") == "Stara nazwa"


def test_no_catalogs_no_languages(tmp_path: Path) -> None:
    assert load_card_languages(tmp_path) == {}


# -- the search page searches in the page's language -------------------------------------


def test_the_search_page_searches_in_the_readers_language(index: SearchIndex) -> None:
    app = create_app(CONFIG)
    app.extensions["card_lookup"] = Lookup(index, load_rulings(default_root(), index.catalog))
    client = app.test_client()

    def first_row(text: str, **headers: str) -> str:
        response = client.get("/cards", query_string={"q": text}, headers={**HX, **headers})
        assert response.status_code == 200
        page: str = response.get_data(as_text=True)
        return page.split('class="rl-row" href="', 1)[1][:40]

    # 迦太格: Arrakeen in this Japanese catalog (made up), Carthag in Simplified Chinese.
    assert first_row("迦太格", **{"Accept-Language": "ja"}).startswith("/cards/space/arrakeen")
    assert first_row("迦太格", **{"Accept-Language": "zh-CN"}).startswith("/cards/space/carthag")
    client.set_cookie("lang", "ja")  # the language menu's choice wins
    assert first_row("迦太格", **{"Accept-Language": "zh-CN"}).startswith("/cards/space/arrakeen")
    with app.app_context():
        db.engine.dispose()

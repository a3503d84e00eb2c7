"""What players type at the table, and what must come first (or in the top 3).

Issue 15's suite: names, partial names, typos, kinds, effects, Factions, places, Rise of Ix
words, House Hagal, abbreviations. Each query goes through `SearchIndex.find`, as the
search page sends it (with "did you mean" when nothing matches as typed).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.cards import default_root
from companion.cards.search import Query, SearchIndex
from companion.cards.words import problems, words_from
from tests.lookup.conftest import HX

FIRST: list[tuple[str, str]] = [
    # Names and partial names.
    ("gurney", "imperium:gurney_halleck"),
    ("gurney halleck", "imperium:gurney_halleck"),
    ("spice must flow", "reserve:the_spice_must_flow"),
    ("the voice", "imperium:the_voice"),
    ("reverend mother", "imperium:reverend_mother_mohiam"),
    ("dunc", "imperium:duncan_idaho"),
    ("jessica", "imperium:lady_jessica"),
    ("stilgar", "imperium:stilgar"),
    ("shai hulud", "imperium:shai_hulud"),
    ("thufir", "imperium:thufir_hawat"),
    ("tiebreaker", "intrigue:tiebreaker"),
    ("foldspace", "reserve:foldspace"),
    ("signet", "starter:signet_ring"),
    # Leaders, also by a part of their name.
    ("leto", "leader:leto_atreides"),
    ("paul", "leader:paul_atreides"),
    ("baron", "leader:vladimir_harkonnen"),
    ("rabban", "leader:glossu_rabban"),
    ("tessia", "leader:tessia_vernius"),
    # Board spaces by name.
    ("arrakeen", "space:arrakeen"),
    ("carthag", "space:carthag"),
    ("imperial basin", "space:imperial_basin"),
    ("great flat", "space:the_great_flat"),
    ("hagga", "space:hagga_basin"),
    ("heighliner", "space:heighliner"),
    ("sietch", "space:sietch_tabr"),
    ("mentat", "space:mentat"),
    ("swordmaster", "space:swordmaster"),
    ("high council", "space:high_council"),
    ("sell melange", "space:sell_melange"),
    # Typos: the nearest name, with "did you mean".
    ("gurny", "imperium:gurney_halleck"),
    ("gurny haleck", "imperium:gurney_halleck"),
    ("kwizatz", "imperium:kwisatz_haderach"),
    ("kwisatz haderack", "imperium:kwisatz_haderach"),
    ("liet kines", "imperium:liet_kynes"),
    ("gunthopter", "imperium:gun_thopter"),
    ("stilgr", "imperium:stilgar"),
    ("jesica", "imperium:lady_jessica"),
    ("arakeen", "space:arrakeen"),
    # Abbreviations.
    ("kh", "imperium:kwisatz_haderach"),
    ("KH", "imperium:kwisatz_haderach"),
    ("tsmf", "reserve:the_spice_must_flow"),
    # Rise of Ix words.
    ("dreadnought", "space:dreadnought"),
    ("shipping", "track:shipping_track"),
    ("freighter", "imperium:freighter_fleet"),
    ("flagship", "tech:flagship"),
    ("holtzman", "tech:holtzman_engine"),
    ("windtrap", "tech:windtraps"),
    ("tech negotiation", "space:tech_negotiation"),
    ("smuggling", "space:smuggling"),
    # House Hagal.
    ("hagal reshuffle", "hagal:reshuffle"),
    ("rally troops", "space:rally_troops"),
]

# (query, kind or key that must be among the first three)
TOP3: list[tuple[str, str]] = [
    # Kinds and their plurals as words.
    ("tech", "tech:"),
    ("tech tile", "tech:"),
    ("tech tiles", "tech:"),
    ("tiles", "tech:"),
    ("hagal", "hagal:"),
    ("house hagal", "hagal:"),
    ("rival", "hagal:"),
    ("rivals", "hagal:"),
    ("leader", "leader:"),
    ("leaders", "leader:"),
    ("conflict", "conflict:"),
    ("conflicts", "conflict:"),
    ("intrigue", "intrigue:"),
    ("intrigue cards", "intrigue:"),
    ("reserve", "reserve:"),
    ("space", "space:"),
    ("board spaces", "space:"),
    # Factions and places: their board spaces first.
    ("emperor", "space:conspire"),
    ("emperor", "space:wealth"),
    ("fremen", "space:hardy_warriors"),
    ("fremen", "space:stillsuits"),
    ("bene gesserit", "space:secrets"),
    ("BG", "space:selective_breeding"),
    ("guild", "space:heighliner"),
    ("SG", "space:foldspace"),
    ("choam", "space:secure_contract"),
    ("landsraad", "space:high_council"),
    ("city", "space:arrakeen"),
    ("maker", "space:the_great_flat"),
    ("makers", "space:hagga_basin"),
    ("combat spaces", "space:arrakeen"),
    # Effects and words of the rules.
    ("water", "imperium:water_peddler"),
    ("trash", "tech:disposal_facility"),
    ("retreat", "imperium:chani"),
    ("infiltration", "imperium:bounty_hunter"),
    ("negotiator", "leader:rhombur_vernius"),
    ("vp", "conflict:economic_supremacy"),
    ("victory point", "conflict:economic_supremacy"),
    ("interstellar", "space:interstellar_shipping"),
    ("ixian", "imperium:ixian_engineer"),
]


def top(index: SearchIndex, typed: str, n: int) -> list[str]:
    return [h.item.entry.key for h in index.find(Query(text=typed)).hits[:n]]


@pytest.mark.parametrize(("typed", "key"), FIRST)
def test_first_result(index: SearchIndex, typed: str, key: str) -> None:
    assert top(index, typed, 1) == [key]


@pytest.mark.parametrize(("typed", "wanted"), TOP3)
def test_in_the_top_three(index: SearchIndex, typed: str, wanted: str) -> None:
    found = top(index, typed, 3)
    assert any(k == wanted or (wanted.endswith(":") and k.startswith(wanted)) for k in found)


@pytest.mark.parametrize(
    ("typed", "level"),
    [
        *[("conflict 1", 1), ("conflict i", 1), ("conflict 2", 2), ("conflict ii", 2)],
        *[("conflict 3", 3), ("conflict iii", 3), ("Conflict III", 3), ("conflicts 3", 3)],
    ],
)
def test_conflict_levels_are_whole_numerals(index: SearchIndex, typed: str, level: int) -> None:
    """Conflict I/II/III = 1/2/3 [RB p.3, setup of the Conflict deck]; "ii" never matches
    inside "iii", and the Conflict cards of that level come before anything else."""
    hits = index.find(Query(text=typed)).hits
    levels = [getattr(h.item.entry.record, "level", None) for h in hits[:4]]
    assert levels == [level] * 4


def test_a_kind_word_lists_every_item_of_the_kind_first(index: SearchIndex) -> None:
    tiles = [i for i in index.items if i.kind == "tech"]
    hits = index.find(Query(text="tech tiles")).hits
    assert {h.item.kind for h in hits[: len(tiles)]} == {"tech"}
    hagal = [i for i in index.items if i.kind == "hagal"]
    assert {h.item.kind for h in index.find(Query(text="hagal")).hits[: len(hagal)]} == {"hagal"}


def test_faction_word_puts_the_faction_spaces_before_cards(index: SearchIndex) -> None:
    """The Emperor's two spaces [RB p.5, board] come before any card naming the Emperor."""
    hits = index.find(Query(text="emperor")).hits
    assert {h.item.entry.key for h in hits[:2]} == {"space:conspire", "space:wealth"}


def test_negated_mention_does_not_count(index: SearchIndex) -> None:
    """The Dreadnought space says it is not a Combat space [Ix p.12]: "combat space"
    skips it."""
    dreadnought = index.get("space", "dreadnought")
    assert dreadnought is not None and "Combat space" in dreadnought.entry.explanation
    keys = [h.item.entry.key for h in index.find(Query(text="combat space")).hits]
    assert "space:dreadnought" not in keys
    assert "space:arrakeen" in keys


def test_typo_offers_did_you_mean(index: SearchIndex) -> None:
    found = index.find(Query(text="kwisatz haderack"))
    assert found.suggestion == "Kwisatz Haderach"
    assert index.find(Query(text="kwisatz haderach")).suggestion is None


def test_nonsense_finds_nothing_and_suggests_nothing(index: SearchIndex) -> None:
    found = index.find(Query(text="zzzzqqq"))
    assert found.hits == [] and found.suggestion is None


def test_numbers_match_whole_words_only(index: SearchIndex) -> None:
    """'2 water' never matches '12 water' or '20'."""
    for hit in index.find(Query(text="2 water")).hits:
        assert " 2 " in hit.item.haystack


def test_names_of_another_language_match_without_spaces(index: SearchIndex) -> None:
    """The design the languages issue fills: per-language names in words.toml; a CJK
    name needs no spaces, any run of its characters matches."""
    words = words_from({"zh": {"names": {"imperium:gurney_halleck": ["格尼哈莱克"]}}})
    zh = SearchIndex(index.catalog, words)
    assert top(zh, "哈莱", 1) == ["imperium:gurney_halleck"]
    assert top(zh, "格尼哈莱克", 1) == ["imperium:gurney_halleck"]
    assert top(zh, "gurney", 1) == ["imperium:gurney_halleck"]


def test_words_file_problems_are_reported(index: SearchIndex, tmp_path: Path) -> None:
    (tmp_path / "words.toml").write_text(
        '[en]\nkinds.gadget = ["gadget"]\nnames."imperium:nope" = ["x"]\nextra = 1\n'
        '[fr.places]\nemperor = "empereur"\n',
        encoding="utf-8",
    )
    found = problems(tmp_path, index.catalog)
    assert any("unknown kind 'gadget'" in p for p in found)
    assert any("no item 'imperium:nope'" in p for p in found)
    assert any("unknown key 'extra'" in p for p in found)
    assert any("places.emperor: must be a list" in p for p in found)
    assert problems(default_root(), index.catalog) == []


def test_search_page_says_did_you_mean(client: FlaskClient) -> None:
    page = client.get("/cards", query_string={"q": "gurny"}, headers=HX)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Did you mean" in text and "gurney" in text
    assert "/cards/imperium/gurney_halleck" in text

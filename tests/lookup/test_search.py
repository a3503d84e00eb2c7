"""The search itself (no Flask): normalization, ranking, filters, and the issue's searches."""

from __future__ import annotations

import pytest

from companion.cards.search import (
    TIER_EVERY_WORD,
    TIER_INSIDE_WORDS,
    Hit,
    Query,
    SearchIndex,
    normalize,
    parse_query,
    query_args,
)
from companion.rules.catalog import CardDef


def keys(hits: list[Hit]) -> list[str]:
    return [h.item.entry.key for h in hits]


def close(hits: list[Hit]) -> list[Hit]:
    """The hits that matched the name or the words together (not the loose ones)."""
    return [h for h in hits if not h.loose]


# -- normalization ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Gurney Halleck", "gurney halleck"),
        ("GÜRNEY  hallëck", "gurney halleck"),
        ("\uff27\uff35\uff32\uff2e\uff25\uff39", "gurney"),  # full-width letters (NFKD)
        ("Ǵurnéy", "gurney"),
        ("Straße", "strasse"),  # casefold, not lower
        ("Smuggler's Thopter", "smugglers thopter"),
        ("Smuggler\u2019s Thopter", "smugglers thopter"),
        ("To the Victor…", "to the victor"),
        ("+2 Swords; gain two water.", "2 swords gain 2 water"),
        ("Shai-Hulud", "shai hulud"),
        ("", ""),
        ("   \t\n ", ""),
    ],
)
def test_normalize_folds_case_accents_punctuation_and_number_words(text: str, folded: str) -> None:
    assert normalize(text) == folded


# -- the searches of the "Done when" -----------------------------------------------


def test_gurney_finds_gurney_halleck_first(index: SearchIndex) -> None:
    hits = index.search(Query(text="gurney"))
    assert keys(hits)[0] == "imperium:gurney_halleck"
    assert hits[0].item.entry.name == "Gurney Halleck"


def test_spice_must_finds_the_spice_must_flow_first_then_cards_naming_it(
    index: SearchIndex,
) -> None:
    hits = index.search(Query(text="SPICE must"))
    assert keys(hits)[0] == "reserve:the_spice_must_flow"
    named = {"imperium:guild_bankers", "intrigue:corner_the_market", "tech:holtzman_engine"}
    assert named <= set(keys(close(hits)))
    for hit in close(hits):
        assert " spice must" in hit.item.haystack


def test_infiltrat_finds_every_infiltration_card_and_the_intrigue_card(
    index: SearchIndex,
) -> None:
    hits = close(index.search(Query(text="infiltrat")))
    found = set(keys(hits))
    infiltrators = {
        f"{c.kind}:{c.id}"
        for c in index.catalog.cards.values()
        if isinstance(c, CardDef) and c.infiltration
    }
    assert len(infiltrators) == 7
    assert infiltrators <= found
    assert keys(hits)[0] == "intrigue:infiltrate"  # the name matches first


def test_two_water_finds_effects_costs_and_rewards_of_two_water(index: SearchIndex) -> None:
    hits = index.search(Query(text="2 water"))
    phrase = close(hits)
    assert {
        "space:heighliner",  # "gain 2 water"
        "space:research_station",  # costs 2 water
        "space:the_great_flat",  # costs 2 water
        "conflict:secure_imperial_basin",  # second place: 2 water
    } <= set(keys(phrase))
    for hit in phrase:
        assert " 2 water" in hit.item.haystack
        assert hit.text is not None and " 2 water" in hit.text.folded
    # Looser matches (both words, apart) come after every phrase match.
    tiers = [h.tier for h in hits]
    assert tiers == sorted(tiers)
    assert any(h.loose for h in hits)


def test_the_word_two_matches_the_digit(index: SearchIndex) -> None:
    assert "space:research_station" in keys(index.search(Query(text="two water")))


def test_fremen_cards_costing_five_or_more(index: SearchIndex) -> None:
    hits = index.search(parse_query({"faction": "fremen", "cost_min": "5"}))
    expected = {
        f"{c.kind}:{c.id}"
        for c in index.catalog.cards.values()
        if "fremen" in c.factions and c.cost is not None and c.cost >= 5
    }
    assert set(keys(hits)) == expected
    assert {h.item.entry.name for h in hits} == {
        "Chani",
        "Liet Kynes",
        "Satellite Ban",
        "Shai-Hulud",
        "Stilgar",
        "Worm Riders",
    }


# -- accents, case, ranking -----------------------------------------------------------------


@pytest.mark.parametrize(
    "typed", ["GURNEY", "gürney", "Gurnéy", "\uff47\uff55\uff52\uff4e\uff45\uff59", "  gurney  "]
)
def test_search_ignores_case_and_accents(index: SearchIndex, typed: str) -> None:
    assert keys(index.search(Query(text=typed)))[0] == "imperium:gurney_halleck"


def test_accented_data_is_found_by_plain_typing(index: SearchIndex) -> None:
    assert keys(index.search(Query(text="victor...")))[0] == "intrigue:to_the_victor"


def test_words_in_any_order_match_the_name(index: SearchIndex) -> None:
    assert keys(index.search(Query(text="halleck gurney")))[0] == "imperium:gurney_halleck"


def test_name_matches_rank_before_text_matches(index: SearchIndex) -> None:
    hits = index.search(Query(text="foldspace"))
    names = [h for h in hits if h.tier < 4]
    assert {h.item.entry.key for h in names} >= {"space:foldspace", "reserve:foldspace"}
    assert hits[: len(names)] == names


def test_inside_a_word_is_matched_only_when_nothing_starts_with_it(index: SearchIndex) -> None:
    hits = index.search(Query(text="urney"))
    assert keys(hits) == ["imperium:gurney_halleck"]
    assert hits[0].tier == TIER_INSIDE_WORDS
    assert all(h.tier < TIER_INSIDE_WORDS for h in index.search(Query(text="water")))


def test_every_word_is_required(index: SearchIndex) -> None:
    assert index.search(Query(text="gurney zzzz")) == []


def test_empty_query_lists_everything_in_kind_order(index: SearchIndex) -> None:
    hits = index.search(Query())
    assert len(hits) == len(index.items) == 246  # 236 records and 10 rules concepts
    assert not any(h.loose for h in hits)


def test_loose_hits_are_marked(index: SearchIndex) -> None:
    hits = index.search(Query(text="water spice"))
    assert hits and all(h.tier >= TIER_EVERY_WORD or not h.loose for h in hits)


# -- filters --------------------------------------------------------------------------------


def test_set_and_kind_filters(index: SearchIndex) -> None:
    hits = index.search(parse_query({"set": "ix", "kind": "leader"}))
    assert len(hits) == 6
    assert {h.item.entry.set for h in hits} == {"ix"}


def test_agent_icon_filter_covers_cards_and_spaces(index: SearchIndex) -> None:
    hits = index.search(parse_query({"icon": "fremen"}))
    assert {"space:hardy_warriors", "space:stillsuits", "imperium:stilgar"} <= set(keys(hits))
    assert all("fremen" in h.item.icons for h in hits)


def test_cost_range_only_keeps_cards_with_a_persuasion_cost(index: SearchIndex) -> None:
    hits = index.search(parse_query({"cost_min": "7", "cost_max": "7"}))
    assert {h.item.entry.name for h in hits} == {"Lady Jessica", "Shai-Hulud"}
    assert index.search(parse_query({"cost_min": "9", "cost_max": "2"})) == []


def test_intrigue_type_filter(index: SearchIndex) -> None:
    hits = index.search(parse_query({"type": "endgame"}))
    assert hits and all(h.item.kind == "intrigue" for h in hits)
    assert "intrigue:corner_the_market" in keys(hits)
    assert "intrigue:tiebreaker" in keys(hits)  # combat and endgame


def test_conflict_level_filter(index: SearchIndex) -> None:
    hits = index.search(parse_query({"level": "3"}))
    assert len(hits) == 4 + 1  # base 4 Conflict III, Ix 1
    assert all(h.item.kind == "conflict" and h.item.level == 3 for h in hits)


def test_rival_tech_filter(index: SearchIndex) -> None:
    hits = index.search(parse_query({"rival": "1"}))
    assert len(hits) == 12
    assert all(h.item.kind == "tech" for h in hits)


def test_filters_combine_with_words(index: SearchIndex) -> None:
    hits = index.search(parse_query({"q": "troop", "kind": "hagal", "set": "base"}))
    assert hits and all(h.item.kind == "hagal" and h.item.entry.set == "base" for h in hits)


# -- parsing request arguments ------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        {"set": "nope", "kind": "<script>", "faction": "harkonnen", "icon": "1"},
        {"cost_min": "abc", "cost_max": "-3", "level": "7", "type": "sometimes"},
        {"cost_min": "٣", "cost_max": "9999999999999999999999", "level": "1.5"},
        {"rival": "maybe", "q": ""},
    ],
)
def test_junk_arguments_are_ignored(args: dict[str, str]) -> None:
    assert parse_query(args) == Query()


def test_arguments_round_trip() -> None:
    args = {
        "q": "spice",
        "set": "ix",
        "kind": "imperium",
        "faction": "fremen",
        "icon": "city",
        "cost_min": "2",
        "cost_max": "6",
        "type": "plot",
        "level": "2",
        "rival": "1",
    }
    query = parse_query(args)
    assert query.filtered
    assert query_args(query) == args
    assert parse_query(query_args(query)) == query


def test_long_queries_are_cut() -> None:
    assert len(parse_query({"q": "x" * 10_000}).text) == 200

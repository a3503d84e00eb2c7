"""The real card_db files: they validate, and spot checks match the official rules."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from companion.cards import collect_problems, default_root, load_catalog, present_sets
from companion.rules.catalog import Catalog, Resources, Reward

CARD_DB = default_root()
ALL_FILES = sorted(CARD_DB.rglob("*.toml"))


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def test_card_db_has_the_catalog_file_and_the_four_base_files() -> None:
    names = {p.relative_to(CARD_DB).as_posix() for p in ALL_FILES}
    assert {"catalog.toml", "base/spaces.toml", "base/hagal.toml"} <= names
    assert {"base/leaders.toml", "base/conflicts.toml"} <= names


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.relative_to(CARD_DB).as_posix())
def test_every_card_db_file_validates_without_problems(path: Path) -> None:
    label = path.relative_to(CARD_DB).as_posix()
    problems = collect_problems(CARD_DB, present_sets(CARD_DB))
    assert [str(p) for p in problems if p.file == label] == []


def test_all_present_sets_load_together_without_problems() -> None:
    assert collect_problems(CARD_DB, present_sets(CARD_DB)) == []


def test_catalog_version_pins_the_data_version(catalog: Catalog) -> None:
    assert catalog.version == "base-2026.11.1"


def test_base_counts_match_the_component_list(catalog: Catalog) -> None:
    """Rulebook p.3: 31 House Hagal cards, 8 Leaders, 18 Conflict cards; 22 spaces in the guide."""
    assert len(catalog.spaces) == 22
    assert sum(h.copies for h in catalog.hagal.values()) == 31
    assert len(catalog.hagal) == 15
    assert len(catalog.leaders) == 8
    assert len(catalog.conflicts) == 18


def test_hagal_deck_has_three_1p_and_four_2p_cards(catalog: Catalog) -> None:
    """Rulebook pp.19-20: solo removes Reshuffle + three 2P Arrakeen; 2P removes three 1P."""
    by_players = {
        mark: sum(h.copies for h in catalog.hagal.values() if h.players == mark)
        for mark in ("1P", "2P", "both")
    }
    assert by_players == {"1P": 3, "2P": 4, "both": 24}


def test_conflict_deck_is_split_four_ten_four_by_level(catalog: Catalog) -> None:
    """Rulebook p.4, setup B: four Conflict I, ten Conflict II, four Conflict III cards."""
    levels = [c.level for c in catalog.conflicts.values()]
    assert (levels.count(1), levels.count(2), levels.count(3)) == (4, 10, 4)


# The ids of shared/data/spaces.json, in its order.
# fmt: off
SPACE_IDS = [
    "conspire", "wealth", "heighliner", "foldspace", "selective_breeding", "secrets",
    "hardy_warriors", "stillsuits", "high_council", "mentat", "swordmaster",
    "hall_of_oratory", "rally_troops", "secure_contract", "sell_melange", "arrakeen",
    "carthag", "research_station", "sietch_tabr", "the_great_flat", "hagga_basin",
    "imperial_basin",
]
# fmt: on


def test_space_ids_are_those_of_the_shared_data(catalog: Catalog) -> None:
    assert list(catalog.spaces) == SPACE_IDS


def test_sietch_tabr_requires_two_fremen_influence_and_gives_none(catalog: Catalog) -> None:
    """Board Space Guide: City icon, Combat space, requirement 2 Fremen Influence."""
    sietch = catalog.space("sietch_tabr")
    assert sietch.requires_influence == {"fremen": 2}
    assert sietch.icon == "city"
    assert sietch.faction is None
    assert sietch.combat


def test_mentat_costs_two_solari(catalog: Catalog) -> None:
    """Board Space Guide: Mentat, cost 2 Solari (solo difficulty may raise it to 5, p.20)."""
    assert catalog.space("mentat").cost == Resources(solari=2)


def test_only_arrakeen_carthag_and_imperial_basin_have_control_bonuses(catalog: Catalog) -> None:
    """Board Space Guide: Arrakeen and Carthag pay 1 Solari, Imperial Basin 1 spice."""
    bonuses = {s.id: s.control_bonus for s in catalog.spaces.values() if s.control_bonus}
    assert bonuses == {
        "arrakeen": Resources(solari=1),
        "carthag": Resources(solari=1),
        "imperial_basin": Resources(spice=1),
    }


def test_maker_spaces_harvest_one_two_and_three_spice(catalog: Catalog) -> None:
    """Board Space Guide and FAQ (Carryall): Imperial Basin 1, Hagga Basin 2, Great Flat 3."""
    makers = {s.id: s.base_spice for s in catalog.spaces.values() if s.maker}
    assert makers == {"imperial_basin": 1, "hagga_basin": 2, "the_great_flat": 3}
    assert all(catalog.space(m).combat for m in makers)


def test_only_high_council_and_swordmaster_are_once_per_game(catalog: Catalog) -> None:
    """Board Space Guide: 'only once per game' appears on these two spaces."""
    assert {s.id for s in catalog.spaces.values() if s.once_per_game} == {
        "high_council",
        "swordmaster",
    }


def test_rise_of_ix_covers_four_base_spaces(catalog: Catalog) -> None:
    """spaces.json `with_rise_of_ix`: the CHOAM overlay covers these four spaces."""
    covered = {s.id for s in catalog.spaces.values() if "ix" in s.removed_with}
    assert covered == {"hall_of_oratory", "rally_troops", "secure_contract", "sell_melange"}
    assert all(s.removed_with in ((), ("ix",)) for s in catalog.spaces.values())


def test_sell_melange_cost_is_shown_as_text_only(catalog: Catalog) -> None:
    """Board Space Guide: Sell Melange costs 2 to 5 spice, so the fixed cost stays empty."""
    melange = catalog.space("sell_melange")
    assert melange.cost.is_empty()
    assert melange.cost_note == "2 to 5 spice"


def test_arrakeen_1p_is_the_only_signet_card(catalog: Catalog) -> None:
    """Rulebook p.19: the Signet Ring icon appears only on the solo Arrakeen cards."""
    signets = [h for h in catalog.hagal.values() if h.signet]
    assert [(h.id, h.copies, h.players) for h in signets] == [("arrakeen_1p", 3, "1P")]


def test_rise_of_ix_removes_rally_troops_and_hall_of_oratory_cards(catalog: Catalog) -> None:
    """Rise of Ix rulebook p.8 and FAQ errata: remove two Hall of Oratory, two Rally Troops."""
    removed = {h.id: h.copies for h in catalog.hagal.values() if "ix" in h.removed_with}
    assert removed == {"rally_troops": 2, "hall_of_oratory": 2}


def test_harvest_and_reshuffle_cards_have_no_fixed_space(catalog: Catalog) -> None:
    harvest, reshuffle = catalog.hagal["harvest_spice"], catalog.hagal["reshuffle"]
    assert (harvest.space, harvest.harvest, harvest.copies, harvest.swords) == (None, True, 5, 2)
    assert (reshuffle.space, reshuffle.reshuffle, reshuffle.players) == (None, True, "2P")
    assert harvest.uncertain, "the Harvest Spice target rule is medium confidence"


def test_hagal_influence_matches_the_faction_of_its_space(catalog: Catalog) -> None:
    for card in catalog.hagal.values():
        if card.space is not None:
            assert card.influence == catalog.space(card.space).faction, card.id


def test_paul_and_helena_cannot_be_rivals(catalog: Catalog) -> None:
    """Rulebook p.20: your opponents can't play Paul Atreides or Helena Richese."""
    banned = {x.id for x in catalog.leaders.values() if not x.rival_allowed}
    assert banned == {"paul_atreides", "helena_richese"}
    assert {catalog.leaders[i].rival_signet for i in banned} == {"none"}


def test_each_rival_leader_has_its_own_signet_kind(catalog: Catalog) -> None:
    signets = {x.id: x.rival_signet for x in catalog.leaders.values() if x.rival_allowed}
    assert signets == {
        "leto_atreides": "leto_diplomacy",
        "vladimir_harkonnen": "baron_scheme",
        "glossu_rabban": "rabban_brutality",
        "ilban_richese": "gain_solari",
        "memnon_thorvald": "gain_spice",
        "ariana_thorvald": "gain_water",
    }


def test_control_conflicts_grant_control_of_their_space(catalog: Catalog) -> None:
    """Rulebook p.19 example: Siege of Arrakeen gives 1 VP and control of Arrakeen."""
    siege = catalog.conflicts["siege_of_arrakeen"]
    assert siege.first == Reward(vp=1, control="arrakeen")
    controlled = {c.id: c.controlled_space for c in catalog.conflicts.values()}
    assert sum(1 for space in controlled.values() if space) == 6


def test_choice_rewards_are_built_as_options(catalog: Catalog) -> None:
    cloak = catalog.conflicts["cloak_and_dagger"].third
    assert cloak == Reward(choose=1, options=(Reward(intrigue=1), Reward(spice=1)))
    arrakeen = catalog.conflicts["battle_for_arrakeen"].second
    assert arrakeen.choose == 2
    assert arrakeen.options == (Reward(intrigue=1), Reward(spice=2), Reward(solari=3))


def test_influence_rewards_name_how_many_factions(catalog: Catalog) -> None:
    firsts = {i: catalog.conflicts[i].first for i in ("skirmish_c", "grand_vision", "machinations")}
    spread = {i: (r.influence, r.influence_factions) for i, r in firsts.items()}
    assert spread == {"skirmish_c": (1, 1), "grand_vision": (2, 1), "machinations": (1, 2)}


def test_known_source_disagreements_are_marked_uncertain(catalog: Catalog) -> None:
    """SOURCES-cards.md §4 lists these three conflict disagreements."""
    for conflict_id in ("sort_through_the_chaos", "grand_vision", "battle_for_arrakeen"):
        assert catalog.conflicts[conflict_id].uncertain, conflict_id
    assert catalog.conflicts["sort_through_the_chaos"].first.solari == 2
    assert catalog.conflicts["grand_vision"].third.spice == 3


def test_doubts_on_spaces_and_leaders_are_kept_in_extra(catalog: Catalog) -> None:
    uncertain = catalog.extra["uncertain"]
    assert isinstance(uncertain, Mapping)
    assert "sell_melange" in uncertain["spaces"]
    assert "helena_richese" in uncertain["leaders"]


def test_catalog_mappings_keep_file_order_and_are_read_only(catalog: Catalog) -> None:
    assert next(iter(catalog.conflicts)) == "skirmish_a"
    with pytest.raises(TypeError):
        catalog.spaces["x"] = catalog.space("wealth")  # type: ignore[index]


def sentences(text: str) -> int:
    return len([part for part in re.split(r"(?<=[.!?])\s+", text.strip()) if part])


def test_space_explanations_are_two_or_three_sentences(catalog: Catalog) -> None:
    for space in catalog.spaces.values():
        assert 2 <= sentences(space.explanation) <= 3, space.id


def test_other_explanations_are_at_most_three_sentences(catalog: Catalog) -> None:
    texts = [h.explanation for h in catalog.hagal.values()]
    texts += [c.explanation for c in catalog.conflicts.values()]
    texts += [x.rival_explanation for x in catalog.leaders.values()]
    for text in texts:
        assert 1 <= sentences(text) <= 3, text

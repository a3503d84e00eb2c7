"""The real card_db files: they validate, and spot checks match the official rules."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from companion.cards import (
    NOT_SETS,
    collect_problems,
    default_root,
    load_catalog,
    present_sets,
)
from companion.cards.__main__ import counts_per_set
from companion.rules.catalog import Catalog, Offer, Resources, Reward

CARD_DB = default_root()
# Card files only: card_db/i18n holds the translations' glossaries (tests/i18n).
ALL_FILES = sorted(
    p for p in CARD_DB.rglob("*.toml") if p.relative_to(CARD_DB).parts[0] not in NOT_SETS
)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="module")
def full() -> Catalog:
    """Base game and Rise of Ix together."""
    return load_catalog(sets=("base", "ix"))


def test_card_db_has_one_file_per_set_and_kind() -> None:
    names = {p.relative_to(CARD_DB).as_posix() for p in ALL_FILES}
    base = ["spaces", "hagal", "leaders", "conflicts", "imperium", "starter", "reserve", "intrigue"]
    ix = ["spaces", "hagal", "leaders", "conflicts", "imperium", "intrigue", "tech"]
    ix += ["control_the_spice", "track"]
    expected = {"catalog.toml", "rulings.toml", "words.toml", "concepts.toml"}
    expected |= {f"base/{k}.toml" for k in base}
    expected |= {f"ix/{k}.toml" for k in ix}
    assert names == expected


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.relative_to(CARD_DB).as_posix())
def test_every_card_db_file_validates_without_problems(path: Path) -> None:
    label = path.relative_to(CARD_DB).as_posix()
    problems = collect_problems(CARD_DB, present_sets(CARD_DB))
    assert [str(p) for p in problems if p.file == label] == []


def test_all_present_sets_load_together_without_problems() -> None:
    assert collect_problems(CARD_DB, present_sets(CARD_DB)) == []


def test_catalog_version_pins_the_data_version(catalog: Catalog) -> None:
    assert catalog.version == "2026.11.3"


def test_copies_per_set_and_kind_match_the_component_lists(full: Catalog) -> None:
    """Rulebook p.3 (67 Imperium, 10-card starting deck, 24 Reserve, 40 Intrigue, 18 Conflict,
    8 Leaders, 31 House Hagal) and Rise of Ix rulebook p.2 (35 Imperium, 17 Intrigue, 18 Tech
    tiles, 4 Conflict, 6 Leaders, 9 House Hagal, one Control the Spice per player colour)."""
    assert counts_per_set(full, ("base", "ix")) == {
        "base": {
            "spaces": 22,
            "hagal": 31,
            "leaders": 8,
            "conflicts": 18,
            "imperium": 67,
            "starter": 10,
            "reserve": 24,
            "intrigue": 40,
        },
        "ix": {
            "spaces": 4,
            "hagal": 9,
            "leaders": 6,
            "conflicts": 4,
            "imperium": 35,
            "control_the_spice": 1,
            "intrigue": 17,
            "tech": 18,
            "track": 1,
        },
    }


def test_default_sets_load_the_base_game_only(catalog: Catalog) -> None:
    sets = {r.set for r in catalog.spaces.values()} | {r.set for r in catalog.hagal.values()}
    sets |= {r.set for r in catalog.leaders.values()} | {r.set for r in catalog.conflicts.values()}
    sets |= {r.set for r in catalog.cards.values()} | {r.set for r in catalog.intrigue.values()}
    assert sets == {"base"}
    assert not catalog.tech
    assert not catalog.tracks
    assert {c.kind for c in catalog.cards.values()} == {"imperium", "starter", "reserve"}


def test_kinds_are_counted_in_copies_not_kinds(full: Catalog) -> None:
    imperium = [c for c in full.cards.values() if c.kind == "imperium"]
    assert len([c for c in imperium if c.set == "base"]) == 43
    assert len([c for c in imperium if c.set == "ix"]) == 29
    assert len([i for i in full.intrigue.values() if i.set == "base"]) == 34


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


def test_new_explanations_are_short_and_not_the_effect_text(full: Catalog) -> None:
    texts: list[tuple[str, str, tuple[str, ...]]] = []
    texts += [(c.id, c.explanation, (c.agent, c.reveal, c.acquire)) for c in full.cards.values()]
    texts += [(i.id, i.explanation, (i.plot, i.combat, i.endgame)) for i in full.intrigue.values()]
    texts += [(t.id, t.explanation, (t.ability, t.acquire)) for t in full.tech.values()]
    texts += [(t.id, t.explanation, (t.effects,)) for t in full.tracks.values()]
    for record_id, explanation, effects in texts:
        assert 1 <= sentences(explanation) <= 3, record_id
        assert explanation not in effects, record_id
    for space in full.spaces.values():
        assert 2 <= sentences(space.explanation) <= 3, space.id


# --- spot checks against the rulebooks and the FAQ ------------------------------------


def test_the_spice_must_flow_gives_a_victory_point_when_acquired(catalog: Catalog) -> None:
    """FAQ: you keep the Victory Point for acquiring it even if you later trash it.
    Rulebook p.3: 10 copies in the Reserve."""
    spice = catalog.cards["the_spice_must_flow"]
    assert (spice.kind, spice.copies, spice.cost, spice.acquire_vp) == ("reserve", 10, 9, 1)
    assert [c.id for c in catalog.cards.values() if c.acquire_vp] == ["the_spice_must_flow"]


def test_reserve_stacks_are_eight_ten_and_six(catalog: Catalog) -> None:
    """Rulebook p.3: 8 Arrakis Liaison, 10 The Spice Must Flow, 6 Foldspace."""
    reserve = {c.id: c.copies for c in catalog.cards.values() if c.kind == "reserve"}
    assert reserve == {"arrakis_liaison": 8, "the_spice_must_flow": 10, "foldspace": 6}


def test_starting_deck_matches_the_component_list(catalog: Catalog) -> None:
    """Rulebook p.3: the 10-card starting deck of each player."""
    starter = {c.id: c.copies for c in catalog.cards.values() if c.kind == "starter"}
    assert starter == {
        "convincing_argument": 2,
        "dagger": 2,
        "diplomacy": 1,
        "dune_the_desert_planet": 2,
        "reconnaissance": 1,
        "seek_allies": 1,
        "signet_ring": 1,
    }
    assert all(
        c.per_player and c.cost is None for c in catalog.cards.values() if c.kind == "starter"
    )


def test_control_the_spice_replaces_one_dune_per_player(full: Catalog) -> None:
    """Rise of Ix rulebook p.2 (one per player colour) and p.10 (Epic mode setup)."""
    card = full.cards["control_the_spice"]
    assert (card.kind, card.set, card.copies, card.per_player) == (
        "control_the_spice",
        "ix",
        1,
        True,
    )
    assert card.replaces == "dune_the_desert_planet"
    assert full.cards["dune_the_desert_planet"].copies == 2
    assert card.uncertain, "its Agent box comes from one source"


def test_foldspace_can_go_anywhere_and_kwisatz_haderach_has_every_icon(catalog: Catalog) -> None:
    """FAQ: Foldspace is gained only through the Foldspace icon; rulebook p.13 on Kwisatz."""
    every_icon = ("emperor", "spacing_guild", "bene_gesserit", "fremen", "landsraad", "city")
    for card_id in ("foldspace", "kwisatz_haderach"):
        assert catalog.cards[card_id].icons == (*every_icon, "spice_trade"), card_id


def test_missionaria_protectiva_is_a_bene_gesserit_card_with_two_copies(catalog: Catalog) -> None:
    """FAQ errata: part of the Bene Gesserit faction; two copies in the Imperium Deck."""
    card = catalog.cards["missionaria_protectiva"]
    assert (card.factions, card.copies) == (("bene_gesserit",), 2)


def test_intrigue_types_and_a_two_type_card(full: Catalog) -> None:
    """Rulebook p.7: Plot, Combat and Endgame Intrigue cards."""
    tiebreaker = full.intrigue["tiebreaker"]
    assert tiebreaker.types == ("combat", "endgame")
    assert tiebreaker.combat and tiebreaker.endgame and not tiebreaker.plot
    for card in full.intrigue.values():
        for kind in ("plot", "combat", "endgame"):
            assert bool(getattr(card, kind)) == (kind in card.types), (card.id, kind)


def test_disposal_facility_costs_three_spice_and_trashes_a_card(full: Catalog) -> None:
    """Rise of Ix rulebook p.4 example: Disposal Facility costs 3 spice; its Acquire effect
    trashes a card."""
    tile = full.tech["disposal_facility"]
    assert (tile.cost, tile.acquire_reward.trash) == (3, True)


def test_tech_tile_names_and_costs(full: Catalog) -> None:
    """Costs agree in Spice Flow, my-mentat and DuneBlend; the spelling 'Restricted Ordnance'
    is the Ix rulebook's."""
    assert full.tech["restricted_ordnance"].name == "Restricted Ordnance"
    assert full.tech["flagship"].cost == 8
    assert sorted(t.cost for t in full.tech.values()) == [
        1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 8
    ]  # fmt: skip


def test_rival_marked_tech_tiles_and_their_rules(full: Catalog) -> None:
    """Rise of Ix rulebook p.9 names eight tiles with a Rival rule; Spice Flow marks four more.
    Marks not named by the rulebook are flagged uncertain."""
    named = {
        "detonation_devices",
        "flagship",
        "holtzman_engine",
        "invasion_ships",
        "sonic_snoopers",
        "spy_satellites",
        "training_drones",
        "troop_transports",
    }
    marked = {t.id for t in full.tech.values() if t.hagal_ok}
    assert len(marked) == 12
    assert named <= marked
    assert {t.id for t in full.tech.values() if t.rival_rule} == named
    for tile in full.tech.values():
        assert bool(tile.uncertain) == (tile.id not in named or tile.id == "spy_satellites"), (
            tile.id
        )


def test_interstellar_shipping_needs_two_spacing_guild_influence(full: Catalog) -> None:
    """Rise of Ix rulebook p.8 and p.12: requirement 2 Spacing Guild Influence, for Rivals too;
    it moves the Freighter twice."""
    space = full.space("interstellar_shipping")
    assert space.requires_influence == {"spacing_guild": 2}
    assert (space.icon, space.freighter, space.set) == ("spice_trade", 2, "ix")


def test_the_four_ix_spaces(full: Catalog) -> None:
    """Rise of Ix rulebook p.12, new board spaces."""
    smuggling, dreadnought = full.space("smuggling"), full.space("dreadnought")
    negotiation = full.space("tech_negotiation")
    assert (smuggling.icon, smuggling.cost, smuggling.freighter) == ("spice_trade", Resources(), 1)
    assert (dreadnought.icon, dreadnought.cost) == ("landsraad", Resources(solari=3))
    assert (dreadnought.dreadnought, dreadnought.acquire_tech) == (1, True)
    assert (negotiation.icon, negotiation.tech_discount, negotiation.negotiator) == (
        "landsraad",
        1,
        1,
    )
    assert negotiation.ix_choose_one and not dreadnought.ix_choose_one


def test_the_ix_board_swaps_four_spaces(full: Catalog) -> None:
    """Rise of Ix rulebook p.3: the CHOAM overlay covers four base spaces and adds two; the
    Ix board adds two more."""
    board = full.board(("base", "ix"))
    assert len(board) == 22
    assert {"smuggling", "interstellar_shipping", "dreadnought", "tech_negotiation"} <= set(board)
    assert not {"hall_of_oratory", "rally_troops", "secure_contract", "sell_melange"} & set(board)
    assert set(full.board(("base",))) == set(SPACE_IDS)


def hagal_deck(catalog: Catalog, sets: tuple[str, ...], drop: str) -> int:
    return sum(
        h.copies
        for h in catalog.hagal.values()
        if h.set in sets and h.players != drop and not any(s in sets for s in h.removed_with)
    )


def test_hagal_deck_sizes_with_rise_of_ix(full: Catalog) -> None:
    """Rise of Ix rulebook p.8 and FAQ errata: solo 30 cards, two players 29."""
    assert hagal_deck(full, ("base",), "2P") == 27
    assert hagal_deck(full, ("base",), "1P") == 28
    assert hagal_deck(full, ("base", "ix"), "2P") == 30
    assert hagal_deck(full, ("base", "ix"), "1P") == 29


def test_dual_hagal_cards_choose_by_spacing_guild_influence(full: Catalog) -> None:
    """Rise of Ix rulebook p.8 and FAQ ('Rivals'): the half matching the Rival's Influence."""
    fold = full.hagal["foldspace_or_interstellar_shipping"]
    assert (fold.space, fold.influence, fold.freighter) == ("foldspace", "spacing_guild", 0)
    assert (fold.space_if_guild_2, fold.influence_if_guild_2) == ("interstellar_shipping", None)
    assert fold.freighter_if_guild_2 == 2
    smug = full.hagal["smuggling_or_interstellar_shipping"]
    assert (smug.space, smug.freighter, smug.space_if_guild_2) == (
        "smuggling",
        1,
        "interstellar_shipping",
    )
    plain = [h for h in full.hagal.values() if h.space_if_guild_2 is None]
    assert all(h.freighter_if_guild_2 == 0 and h.influence_if_guild_2 is None for h in plain)


def test_ix_hagal_cards(full: Catalog) -> None:
    """Rise of Ix rulebook pp.8-9: Dreadnought 1P/2P, Tech Negotiation (solo only)."""
    one, two = full.hagal["dreadnought_1p"], full.hagal["dreadnought_2p"]
    assert (one.players, one.dreadnought, one.acquire_tech, one.troops) == ("1P", 1, True, 0)
    assert (two.players, two.dreadnought, two.acquire_tech, two.troops) == ("2P", 1, False, 2)
    assert any("1" in doubt for doubt in two.uncertain), "the 2P troop count is disputed"
    tech = full.hagal["tech_negotiation"]
    assert (tech.players, tech.copies, tech.tech_discount, tech.negotiator) == ("1P", 2, 1, 1)
    shipping = full.hagal["interstellar_shipping"]
    assert (shipping.space, shipping.freighter, shipping.swords) == ("interstellar_shipping", 2, 3)


def test_only_rhombur_and_hundro_are_new_rivals(full: Catalog) -> None:
    """Rise of Ix rulebook p.8: Prince Rhombur Vernius and Viscount Hundro Moritani."""
    ix = {x.id: x.rival_signet for x in full.leaders.values() if x.set == "ix"}
    assert ix == {
        "armand_ecaz": "none",
        "ilesa_ecaz": "none",
        "rhombur_vernius": "rhombur_tech",
        "tessia_vernius": "none",
        "yuna_moritani": "none",
        "hundro_moritani": "hundro_freighter",
    }
    assert {x.id for x in full.leaders.values() if x.set == "ix" and x.rival_allowed} == {
        "rhombur_vernius",
        "hundro_moritani",
    }


def test_ix_conflicts_and_economic_supremacy(full: Catalog) -> None:
    """Rise of Ix rulebook p.2: 2 Conflict I, 1 Conflict II, 1 Conflict III."""
    levels = sorted(c.level for c in full.conflicts.values() if c.set == "ix")
    assert levels == [1, 1, 2, 3]
    supremacy = full.conflicts["economic_supremacy"]
    assert supremacy.first == Reward(
        vp=1, offers=(Offer(Resources(solari=6), 1), Offer(Resources(spice=4), 1))
    )
    assert supremacy.uncertain
    assert full.conflicts["trade_monopoly"].first == Reward(freighter=2, troops=1)


def test_shipping_track_steps_follow_the_rival_rule(full: Catalog) -> None:
    """Rise of Ix rulebook p.8: the second step recruits two troops and gives an Influence; the
    first is Dividends; p.5: the top step is Acquire Tech with a 2-spice discount."""
    track = full.tracks["shipping_track"]
    first, second, third = track.steps
    assert first.dividends and first.reward.options == (Reward(solari=5), Reward(spice=2))
    assert second.reward == Reward(troops=2, influence=1, influence_factions=1)
    assert (third.acquire_tech, third.tech_discount) == (True, 2)


def test_source_disagreements_are_marked_uncertain(full: Catalog) -> None:
    """SOURCES-cards.md §4-5 (⚠ items) and SOURCES-hagal.md: doubts are kept, not hidden."""
    assert full.cards["esmar_tuek"].uncertain
    assert full.cards["in_the_shadows"].uncertain
    assert full.cards["sietch_reverend_mother"].uncertain
    assert full.cards["arrakis_liaison"].uncertain
    assert full.tech["spy_satellites"].uncertain
    uncertain = full.extra["uncertain"]
    assert isinstance(uncertain, Mapping)
    assert {"armand_ecaz", "rhombur_vernius", "hundro_moritani"} <= set(uncertain["leaders"])


def test_card_ids_are_unique_for_lookup_by_id(full: Catalog) -> None:
    """`/c/<card-id>` resolves cards, Intrigue, Tech tiles, leaders and conflicts by one id."""
    ids = [*full.cards, *full.intrigue, *full.tech, *full.leaders, *full.conflicts]
    assert len(ids) == len(set(ids))


def test_a_spaces_gain_is_what_its_effects_say_it_gives(full: Catalog) -> None:
    """`gain` holds the Solari and water a space's printed effect gives outright (Board
    Space Guide, RB pp.16-18; Smuggling, IX p.12): "gain 2 Solari", "gain 1 water"."""
    said = re.compile(r"\bgain (\d+) (Solari|water)\b", re.IGNORECASE)
    for space in full.spaces.values():
        found = {kind.lower(): int(n) for n, kind in said.findall(space.effects)}
        expected = Resources(solari=found.get("solari", 0), water=found.get("water", 0))
        assert space.gain == expected, space.id
    assert full.spaces["secure_contract"].gain == Resources(solari=3)
    assert full.spaces["smuggling"].gain == Resources(solari=1)

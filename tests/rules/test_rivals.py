"""Rival Agent turns driven by House Hagal cards, signets, exchanges and Expert deployment.

Sources: base rulebook (RB) p.19 "House Hagal Cards", p.20 "Solo Play"; FAQ "Solo Play",
"troops", "Rivals"; HAGAL.md §1, §2, §3, §4, §7.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.rules.actions import Choose, IllegalAction, Voice
from companion.rules.engine import apply
from companion.rules.state import GameState
from tests.rules.helpers import (
    catalog,
    entries,
    house,
    idle_rivals,
    kinds,
    place,
    reveal,
    solo,
    stack,
    two_player,
    vacate,
)


def r1_plays(s: GameState, *cards: str, space: str = "secure_contract") -> GameState:
    """You send an Agent to `space`; then r1 (alone, r2 is out of Agents) reveals `cards`."""
    assert s.turn == "p1"
    s = house(s, "r2", placed=s.house("r2").agents)
    targets = [catalog().hagal[c].space for c in cards]
    s = vacate(s, *(t for t in targets if t), space)
    s = stack(s, *cards)
    return place(s, space)


def hagal_plays(s: GameState, *cards: str, space: str = "secure_contract") -> GameState:
    """Two-player: the First Player sends an Agent to `space`; House Hagal reveals `cards`."""
    assert s.turn == s.first
    targets = [catalog().hagal[c].space for c in cards]
    s = vacate(s, *(t for t in targets if t), space)
    s = stack(s, *cards)
    return place(s, space)


def rival_agents(s: GameState) -> list[tuple[str | None, object]]:
    return [(e.house, e.data["space"]) for e in s.last_entries if e.kind == "rival_agent"]


# -- revealing cards -----------------------------------------------------------------------


def test_rival_skips_occupied_space_and_reveals_next_card():
    """Rulebook p.19 Agents: "If the space is occupied, ignore the card and continue revealing
    cards until you reveal an unoccupied space"."""
    s = solo()
    s = r1_plays(s, "wealth", "foldspace", space="wealth")
    assert entries(s, "hagal_skip", "r1") == [{"card": "wealth", "reason": "occupied"}]
    assert rival_agents(s) == [("r1", "foldspace")]
    assert s.occupants["wealth"] == "p1"
    assert "wealth" in s.hagal_discard and "foldspace" in s.hagal_discard


def test_rival_reshuffles_all_cards_when_the_deck_is_empty():
    """Rulebook p.19: "If the House Hagal deck is ever empty ... immediately reshuffle the
    House Hagal cards to form a new deck"."""
    s = solo()
    s = replace(s, hagal_deck=(), hagal_discard=(*s.hagal_discard, *s.hagal_deck))
    s = house(s, "r2", placed=2)
    s = place(vacate(s, "secure_contract"), "secure_contract")
    assert entries(s, "hagal_reshuffle") == [{"cards": 27}]
    assert len(s.hagal_deck) + len(s.hagal_discard) == 27
    assert len(rival_agents(s)) == 1


def test_reshuffle_card_reshuffles_every_card_and_reveals_again():
    """Rulebook p.19: "(or if the Reshuffle card is revealed), immediately reshuffle the House
    Hagal cards"; HAGAL.md §2.3 (two-player only card)."""
    s = two_player()
    deck = list(s.hagal_deck)
    discarded = tuple(deck[:5])
    for card in discarded:
        deck.remove(card)
    s = replace(s, hagal_deck=tuple(deck), hagal_discard=discarded)
    s = hagal_plays(s, "reshuffle")
    assert kinds(s)[:3] == ["agent", "hagal_reshuffle", "hagal_reshuffle_card"]
    assert entries(s, "hagal_reshuffle") == [{"cards": 28}]
    assert len(rival_agents(s)) == 1  # it revealed again and placed one Agent
    assert len(s.hagal_deck) + len(s.hagal_discard) == 28
    assert sum(1 for e in s.last_entries if e.kind == "hagal_skip") + 1 == len(s.hagal_discard)


# -- troops --------------------------------------------------------------------------------


def test_rival_recruits_go_to_the_conflict_on_a_combat_space():
    """Rulebook p.19: troop icons recruit from supply; "If the revealed card is a Combat space,
    deploy them to the Conflict"."""
    s = house(solo(), "r1", garrison=0, troops=0)
    s = r1_plays(s, "hardy_warriors")
    r1 = s.house("r1")
    assert (r1.troops, r1.garrison) == (2, 0)
    assert entries(s, "deploy", "r1") == [{"troops": 2}]


def test_rival_recruits_go_to_the_garrison_on_other_spaces():
    """Rulebook p.19: "Otherwise, put the troops in its garrison"."""
    s = house(solo(), "r1", garrison=1, troops=0)
    s = r1_plays(s, "rally_troops")
    r1 = s.house("r1")
    assert (r1.troops, r1.garrison) == (0, 5)
    assert "deploy" not in kinds(s)


def test_rival_recruits_only_what_its_supply_holds():
    """Rulebook p.10: "If you run out of troops in your supply, you can't recruit more"."""
    s = house(solo(), "r1", garrison=10, troops=0)
    s = r1_plays(s, "rally_troops")
    assert s.house("r1").garrison == 12
    assert entries(s, "recruit", "r1") == [{"troops": 2, "wanted": 4}]


@pytest.mark.parametrize(("garrison", "deployed"), [(3, 2), (1, 1), (0, 0)])
def test_rival_deploys_up_to_two_garrison_troops_on_a_combat_space_without_recruits(
    garrison, deployed
):
    """Rulebook p.19: "Any time a Rival sends an Agent to a Combat space, it also deploys up to
    two troops from its garrison (if available) ... even if the card itself recruited no
    troops"."""
    s = house(solo(), "r1", garrison=garrison, troops=0)
    s = r1_plays(s, "stillsuits")
    r1 = s.house("r1")
    assert (r1.troops, r1.garrison) == (deployed, garrison - deployed)


def test_rival_deploys_its_recruits_and_two_more_from_the_garrison():
    """Rulebook p.19 and Board Space Guide: recruits of this turn plus up to two more from the
    garrison; FAQ troops: no "re-recruiting" garrison troops past that limit."""
    s = house(solo(), "r1", garrison=5, troops=0)
    s = r1_plays(s, "heighliner")
    r1 = s.house("r1")
    assert (r1.troops, r1.garrison) == (5, 3)


def test_harvest_card_deploys_from_the_garrison_on_the_maker_space():
    """Rulebook p.19: deploy up to two "even if the card itself recruited no troops (for
    example: a Harvest Spice card)"."""
    s = house(solo(), "r1", garrison=3, troops=0)
    s = replace(s, bonus_spice={"the_great_flat": 0, "hagga_basin": 1, "imperial_basin": 0})
    s = r1_plays(vacate(s, "hagga_basin"), "harvest_spice")
    assert rival_agents(s) == [("r1", "hagga_basin")]
    assert s.house("r1").troops == 2


# -- Harvest Spice -------------------------------------------------------------------------


def harvest(s: GameState, bonus: dict[str, int], occupied: tuple[str, ...] = ()) -> GameState:
    s = vacate(s, "the_great_flat", "hagga_basin", "imperial_basin")
    s = replace(s, bonus_spice=bonus, occupants={**s.occupants, **dict.fromkeys(occupied, "r2")})
    return r1_plays(s, "harvest_spice", "foldspace")


def test_harvest_spice_goes_to_the_free_maker_space_with_most_bonus_spice():
    """HAGAL.md §2.6: among unoccupied Maker spaces, the one with the most bonus spice."""
    s = harvest(solo(), {"the_great_flat": 1, "hagga_basin": 2, "imperial_basin": 0})
    assert rival_agents(s) == [("r1", "hagga_basin")]


def test_harvest_spice_tie_goes_to_the_most_base_spice():
    """HAGAL.md §2.6: on a tie, the space giving the most total spice: The Great Flat (3) >
    Hagga Basin (2) > Imperial Basin (1)."""
    s = harvest(solo(), {"the_great_flat": 1, "hagga_basin": 1, "imperial_basin": 1})
    assert rival_agents(s) == [("r1", "the_great_flat")]
    s = harvest(solo(), {"the_great_flat": 0, "hagga_basin": 1, "imperial_basin": 1})
    assert rival_agents(s) == [("r1", "hagga_basin")]


def test_harvest_spice_ignores_an_occupied_maker_space():
    """Rulebook p.19 (occupied spaces are ignored) with HAGAL.md §2.6 (free spaces only)."""
    s = harvest(
        solo(), {"the_great_flat": 3, "hagga_basin": 1, "imperial_basin": 0}, ("the_great_flat",)
    )
    assert rival_agents(s) == [("r1", "hagga_basin")]


def test_harvest_spice_without_bonus_spice_reveals_the_next_card():
    """HAGAL.md §2.6: "If no maker space has bonus spice, reveal another card"."""
    s = harvest(solo(), {"the_great_flat": 0, "hagga_basin": 0, "imperial_basin": 0})
    assert entries(s, "hagal_skip", "r1") == [{"card": "harvest_spice", "reason": "no_bonus_spice"}]
    assert rival_agents(s) == [("r1", "foldspace")]


def test_solo_rival_harvest_gains_base_and_bonus_spice():
    """Rulebook p.20 Rivals' Turns: "it gains all spice there (base and bonus)"."""
    s = house(solo(), "r1", spice=0)
    s = harvest(s, {"the_great_flat": 2, "hagga_basin": 0, "imperial_basin": 0})
    assert s.house("r1").spice == 5
    assert s.bonus_spice["the_great_flat"] == 0
    assert entries(s, "rival_harvest", "r1") == [
        {"space": "the_great_flat", "spice": 5, "bonus": 2}
    ]


def test_two_player_house_hagal_harvest_returns_bonus_spice_to_the_bank():
    """Rulebook p.19 Harvest Spice cards: "remove any bonus spice on the space. (In a
    two-player game, return it to the bank.)"."""
    s = two_player()
    s = replace(s, bonus_spice={"the_great_flat": 0, "hagga_basin": 2, "imperial_basin": 0})
    s = hagal_plays(s, "harvest_spice")
    assert rival_agents(s) == [("hagal", "hagga_basin")]
    assert s.bonus_spice["hagga_basin"] == 0
    assert s.house("hagal").spice == 0
    assert entries(s, "rival_harvest", "hagal") == [
        {"space": "hagga_basin", "spice": 0, "bonus": 2}
    ]


# -- Influence -----------------------------------------------------------------------------


def test_solo_rival_gains_one_influence_and_scores_vp_at_two():
    """Rulebook p.19 (advance on the Influence track); FAQ Solo Play: "Rivals in Solo Play do
    earn Victory Points ... for reaching 2 Influence"."""
    s = house(solo(), "r1", influence=(1, 0, 0, 0))
    s = r1_plays(s, "wealth")
    r1 = s.house("r1")
    assert r1.inf("emperor") == 2
    assert r1.vp == 1
    assert [(v.house, v.delta, v.source) for v in s.ledger] == [("r1", 1, "influence")]


def test_solo_rival_takes_the_alliance_at_four_and_scores_it():
    """Rulebook p.19: "it will take a Faction Alliance if able"; FAQ Solo Play: Rivals earn
    the VP "for having an Alliance token"."""
    s = house(solo(), "r1", influence=(3, 0, 0, 0), vp=1)
    s = r1_plays(s, "wealth")
    assert s.alliances == {"emperor": "r1"}
    assert s.house("r1").vp == 2
    assert [(v.house, v.delta, v.source) for v in s.ledger] == [("r1", 1, "alliance")]
    assert "influence_bonus" not in kinds(s)  # FAQ: no 4-Influence bonus for Rivals


def test_house_hagal_takes_alliances_but_never_scores_vp():
    """Rulebook p.19: House Hagal "will take a Faction Alliance if able" but doesn't "score
    Victory Points"."""
    s = house(two_player(), "hagal", influence=(0, 3, 0, 0))
    s = hagal_plays(s, "foldspace")
    assert s.alliances == {"spacing_guild": "hagal"}
    assert s.house("hagal").vp == 0
    assert s.ledger == ()
    s = house(two_player(), "hagal", influence=(0, 1, 0, 0))
    s = hagal_plays(s, "foldspace")
    assert s.house("hagal").inf("spacing_guild") == 2 and s.house("hagal").vp == 0


# -- signets -------------------------------------------------------------------------------


def with_leader(leader: str, **changes: object) -> GameState:
    """A solo game where r1 is `leader`, changed as given, at your first Agent turn."""
    other = "memnon_thorvald" if leader != "memnon_thorvald" else "glossu_rabban"
    return house(solo(rivals=(leader, other)), "r1", **changes)


def signet(s: GameState) -> GameState:
    return r1_plays(s, "arrakeen_1p")


def test_baron_signet_pays_one_solari_for_one_intrigue():
    """Rulebook p.20 (Rival uses its Signet "if they have the specified resources");
    HAGAL.md §7: Baron pays 1 Solari if able for 1 Intrigue."""
    s = signet(with_leader("vladimir_harkonnen", solari=2, intrigue=1))
    r1 = s.house("r1")
    assert (r1.solari, r1.intrigue) == (1, 2)
    assert entries(s, "signet", "r1") == [{"leader": "vladimir_harkonnen", "done": True}]


def test_baron_signet_does_nothing_without_solari():
    """Rulebook p.19 Rivals "if they have the specified resources"; HAGAL.md §7."""
    s = signet(with_leader("vladimir_harkonnen", solari=0, intrigue=1))
    assert s.house("r1").intrigue == 1
    assert entries(s, "signet", "r1") == [{"leader": "vladimir_harkonnen", "done": False}]


def test_rabban_signet_recruits_one_troop_that_can_be_deployed():
    """HAGAL.md §7: Rabban +1 troop; FAQ troops: "any troop you recruit that turn, from any
    source, can be deployed" (Arrakeen is a Combat space)."""
    s = signet(with_leader("glossu_rabban", garrison=0, troops=0))
    r1 = s.house("r1")
    assert (r1.troops, r1.garrison) == (2, 0)  # card troop + signet troop, both deployed
    assert [e["troops"] for e in entries(s, "recruit", "r1")] == [1, 1]


def test_rabban_signet_recruits_two_troops_with_an_alliance():
    """HAGAL.md §7: Rabban +2 troops with any Alliance."""
    s = with_leader("glossu_rabban", garrison=0, troops=0)
    s = replace(s, alliances={"fremen": "r1"})
    s = signet(s)
    assert s.house("r1").troops == 3
    assert [e["troops"] for e in entries(s, "recruit", "r1")] == [1, 2]


@pytest.mark.parametrize(
    ("leader", "field"),
    [("ilban_richese", "solari"), ("memnon_thorvald", "spice"), ("ariana_thorvald", "water")],
)
def test_resource_signets_give_one_resource(leader, field):
    """HAGAL.md §7: Ilban +1 Solari, Memnon +1 spice, Ariana +1 water."""
    s = signet(with_leader(leader, solari=1, spice=1, water=1))
    assert getattr(s.house("r1"), field) == 2
    assert entries(s, "signet", "r1") == [{"leader": leader, "done": True}]


def test_leto_signet_pays_spice_for_influence_where_behind_choosing_the_least():
    """HAGAL.md §7 (Leto: pay 1 spice for +1 Influence where an opponent has more) and
    rulebook p.20 Choices (the Faction where it has the least)."""
    s = with_leader("leto_atreides", spice=2, influence=(1, 0, 0, 0))
    s = house(s, "p1", influence=(2, 0, 0, 1))
    s = signet(s)
    r1 = s.house("r1")
    assert r1.spice == 1
    assert r1.influence == (1, 0, 0, 1)  # Fremen (0 < 1) rather than Emperor (1 < 2)
    assert entries(s, "influence_choice", "r1") == [{"faction": "fremen", "amount": 1}]


def test_leto_signet_tie_asks_you_to_choose():
    """Rulebook p.20 Choices: "In the case of a tie ... you decide for the Rival"."""
    s = with_leader("leto_atreides", spice=1)
    s = house(s, "p1", influence=(1, 0, 1, 0))
    s = signet(s)
    assert s.prompt is not None
    assert s.prompt.kind == "rival_influence"
    assert (s.prompt.house, s.prompt.decider) == ("r1", "p1")
    assert s.prompt.options == ("emperor", "bene_gesserit")
    s = apply(s, Choose("bene_gesserit"))
    assert s.house("r1").influence == (0, 0, 1, 0)
    assert s.house("r1").spice == 0


def test_leto_signet_does_nothing_without_spice_or_without_an_eligible_faction():
    """HAGAL.md §7: Leto pays 1 spice "if able and an eligible Faction exists"."""
    s = house(with_leader("leto_atreides", spice=0), "p1", influence=(1, 0, 0, 0))
    s = signet(s)
    assert s.house("r1").influence == (0, 0, 0, 0)
    assert entries(s, "signet", "r1") == [{"leader": "leto_atreides", "done": False}]
    s = signet(with_leader("leto_atreides", spice=2))  # nobody is ahead anywhere
    assert s.house("r1").spice == 2
    assert entries(s, "signet", "r1") == [{"leader": "leto_atreides", "done": False}]


def test_signet_icon_does_nothing_in_a_two_player_game():
    """Rulebook p.19: the Signet icon is "(Solo Play only)"; HAGAL.md §4."""
    s = two_player()
    s = replace(s, hagal_deck=("arrakeen_1p", *s.hagal_deck))
    s = vacate(s, "arrakeen")
    s = place(s, "secure_contract")
    assert rival_agents(s) == [("hagal", "arrakeen")]
    assert "signet" not in kinds(s)
    assert s.house("hagal").troops == 1


# -- VP exchange ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("leader", "field", "price", "start"),
    [
        ("vladimir_harkonnen", "intrigue", 3, {"intrigue": 2, "solari": 1}),
        ("ariana_thorvald", "water", 3, {"water": 2}),
        ("ilban_richese", "solari", 7, {"solari": 6}),
        ("memnon_thorvald", "spice", 7, {"spice": 6}),
    ],
)
def test_solo_rival_spends_resources_for_vp_as_soon_as_it_has_them(leader, field, price, start):
    """Rulebook p.20 Spending Resources: "At any time, when a Rival has the indicated
    resources, they'll spend them": 3 Intrigue, 3 water, 7 Solari or 7 spice for 1 VP
    (HAGAL.md §1)."""
    s = signet(with_leader(leader, **start))
    r1 = s.house("r1")
    assert getattr(r1, field) == 0
    assert r1.vp == 1
    assert [(v.house, v.delta, v.source, v.note) for v in s.ledger] == [
        ("r1", 1, "exchange", field)
    ]
    assert entries(s, "exchange", "r1") == [{"resource": field, "paid": price, "vp": 1}]


def test_solo_rival_spends_every_full_set_and_keeps_the_rest():
    """Rulebook p.20 Spending Resources: each 7 spice earns 1 VP."""
    s = signet(with_leader("memnon_thorvald", spice=15))
    assert (s.house("r1").spice, s.house("r1").vp) == (2, 2)


def test_rival_below_the_price_keeps_its_resources():
    """Rulebook p.20 Spending Resources: only the indicated amounts are spent."""
    s = signet(with_leader("memnon_thorvald", spice=5))
    assert (s.house("r1").spice, s.house("r1").vp) == (6, 0)


# -- Expert troop deployment ---------------------------------------------------------------


def leading(difficulty: str = "mentat", conflict: str | None = None) -> GameState:
    """r1 leads 6 strength to 0 and is about to send an Agent to Stillsuits."""
    s = solo(difficulty)
    if conflict is not None:
        s = replace(s, conflict=conflict)
    s = house(s, "r1", troops=3, garrison=3)
    s = house(s, "r2", troops=0)
    return r1_plays(s, "stillsuits")


def test_expert_rival_leading_by_four_asks_your_strength():
    """FAQ Solo Play: at Expert, in a Conflict I or II a Rival "won't deploy troops if it is
    already leading by 4 strength or more"; your strength must be known to decide."""
    s = leading()
    assert s.prompt is not None and s.prompt.kind == "expert_strength"
    assert (s.prompt.house, s.prompt.decider) == ("p1", "p1")


def test_expert_rival_leading_by_four_keeps_its_troops_in_the_garrison():
    """FAQ Solo Play (Expert Troop Deployment): leading by 4+ in Conflict I/II, it saves the
    troops in its garrison."""
    s = leading()
    s = apply(s, Choose("2"))  # you have 2: r1 leads by 4
    r1 = s.house("r1")
    assert (r1.troops, r1.garrison) == (3, 3)
    assert entries(s, "expert_hold", "r1") == [{"kept": 2}]
    assert s.house("p1").strength == 2


def test_expert_rival_not_leading_by_four_deploys_normally():
    """FAQ Solo Play: below a 4-strength lead the Rival deploys as usual."""
    s = leading()
    s = apply(s, Choose("3"))  # you have 3: r1 leads by only 3
    assert s.house("r1").troops == 5
    assert "expert_hold" not in kinds(s)


def test_expert_rival_keeps_its_recruits_too_when_leading():
    """Rulebook p.20 Expert Troop Deployment: "won't deploy troops ... (saving them in its
    garrison instead)", recruits of the turn included."""
    s = solo()
    s = house(s, "r1", troops=3, garrison=0)
    s = house(s, "r2", troops=0)
    s = r1_plays(s, "hardy_warriors")
    s = apply(s, Choose("0"))
    r1 = s.house("r1")
    assert (r1.troops, r1.garrison) == (3, 2)


def test_expert_rival_deploys_everything_it_can_in_a_conflict_iii():
    """Rulebook p.20: "For a critical Conflict III card, a Rival will resume deploying all the
    troops it can at every opportunity"."""
    s = leading(conflict="battle_for_carthag")
    assert s.prompt is None
    assert s.house("r1").troops == 5


def test_expert_rival_with_a_small_lead_over_the_other_rival_deploys_without_asking():
    """FAQ Solo Play: no 4-strength lead over the other Rival means no lead overall."""
    s = solo()
    s = house(s, "r1", troops=2, garrison=3)
    s = house(s, "r2", troops=1)
    s = r1_plays(s, "stillsuits")
    assert s.prompt is None
    assert s.house("r1").troops == 4


# -- The Voice -----------------------------------------------------------------------------


def test_the_voice_blocks_rivals_until_its_owners_next_turn():
    """Rulebook p.13 The Voice: it stops opponents "from sending Agents to that board space
    for one turn" and is removed on your next turn; p.19: Rivals are affected by cards that
    affect opponents."""
    s = solo()
    s = vacate(s, "wealth")
    s = apply(s, Voice("p1", "wealth"))
    assert s.voice == {"wealth": "p1"}
    s = r1_plays(s, "wealth", "foldspace")
    assert entries(s, "hagal_skip", "r1") == [{"card": "wealth", "reason": "occupied"}]
    assert rival_agents(s) == [("r1", "foldspace")]
    assert s.turn == "p1"
    assert s.voice == {}  # your next turn has come: the mark is gone
    assert "wealth" not in s.occupants


def test_the_voice_does_not_block_its_owner():
    """Rulebook p.13 The Voice: it stops opponents only."""
    s = vacate(idle_rivals(solo()), "wealth")
    s = apply(s, Voice("p1", "wealth"))
    s = place(s, "wealth")
    assert s.occupants["wealth"] == "p1"


def test_the_voice_is_refused_on_a_marked_space():
    """Rulebook p.13 The Voice: one marker per space."""
    s = apply(solo(), Voice("p1", "wealth"))
    with pytest.raises(IllegalAction, match="already marked"):
        apply(s, Voice("p1", "wealth"))


# -- two-player House Hagal turns ----------------------------------------------------------


def test_house_hagal_acts_after_each_agent_turn_of_the_first_player_only():
    """Rulebook p.19 Two-Player Games: "After each of the First Player's Agent turns, House
    Hagal acts, as long as it has an Agent remaining in its supply"."""
    s = two_player()
    s = vacate(s, "wealth")
    s = place(s, "wealth")  # p1 is First Player
    assert [e[0] for e in rival_agents(s)] == ["hagal"]
    assert s.turn == "p2"
    s = place(vacate(s, "secrets"), "secrets")
    assert rival_agents(s) == []
    assert s.turn == "p1"
    s = place(vacate(s, "foldspace"), "foldspace")
    assert [e[0] for e in rival_agents(s)] == ["hagal"]


def test_house_hagal_follows_the_first_player_even_when_that_is_the_second_seat():
    """Rulebook p.19: House Hagal acts after the First Player's Agent turns, whoever holds
    the marker."""
    s = two_player(first_player=1)
    assert s.turn == "p2"
    s = place(vacate(s, "wealth"), "wealth")
    assert [e[0] for e in rival_agents(s)] == ["hagal"]
    s = place(vacate(s, "secrets"), "secrets")  # p1's Agent turn
    assert rival_agents(s) == []


def test_house_hagal_does_not_act_after_a_reveal_turn():
    """Rulebook p.19: House Hagal acts after the First Player's Agent turns (not Reveal
    turns)."""
    s = reveal(two_player())
    assert rival_agents(s) == []
    assert s.turn == "p2"


def test_house_hagal_stops_when_it_has_no_agent_left():
    """Rulebook p.19: "as long as it has an Agent remaining in its supply"."""
    s = house(two_player(), "hagal", placed=3)
    s = place(vacate(s, "wealth"), "wealth")
    assert rival_agents(s) == []
    assert s.turn == "p2"


# -- control bonuses on rival visits -------------------------------------------------------


def test_rival_visiting_its_own_controlled_space_gets_the_bonus():
    """Rulebook p.10 Control Bonuses: "whenever any player (yourself included) sends an Agent
    there"; p.20: Rivals get the Control bonus."""
    s = replace(house(solo(), "r1", solari=0), control={"carthag": "r1"})
    s = r1_plays(s, "carthag")
    assert s.house("r1").solari == 1
    assert entries(s, "control_bonus", "r1") == [
        {"space": "carthag", "visitor": "r1", "solari": 1, "spice": 0}
    ]


def test_rival_visiting_the_other_rivals_space_pays_that_rival():
    """Rulebook p.20 Combat: a Rival controller gets the bonus "whenever you or a Rival sends
    an Agent there"."""
    s = replace(house(solo(), "r2", solari=0), control={"carthag": "r2"})
    s = r1_plays(s, "carthag")
    assert s.house("r2").solari == 1
    assert entries(s, "control_bonus", "r2")[0]["visitor"] == "r1"


def test_house_hagal_visiting_your_controlled_space_gives_you_the_bonus():
    """Rulebook p.10 Control Bonuses (any player's Agent) with p.19 (House Hagal sends Agents
    like any opponent)."""
    s = replace(two_player(), control={"carthag": "p2"})
    s = hagal_plays(s, "carthag")
    assert entries(s, "control_bonus", "p2") == [
        {"space": "carthag", "visitor": "hagal", "solari": 1, "spice": 0}
    ]


def test_the_voice_blocks_house_hagal():
    """Rulebook p.13 The Voice with p.19: "Rivals are affected by cards ... that affect
    opponents"."""
    s = two_player()
    s = vacate(s, "wealth")
    s = apply(s, Voice("p1", "wealth"))
    s = hagal_plays(s, "wealth", "foldspace")
    assert entries(s, "hagal_skip", "hagal") == [{"card": "wealth", "reason": "occupied"}]
    assert rival_agents(s) == [("hagal", "foldspace")]

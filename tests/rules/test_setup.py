"""Setup: difficulty effects, seating, House Hagal decks, the Conflict deck, bad setups.

Sources: base rulebook (RB) p.4 setup B, p.19 "Two-Player Games" setup, p.20 "Solo Play"
setup and difficulty table; HAGAL.md §4-§5.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from companion.rules.actions import IllegalAction
from companion.rules.engine import hagal_cards, mentat_cost, new_game, swordmaster_round
from companion.rules.setup import drawn_first_player, starting_houses, table_houses
from companion.rules.state import Options, SeatSetup, Setup
from tests.rules.helpers import (
    catalog,
    finish_round,
    house,
    idle_rivals,
    place,
    solo,
    solo_setup,
    stack,
    two_player,
    two_player_setup,
    vacate,
)

DIFFICULTIES = ("mercenary", "sardaukar", "mentat", "kwisatz")


def before_rivals_act(difficulty: str):
    """A solo game stopped before the first rival turn (physical House Hagal cards)."""
    s = solo(difficulty, physical_hagal=True)
    assert s.prompt is not None and s.prompt.kind == "hagal_card"
    return s


# -- solo difficulty -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("difficulty", "garrison"), list(zip(DIFFICULTIES, (0, 3, 3, 3), strict=True))
)
def test_rival_starting_garrison_follows_difficulty(difficulty, garrison):
    """Rulebook p.20 difficulty table: Rival starting garrisoned troops -/3/3 (Kwisatz as
    Mentat)."""
    s = before_rivals_act(difficulty)
    assert [h.garrison for h in s.rivals] == [garrison, garrison]
    assert [h.troops for h in s.rivals] == [0, 0]


@pytest.mark.parametrize(
    ("difficulty", "intrigue"), list(zip(DIFFICULTIES, (0, 1, 1, 1), strict=True))
)
def test_rival_starting_intrigue_follows_difficulty(difficulty, intrigue):
    """Rulebook p.20 difficulty table: Rival extra starting resources -/1 Intrigue/1 Intrigue."""
    s = before_rivals_act(difficulty)
    assert [h.intrigue for h in s.rivals] == [intrigue, intrigue]


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_every_rival_starts_with_one_water_and_nothing_else(difficulty):
    """Rulebook p.20 Solo setup: "You and your Rivals each start with 1 water"."""
    s = before_rivals_act(difficulty)
    for h in s.rivals:
        assert (h.water, h.solari, h.spice, h.vp) == (1, 0, 0, 0)
        assert h.influence == (0, 0, 0, 0)
        assert h.agents == 2 and not h.swordmaster


@pytest.mark.parametrize(
    ("difficulty", "arrival"), list(zip(DIFFICULTIES, (5, 4, 3, 3), strict=True))
)
def test_rival_swordmasters_arrive_in_the_round_of_the_card_above_them(difficulty, arrival):
    """Rulebook p.20: 5/4/3 Conflict cards above the Rival Swordmasters (Kwisatz as Mentat);
    when the card above them is revealed each Rival gets its third Agent for this round."""
    assert swordmaster_round(solo_setup(difficulty)) == arrival
    s = solo(difficulty)
    while s.round < arrival - 1:
        s = finish_round(s)
    assert s.round == arrival - 1
    assert [h.agents for h in s.rivals] == [2, 2]
    assert not any(e.kind == "rival_swordmaster" for e in s.log)
    s = finish_round(s)
    assert s.round == arrival
    assert [h.agents for h in s.rivals] == [3, 3]
    arrived = [e for e in s.log if e.kind == "rival_swordmaster"]
    assert {e.house for e in arrived} == {"r1", "r2"}
    assert {e.round for e in arrived} == {arrival}


@pytest.mark.parametrize(("difficulty", "cost"), list(zip(DIFFICULTIES, (2, 5, 5, 5), strict=True)))
def test_mentat_space_costs_five_solari_from_sardaukar_up(difficulty, cost):
    """Rulebook p.20 difficulty table: 5 Solari token on the Mentat space No/Yes/Yes."""
    assert mentat_cost(solo_setup(difficulty)) == cost


def test_two_player_game_has_no_difficulty_effects():
    """Rulebook p.19: the difficulty table is a Solo Play rule; the Mentat costs 2 (Board
    Space Guide) and no Rival Swordmaster sits in the Conflict deck."""
    setup = two_player_setup()
    assert mentat_cost(setup) == 2
    assert swordmaster_round(setup) is None


@pytest.mark.parametrize(
    ("difficulty", "expert"),
    [("mercenary", False), ("sardaukar", False), ("mentat", True), ("kwisatz", True)],
)
def test_expert_troop_deployment_applies_only_at_mentat_and_kwisatz(difficulty, expert):
    """Rulebook p.20 Expert Troop Deployment ("at Expert difficulty"; Kwisatz Haderach is
    Expert+) with FAQ: Solo Play (leading by 4 strength or more)."""
    s = idle_rivals(solo(difficulty))
    s = vacate(s, "stillsuits")
    s = house(s, "r1", troops=3, garrison=3, placed=1)  # r1 leads 6 to 0 in a Conflict I
    s = house(s, "r2", troops=0, garrison=3)
    s = stack(s, "stillsuits")
    s = place(s, "secure_contract")
    if expert:
        assert s.prompt is not None and s.prompt.kind == "expert_strength"
    else:
        assert s.prompt is None
        assert s.house("r1").troops == 5  # deployed 2 from its garrison


def test_kwisatz_haderach_difficulty_forbids_your_swordmaster():
    """Rulebook p.20: "Kwisatz Haderach (Expert+): You also can't gain a Swordmaster"."""
    s = solo("kwisatz")
    s = vacate(s, "swordmaster")
    with pytest.raises(IllegalAction, match="Kwisatz Haderach"):
        place(s, "swordmaster")


# -- leaders and seating -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("leader", "name"), [("paul_atreides", "Paul Atreides"), ("helena_richese", "Helena Richese")]
)
def test_paul_atreides_and_helena_richese_are_refused_as_rivals(leader, name):
    """Rulebook p.20 Solo setup: "Your opponents can't play Paul Atreides or Helena Richese"."""
    setup = solo_setup(rivals=(leader, "memnon_thorvald"), human="leto_atreides")
    with pytest.raises(IllegalAction, match=f"{name} can't be a Rival"):
        new_game(setup, catalog())


def test_the_rival_on_your_left_takes_the_first_player_marker_and_acts_first():
    """Rulebook p.20 Solo setup: "The Rival on your left takes the First Player marker";
    turn order then goes clockwise r1, r2, you (p.8 Phase 2)."""
    s = solo()
    assert s.first == "r1"
    assert [e.data["first"] for e in s.log if e.kind == "setup"] == ["r1"]
    agents = [e.house for e in s.log if e.kind == "rival_agent"]
    assert agents == ["r1", "r2"]
    assert s.turn == "p1"


@pytest.mark.parametrize("first_player", [0, 1])
def test_two_player_first_player_is_a_human_never_house_hagal(first_player):
    """Rulebook p.19 Two-Player Games; HAGAL.md §4: House Hagal acts after the First Player
    and never holds the marker."""
    s = two_player(first_player=first_player)
    assert s.first == f"p{first_player + 1}"
    assert s.turn == s.first


# -- House Hagal decks ---------------------------------------------------------------------


def test_solo_hagal_deck_has_27_cards_without_the_2p_cards():
    """Rulebook p.20 Solo setup: remove all "2P" cards (Reshuffle and three Arrakeen)."""
    cards = hagal_cards(solo_setup(), catalog())
    assert len(cards) == 27
    assert "reshuffle" not in cards and "arrakeen_2p" not in cards
    assert Counter(cards)["arrakeen_1p"] == 3
    s = before_rivals_act("mentat")
    assert sorted(s.hagal_deck) == sorted(cards)
    assert s.hagal_discard == ()


def test_two_player_hagal_deck_has_28_cards_without_the_1p_cards():
    """Rulebook p.19 Two-Player setup: remove the three Arrakeen cards marked "1P"."""
    cards = hagal_cards(two_player_setup(), catalog())
    assert len(cards) == 28
    assert "arrakeen_1p" not in cards
    assert Counter(cards)["arrakeen_2p"] == 3 and Counter(cards)["reshuffle"] == 1
    s = two_player()  # House Hagal has not acted yet: the First Player goes first
    assert sorted(s.hagal_deck) == sorted(cards)


def test_house_hagal_has_three_agents_no_garrison_and_no_resources():
    """Rulebook p.19 Two-Player setup: "It starts with no troops in its garrison"; three
    Agents; "It doesn't collect resources ... or score Victory Points"."""
    s = two_player()
    hagal = s.house("hagal")
    assert hagal.kind == "hagal"
    assert hagal.agents == 3
    assert (hagal.garrison, hagal.troops) == (0, 0)
    assert (hagal.solari, hagal.spice, hagal.water, hagal.intrigue, hagal.vp) == (0, 0, 0, 0, 0)
    assert hagal.influence == (0, 0, 0, 0)
    assert [h.id for h in s.scoring] == ["p1", "p2"]


# -- Conflict deck -------------------------------------------------------------------------


def test_conflict_deck_is_one_level_i_over_five_level_ii_over_four_level_iii():
    """Rulebook p.4 setup B: 1 Conflict I on top of 5 Conflict II on top of 4 Conflict III."""
    s = solo(physical_conflicts=True)  # stops at the first reveal: the deck is whole
    assert s.prompt is not None and s.prompt.kind == "conflict_card"
    assert [slot.level for slot in s.conflict_deck] == [1] + [2] * 5 + [3] * 4


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_app_drawn_conflict_deck_has_ten_different_cards_of_the_right_levels(seed):
    """Rulebook p.4 setup B: the Conflict deck is 1 + 5 + 4 random cards of each level."""
    s = solo(seed=seed)
    cards = [*s.conflicts_done, *(slot.card for slot in s.conflict_deck)]
    assert len(cards) == len(set(cards)) == 10
    levels = [catalog().conflicts[c].level for c in cards if c is not None]
    assert levels == [1] + [2] * 5 + [3] * 4
    assert s.conflict == cards[0]


# -- bad setups ----------------------------------------------------------------------------


def _solo_with(**changes: Any) -> Setup:
    return replace(solo_setup(), **changes)


BAD_SETUPS = {
    "one rival": (_solo_with(rivals=(SeatSetup("A", "glossu_rabban", "red"),)), "two Rivals"),
    "no difficulty": (_solo_with(difficulty=None), "Choose a difficulty"),
    "unknown difficulty": (_solo_with(difficulty="easy"), "Choose a difficulty"),
    "unknown rival leader": (
        _solo_with(rivals=(SeatSetup("A", "nobody", "red"), SeatSetup("B", "ilban_richese", "x"))),
        "Unknown leader 'nobody' for a Rival",
    ),
    "same rival leaders": (
        _solo_with(
            rivals=(SeatSetup("A", "ilban_richese", "red"), SeatSetup("B", "ilban_richese", "x"))
        ),
        "different leaders",
    ),
    "unknown human leader": (
        _solo_with(humans=(SeatSetup("You", "nobody", "green"),)),
        "Unknown leader 'nobody'",
    ),
    "leader used twice": (
        _solo_with(humans=(SeatSetup("You", "glossu_rabban", "green"),)),
        "only once",
    ),
    "same colors": (
        _solo_with(humans=(SeatSetup("You", "paul_atreides", "red"),)),
        "its own color",
    ),
    "empty name": (_solo_with(humans=(SeatSetup("  ", "paul_atreides", "green"),)), "a name"),
    "unknown set": (_solo_with(sets=("base", "immortality")), "Unknown card sets"),
    "no base set": (_solo_with(sets=("ix",)), "Unknown card sets"),
    "unknown mode": (_solo_with(mode="5p"), "Unknown mode"),
    "2p with difficulty": (
        replace(two_player_setup(), difficulty="mentat"),
        "Difficulty applies to solo games only",
    ),
    "2p with one human": (
        replace(two_player_setup(), humans=(SeatSetup("Ann", "paul_atreides", "green"),)),
        "two players and House Hagal",
    ),
    "2p first player out of range": (
        two_player_setup(first_player=2),
        "first player must be one of the two players",
    ),
}


@pytest.mark.parametrize("case", list(BAD_SETUPS))
def test_bad_setup_is_rejected_with_a_message(case):
    """Rulebook pp.4-5, p.19, p.20: the setups the game allows; anything else is refused with
    a message for the players (IllegalAction)."""
    setup, message = BAD_SETUPS[case]
    with pytest.raises(IllegalAction, match=message):
        new_game(setup, catalog())


def test_every_problem_of_a_bad_setup_is_reported_at_once():
    """Issue 2 (setup validation for the table): one message lists every problem."""
    setup = _solo_with(
        difficulty=None,
        rivals=(SeatSetup("A", "paul_atreides", "red"), SeatSetup("B", "paul_atreides", "red")),
    )
    with pytest.raises(IllegalAction) as caught:
        new_game(setup, catalog())
    message = str(caught.value)
    assert "Choose a difficulty" in message
    assert "Paul Atreides can't be a Rival" in message
    assert "only once" in message
    assert "its own color" in message


def test_a_good_setup_leaves_the_first_human_turn_open():
    """Rulebook p.8 Phase 2: after setup and the Conflict reveal, turns start; the engine
    stops at your first Agent turn once r1 and r2 have acted."""
    s = solo()
    assert s.phase == "agents" and s.round == 1 and s.prompt is None
    assert s.turn == "p1"


# -- the first player drawn, and what the players take that the engine does not track -----


def _four_players(seed: int = 3, **changes: Any) -> Setup:
    return replace(
        Setup(
            mode="4p",
            seed=seed,
            humans=tuple(
                SeatSetup(name, leader, color)
                for name, leader, color in (
                    ("Ann", "paul_atreides", "green"),
                    ("Ben", "ilban_richese", "blue"),
                    ("Cal", "glossu_rabban", "red"),
                    ("Dee", "memnon_thorvald", "yellow"),
                )
            ),
            rivals=(),
        ),
        **changes,
    )


@pytest.mark.parametrize("seed", [1, 2, 3, 40, 2**31 - 1])
def test_a_drawn_first_player_is_the_one_the_seed_draws(seed):
    """RB p.5, H: "Determine a first player randomly": the app draws from the game's seed,
    so the same seed always draws the same player and a replay agrees."""
    drawn = drawn_first_player(seed, 4)
    assert drawn == drawn_first_player(seed, 4)
    state = new_game(
        _four_players(seed, first_player=drawn, options=Options(draw_first_player=True)),
        catalog(),
    )
    assert state.first == f"p{drawn + 1}"


def test_a_drawn_first_player_that_is_not_the_seeds_draw_is_refused():
    drawn = drawn_first_player(3, 4)
    setup = _four_players(3, first_player=(drawn + 1) % 4, options=Options(draw_first_player=True))
    with pytest.raises(IllegalAction, match="not the one its seed draws"):
        new_game(setup, catalog())


def test_a_solo_game_has_no_drawn_first_player():
    """RB p.20: the Rival on your left takes the First Player marker."""
    setup = replace(solo_setup(), options=Options(draw_first_player=True))
    with pytest.raises(IllegalAction, match="Rival on your left is the first player"):
        new_game(setup, catalog())


@pytest.mark.parametrize("epic", [False, True])
def test_the_players_pieces_the_engine_does_not_track_follow_the_rulebook(epic):
    """For the set-up checklist: each player takes 1 water (RB p.5, F1) and puts 3 troops in
    their garrison (G5); Epic: 5 troops instead of 3 and an Intrigue card (Ix p.10). With
    four players each starts on 1 VP (G2), two Agents (G1)."""
    setup = _four_players(options=Options(epic=epic), sets=("base", "ix"))
    houses = table_houses(setup)
    assert [h.id for h in houses] == [h.id for h in starting_houses(setup)[0]]
    for h in houses:
        assert (h.agents, h.vp, h.water) == (2, 1, 1)
        assert (h.garrison, h.intrigue) == ((5, 1) if epic else (3, 0))
        assert (h.solari, h.spice) == (0, 0)


def test_mercenary_difficulty_gives_the_player_a_solari_and_a_spice():
    """RB p.20 difficulty table: Mercenary, "Your Extra Starting Resources: 1 Solari, 1
    Spice"; the Rivals are the engine's own houses."""
    houses = table_houses(solo_setup("mercenary"))
    you, *rivals = houses
    assert (you.solari, you.spice, you.garrison, you.water) == (1, 1, 3, 1)
    assert rivals == [h for h in starting_houses(solo_setup("mercenary"))[0] if h.kind == "rival"]


def test_epic_rivals_standard_starts_the_rivals_as_a_standard_game():
    """The setting plays Ix p.10's "each player" for the players only: the Rivals keep the
    difficulty table's 3 troops and 1 Intrigue card (RB p.20)."""
    setup = solo_setup("mentat", epic=True, epic_rivals_standard=True)
    setup = replace(setup, sets=("base", "ix"))
    you, *rivals = table_houses(setup)
    assert (you.garrison, you.intrigue) == (5, 1)
    assert [(r.garrison, r.intrigue) for r in rivals] == [(3, 1), (3, 1)]

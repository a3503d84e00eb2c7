"""Phase 3: Combat bonuses, strengths, placements with ties, rewards, control, troops.

Sources: base rulebook (RB) p.12 Phase 3 "Resolve Combat" and "Ties", p.10 Control
Bonuses, p.19 House Hagal "Combat" and Two-Player Games, p.20 Solo Play "Combat"; FAQ
"Conflict", "Sort Through the Chaos"; Rise of Ix rulebook p.9 Solo Game Variants; HAGAL.md §3.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.rules.actions import Choose, IllegalAction, Reveal
from companion.rules.combat import placements
from companion.rules.engine import apply, new_game, strengths
from companion.rules.state import ConflictSlot, GameState
from companion.rules.text import sentence
from tests.rules.helpers import (
    answer,
    catalog,
    entries,
    finish_round,
    house,
    idle_rivals,
    kinds,
    reveal,
    settle,
    solo,
    stack,
    two_player,
    two_player_setup,
)

ZERO_SWORDS = ("hall_of_oratory", "carthag")  # House Hagal cards with no sword icon


def to_combat(
    s: GameState, conflict: str, cards: tuple[str, ...] = ZERO_SWORDS, **troops: int
) -> GameState:
    """Solo: set the Conflict and rival troops, then you reveal; stops at your strength
    prompt. This is the last round (empty Conflict deck), so nothing happens after it."""
    s = idle_rivals(s)
    s = replace(s, conflict=conflict, conflict_deck=())
    for hid, n in troops.items():
        s = house(s, hid, troops=n)
    s = stack(s, *cards)
    s = reveal(s)
    assert s.prompt is not None and s.prompt.kind == "strength"
    return s


def fight(conflict: str, strength: int, **troops: int) -> GameState:
    """A solo combat for `conflict`: rival troops as given, no swords, your strength."""
    return answer(to_combat(solo(), conflict, ZERO_SWORDS, **troops), strength)


def fight_2p(conflict: str, p1: int, p2: int, hagal: int, cards=ZERO_SWORDS) -> GameState:
    """A two-player combat: House Hagal with `hagal` troops, the humans' strengths given."""
    s = two_player()
    s = replace(s, conflict=conflict, conflict_deck=())
    s = house(s, "hagal", troops=hagal, placed=3)
    s = stack(s, *cards)
    s = apply(s, Reveal("p1"))
    s = apply(s, Reveal("p2"))
    s = answer(s, p1)
    return answer(s, p2)


def ledger(s: GameState) -> list[tuple[str, int, str]]:
    return [(v.house, v.delta, v.source) for v in s.ledger]


# -- combat bonus --------------------------------------------------------------------------


def test_combat_bonus_reveals_one_card_for_each_rival_with_troops_in_turn_order():
    """Rulebook p.19 Combat: "each Rival that has at least one troop in the Conflict gets a
    Combat bonus. In turn order, reveal the top card ... Ignore everything ... except for the
    sword icons"."""
    s = to_combat(solo(), "skirmish_a", ("heighliner", "conspire"), r1=1, r2=1)
    assert [(e.house, e.data["swords"]) for e in s.last_entries if e.kind == "swords"] == [
        ("r1", 6),
        ("r2", 4),
    ]
    assert (s.house("r1").swords, s.house("r2").swords) == (6, 4)
    assert strengths(s)["r1"] == 2 + 6


def test_combat_bonus_follows_the_first_player_order():
    """Rulebook p.19 Combat: "In turn order" (from the First Player, p.8)."""
    s = replace(solo(), first="r2")
    s = to_combat(s, "skirmish_a", ("heighliner", "conspire"), r1=1, r2=1)
    assert [e.house for e in s.last_entries if e.kind == "swords"] == ["r2", "r1"]
    assert (s.house("r2").swords, s.house("r1").swords) == (6, 4)


def test_rival_without_troops_in_the_conflict_gets_no_combat_bonus():
    """Rulebook p.19 Combat: only a Rival "that has at least one troop in the Conflict";
    p.11: no troop means 0 strength."""
    s = to_combat(solo(), "skirmish_a", ("heighliner",), r1=0, r2=2)
    assert [e.house for e in s.last_entries if e.kind == "swords"] == ["r2"]
    assert s.house("r1").swords == 0
    assert strengths(s)["r1"] == 0


def test_brutal_escalation_reveals_two_cards_in_a_conflict_iii():
    """Rise of Ix rulebook p.9 Brutal Escalation: "Whenever a Rival is competing in a Conflict
    III combat, flip two cards ... and add all the swords from both cards"; HAGAL.md §3."""
    s = solo(brutal_escalation=True)
    s = to_combat(
        s, "battle_for_carthag", ("heighliner", "conspire", "wealth", "carthag"), r1=1, r2=1
    )
    assert [(e.house, e.data["swords"]) for e in s.last_entries if e.kind == "swords"] == [
        ("r1", 6),
        ("r1", 4),
        ("r2", 3),
        ("r2", 0),
    ]
    assert (s.house("r1").swords, s.house("r2").swords) == (10, 3)


def test_brutal_escalation_reveals_one_card_below_conflict_iii():
    """Rise of Ix rulebook p.9 Brutal Escalation applies to Conflict III combats only."""
    s = solo(brutal_escalation=True)
    s = to_combat(s, "siege_of_carthag", ("heighliner", "conspire"), r1=1, r2=1)
    assert [e.house for e in s.last_entries if e.kind == "swords"] == ["r1", "r2"]


def test_brutal_escalation_is_a_solo_variant_only():
    """Rise of Ix rulebook p.9 "SOLO GAME VARIANTS: you may add either of these optional
    rules to a solo game"; HAGAL.md §6 lists it under solo variants. A two-player game either
    refuses the option or ignores it."""
    try:
        s = new_game(two_player_setup(brutal_escalation=True), catalog())
    except IllegalAction as refused:
        assert "solo" in str(refused)
        return
    s = replace(s, conflict="battle_for_carthag", conflict_deck=())
    s = house(s, "hagal", troops=1, placed=3)
    s = stack(s, "heighliner", "conspire")
    s = apply(apply(s, Reveal("p1")), Reveal("p2"))
    assert [e.house for e in s.last_entries if e.kind == "swords"] == ["hagal"]


def test_reshuffle_card_in_a_combat_bonus_reshuffles_and_reveals_again():
    """Rulebook p.19 Combat: "(If you reveal the Reshuffle card, follow the instructions to
    reshuffle the deck and reveal again.)"."""
    s = two_player()
    s = replace(s, conflict="skirmish_a", conflict_deck=())
    s = house(s, "hagal", troops=1, placed=3)
    s = stack(s, "reshuffle")
    s = apply(apply(s, Reveal("p1")), Reveal("p2"))
    combat = [k for k in kinds(s) if k in ("hagal_reshuffle", "hagal_reshuffle_card", "swords")]
    assert combat == ["hagal_reshuffle", "hagal_reshuffle_card", "swords"]
    assert entries(s, "swords", "hagal")[0]["card"] != "reshuffle"


# -- strength ------------------------------------------------------------------------------


def test_each_human_is_asked_their_strength():
    """Rulebook p.11 Set Strength: each player totals and announces their strength; the
    engine asks each human in turn."""
    s = two_player()
    s = replace(s, conflict_deck=())
    s = apply(apply(s, Reveal("p1")), Reveal("p2"))
    assert s.prompt is not None
    assert (s.prompt.kind, s.prompt.house, s.prompt.decider) == ("strength", "p1", "p1")
    assert s.prompt.number and s.prompt.minimum == 0
    s = answer(s, 7)
    assert s.prompt is not None
    assert (s.prompt.kind, s.prompt.house) == ("strength", "p2")
    s = answer(s, 3)
    assert entries(s, "combat")[0]["strengths"] == {"p1": 7, "p2": 3, "hagal": 0}


def test_strength_answer_outside_the_range_is_refused():
    """Rulebook p.11 Set Strength: strength is a count of 0 or more."""
    s = to_combat(solo(), "skirmish_a", r1=1, r2=1)
    with pytest.raises(IllegalAction, match="Enter a number"):
        answer(s, -1)
    with pytest.raises(IllegalAction, match="whole number"):
        apply(s, Choose("lots"))


# -- placements and ties -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("power", "expected"),
    [
        ({"a": 9, "b": 5, "c": 3}, {"a": "first", "b": "second"}),
        ({"a": 8, "b": 8, "c": 4}, {"a": "second", "b": "second"}),
        ({"a": 8, "b": 8, "c": 8}, {"a": "second", "b": "second", "c": "second"}),
        ({"a": 9, "b": 4, "c": 4}, {"a": "first"}),
        ({"a": 9, "b": 4, "c": 0}, {"a": "first", "b": "second"}),
        ({"a": 6, "b": 0, "c": 0}, {"a": "first"}),
        ({"a": 0, "b": 0, "c": 0}, {}),
        ({"a": 3, "b": 3, "c": 0}, {"a": "second", "b": "second"}),
    ],
)
def test_placements_below_four_players(power, expected):
    """Rulebook p.12 Resolve Combat and Ties; FAQ Conflict ("the same for one, two, or three
    players"): tie for first -> each gets the second reward; tie for second -> each would
    get the third, which exists "In a 4-player game (only)", so nothing; strength 0 gets
    nothing; no lone third reward below four players."""
    assert placements(power) == expected


@pytest.mark.parametrize(
    ("power", "expected"),
    [
        ({"a": 9, "b": 7, "c": 5, "d": 3}, {"a": "first", "b": "second", "c": "third"}),
        ({"a": 8, "b": 8, "c": 5, "d": 3}, {"a": "second", "b": "second", "c": "third"}),
        ({"a": 8, "b": 8, "c": 5, "d": 5}, {"a": "second", "b": "second"}),
        ({"a": 9, "b": 7, "c": 7, "d": 3}, {"a": "first", "b": "third", "c": "third"}),
        ({"a": 9, "b": 7, "c": 5, "d": 5}, {"a": "first", "b": "second"}),
        ({"a": 9, "b": 7, "c": 0, "d": 0}, {"a": "first", "b": "second"}),
    ],
)
def test_placements_with_four_players(power, expected):
    """Rulebook p.12: in a 4-player game the third strength gets the third reward; after a
    tie for first "the other two players still compete for the third reward"; "Players
    tying for third place receive nothing"."""
    assert placements(power, four_players=True) == expected


def test_tie_for_first_gives_both_the_second_reward_and_nobody_wins():
    """Rulebook p.12 Ties: "When players tie for first place, no one wins the Conflict. The
    tied players each receive the second reward"."""
    s = fight("skirmish_a", 6, r1=3, r2=1)  # you 6, r1 6, r2 2
    assert entries(s, "combat")[0]["places"] == {"p1": "second", "r1": "second"}
    assert ledger(s) == []  # nobody took the first reward's VP
    r1 = s.house("r1")
    assert (r1.solari, r1.intrigue) == (2, 2)
    assert entries(s, "take", "p1") == [
        {"intrigue": 1, "solari": 2, "trash": False, "choose": 0, "options": []}
    ]
    assert "reward" not in [e.kind for e in s.last_entries if e.house == "r2"]


def test_tie_for_second_with_three_combatants_gives_nothing():
    """Rulebook p.12 Ties: "When players tie for second place, they each receive the third
    reward", and "In a 4-player game (only), the player with the third highest strength
    receives the third reward"; its example: "the third-place reward isn't available in a
    3-player game anyway". FAQ Conflict: the same rules for one to three players."""
    s = fight_2p("guild_bank_raid", p1=9, p2=4, hagal=2)  # p2 4, House Hagal 4
    assert entries(s, "combat")[0]["places"] == {"p1": "first"}
    assert entries(s, "take", "p2") == []
    assert [e["place"] for e in entries(s, "reward")] == ["first"]


def test_zero_strength_gets_no_reward():
    """Rulebook p.12: "A player with 0 strength does not receive any reward"."""
    s = fight("skirmish_a", 0, r1=2, r2=0)
    assert entries(s, "combat")[0]["places"] == {"r1": "first"}
    assert entries(s, "reward") == [{"place": "first", "card": "skirmish_a"}]


# -- rival rewards -------------------------------------------------------------------------


def test_rivals_take_first_and_second_reward_vp_and_resources():
    """Rulebook p.20 Combat: Rivals "gain Victory Points" and "Solari, Spice, Water, and
    Intrigue cards" from first- and second-place rewards."""
    s = fight("skirmish_a", 0, r1=3, r2=1)
    assert ledger(s) == [("r1", 1, "conflict")]
    r2 = s.house("r2")
    assert (r2.solari, r2.intrigue) == (2, 2)


def test_rival_takes_resources_of_a_first_reward():
    """Rulebook p.20 Combat: Rivals keep Solari, spice, water and Intrigue in their supply."""
    s = house(solo(), "r1", spice=0, intrigue=0)
    s = answer(to_combat(s, "raid_stockpiles", r1=2, r2=0), 0)
    r1 = s.house("r1")
    assert (r1.spice, r1.intrigue) == (3, 1)


def test_rival_influence_reward_goes_where_it_has_the_least():
    """Rulebook p.20 Choices: "Whenever a Rival has a choice about gaining Influence, they
    choose the Faction in which they have the least"."""
    s = house(solo(), "r1", influence=(1, 1, 0, 1))
    s = answer(to_combat(s, "skirmish_c", r1=2, r2=0), 0)
    assert s.house("r1").influence == (1, 1, 1, 1)
    assert entries(s, "influence_choice", "r1") == [{"faction": "bene_gesserit", "amount": 1}]


def test_rival_influence_reward_tie_asks_you():
    """Rulebook p.20 Choices: "In the case of a tie ... you decide for the Rival"."""
    s = house(solo(), "r1", influence=(1, 0, 0, 1))
    s = answer(to_combat(s, "skirmish_c", r1=2, r2=0), 0)
    assert s.prompt is not None
    assert (s.prompt.kind, s.prompt.house, s.prompt.decider) == ("rival_influence", "r1", "p1")
    assert s.prompt.options == ("spacing_guild", "bene_gesserit")
    s = answer(s, "spacing_guild")
    assert s.house("r1").influence == (1, 1, 0, 1)


def test_rival_takes_influence_in_two_different_factions_for_machinations():
    """Conflict card Machinations (one Influence with each of two different Factions) with
    rulebook p.20 Choices (least Influence first)."""
    s = house(solo(), "r1", influence=(0, 1, 2, 2))
    s = answer(to_combat(s, "machinations", r1=2, r2=0), 0)
    assert s.house("r1").influence == (1, 2, 2, 2)


def test_rival_takes_two_influence_in_one_faction_for_grand_vision():
    """Conflict card Grand Vision (two Influence with one Faction) with rulebook p.20 Choices;
    FAQ Solo Play: reaching 2 Influence scores the Rival a VP."""
    s = house(solo(), "r1", influence=(1, 1, 0, 1), intrigue=0)
    s = answer(to_combat(s, "grand_vision", r1=2, r2=0), 0)
    assert s.house("r1").influence == (1, 1, 2, 1)
    assert ("r1", 1, "influence") in ledger(s)


def test_rival_winner_places_its_control_marker_replacing_yours():
    """Rulebook p.20 Combat: Rivals "win Control of board spaces, placing a Control marker";
    Icon guide, Control: "replacing any opponent's marker there"."""
    s = replace(solo(), control={"arrakeen": "p1"})
    s = answer(to_combat(s, "siege_of_arrakeen", r1=2, r2=0), 0)
    assert s.control == {"arrakeen": "r1"}
    assert entries(s, "control", "r1") == [{"space": "arrakeen"}]
    assert ledger(s) == [("r1", 1, "conflict")]


def test_rival_choice_between_rewards_is_asked_of_you():
    """Rulebook p.20 Choices: for "a choice not involving Influence, you decide for the
    Rival" (Battle for Arrakeen second place: choose two of three)."""
    s = house(solo(), "r2", solari=0, spice=0, intrigue=0)
    s = answer(to_combat(s, "battle_for_arrakeen", r1=3, r2=1), 0)
    assert s.prompt is not None
    assert (s.prompt.kind, s.prompt.house, s.prompt.decider) == ("rival_reward", "r2", "p1")
    assert s.prompt.options == ("0", "1", "2")
    s = answer(s, "2")  # 3 Solari
    assert s.prompt is not None and s.prompt.options == ("0", "1")
    s = answer(s, "1")  # 2 spice
    r2 = s.house("r2")
    assert (r2.solari, r2.spice, r2.intrigue) == (3, 2, 0)


def test_rival_winning_sort_through_the_chaos_takes_the_mentat_next_round():
    """Rulebook p.20 Combat: Rivals "gain the Mentat, and use it as an Agent during the next
    round"; FAQ Sort Through the Chaos: "you take the Mentat at the start of the next
    round"."""
    s = solo()
    s = idle_rivals(replace(s, conflict="sort_through_the_chaos"))
    s = house(house(s, "r1", troops=2), "r2", troops=0)
    s = stack(s, *ZERO_SWORDS)
    s = answer(reveal(s), 0)
    assert any(e.kind == "mentat_won" and e.house == "r1" for e in s.log)
    s = answer(s, "start")  # the round-end step's tap
    assert s.round == 2
    assert s.house("r1").mentat
    assert any(e.kind == "mentat_claimed" and e.round == 2 for e in s.log)
    # r1 plays its Mentat as a third Agent this round (two Agents + the Mentat).
    s = finish_round(s)
    r1_turns = [e for e in s.log if e.kind == "rival_agent" and e.round == 2 and e.house == "r1"]
    assert len(r1_turns) == 3
    assert not s.house("r1").mentat  # returned at the end of round 2


def test_human_winning_sort_through_the_chaos_holds_the_mentat_next_round():
    """FAQ Sort Through the Chaos; Icon guide, Mentat: "keep it as an Agent for next round"."""
    s = solo()
    s = idle_rivals(replace(s, conflict="sort_through_the_chaos"))
    s = house(house(s, "r1", troops=1), "r2", troops=0)
    s = stack(s, *ZERO_SWORDS)
    s = answer(answer(reveal(s), 9), "start")
    assert s.round == 2 and s.house("p1").mentat
    assert s.house("p1").agents_left == 3


# -- human rewards -------------------------------------------------------------------------


def test_human_vp_reward_is_recorded_in_the_ledger():
    """Rulebook p.12 Resolve Combat (the winner gains the top reward; the VP moves the Score
    marker)."""
    s = fight("skirmish_a", 9, r1=1, r2=0)
    assert s.house("p1").vp == 1
    assert ledger(s) == [("p1", 1, "conflict")]


def test_human_influence_reward_asks_which_faction():
    """Conflict card Skirmish (Influence with a Faction of your choice); the engine asks."""
    s = fight("skirmish_c", 9, r1=1, r2=0)
    assert s.prompt is not None
    assert (s.prompt.kind, s.prompt.house, s.prompt.decider) == ("influence", "p1", "p1")
    assert set(s.prompt.options) == {"emperor", "spacing_guild", "bene_gesserit", "fremen"}
    s = answer(s, "fremen")
    assert s.house("p1").influence == (0, 0, 0, 1)


def test_human_is_told_to_take_resources_from_the_bank():
    """Rulebook p.12 Resolve Combat: players take their rewards; the app tracks no human
    resources, it tells you what to take."""
    s = fight("raid_stockpiles", 9, r1=1, r2=0)
    assert entries(s, "take", "p1") == [
        {"intrigue": 1, "spice": 3, "trash": False, "choose": 0, "options": []}
    ]


def test_human_influence_reward_in_two_factions_asks_twice_for_different_factions():
    """Conflict card Machinations: one Influence with each of two different Factions of your
    choice."""
    s = fight("machinations", 9, r1=1, r2=0)
    assert s.prompt is not None and s.prompt.kind == "influence"
    assert len(s.prompt.options) == 4
    s = answer(s, "emperor")
    assert s.prompt is not None and s.prompt.kind == "influence"
    assert "emperor" not in s.prompt.options and len(s.prompt.options) == 3
    s = answer(s, "fremen")
    assert s.house("p1").influence == (1, 0, 0, 1)


def test_human_is_told_a_choice_of_rewards_with_its_options():
    """Conflict card Battle for Arrakeen, second place: choose two of an Intrigue card, 2
    spice and 3 Solari; a human takes them from the bank."""
    s = fight("battle_for_arrakeen", 4, r1=3, r2=0)  # r1 6 first, you 4 second
    assert entries(s, "take", "p1") == [
        {
            "trash": False,
            "choose": 2,
            "options": [{"intrigue": 1}, {"spice": 2}, {"solari": 3}],
        }
    ]
    (take,) = [e for e in s.last_entries if e.kind == "take"]
    assert sentence(take, s).endswith("take 2 of: 1 Intrigue card, 2 spice, or 3 Solari.")


def test_human_winner_places_a_control_marker_replacing_a_rivals():
    """Rulebook p.10 Control Bonuses: "If you win such a Conflict, take a Control marker ...
    and place it"; Icon guide, Control (replacing any opponent's marker)."""
    s = replace(solo(), control={"carthag": "r2"})
    s = answer(to_combat(s, "siege_of_carthag", r1=1, r2=0), 9)
    assert s.control == {"carthag": "p1"}
    assert ledger(s) == [("p1", 1, "conflict")]


# -- House Hagal ---------------------------------------------------------------------------


def test_house_hagal_takes_no_reward_when_it_wins():
    """Rulebook p.19 Two-Player Games: House Hagal "doesn't collect resources ... earn
    rewards, or score Victory Points"."""
    s = fight_2p("raid_stockpiles", p1=4, p2=0, hagal=3)
    assert entries(s, "combat")[0]["places"] == {"hagal": "first", "p1": "second"}
    assert [e.house for e in s.last_entries if e.kind == "reward"] == ["p1"]
    hagal = s.house("hagal")
    assert (hagal.spice, hagal.intrigue, hagal.vp) == (0, 0, 0)


def test_house_hagal_winning_removes_the_control_marker_of_the_space():
    """Rulebook p.19: "if it wins a Conflict for a board space currently controlled by another
    player, remove that player's Control marker"."""
    s = two_player()
    s = replace(s, control={"arrakeen": "p2"})
    s = replace(s, conflict="siege_of_arrakeen", conflict_deck=())
    s = house(s, "hagal", troops=3, placed=3)
    s = stack(s, *ZERO_SWORDS)
    s = answer(answer(apply(apply(s, Reveal("p1")), Reveal("p2")), 0), 2)
    assert s.control == {}
    assert entries(s, "control_removed") == [{"space": "arrakeen"}]
    assert [e.house for e in s.last_entries if e.kind == "control_removed"] == ["p2"]
    assert ledger(s) == []


def test_house_hagal_never_takes_control_of_a_space():
    """Rulebook p.19: "it can never claim control of a board space"."""
    s = fight_2p("siege_of_arrakeen", p1=0, p2=0, hagal=2)
    assert s.control == {}


def test_house_hagal_in_second_place_leaves_the_control_marker():
    """Rulebook p.19: only a House Hagal win removes a Control marker."""
    s = two_player()
    s = replace(s, control={"carthag": "p2"}, conflict="siege_of_carthag", conflict_deck=())
    s = house(s, "hagal", troops=1, placed=3)
    s = stack(s, *ZERO_SWORDS)
    s = answer(answer(apply(apply(s, Reveal("p1")), Reveal("p2")), 0), 5)
    assert s.control == {"carthag": "p2"}


# -- after combat --------------------------------------------------------------------------


def test_troops_return_to_supply_after_combat():
    """Rulebook p.12: "each player takes their troops from the Conflict and puts them in their
    supply (not their garrison). Reset all Combat markers to 0"."""
    s = solo()
    s = house(s, "r1", garrison=2)
    s = house(s, "r2", garrison=1)
    s = to_combat(s, "skirmish_a", ("heighliner", "conspire"), r1=4, r2=3)
    s = answer(s, 5)
    for hid, garrison in (("r1", 2), ("r2", 1)):
        h = s.house(hid)
        assert (h.troops, h.swords, h.garrison) == (0, 0, garrison)
        assert h.supply == 12 - garrison
    assert s.house("p1").strength == 0


def test_rival_controlling_the_conflicts_space_deploys_a_defensive_troop():
    """Rulebook p.10: "When a Conflict card is revealed for a space that you already control,
    ... deploy one troop from your supply to the Conflict"; p.20: Rivals "also receive the
    defensive bonus"."""
    s = solo()
    s = replace(
        s,
        control={"arrakeen": "r2"},
        conflict_deck=(ConflictSlot(2, "siege_of_arrakeen"), *s.conflict_deck[1:]),
    )
    s = finish_round(s)
    assert s.conflict == "siege_of_arrakeen"
    bonus = [e for e in s.log if e.kind == "defensive_bonus"]
    assert [(e.house, dict(e.data)) for e in bonus] == [
        ("r2", {"space": "arrakeen", "deployed": 1})
    ]
    kinds_round_2 = [e.kind for e in s.log if e.round == 2]
    assert kinds_round_2.index("defensive_bonus") < kinds_round_2.index("rival_agent")


def test_human_controlling_the_conflicts_space_is_told_about_the_defensive_bonus():
    """Rulebook p.10 defensive bonus: "you may deploy one troop from your supply"."""
    s = solo()
    s = replace(
        s,
        control={"carthag": "p1"},
        conflict_deck=(ConflictSlot(2, "siege_of_carthag"), *s.conflict_deck[1:]),
    )
    s = finish_round(s)
    bonus = [e for e in s.log if e.kind == "defensive_bonus"]
    assert [(e.house, dict(e.data)) for e in bonus] == [
        ("p1", {"space": "carthag", "deployed": None})
    ]


def test_rival_with_an_empty_supply_gets_no_defensive_troop():
    """Rulebook p.10: the defensive troop comes "from your supply"."""
    s = solo()
    s = replace(
        s,
        control={"arrakeen": "r2"},
        conflict_deck=(ConflictSlot(2, "siege_of_arrakeen"), *s.conflict_deck[1:]),
    )
    s = idle_rivals(s)
    s = house(s, "r2", garrison=12, troops=0)
    s = settle(answer(reveal(s), 0))
    assert s.round == 2
    assert all(e.kind != "defensive_bonus" for e in s.log)

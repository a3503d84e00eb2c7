"""Three- and four-player games: every rule that differs from solo and two-player, and
the rules for humans that now run with three or four of them.

Sources: base rulebook (RB) p.4 Setup G2 (Score markers), p.7 Influence and Alliances,
p.8 Phase 2 (turn order), p.9 Control, p.12 Phase 3 Resolve Combat and Ties (with its
three-player example), Phase 4 Makers, Phase 5 Recall and Endgame, p.19 (House Hagal plays
only in two-player games); FAQ "Conflict", "Alliance", "Corner the Market"; Rise of Ix
rulebook (IX) p.5 Shipping Track (Dividends), p.10 Epic Game Mode; card_db/rulings.toml
(three of four tied for first).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.cards import default_root
from companion.lookup.rulings import load_rulings
from companion.rules.actions import Adjust, Choose, CornerTheMarket, Freighter, SetTiebreak
from companion.rules.codec import decode_setup, encode_setup
from companion.rules.engine import apply, new_game
from companion.rules.scoring import final_ranking
from companion.rules.state import GameState
from companion.rules.text import describe
from tests.rules.helpers import (
    answer,
    catalog,
    entries,
    finish_round,
    house,
    kinds,
    multiplayer,
    multiplayer_setup,
    place,
    reveal,
    run,
)


def to_strengths(s: GameState, conflict: str) -> GameState:
    """The last round (empty Conflict deck) with this Conflict card: everyone reveals;
    stops at the first strength question."""
    s = replace(s, conflict=conflict, conflict_deck=())
    while s.phase == "agents":
        s = reveal(s)
    assert s.prompt is not None and s.prompt.kind == "strength"
    return s


def fight(players: int, conflict: str, **strength: int) -> GameState:
    """A Combat of three or four players with these strengths (0 for those not named)."""
    s = to_strengths(multiplayer(players), conflict)
    while s.prompt is not None and s.prompt.kind == "strength":
        s = answer(s, strength.get(s.prompt.house, 0))
    return s


def places(s: GameState) -> dict[str, str]:
    """Who got which reward in the Combat just resolved."""
    (combat,) = [e for e in s.log if e.kind == "combat"]
    placed = combat.data["places"]
    assert isinstance(placed, dict)
    return {str(k): str(v) for k, v in placed.items()}


def took(s: GameState, house_id: str) -> list[dict[str, object]]:
    """What the last Combat told this player to take from the bank."""
    return [dict(e.data) for e in s.log if e.kind == "take" and e.house == house_id]


def conflict_vp(s: GameState, house_id: str) -> int:
    return sum(e.delta for e in s.ledger if e.house == house_id and e.source == "conflict")


# -- set-up ---------------------------------------------------------------------------------


def test_four_players_start_on_1_vp_with_a_start_line_in_the_ledger():
    """RB p.4 G2: "Place one of your two discs on the Score track. In a 4-player game, place
    it on the 1 space." The VP ledger says where that point comes from."""
    s = multiplayer(4)
    assert [h.vp for h in s.houses] == [1, 1, 1, 1]
    assert [(e.house, e.delta, e.source, e.round) for e in s.ledger] == [
        ("p1", 1, "start", 0),
        ("p2", 1, "start", 0),
        ("p3", 1, "start", 0),
        ("p4", 1, "start", 0),
    ]


def test_three_players_start_on_0_vp():
    """RB p.4 G2: "Otherwise, place it on the 0 space"."""
    s = multiplayer(3)
    assert [h.vp for h in s.houses] == [0, 0, 0]
    assert s.ledger == ()


@pytest.mark.parametrize("players", [3, 4])
def test_every_seat_is_a_player_and_house_hagal_does_not_play(players):
    """RB p.19: House Hagal is the third house of a two-player game only; with three or four
    players there is no Rival and no House Hagal deck."""
    s = multiplayer(players)
    assert [h.id for h in s.houses] == [f"p{i + 1}" for i in range(players)]
    assert all(h.is_human for h in s.houses)
    assert s.rivals == () and s.hagal_deck == () and s.hagal_discard == ()


# -- turn order and the First Player marker ----------------------------------------------------


def test_turns_go_clockwise_from_the_first_player_and_no_house_hagal_turn_comes_between():
    """RB p.8 Phase 2: "Starting with the player who has the First Player marker and
    continuing clockwise, players take one turn at a time"; a player who has revealed takes
    no more turns. (RB p.19: House Hagal's turn after the First Player's is two-player only.)"""
    s = multiplayer(4, first_player=2)
    assert (s.first, s.turn) == ("p3", "p3")
    s = place(s, "arrakeen")
    assert s.turn == "p4"
    s = reveal(s)  # p4 reveals
    assert s.turn == "p1"
    s = place(s, "carthag")
    assert s.turn == "p2"
    s = place(s, "hardy_warriors")
    assert s.turn == "p3"  # then p4 is skipped: it revealed
    s = place(s, "the_great_flat")
    assert s.turn == "p1"
    turns = [e.house for e in s.log if e.kind in ("agent", "reveal")]
    assert turns == ["p3", "p4", "p1", "p2", "p3"]
    assert not [e for e in s.log if e.kind.startswith(("rival_", "hagal_", "swords"))]


@pytest.mark.parametrize("players", [3, 4])
def test_the_first_player_marker_passes_clockwise_each_round(players):
    """RB p.12 Phase 5: "Pass the First Player marker clockwise to the next player, then
    begin a new round"; the new First Player opens the round [RB p.8]."""
    s = multiplayer(players, first_player=1)
    firsts = [s.first]
    for _ in range(players + 1):
        s = finish_round(s)
        firsts.append(s.first)
        assert s.turn == s.first
    seats = [f"p{i + 1}" for i in range(players)]
    assert firsts == [seats[(1 + k) % players] for k in range(players + 2)]


def test_the_new_first_player_is_asked_to_start_the_next_round():
    """RB p.12 Phase 5: the marker passes before the next round starts, so the round-end
    chores are the new First Player's to confirm."""
    s = multiplayer(3, first_player=2)
    while s.phase == "agents":
        s = reveal(s)
    while s.prompt is not None and s.prompt.kind == "strength":
        s = answer(s, 0)
    assert s.prompt is not None and s.prompt.kind == "round_end"
    assert (s.first, s.prompt.decider) == ("p1", "p1")


def test_a_physical_conflict_card_is_named_by_the_first_player():
    """RB p.8 Phase 1: the round begins by revealing a Conflict card; with the table's own
    deck, the First Player (p3 here) tells the app which."""
    s = multiplayer(3, first_player=2, physical_conflicts=True)
    assert s.prompt is not None and s.prompt.kind == "conflict_card"
    assert s.prompt.decider == "p3"
    level_one = {c.id for c in catalog().conflicts.values() if c.level == 1 and c.set == "base"}
    assert set(s.prompt.options) == level_one


def test_a_physical_tech_tile_is_named_by_the_first_player():
    """IX p.3: three stacks, the top tile face up; with the table's own tiles the First Player
    (p2 here, not always p1) tells the app which tile turned up."""
    s = multiplayer(4, first_player=1, sets=("base", "ix"), physical_tech=True)
    assert s.prompt is not None and s.prompt.kind == "tech_tile"
    assert s.prompt.decider == "p2"


# -- Combat: rewards and ties ------------------------------------------------------------------


def test_the_three_player_example_of_the_rulebook():
    """RB p.12 example: John 8, Abby 10 after Ambush, Ned 0 (no troops). "With 10 strength,
    Abby wins the Conflict. The top reward of the Conflict card, Siege of Arrakeen, gives her
    1 Victory Point and control of Arrakeen ... John wins the second-place reward, taking 4
    Solari ... Ned receives nothing from this Conflict. He has 0 strength, and the
    third-place reward isn't available in a 3-player game anyway." (p1 John, p2 Abby, p3
    Ned.)"""
    s = fight(3, "siege_of_arrakeen", p1=8, p2=10, p3=0)
    assert places(s) == {"p2": "first", "p1": "second"}
    assert conflict_vp(s, "p2") == 1 and s.control == {"arrakeen": "p2"}
    assert took(s, "p1") == [
        {"solari": 4, "trash": False, "choose": 0, "options": []},
    ]
    assert took(s, "p3") == [] and conflict_vp(s, "p3") == 0
    assert not [e for e in s.log if e.kind == "reward" and e.house == "p3"]


def test_the_third_strength_gets_nothing_with_three_players():
    """RB p.12: "In a 4-player game (only), the player with the third highest strength
    receives the third reward"."""
    s = fight(3, "siege_of_arrakeen", p1=9, p2=7, p3=5)
    assert places(s) == {"p1": "first", "p2": "second"}
    assert took(s, "p3") == []


def test_the_third_strength_gets_the_third_reward_with_four_players():
    """RB p.12: "In a 4-player game (only), the player with the third highest strength
    receives the third reward" (Siege of Arrakeen: 2 Solari); the fourth gets nothing."""
    s = fight(4, "siege_of_arrakeen", p1=3, p2=9, p3=7, p4=5)
    assert places(s) == {"p2": "first", "p3": "second", "p4": "third"}
    assert took(s, "p4") == [{"solari": 2, "trash": False, "choose": 0, "options": []}]
    assert took(s, "p1") == []
    assert [h.vp for h in s.houses] == [1, 2, 1, 1]  # 1 from the start, 1 for p2's win


@pytest.mark.parametrize("players", [3, 4])
def test_a_tie_for_first_gives_each_the_second_reward_and_nobody_wins(players):
    """RB p.12 Ties: "When players tie for first place, no one wins the Conflict. The tied
    players each receive the second reward"; nobody takes control of Arrakeen."""
    s = fight(players, "siege_of_arrakeen", p1=6, p2=6, p3=2)
    assert places(s)["p1"] == places(s)["p2"] == "second"
    assert "first" not in places(s).values()
    assert s.control == {} and conflict_vp(s, "p1") == conflict_vp(s, "p2") == 0


def test_after_a_tie_for_first_of_four_the_other_two_compete_for_the_third_reward():
    """RB p.12 Ties: "(In a 4-player game, if two players tie for first place, the other two
    players still compete for the third reward.)\""""
    s = fight(4, "siege_of_arrakeen", p1=6, p2=6, p3=4, p4=2)
    assert places(s) == {"p1": "second", "p2": "second", "p3": "third"}
    assert took(s, "p3") == [{"solari": 2, "trash": False, "choose": 0, "options": []}]
    assert took(s, "p4") == []


def test_after_a_tie_for_first_of_four_a_tie_for_third_gets_nothing():
    """RB p.12 Ties: "Players tying for third place receive nothing"."""
    s = fight(4, "siege_of_arrakeen", p1=6, p2=6, p3=4, p4=4)
    assert places(s) == {"p1": "second", "p2": "second"}
    assert took(s, "p3") == took(s, "p4") == []


def test_with_four_a_tie_for_second_gives_each_the_third_reward():
    """RB p.12 Ties: "When players tie for second place, they each receive the third
    reward" (different only for four players, FAQ "Conflict"); the fourth gets nothing."""
    s = fight(4, "siege_of_arrakeen", p1=9, p2=5, p3=5, p4=2)
    assert places(s) == {"p1": "first", "p2": "third", "p3": "third"}
    assert (
        took(s, "p2")
        == took(s, "p3")
        == [{"solari": 2, "trash": False, "choose": 0, "options": []}]
    )
    assert took(s, "p4") == []


def test_with_three_a_tie_for_second_gives_nothing():
    """FAQ "Conflict": "The rules for giving rewards in a Conflict are the same for one, two,
    or three players. They are different only for four players." With three there is no
    third reward, so a tie for second gets nothing."""
    s = fight(3, "siege_of_arrakeen", p1=9, p2=5, p3=5)
    assert places(s) == {"p1": "first"}
    assert took(s, "p2") == took(s, "p3") == []


def test_with_four_a_tie_for_third_gets_nothing():
    """RB p.12 Ties: "Players tying for third place receive nothing"."""
    s = fight(4, "siege_of_arrakeen", p1=9, p2=7, p3=3, p4=3)
    assert places(s) == {"p1": "first", "p2": "second"}


def test_three_of_four_tied_for_first_each_take_the_second_reward_and_the_fourth_the_third():
    """Our ruling (card_db/rulings.toml, Siege of Arrakeen, "Rulebook p.12, Ties"): RB p.12
    says only what happens when *two* of four tie for first ("the other two players still
    compete for the third reward"). A tie for first uses up the first and second rewards and
    never the third, so with three tied the fourth player, who has strength, takes the
    third reward."""
    s = fight(4, "siege_of_arrakeen", p1=7, p2=3, p3=7, p4=7)
    assert places(s) == {"p1": "second", "p3": "second", "p4": "second", "p2": "third"}
    assert took(s, "p2") == [{"solari": 2, "trash": False, "choose": 0, "options": []}]
    assert s.control == {}
    rulings = load_rulings(default_root(), catalog())["conflict:siege_of_arrakeen"]
    assert any(
        r.source == "Rulebook p.12, Ties" and "three players tie for first" in r.text
        for r in rulings
    )


def test_three_of_four_tied_for_first_and_the_fourth_without_strength_gets_nothing():
    """RB p.12: "A player with 0 strength does not receive any reward"."""
    s = fight(4, "siege_of_arrakeen", p1=7, p2=0, p3=7, p4=7)
    assert places(s) == {"p1": "second", "p3": "second", "p4": "second"}


def test_all_four_tied_for_first_each_take_the_second_reward():
    """RB p.12 Ties: the tied players each receive the second reward."""
    s = fight(4, "siege_of_arrakeen", p1=5, p2=5, p3=5, p4=5)
    assert places(s) == dict.fromkeys(("p1", "p2", "p3", "p4"), "second")


def test_every_player_is_asked_their_strength_and_no_house_reveals_swords():
    """RB p.12: each player totals and announces their strength; House Hagal's combat bonus
    [RB p.19] is two-player only."""
    s = to_strengths(multiplayer(4), "siege_of_arrakeen")
    asked = []
    while s.prompt is not None and s.prompt.kind == "strength":
        asked.append(s.prompt.house)
        s = answer(s, 1)
    assert asked == ["p1", "p2", "p3", "p4"]
    assert "swords" not in [e.kind for e in s.log]


def strengths_asked(s: GameState) -> list[str]:
    asked = []
    while s.prompt is not None and s.prompt.kind == "strength":
        asked.append(s.prompt.house)
        s = answer(s, 1)
    return asked


@pytest.mark.parametrize("players", [3, 4])
def test_the_strengths_are_asked_from_the_first_player_clockwise(players):
    """RB p.11 Combat Intrigue Cards: "Starting with the player who has the First Player
    marker and continuing clockwise, each player ... may play any number of Combat Intrigue
    cards": the table settles its strengths in that order, so the app asks them so."""
    s = to_strengths(multiplayer(players, first_player=2), "siege_of_arrakeen")
    expected = ["p3", "p4", "p1", "p2"] if players == 4 else ["p3", "p1", "p2"]
    assert strengths_asked(s) == expected


def test_a_game_stored_before_that_order_asks_in_seat_order_as_it_was_played():
    """A log stored without the option replays as it was played (codec.decode_setup): its
    answers were given p1 first, and replaying them in another order would hand each
    player another's strength."""
    setup = multiplayer_setup(4, first_player=2)
    data = encode_setup(setup)
    del data["options"]["strengths_from_first"]
    old = decode_setup(data)
    assert not old.options.strengths_from_first
    s = to_strengths(new_game(old, catalog()), "siege_of_arrakeen")
    assert strengths_asked(s) == ["p1", "p2", "p3", "p4"]


# -- Influence and Alliances (FAQ "Alliance") --------------------------------------------------


def influence(s: GameState, house_id: str, delta: int, faction: str = "fremen") -> GameState:
    return apply(s, Adjust(house_id, f"influence:{faction}", delta, "card"))


def test_a_higher_player_takes_the_alliance_and_a_tied_one_does_not():
    """RB p.7: "The first player to reach 4 Influence with a Faction also earns an Alliance
    ... If they are ever passed by an opponent rising to a higher space on the track, they
    must give the Alliance token to that opponent"."""
    s = multiplayer(4)
    s = run(s, *(Adjust(h, "influence:fremen", 4, "card") for h in ("p2", "p3", "p4")))
    assert s.alliances == {"fremen": "p2"}  # p3 and p4 only tie with p2
    s = influence(s, "p4", 1)
    assert s.alliances == {"fremen": "p4"}
    assert [h.vp for h in s.houses] == [1, 2, 2, 3]  # start, 2 Influence, Alliance


def test_a_holder_tied_with_two_players_who_drops_chooses_who_takes_the_alliance():
    """FAQ "Alliance": you lose the token if "You were previously tied for Influence with
    another player; the player you were tied with now takes the Alliance token. (If you were
    tied with more than one other player, choose one to take it.)\""""
    s = multiplayer(4)
    s = run(s, *(Adjust(h, "influence:fremen", 4, "card") for h in ("p1", "p3", "p4")))
    s = influence(s, "p1", -1)
    assert s.prompt is not None and s.prompt.kind == "alliance"
    assert (s.prompt.decider, set(s.prompt.options)) == ("p1", {"p3", "p4"})
    s = apply(s, Choose("p4"))
    assert s.alliances == {"fremen": "p4"}
    assert "alliance" in kinds(s)


def test_a_holder_tied_with_one_player_who_drops_hands_the_alliance_to_them():
    """FAQ "Alliance": "the player you were tied with now takes the Alliance token"."""
    s = multiplayer(3)
    s = run(s, *(Adjust(h, "influence:emperor", 5, "card") for h in ("p2", "p3")))
    s = apply(s, Adjust("p1", "influence:emperor", 2, "card"))
    s = influence(s, "p2", -1, "emperor")
    assert s.prompt is None and s.alliances == {"emperor": "p3"}


def test_a_holder_falling_to_3_gives_the_alliance_to_the_best_player_at_4_or_more():
    """FAQ "Alliance": you lose the token "If you have fallen to 3 Influence or lower. (If no
    player has 4 Influence or higher to take the Alliance token, return it to the game
    board.)\""""
    s = multiplayer(4)
    s = apply(s, Adjust("p1", "influence:spacing_guild", 6, "card"))
    s = apply(s, Adjust("p2", "influence:spacing_guild", 4, "card"))
    s = apply(s, Adjust("p3", "influence:spacing_guild", 5, "card"))
    s = apply(s, Adjust("p1", "influence:spacing_guild", -3, "card"))
    assert s.alliances == {"spacing_guild": "p3"}
    s = apply(s, Adjust("p3", "influence:spacing_guild", -2, "card"))
    assert s.alliances == {"spacing_guild": "p2"}
    s = apply(s, Adjust("p2", "influence:spacing_guild", -1, "card"))
    assert s.alliances == {}  # nobody else has 4: back to the board


# -- the board: control, Makers, Mentat, Swordmaster, High Council ----------------------------


def test_control_pays_its_holder_when_any_of_the_others_visits():
    """RB p.9 Control: whenever an Agent is sent to the space, its controller gets the bonus
    shown (Arrakeen: 1 Solari), whoever sent it."""
    s = replace(multiplayer(4), control={"arrakeen": "p2"})
    s = place(s, "arrakeen")  # p1
    assert entries(s, "control_bonus", "p2") == [
        {"space": "arrakeen", "visitor": "p1", "solari": 1, "spice": 0}
    ]


def test_the_controller_is_told_about_the_defensive_troop():
    """RB p.9: when a Conflict card for a space you control is revealed, you may deploy one
    troop from your supply to the Conflict."""
    s = multiplayer(4)
    s = replace(
        s,
        control={"arrakeen": "p3"},
        conflict_deck=(replace(s.conflict_deck[0], card="siege_of_arrakeen"),),
    )
    s = finish_round(s)
    assert [e.data for e in s.log if e.kind == "defensive_bonus"] == [
        {"space": "arrakeen", "deployed": None}
    ]
    assert [e.house for e in s.log if e.kind == "defensive_bonus"] == ["p3"]


def test_bonus_spice_grows_where_no_player_sent_an_agent():
    """RB p.12 Phase 4: each Maker space without an Agent gets 1 bonus spice."""
    s = multiplayer(3)
    s = place(s, "hagga_basin")  # p1
    s = finish_round(s)
    assert s.bonus_spice == {"the_great_flat": 1, "hagga_basin": 0, "imperial_basin": 1}


def test_the_mentat_the_swordmaster_and_a_council_seat_for_any_player():
    """RB p.9 icon guide: the Mentat is an extra Agent for the round, back at the Recall
    [RB p.12 Phase 5]; the Swordmaster is a third Agent for good; a High Council seat is
    once per game. Players p2 to p4 of a four-player game take them like p1."""
    s = multiplayer(4)
    s = reveal(s)  # p1
    s = place(s, "mentat")  # p2
    s = place(s, "swordmaster")  # p3
    s = place(s, "high_council")  # p4
    assert s.house("p2").mentat and s.house("p2").agents_left == 2
    assert s.house("p3").swordmaster and s.house("p3").agents == 3
    assert s.house("p4").council_seat
    s = finish_round(s)
    assert not any(h.mentat for h in s.houses)
    assert s.house("p3").agents == 3 and s.house("p4").council_seat


# -- Rise of Ix: Dividends ------------------------------------------------------------------


def test_dividends_with_four_players_tell_everyone_else_to_take_1_solari():
    """IX p.5 and icon guide: "Dividends — You gain 5 Solari and each of your opponents gains
    1." Players keep their own Solari, so the app tells the table."""
    s = house(multiplayer(4, sets=("base", "ix")), "p3", freighter=1)
    s = apply(s, Freighter("p3", "recall"))
    assert s.prompt is not None and s.prompt.kind == "shipping_first"
    s = apply(s, Choose("dividends"))
    (entry,) = [e for e in s.last_entries if e.kind == "dividends"]
    assert entry.house == "p3"
    assert str(describe(entry, s)).endswith(
        "takes Dividends: take 5 Solari from the bank; everyone else gains 1 Solari."
    )
    assert all(h.solari == 0 for h in s.houses)


# -- the end and the tie-breakers -------------------------------------------------------------


def test_the_start_point_counts_towards_the_10_vp_that_end_a_four_player_game():
    """RB p.12 Phase 5: "If any player is at 10 or more Victory Points on the Score track ...
    the Endgame is triggered"; with four the track starts at 1 [RB p.4 G2]."""
    s = apply(multiplayer(4), Adjust("p4", "vp", 9, "card"))
    s = finish_round(s)
    assert (s.phase, s.end_reason, s.house("p4").vp) == ("ended", "vp", 10)


def test_nine_vp_do_not_end_a_three_player_game():
    """RB p.12 Phase 5: 10 or more VP trigger the Endgame."""
    s = finish_round(apply(multiplayer(3), Adjust("p2", "vp", 9, "card")))
    assert s.phase != "ended" and s.round == 2


def test_an_epic_four_player_game_ends_at_12_vp():
    """IX p.10 Epic Game Mode: "you play to 12 Victory Points instead of 10"."""
    s = multiplayer(4, sets=("base", "ix"), epic=True)
    s = finish_round(apply(s, Adjust("p1", "vp", 10, "card")))  # 11 with the start point
    assert s.phase != "ended"
    s = finish_round(apply(s, Adjust("p1", "vp", 1, "card")))
    assert (s.phase, s.end_reason) == ("ended", "vp")


def test_an_empty_conflict_deck_ends_a_three_player_game():
    """RB p.12 Phase 5: the Endgame is triggered "if the Conflict Deck is empty"."""
    s = finish_round(replace(multiplayer(3), conflict_deck=()))
    assert (s.phase, s.end_reason) == ("ended", "conflict_deck")


def ended(players: int, *vp: int) -> GameState:
    s = replace(multiplayer(players), phase="ended")
    for i, points in enumerate(vp):
        s = house(s, f"p{i + 1}", vp=points)
    return s


def test_ties_on_vp_among_four_are_broken_by_spice_solari_water_then_garrison():
    """RB p.12 Endgame: "whoever has the most Victory Points is declared the winner. If the
    case of a tie, tiebreakers are, in order: amount of spice, Solari, water, and garrisoned
    troops." Three of four tie on 9 VP."""
    s = ended(4, 9, 9, 5, 9)
    s = run(
        s,
        SetTiebreak("p1", 3, 0, 0, 0),
        SetTiebreak("p2", 3, 2, 0, 0),
        SetTiebreak("p4", 3, 2, 0, 4),
    )
    ranking = [(st.house, st.rank) for st in final_ranking(s)]
    assert ranking == [("p4", 1), ("p2", 2), ("p1", 3), ("p3", 4)]


def test_a_tie_with_unknown_counts_waits_for_every_tied_player():
    """RB p.12 Endgame: the tie-breakers need each tied player's counts; until then they
    share the rank."""
    s = run(ended(3, 8, 8, 8), SetTiebreak("p1", 3, 0, 0, 0), SetTiebreak("p2", 1, 0, 0, 0))
    standings = final_ranking(s)
    assert [st.rank for st in standings] == [1, 1, 1]
    assert [st.house for st in standings if st.needs_tiebreak] == ["p3"]


def test_players_equal_on_every_tie_breaker_share_the_place():
    """RB p.12 Endgame: no tie-breaker beyond garrisoned troops."""
    s = run(ended(4, 7, 7, 7, 2), *(SetTiebreak(f"p{i}", 1, 1, 1, 1) for i in (1, 2, 3)))
    assert [(st.house, st.rank) for st in final_ranking(s)] == [
        ("p1", 1),
        ("p2", 1),
        ("p3", 1),
        ("p4", 4),
    ]


def test_corner_the_market_counts_the_best_of_three_opponents():
    """FAQ "Corner the Market": "Count each opponent's The Spice Must Flow cards separately;
    if any one of them has more than you (or the same number as you), you don't meet the
    second requirement"; `other` is the most any one opponent holds."""
    s = ended(4, 5, 5, 5, 5)
    tied = apply(s, CornerTheMarket("p1", own=3, other=3))
    assert tied.house("p1").vp == 5 + 1
    ahead = apply(s, CornerTheMarket("p1", own=3, other=2))
    assert ahead.house("p1").vp == 5 + 2

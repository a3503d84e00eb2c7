"""The round: Phase 4 Makers, Phase 5 Recall, First Player, the end check, physical cards,
the Imperium Row churn.

Sources: base rulebook (RB) p.12 Phase 4 and Phase 5, p.13 Clarifications, p.19-20 (House
Hagal cards, Dire Wolf Game Room app instead of physical cards); Rise of Ix rulebook p.9
Solo Game Variants; HAGAL.md §6.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.actions import Adjust, IllegalAction, Reveal
from companion.rules.engine import apply, new_game
from companion.rules.state import GameState
from tests.rules.helpers import (
    answer,
    catalog,
    entries,
    finish_round,
    idle_rivals,
    place,
    reveal,
    settle,
    solo,
    two_player,
    two_player_setup,
    vacate,
)

MAKERS = ("the_great_flat", "hagga_basin", "imperial_basin")


def last_round(s: GameState) -> GameState:
    """The state with an empty Conflict deck: the game ends at this round's Phase 5, so the
    board is left as Phases 3-5 made it."""
    return replace(s, conflict_deck=())


# -- Phase 4 -------------------------------------------------------------------------------


def test_makers_add_one_bonus_spice_to_unoccupied_maker_spaces_only():
    """Rulebook p.12 Phase 4: "If the space does not have an Agent, place 1 spice from the bank
    on that space ... added to any bonus spice that may already be there"."""
    s = idle_rivals(solo())
    s = vacate(s, *MAKERS)
    s = replace(s, bonus_spice={"the_great_flat": 1, "hagga_basin": 0, "imperial_basin": 0})
    s = replace(s, occupants={**s.occupants, "imperial_basin": "r2"})
    s = place(s, "hagga_basin")
    s = settle(reveal(last_round(s)))
    assert s.phase == "ended"
    assert dict(s.bonus_spice) == {"the_great_flat": 2, "hagga_basin": 0, "imperial_basin": 0}
    assert [dict(e.data) for e in s.log if e.kind == "makers"] == [{"spaces": ["the_great_flat"]}]


# -- Phase 5 -------------------------------------------------------------------------------


def test_recall_returns_the_mentat_and_every_agent():
    """Rulebook p.12 Phase 5: "Return the Mentat to its designated space ... Players recall
    their Agents"."""
    s = idle_rivals(solo())
    s = place(vacate(s, "mentat"), "mentat")
    assert s.house("p1").mentat
    s = finish_round(s)
    assert s.round == 2 and s.turn == "p1"
    me = s.house("p1")
    assert not me.mentat and me.placed == 0 and not me.revealed
    assert me.agents_left == 2
    assert "mentat" not in s.occupants
    assert set(s.occupants.values()) <= {"r2"}  # only r2 has acted in round 2 so far
    assert s.voice == {}


def test_solo_first_player_passes_clockwise_r1_r2_you():
    """Rulebook p.12 Phase 5: "Pass the First Player marker clockwise"; p.20: the Rival on your
    left starts with it, so r1 -> r2 -> you -> r1."""
    s = solo()
    firsts = [s.first]
    for _ in range(3):
        s = finish_round(s)
        firsts.append(s.first)
    assert firsts == ["r1", "r2", "p1", "r1"]
    assert [dict(e.data)["first"] for e in s.log if e.kind == "recall"] == ["r2", "p1", "r1"]


def test_turns_start_with_the_first_player_each_round():
    """Rulebook p.8 Phase 2: "Starting with the player who has the First Player marker and
    continuing clockwise"."""
    s = finish_round(solo())  # round 2: r2 first, then you, then r1
    assert [e.house for e in s.log if e.round == 2 and e.kind == "rival_agent"] == ["r2"]
    s = finish_round(s)  # round 3: you first
    assert s.first == "p1" and s.turn == "p1"
    assert [e.house for e in s.log if e.round == 3 and e.kind == "rival_agent"] == []
    s = place(vacate(s, "secure_contract"), "secure_contract")
    assert [e.house for e in s.last_entries if e.kind == "rival_agent"] == ["r1", "r2"]


def test_two_player_first_player_alternates_between_humans_never_house_hagal():
    """Rulebook p.12 Phase 5 (clockwise) with p.19 Two-Player Games (House Hagal acts after
    the First Player; HAGAL.md §4: never holds the marker)."""
    s = two_player()
    firsts = [s.first]
    for _ in range(4):
        s = finish_round(s)
        firsts.append(s.first)
    assert firsts == ["p1", "p2", "p1", "p2", "p1"]


def test_game_ends_at_phase_5_when_someone_has_ten_vp_not_before():
    """Rulebook p.12 Phase 5: "If any player is at 10 or more Victory Points ... the Endgame is
    triggered" (checked in Phase 5); p.20: a Rival at 10 triggers it too."""
    s = idle_rivals(solo())
    s = apply(s, Adjust("r1", "vp", 10))
    assert s.phase == "agents" and s.end_reason is None
    s = place(vacate(s, "wealth"), "wealth")
    assert s.phase == "agents"
    s = settle(reveal(s))
    assert s.phase == "ended" and s.end_reason == "vp"
    assert s.round == 1
    assert [e.kind for e in s.log][-1] == "game_end"
    assert "makers" in [e.kind for e in s.log]  # Phase 4 still happened


def test_game_ends_after_round_ten_when_the_conflict_deck_is_empty():
    """Rulebook p.12 Phase 5: "or if the Conflict Deck is empty, the Endgame is triggered";
    p.4: ten Conflict cards."""
    s = two_player()  # both of you reveal at once and score nothing; House Hagal never scores
    while s.phase != "ended":
        s = finish_round(s)
    assert s.end_reason == "conflict_deck"
    assert s.round == 10
    assert len(s.conflicts_done) == 10 and s.conflict_deck == ()


def test_no_end_while_vp_are_below_ten_and_conflicts_remain():
    """Rulebook p.12 Phase 5: otherwise "prepare the next round"."""
    s = finish_round(apply(idle_rivals(solo()), Adjust("r1", "vp", 9)))
    assert s.phase == "agents" and s.round == 2 and s.end_reason is None


# -- physical cards ------------------------------------------------------------------------


def test_physical_hagal_cards_ask_which_card_came_up():
    """Rulebook p.19: the table may reveal physical House Hagal cards instead of the app;
    the engine asks which card came up among those still in the deck."""
    s = solo(physical_hagal=True)
    p = s.prompt
    assert p is not None
    assert (p.kind, p.house, p.decider) == ("hagal_card", "r1", "p1")
    assert p.options == tuple(sorted(set(s.hagal_deck)))
    assert "arrakeen_2p" not in p.options and "reshuffle" not in p.options
    s = answer(s, "heighliner")
    assert s.occupants["heighliner"] == "r1"
    assert s.hagal_discard == ("heighliner",)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.house) == ("hagal_card", "r2")
    assert s.prompt.options == tuple(sorted(set(s.hagal_deck)))
    assert "heighliner" not in s.prompt.options  # its only copy is gone


def test_physical_hagal_card_for_an_occupied_space_asks_for_the_next_card():
    """Rulebook p.19: an occupied space means revealing another card."""
    s = answer(solo(physical_hagal=True), "conspire")  # r1 goes to Conspire
    s = answer(s, "conspire")  # r2 reveals the second Conspire card: occupied
    assert entries(s, "hagal_skip", "r2") == [{"card": "conspire", "reason": "occupied"}]
    assert s.prompt is not None
    assert (s.prompt.kind, s.prompt.house) == ("hagal_card", "r2")
    assert "conspire" not in s.prompt.options


def test_physical_reshuffle_card_reshuffles_and_asks_again():
    """Rulebook p.19: the Reshuffle card reshuffles all House Hagal cards; reveal again."""
    s = two_player(physical_hagal=True)
    s = place(vacate(s, "secure_contract"), "secure_contract")
    assert s.prompt is not None
    assert (s.prompt.kind, s.prompt.house, s.prompt.decider) == ("hagal_card", "hagal", "p1")
    assert "reshuffle" in s.prompt.options and "arrakeen_1p" not in s.prompt.options
    s = answer(s, "reshuffle")
    assert s.prompt is not None and s.prompt.kind == "hagal_card"
    assert "reshuffle" in s.prompt.options  # shuffled back into the new deck
    assert len(s.hagal_deck) == 28


def test_physical_conflict_cards_ask_which_card_came_up():
    """Rulebook p.4 setup B: the table builds the Conflict deck; the engine asks which card of
    the expected level was revealed."""
    s = solo(physical_conflicts=True)
    p = s.prompt
    assert p is not None
    assert (p.kind, p.decider) == ("conflict_card", "p1")
    level_1 = tuple(c.id for c in catalog().conflicts.values() if c.level == 1 and c.set == "base")
    assert set(p.options) == set(level_1)
    s = answer(s, "skirmish_b")
    assert s.conflict == "skirmish_b"
    s = next_conflict_prompt(s)
    assert s.round == 2 and s.prompt is not None
    level_2 = {c.id for c in catalog().conflicts.values() if c.level == 2 and c.set == "base"}
    assert set(s.prompt.options) == level_2


def test_physical_conflict_card_in_two_player_is_asked_of_the_first_player():
    """Rulebook p.12 Phase 1 is done by the table; in two-player the First Player decides."""
    s = two_player(first_player=1, physical_conflicts=True)
    assert s.prompt is not None
    assert (s.prompt.kind, s.prompt.decider) == ("conflict_card", "p2")


# -- Imperium Row churn --------------------------------------------------------------------


def churns(seeds: range) -> list[dict[str, object]]:
    out = []
    for seed in seeds:
        s = reveal(solo(seed=seed, churn=True))
        out.extend(entries(s, "churn", "p1"))
    return out


def test_churn_rolls_two_dice_at_each_of_your_reveal_turns():
    """Rise of Ix rulebook p.9 Dice-Based Imperium Row "Churn": "At the end of each of your
    Reveal turns, roll the two dice"."""
    for found in churns(range(1, 6)):
        dice = found["dice"]
        assert isinstance(dice, tuple) and len(dice) == 2
        assert all(1 <= d <= 6 for d in dice)


def test_churn_ignores_sixes_and_trashes_one_card_on_doubles():
    """Rise of Ix rulebook p.9: "Ignore any 6 that you roll, trashing no card. If you roll the
    same result (from 1 to 5) on both dice, trash only one card"."""
    results = churns(range(1, 80))
    seen_six = seen_double = False
    for found in results:
        dice = found["dice"]
        assert isinstance(dice, tuple)
        assert found["positions"] == sorted({d for d in dice if d <= 5})
        seen_six |= 6 in dice
        seen_double |= dice[0] == dice[1] and dice[0] <= 5
    assert seen_six and seen_double


def test_churn_is_only_for_reveal_turns():
    """Rise of Ix rulebook p.9: the roll happens at the end of your Reveal turns."""
    s = solo(churn=True)
    s = place(vacate(s, "secure_contract"), "secure_contract")
    assert all(e.kind != "churn" for e in s.log)


def test_churn_is_a_solo_variant():
    """Rise of Ix rulebook p.9 "SOLO GAME VARIANTS": a two-player game either refuses the
    option or rolls no dice."""
    try:
        s = new_game(two_player_setup(churn=True), catalog())
    except IllegalAction as refused:
        assert "solo" in str(refused)
        return
    s = apply(apply(s, Reveal("p1")), Reveal("p2"))
    assert all(e.kind != "churn" for e in s.log)


def test_churn_without_the_option_rolls_nothing():
    """Rise of Ix rulebook p.9: the churn is optional."""
    s = reveal(solo())
    assert all(e.kind != "churn" for e in s.log)


def test_physical_hagal_cards_are_asked_for_the_combat_bonus_too():
    """Rulebook p.19 Combat: reveal the top House Hagal card for each Rival with troops."""
    s = solo(physical_hagal=True)
    s = answer(s, "heighliner")  # r1: 3 troops + 2 from its garrison into the Conflict
    s = answer(s, "rally_troops")  # r2: no troops in the Conflict
    s = idle_rivals(s)
    s = reveal(s)
    assert s.prompt is not None
    assert (s.prompt.kind, s.prompt.house, s.prompt.decider) == ("hagal_card", "r1", "p1")
    s = answer(s, "conspire")
    assert s.house("r1").swords == 4
    assert s.prompt is not None and s.prompt.kind == "strength"


def next_conflict_prompt(s: GameState) -> GameState:
    """Play on (you reveal, default answers) until the table is asked for a Conflict card."""
    while s.prompt is None or s.prompt.kind != "conflict_card":
        if s.prompt is None:
            s = reveal(s)
        else:
            s = answer(s, 0 if s.prompt.number else s.prompt.options[0])
    return s


def test_physical_conflict_cards_already_revealed_are_not_offered_again():
    """Rulebook p.4 setup B: each Conflict card is in the deck once."""
    s = answer(solo(physical_conflicts=True), "skirmish_a")
    s = answer(next_conflict_prompt(s), "desert_power")
    s = next_conflict_prompt(s)
    assert s.round == 3
    assert s.prompt is not None
    level_2 = {c.id for c in catalog().conflicts.values() if c.level == 2 and c.set == "base"}
    assert set(s.prompt.options) == level_2 - {"desert_power"}

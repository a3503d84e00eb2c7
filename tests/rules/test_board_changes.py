"""Undo and Redo in words: what to change on the physical board between two states.

Undo takes back the last intent and every rival turn it triggered (DESIGN §3.1); the
table must then take back those pieces by hand.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.actions import Adjust
from companion.rules.changes import board_changes
from companion.rules.engine import apply
from companion.rules.state import Entry, GameState
from companion.rules.text import sentence
from tests.rules.helpers import (
    answer,
    house,
    idle_rivals,
    place,
    reveal,
    solo,
    two_player,
    vacate,
)
from tests.rules.test_round_end import to_round_end


def words(before: GameState, after: GameState) -> list[tuple[str | None, str]]:
    return [(e.house, sentence(e, after)) for e in board_changes(before, after)]


def test_nothing_changed_means_nothing_to_do():
    s = solo()
    assert board_changes(s, s) == []


def test_undo_of_an_agent_turn_takes_back_its_agent_and_the_rival_turn_after_it():
    """The undone intent's rival turn goes too: its Agent and its troops [HAGAL §2]."""
    before_turn = vacate(solo(), "carthag")
    after_turn = place(before_turn, "carthag")
    undo = words(after_turn, before_turn)
    assert ("p1", "take the Agent back from Carthag") in undo
    rival_agents = [
        (h, t) for h, t in undo if h in ("r1", "r2") and t.startswith("take the Agent back")
    ]
    assert rival_agents, undo
    for h in ("r1", "r2"):
        extra = after_turn.house(h).troops - before_turn.house(h).troops
        if extra > 1:
            assert (h, f"remove {extra} troops from the Conflict") in undo


def test_redo_puts_the_same_pieces_back():
    before_turn = vacate(solo(), "carthag")
    after_turn = place(before_turn, "carthag")
    redo = words(before_turn, after_turn)
    assert ("p1", "put an Agent on Carthag") in redo
    undo = words(after_turn, before_turn)
    assert len(redo) == len(undo)


def test_markers_cubes_and_counts_are_named():
    s = solo()
    after = apply(s, Adjust("p1", "influence:emperor", 2, "card"))
    after = apply(after, Adjust("r1", "spice", 3))
    after = replace(after, control={"arrakeen": "r1"}, first="p1")
    lines = words(after, s)
    assert ("p1", "move the Emperor Influence cube from 2 to 0") in lines
    assert ("r1", "spice 3 → 0") in lines
    assert ("r1", "remove the Control marker from Arrakeen") in lines
    assert (s.first, "take the First Player marker") in lines


def test_a_revealed_conflict_goes_back_on_its_deck():
    s = solo()
    earlier = replace(s, conflict=None, round=0)
    lines = words(s, earlier)
    assert (None, "Back to Round 0.") in lines
    card = s.catalog.conflicts[s.conflict or ""].name
    assert (None, f"Put the Conflict card {card} back on top of the Conflict deck.") in lines


def test_undo_of_the_start_tap_puts_the_round_back():
    """The round-end step's tap reveals the next Conflict and plays the Rival turns
    [RB p.8 Phase 1]; undoing it takes all of that back, Swordmasters included [RB p.20]."""
    s = to_round_end(idle_rivals(solo()))  # Mentat difficulty: Swordmasters in round 3
    s = to_round_end(idle_rivals(answer(s, "start")))
    started = answer(s, "start")
    assert started.round == 3
    lines = words(started, s)
    assert (None, "Back to Round 2.") in lines
    card = s.catalog.conflicts[started.conflict or ""].name
    assert (None, f"Put the Conflict card {card} back on top of the Conflict deck.") in lines
    assert ("r1", "put the Swordmaster back") in lines
    assert ("r2", "put the Swordmaster back") in lines


def test_a_council_seat_is_a_piece_to_take_back():
    s = solo()
    seated = replace(s, houses=tuple(replace(h, council_seat=h.id == "p1") for h in s.houses))
    assert ("p1", "take the High Council seat marker back") in words(seated, s)


def player_lines(lines: list[tuple[str | None, str]], house_id: str) -> list[str]:
    return [text for house_id_, text in lines if house_id_ == house_id]


def test_undo_of_a_harvest_gives_back_the_spice_and_takes_back_the_water_paid():
    """Hagga Basin costs 1 water and harvests 2 spice [RB p.18 Board Space Guide]: Undo
    says to give back the 2 spice and take back the water, Redo to do it again."""
    before = idle_rivals(vacate(solo(), "hagga_basin"))
    after = place(before, "hagga_basin")
    undo = player_lines(words(after, before), "p1")
    assert undo == [
        "take the Agent back from Hagga Basin",
        "give back 2 spice",
        "take back the 1 water you paid",
    ]
    redo = player_lines(words(before, after), "p1")
    assert redo == ["put an Agent on Hagga Basin", "take 2 spice again", "pay 1 water again"]


def test_undo_of_a_harvest_with_bonus_spice_gives_it_all_back():
    """A Maker space's bonus spice goes with the harvest [RB p.12 Phase 4]: the player
    gives back all 3, and the table puts the 1 bonus spice back on the space."""
    before = idle_rivals(vacate(solo(), "hagga_basin"))
    before = replace(before, bonus_spice={**before.bonus_spice, "hagga_basin": 1})
    after = place(before, "hagga_basin")
    lines = words(after, before)
    assert "give back 3 spice" in player_lines(lines, "p1")
    assert (None, "Bonus spice on Hagga Basin: 0 → 1.") in lines


def test_undo_of_a_space_gives_back_its_solari_and_the_mentat_its_cost():
    """Wealth gives 2 Solari [RB p.16]; the Mentat costs 5 Solari with the token at
    Mentat difficulty [RB p.20], whatever its printed cost."""
    before = idle_rivals(vacate(solo(difficulty="mentat"), "wealth", "mentat"))
    wealth = place(before, "wealth")
    assert "give back 2 Solari" in player_lines(words(wealth, before), "p1")
    mentat = place(before, "mentat")
    assert "take back the 5 Solari you paid" in player_lines(words(mentat, before), "p1")


def test_undo_gives_back_a_control_bonus_to_its_owner():
    """The controller of Arrakeen gets 1 Solari when another sends an Agent there
    [RB p.9]: Undo of that placement says so on the controller's line."""
    s = idle_rivals(vacate(two_player(), "arrakeen"))
    visitor = s.turn
    assert visitor is not None
    owner = next(h.id for h in s.humans if h.id != visitor)
    before = replace(s, control={"arrakeen": owner})
    after = place(before, "arrakeen")
    assert player_lines(words(after, before), owner) == ["give back 1 Solari"]
    assert player_lines(words(before, after), owner) == ["take 1 Solari again"]


def test_undo_of_a_combat_answer_gives_back_the_reward():
    """Skirmish's second-place reward is an Intrigue card and 2 Solari [card_db; RB p.12
    Resolve Combat]: Undo of the strength that gave it says to give them back."""
    s = idle_rivals(solo())
    s = replace(s, conflict="skirmish_a")
    s = house(house(s, "r1", troops=3), "r2", troops=0)  # r1 at 6 or more, r2 out
    s = reveal(s)
    assert s.prompt is not None and s.prompt.kind == "strength"
    after = answer(s, 4)
    assert any(e.kind == "take" and e.house == "p1" for e in after.log)
    undo = player_lines(words(after, s), "p1")
    assert "give back 2 Solari and 1 Intrigue card" in undo
    redo = player_lines(words(s, after), "p1")
    assert "take 2 Solari and 1 Intrigue card again" in redo


def test_undo_of_a_reward_with_troops_returns_them_to_supply():
    """A reward's troop icon recruits from supply to the garrison [RB icon guide]; the
    app doesn't count a player's garrison, so Undo says to return them."""
    s = idle_rivals(solo())
    done = replace(
        s,
        log=(*s.log, Entry(s.step + 1, s.round, "take", "p1", {"troops": 2, "spice": 1})),
    )
    assert player_lines(words(done, s), "p1") == [
        "give back 1 spice",
        "return 2 troops from your garrison to your supply",
    ]
    assert player_lines(words(s, done), "p1")[-1] == (
        "put 2 troops from your supply in your garrison again"
    )

"""A human's Agent and Reveal turns: what the engine allows, records and tells.

Sources: base rulebook (RB) pp.8-11 Phase 2, the Board Space Guide, p.13 Clarifications,
p.20 Solo Play; HAGAL.md §2.7.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.rules.actions import IllegalAction, PlaceAgent, Reveal, Voice
from companion.rules.engine import apply, legal_actions
from companion.rules.state import FACTION_INDEX
from tests.rules.helpers import (
    entries,
    finish_round,
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


def my_turn(difficulty: str = "mentat"):
    """Your first Agent turn of a solo game with the rivals out of Agents: only you act."""
    s = idle_rivals(solo(difficulty))
    assert s.turn == "p1"
    return s


# -- refused spaces ------------------------------------------------------------------------


def test_occupied_space_is_refused_with_a_message():
    """Rulebook p.9: "You can't send an Agent to a board space that already has one"."""
    s = solo()
    space, owner = next(iter(s.occupants.items()))
    with pytest.raises(IllegalAction, match=f"{s.house(owner).name} already has an Agent there"):
        place(s, space)


def test_unknown_space_is_refused_with_a_message():
    """Rulebook p.16 Board Space Guide: only the board's spaces can take an Agent."""
    with pytest.raises(IllegalAction, match="not on the board"):
        place(solo(), "ix_hall")


def test_sietch_tabr_needs_two_fremen_influence():
    """Rulebook p.9 "Sietch Tabr Influence": you must have 2 or more Influence with the
    Fremen."""
    s = vacate(my_turn(), "sietch_tabr")
    s = house(s, "p1", influence=(0, 0, 0, 1))
    with pytest.raises(IllegalAction, match="Needs 2 Fremen Influence"):
        place(s, "sietch_tabr")
    s = house(s, "p1", influence=(0, 0, 0, 2))
    assert place(s, "sietch_tabr").occupants["sietch_tabr"] == "p1"


def test_swordmaster_gives_a_third_agent_usable_this_round():
    """Board Space Guide, Swordmaster: "For the rest of the game (including this round) you
    have three Agents"."""
    s = place(vacate(my_turn(), "swordmaster"), "swordmaster")
    me = s.house("p1")
    assert me.agents == 3 and me.swordmaster
    assert me.agents_left == 2
    assert "swordmaster" in kinds(s)


def test_swordmaster_space_can_be_used_once_per_game():
    """Board Space Guide, Swordmaster: "You may send an Agent here only once per game"."""
    s = place(vacate(my_turn(), "swordmaster"), "swordmaster")
    s = finish_round(s)
    assert s.round == 2 and s.turn == "p1" and s.prompt is None
    with pytest.raises(IllegalAction, match="already have your Swordmaster"):
        place(s, "swordmaster")
    assert s.house("p1").agents == 3


def test_high_council_seat_can_be_taken_once_per_game():
    """Board Space Guide, High Council: "You may send an Agent here only once per game"."""
    s = place(vacate(my_turn(), "high_council"), "high_council")
    assert s.house("p1").council_seat
    assert "council_seat" in kinds(s)
    s = vacate(s, "high_council")
    with pytest.raises(IllegalAction, match="already have a seat on the High Council"):
        place(s, "high_council")


FACTION_SPACES = {
    "conspire": "emperor",
    "wealth": "emperor",
    "heighliner": "spacing_guild",
    "foldspace": "spacing_guild",
    "selective_breeding": "bene_gesserit",
    "secrets": "bene_gesserit",
    "hardy_warriors": "fremen",
    "stillsuits": "fremen",
}


@pytest.mark.parametrize(("space", "faction"), list(FACTION_SPACES.items()))
def test_faction_space_gives_one_influence_with_its_faction(space, faction):
    """Rulebook p.7 Factions: "When you send an Agent to a Faction's board space, gain one
    Influence with that Faction"."""
    s = place(vacate(my_turn(), space), space)
    expected = [0, 0, 0, 0]
    expected[FACTION_INDEX[faction]] = 1
    assert s.house("p1").influence == tuple(expected)
    assert entries(s, "influence", "p1") == [{"faction": faction, "old": 0, "new": 1}]


def test_non_faction_space_gives_no_influence():
    """Rulebook p.7: only Faction board spaces move your Influence cube."""
    s = place(vacate(my_turn(), "secure_contract"), "secure_contract")
    assert s.house("p1").influence == (0, 0, 0, 0)
    assert "influence" not in kinds(s)


@pytest.mark.parametrize(("space", "base"), [("the_great_flat", 3), ("hagga_basin", 2)])
def test_maker_space_hands_you_its_bonus_spice_and_empties_it(space, base):
    """Rulebook p.10 Harvesting Spice: gain the base spice "plus any bonus spice that has
    accumulated there"; Icon guide, Maker."""
    s = vacate(my_turn(), space)
    s = replace(s, bonus_spice={**s.bonus_spice, space: 2})
    s = place(s, space)
    assert s.bonus_spice[space] == 0
    assert entries(s, "harvest", "p1") == [{"space": space, "spice": base + 2, "bonus": 2}]


def test_mentat_is_taken_from_its_space_and_gives_an_extra_agent_this_round():
    """Board Space Guide, Mentat: "If the Mentat is here, take it ... this round, you may use
    it as one of your Agents"."""
    s = place(vacate(my_turn(), "mentat"), "mentat")
    me = s.house("p1")
    assert me.mentat
    assert me.agents_left == 2  # two Agents + the Mentat - the one just placed
    assert "mentat_taken" in kinds(s)
    s = place(s, "wealth")
    s = place(s, "foldspace")  # the Mentat works as a third Agent
    assert s.house("p1").agents_left == 0


def test_mentat_is_not_taken_when_someone_else_holds_it():
    """Icon guide, Mentat: "Take the Mentat from its space on the board (if it's there; you
    can't take it from another player or another space)"."""
    s = house(vacate(my_turn(), "mentat"), "r1", mentat=True)
    s = place(s, "mentat")
    assert not s.house("p1").mentat
    assert s.house("r1").mentat
    assert "mentat_taken" not in kinds(s)
    assert s.house("p1").agents_left == 1


def test_control_bonus_is_reported_to_you_when_you_visit_your_own_space():
    """Rulebook p.10 Control Bonuses: you get the bonus "whenever any player (yourself
    included) sends an Agent there"."""
    s = vacate(my_turn(), "carthag")
    s = replace(s, control={"carthag": "p1"})
    s = place(s, "carthag")
    assert entries(s, "control_bonus", "p1") == [
        {"space": "carthag", "visitor": "p1", "solari": 1, "spice": 0}
    ]


def test_control_bonus_is_reported_to_you_when_a_rival_visits_your_space():
    """Rulebook p.20 Combat and HAGAL.md §2.7: the controller gets the bonus whenever you or
    a Rival sends an Agent there."""
    s = solo()
    s = vacate(s, "imperial_basin", "foldspace")
    s = replace(s, control={"imperial_basin": "p1"}, bonus_spice={"imperial_basin": 1})
    s = stack(s, "harvest_spice", "foldspace")
    s = place(s, "secure_contract")
    assert ("r1", "imperial_basin") in [(e.house, e.data.get("space")) for e in s.last_entries]
    assert entries(s, "control_bonus", "p1") == [
        {"space": "imperial_basin", "visitor": "r1", "solari": 0, "spice": 1}
    ]


def test_control_bonus_is_paid_to_a_rival_controller_when_you_visit():
    """Rulebook p.20 Combat: Rivals "get the Control bonus whenever you or a Rival sends an
    Agent there"; p.10 Control Bonuses (1 Solari for Arrakeen)."""
    s = vacate(my_turn(), "arrakeen")
    s = replace(s, control={"arrakeen": "r2"})
    before = s.house("r2").solari
    s = place(s, "arrakeen")
    assert s.house("r2").solari == before + 1
    assert entries(s, "control_bonus", "r2") == [
        {"space": "arrakeen", "visitor": "p1", "solari": 1, "spice": 0}
    ]


def test_uncontrolled_space_pays_no_control_bonus():
    """Rulebook p.10 Control Bonuses: only a Control marker earns the bonus."""
    s = place(vacate(my_turn(), "carthag"), "carthag")
    assert "control_bonus" not in kinds(s)


def test_secrets_steals_one_intrigue_from_each_rival_with_four_or_more():
    """Board Space Guide, Secrets: "Each opponent who has four or more Intrigue cards must
    give you one of them"; RB p.19: Rivals are affected by spaces that affect opponents."""
    s = vacate(my_turn(), "secrets")
    s = house(s, "r1", intrigue=4)
    s = house(s, "r2", intrigue=2)
    s = place(s, "secrets")
    assert entries(s, "secrets_steal", "p1") == [{"rival": "r1"}]
    assert s.house("r2").intrigue == 2
    # r1 is left with 3 Intrigue, which it spends at once for 1 VP (RB p.20).
    assert s.house("r1").intrigue == 0 and s.house("r1").vp == 1


def test_secrets_steals_nothing_from_rivals_with_fewer_than_four():
    """Board Space Guide, Secrets: only opponents with four or more Intrigue cards give one."""
    s = place(vacate(my_turn("mentat"), "secrets"), "secrets")
    assert "secrets_steal" not in kinds(s)
    assert [h.intrigue for h in s.rivals] == [1, 1]


# -- Reveal and turn order -----------------------------------------------------------------


def test_reveal_ends_your_turns_for_the_round():
    """Rulebook p.8 Phase 2: "Once you've taken a Reveal turn, your turns are skipped for the
    rest of the phase, while other players finish taking their turns"."""
    s = solo()
    s = reveal(s)
    assert s.house("p1").revealed
    assert s.house("p1").placed == 0
    # The rivals used their remaining Agents, then Combat began.
    assert [e.house for e in s.last_entries if e.kind == "rival_agent"] == ["r1", "r2"]
    assert s.phase == "combat"
    assert s.prompt is not None and s.prompt.kind == "strength"
    with pytest.raises(IllegalAction):
        apply(s, PlaceAgent("p1", "wealth"))


def test_reveal_is_allowed_while_you_still_have_agents():
    """Rulebook p.8: "Agent turns are optional ... you can take a Reveal turn while you still
    have Agents"."""
    s = my_turn()
    assert Reveal("p1") in legal_actions(s)
    assert reveal(s).house("p1").revealed


def test_with_no_agents_left_you_can_only_reveal():
    """Rulebook p.8 Phase 2: "you will take Agent turns until you run out of Agents to place,
    then you will take a Reveal turn"."""
    s = my_turn()
    s = place(vacate(s, "wealth"), "wealth")
    s = place(vacate(s, "foldspace"), "foldspace")
    assert s.turn == "p1" and s.house("p1").agents_left == 0
    assert legal_actions(s) == [Reveal("p1")]
    with pytest.raises(IllegalAction, match="No Agent left"):
        place(vacate(s, "secrets"), "secrets")


def test_a_rival_cannot_be_given_a_human_turn_and_state_is_unchanged():
    """Rulebook p.19: Rivals take Agent turns from House Hagal cards only, never Reveal turns;
    a refused action changes nothing."""
    s = solo()
    for action in (PlaceAgent("r1", "wealth"), Reveal("r2"), PlaceAgent("nobody", "wealth")):
        with pytest.raises(IllegalAction, match="Only a player at the table"):
            apply(s, action)
    assert s == solo()  # an independently built copy: nothing was changed in place


def test_out_of_turn_action_is_refused_and_state_is_unchanged():
    """Rulebook p.8 Phase 2: players take one turn at a time, clockwise from the First
    Player."""
    s = two_player()
    assert s.turn == "p1"
    with pytest.raises(IllegalAction, match="It is not Ben's turn"):
        apply(s, PlaceAgent("p2", "wealth"))
    with pytest.raises(IllegalAction, match="It is not Ben's turn"):
        apply(s, Reveal("p2"))
    assert s == two_player()


def test_agent_turn_outside_phase_2_is_refused_and_state_is_unchanged():
    """Rulebook p.8: Agent and Reveal turns belong to Phase 2; in Phase 3 the table first
    answers the strength question."""
    s = reveal(solo())
    assert s.phase == "combat"
    with pytest.raises(IllegalAction, match="First answer the question"):
        apply(s, Reveal("p1"))
    with pytest.raises(IllegalAction, match="First answer the question"):
        apply(s, Voice("p1", "wealth"))
    assert s == reveal(solo())
    ended = replace(s, phase="ended", prompt=None, queue=())
    with pytest.raises(IllegalAction, match="Phase 2 only"):
        apply(ended, PlaceAgent("p1", "wealth"))


def test_agent_turn_is_recorded_with_its_space():
    """Rulebook p.9 Agent turn: the Agent occupies the space for the round."""
    s = place(vacate(my_turn(), "rally_troops"), "rally_troops")
    assert s.occupants["rally_troops"] == "p1"
    assert entries(s, "agent", "p1") == [{"space": "rally_troops"}]
    assert s.house("p1").placed == 1

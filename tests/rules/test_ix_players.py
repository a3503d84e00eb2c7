"""Players with Rise of Ix: what the app records for the people at the table.

Sources: Rise of Ix rulebook (IX) p.4 "Tech Tiles", p.5 "The Shipping Track", p.6
"Dreadnoughts", p.7 "Infiltration", p.12 board spaces; conflict cards in card_db/ix.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.rules.actions import (
    Adjust,
    Choose,
    Dreadnought,
    Freighter,
    IllegalAction,
    PlaceAgent,
    Reveal,
    Tech,
)
from companion.rules.codec import decode, encode
from companion.rules.engine import apply
from companion.rules.state import GameState, Posted, Prompt
from tests.rules.helpers import finish_round, house, idle_rivals, place, solo, vacate
from tests.rules.ix_helpers import SPARE_TILES, ix_solo, ix_two_player, tiles


def at(s: GameState, kind: str) -> Prompt:
    assert s.prompt is not None and s.prompt.kind == kind, s.prompt
    return s.prompt


def test_smuggling_asks_for_the_freighter_move():
    """IX p.12 Smuggling: move your Freighter once; IX p.5: advance one space or recall (an
    icon is optional)."""
    s = place(ix_solo(), "smuggling")
    assert at(s, "freighter").options == ("advance", "skip")
    s = apply(s, Choose("advance"))
    assert s.house("p1").freighter == 1


def test_interstellar_shipping_needs_two_guild_influence_for_players():
    """IX p.8 / p.12: Interstellar Shipping requires 2 Spacing Guild Influence."""
    with pytest.raises(IllegalAction, match="Spacing Guild"):
        place(ix_solo(), "interstellar_shipping")
    s = house(ix_solo(), "p1", influence=(0, 2, 0, 0))
    s = place(s, "interstellar_shipping")
    s = apply(s, Choose("advance"))
    assert at(s, "freighter").options == ("advance", "recall", "skip")


def test_recall_from_the_top_pays_every_step():
    """IX p.5: recall collects the rewards of the Freighter's space and every space below:
    Dividends or 2 spice; 2 troops and 1 Influence; Acquire Tech with 2 spice off."""
    s = tiles(ix_solo(), ("windtraps", *SPARE_TILES), ("flagship",), ("spaceport",))
    s = house(s, "p1", freighter=3)
    s = apply(s, Freighter("p1", "recall"))
    assert s.house("p1").freighter == 0
    s = apply(s, Choose(at(s, "shipping_first").options[1]))  # 2 spice
    s = apply(s, Choose(at(s, "influence").options[0]))
    assert s.house("p1").inf("emperor") == 1
    assert at(s, "tech").options == ("windtraps", "flagship", "spaceport", "none")
    s = apply(s, Choose("spaceport"))
    assert s.house("p1").tech == ("spaceport",)
    told = [e for e in s.log if e.kind == "take" and e.house == "p1"]
    assert [dict(e.data) for e in told] == [{"spice": 2}, {"troops": 2}]


def test_freighter_cannot_pass_the_top_or_recall_from_the_bottom():
    """IX p.5: you can't advance from the top space; recall from the bottom pays nothing."""
    s = house(ix_solo(), "p1", freighter=3)
    with pytest.raises(IllegalAction, match="top step"):
        apply(s, Freighter("p1", "advance"))
    with pytest.raises(IllegalAction, match="bottom"):
        apply(ix_solo(), Freighter("p1", "recall"))


def test_dreadnought_space_offers_a_dreadnought_and_a_tile():
    """IX p.12 Dreadnought: commission a dreadnought and/or Acquire Tech."""
    s = tiles(ix_solo(), ("windtraps",), ("flagship",), ("spaceport",))
    s = place(s, "dreadnought")
    s = apply(s, Choose(at(s, "commission").options[0]))  # yes
    assert s.house("p1").dn_garrison == 1
    s = apply(s, Choose("flagship"))
    p1 = s.house("p1")
    assert p1.tech == ("flagship",) and p1.vp == 1  # Flagship: +1 VP on acquire
    assert any(e.source == "tech" and e.note == "flagship" for e in s.ledger)


def test_tech_negotiation_space_gives_a_tile_at_one_off_or_a_negotiator():
    """IX p.4, p.12 Tech Negotiation: Acquire Tech with a 1 spice discount, or place a troop
    from supply as a Negotiator on Ix."""
    s = place(vacate(ix_solo(), "tech_negotiation"), "tech_negotiation")
    s = apply(s, Choose("negotiator"))
    assert s.house("p1").negotiators == 1


def test_returned_negotiators_are_asked_when_a_player_buys_a_tile():
    """IX p.4: when acquiring, you may return any number of your Negotiators, 1 spice off
    each."""
    s = house(ix_solo(), "p1", negotiators=2)
    top = s.tech_stacks[0][0]
    s = apply(s, Tech("p1", "acquire", top))
    p = at(s, "negotiators_back")
    assert (p.minimum, p.maximum) == (0, 2)
    s = apply(s, Choose("2"))
    assert s.house("p1").negotiators == 0 and s.house("p1").tech == (top,)


def test_taking_a_tile_turns_the_next_one_face_up():
    """IX p.4: after taking a tile, turn the next tile in that stack face up."""
    s = ix_two_player()
    first, second = s.tech_stacks[1][:2]
    s = apply(s, Tech(s.first, "acquire", first))
    assert s.tech_stacks[1][0] == second and len(s.tech_stacks[1]) == 5


def test_only_face_up_tiles_can_be_acquired():
    """IX p.4: choose a face-up tile on top of any of the three stacks."""
    s = ix_two_player()
    hidden = s.tech_stacks[0][1]
    with pytest.raises(IllegalAction, match="face-up"):
        apply(s, Tech(s.first, "acquire", hidden))


def test_memocorders_influence_is_chosen_and_recorded():
    """Memocorders (IX tiles): +1 Influence with a Faction of your choice on acquire."""
    s = tiles(ix_solo(), ("memocorders",), ("flagship",), ("spaceport",))
    s = apply(s, Tech("p1", "acquire", "memocorders"))
    s = apply(s, Choose("fremen"))
    assert s.house("p1").inf("fremen") == 1


def test_spy_satellites_trashed_by_a_player_score_a_vp():
    """Spy Satellites (IX tiles): pay 3 spice and trash this tile: +1 VP."""
    s = house(ix_solo(), "p1", tech=("spy_satellites",))
    s = apply(s, Tech("p1", "trash", "spy_satellites"))
    assert s.house("p1").vp == 1 and "spy_satellites" in s.tech_trash


def test_player_dreadnoughts_commission_and_deploy():
    """IX p.6: commission (supply to garrison, two at most) and deploy with an Agent sent to
    a Combat space."""
    s = ix_solo()
    s = apply(s, Dreadnought("p1", "commission"))
    s = apply(s, Dreadnought("p1", "commission"))
    with pytest.raises(IllegalAction, match="Both dreadnoughts"):
        apply(s, Dreadnought("p1", "commission"))
    s = apply(s, Dreadnought("p1", "deploy"))
    assert (s.house("p1").dn_garrison, s.house("p1").dn_conflict) == (1, 1)


def test_player_winning_with_a_dreadnought_chooses_a_free_flag():
    """IX p.6: when you win with a dreadnought you must choose a space where there is not
    already a dreadnought, covering any Control marker; the rest return to the garrison."""
    s = idle_rivals(ix_solo())
    for h in s.rivals:
        s = house(s, h.id, troops=0)
    s = replace(s, posted={"arrakeen": Posted("r1", 1)})
    s = house(s, "r1", dn_posted=1)
    s = house(s, "p1", dn_conflict=2)
    s = apply(s, Reveal("p1"))
    s = apply(s, Choose(str(at(s, "strength").minimum + 6)))
    while s.prompt is not None and s.prompt.kind != "post":
        s = apply(s, Choose(s.prompt.options[0]))  # the Conflict's own rewards
    assert at(s, "post").options == ("carthag", "imperial_basin")
    s = apply(s, Choose("carthag"))
    p1 = s.house("p1")
    assert s.posted["carthag"] == Posted("p1", 1)
    assert (p1.dn_posted, p1.dn_garrison, p1.dn_conflict) == (1, 1, 0)


def test_economic_supremacy_asks_the_player_about_each_purchase():
    """Economic Supremacy (Ix Conflict III): the winner may pay 6 Solari for 1 VP and 4
    spice for 1 VP; the app records the VP the player bought."""
    s = replace(idle_rivals(ix_solo()), conflict="economic_supremacy")
    for h in s.rivals:
        s = house(s, h.id, troops=0)
    s = apply(s, Reveal("p1"))
    s = apply(s, Choose("9"))
    assert at(s, "offer")
    s = apply(s, Choose("yes"))
    s = apply(s, Choose("no"))
    vp = [e for e in s.ledger if e.house == "p1" and e.note == "economic_supremacy"]
    assert sum(e.delta for e in vp) == 2


def test_infiltration_passes_enemy_agents_but_not_your_own():
    """IX p.7: an Infiltration icon lets your Agent go where enemy Agents are; it can't send
    a second Agent where you already have one."""
    s = ix_solo()
    taken = next(space for space, who in s.occupants.items() if who != "p1")
    s = apply(s, PlaceAgent("p1", taken, infiltrate=True))
    assert (taken, "p1") in s.infiltrators
    with pytest.raises(IllegalAction, match="already has an Agent"):
        place(ix_solo(), taken)


def test_ix_actions_need_rise_of_ix():
    """Freighters, dreadnoughts and Tech tiles exist only with Rise of Ix (IX p.2)."""
    with pytest.raises(IllegalAction, match="Rise of Ix"):
        apply(solo(), Freighter("p1", "advance"))
    with pytest.raises(IllegalAction, match="Rise of Ix"):
        apply(solo(), Adjust("p1", "freighter", 1))


def test_corrections_keep_ix_counts_in_range():
    """Manual corrections (issue 3) may not break the components: 3 track steps, 2
    dreadnoughts."""
    s = ix_solo()
    with pytest.raises(IllegalAction, match="step 0 to 3"):
        apply(s, Adjust("p1", "freighter", 4))
    with pytest.raises(IllegalAction, match="two dreadnoughts"):
        apply(s, Adjust("r1", "dn_garrison", 3))
    s = apply(s, Adjust("r1", "dn_garrison", 2))
    assert s.house("r1").dn_supply == 0


@pytest.mark.parametrize(
    "action",
    [
        Freighter("p1", "recall"),
        Dreadnought("p2", "deploy"),
        Tech("p1", "acquire", "flagship"),
        Tech("p1", "negotiator"),
    ],
)
def test_ix_actions_round_trip_through_the_codec(action):
    assert decode(encode(action)) == action


def test_game_with_ix_plays_to_the_end():
    """A whole solo and two-player Rise of Ix game runs to its end (RB p.12 Endgame)."""
    for s in (ix_solo(), ix_two_player()):
        for _ in range(12):
            if s.phase == "ended":
                break
            s = finish_round(s, strength=3)
        assert s.phase == "ended"

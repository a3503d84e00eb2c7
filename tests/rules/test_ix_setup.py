"""Setting up a game with Rise of Ix, and Epic mode.

Sources: Rise of Ix rulebook (IX) p.3 "Setup", p.8 "Additions to Solo & Two-Player Games",
p.10 "Epic Game Mode"; FAQ errata (Hall of Oratory and Rally Troops); HAGAL.md §6.
"""

from __future__ import annotations

from collections import Counter

import pytest

from companion.rules.actions import Choose, IllegalAction
from companion.rules.engine import apply, hagal_cards, new_game
from companion.rules.state import UNKNOWN_TILE
from tests.rules.helpers import catalog, finish_round, solo_setup
from tests.rules.ix_helpers import (
    IX,
    ix_solo,
    ix_solo_setup,
    ix_two_player,
    ix_two_player_setup,
)


def test_solo_hagal_deck_drops_hall_of_oratory_rally_troops_and_the_2p_cards():
    """IX p.8 Setup: remove the two Hall of Oratory and two Rally Troops cards; add the 9
    Ix cards, less the two Dreadnought cards marked 2P in a solo game (HAGAL §6: 30)."""
    deck = Counter(hagal_cards(ix_solo_setup(), catalog()))
    assert sum(deck.values()) == 30
    assert "hall_of_oratory" not in deck and "rally_troops" not in deck
    assert "dreadnought_2p" not in deck
    assert deck["dreadnought_1p"] == 2 and deck["tech_negotiation"] == 2
    assert deck["interstellar_shipping"] == 1


def test_two_player_hagal_deck_drops_the_four_1p_cards():
    """IX p.8 Setup: a two-player game removes the four 1P cards (two Dreadnought, two
    Tech Negotiation); HAGAL §6: 29 cards."""
    deck = Counter(hagal_cards(ix_two_player_setup(), catalog()))
    assert sum(deck.values()) == 29
    assert "dreadnought_1p" not in deck and "tech_negotiation" not in deck
    assert deck["dreadnought_2p"] == 2 and deck["reshuffle"] == 1


def test_the_choam_overlay_replaces_four_spaces_and_ix_adds_four():
    """IX p.3 step 1: the CHOAM overlay covers the Landsraad and CHOAM sections (Hall of
    Oratory, Rally Troops, Secure Contract, Sell Melange gone; Smuggling and Interstellar
    Shipping added); step 2: the Ix board (Dreadnought, Tech Negotiation)."""
    board = catalog().board(IX)
    for gone in ("hall_of_oratory", "rally_troops", "secure_contract", "sell_melange"):
        assert gone not in board
    for new in ("smuggling", "interstellar_shipping", "dreadnought", "tech_negotiation"):
        assert new in board
    assert len(board) == 22


def test_conflict_deck_is_still_one_five_four_from_base_and_ix_cards():
    """IX p.3 step 3: add the new Conflict cards; the deck is still 1 Conflict I over 5
    Conflict II over 4 Conflict III."""
    seen: set[str] = set()
    for seed in range(40):
        s = ix_solo(seed=seed)
        levels = [catalog().conflicts[c].level for c in s.conflicts_done] + [
            slot.level for slot in s.conflict_deck
        ]
        assert levels == [1] + [2] * 5 + [3] * 4
        seen.update(s.conflicts_done)
        seen.update(slot.card for slot in s.conflict_deck if slot.card)
    assert {"skirmish_e", "trade_monopoly", "economic_supremacy"} <= seen


def test_tech_tiles_form_three_stacks_of_six():
    """IX p.3 step 2: shuffle the 18 Tech tiles into three stacks of 6, top tile face up."""
    s = ix_two_player()
    assert [len(stack) for stack in s.tech_stacks] == [6, 6, 6]
    assert sorted(t for stack in s.tech_stacks for t in stack) == sorted(catalog().tech)


def test_solo_start_shows_a_tile_rivals_can_buy():
    """IX p.9: whenever no face-up tile has the House Hagal mark, trash the top tile of the
    largest stack and reveal the next, so a solo game starts with a marked tile up."""
    for seed in range(30):
        s = ix_solo(seed=seed)
        assert any(catalog().tech[stack[0]].hagal_ok for stack in s.tech_stacks)


def test_physical_tech_tiles_are_named_by_the_table():
    """IX p.3: the table may deal the tiles itself; the app asks which tile is face up on
    each stack, offering only tiles not seen yet."""
    s = ix_two_player(physical_tech=True)
    assert s.prompt is not None and s.prompt.kind == "tech_tile"
    assert len(s.prompt.options) == 18
    s = apply(s, Choose("windtraps"))
    assert s.prompt is not None and "windtraps" not in s.prompt.options
    s = apply(s, Choose("flagship"))
    s = apply(s, Choose("artillery"))
    assert [stack[0] for stack in s.tech_stacks] == ["windtraps", "flagship", "artillery"]
    assert all(t == UNKNOWN_TILE for stack in s.tech_stacks for t in stack[1:])


def test_every_house_has_two_dreadnoughts_in_supply_and_a_freighter_at_the_bottom():
    """IX p.3 step 5: each player takes two dreadnoughts and a Freighter on the bottom
    space of the Shipping track."""
    for h in ix_solo().houses:
        assert (h.dn_supply, h.dn_garrison, h.freighter, h.tech) == (2, 0, 0, ())


def test_rhombur_and_hundro_may_be_rivals_with_rise_of_ix():
    """IX p.8 Solo Game Rivals: Prince Rhombur Vernius and Viscount Hundro Moritani can be
    Rivals, mixed freely with base leaders."""
    s = ix_solo(rivals=("rhombur_vernius", "hundro_moritani"))
    assert [h.leader for h in s.rivals] == ["rhombur_vernius", "hundro_moritani"]
    with pytest.raises(IllegalAction, match="Rise of Ix"):
        new_game(solo_setup(rivals=("rhombur_vernius", "glossu_rabban")), catalog())


@pytest.mark.parametrize("leader", ["armand_ecaz", "ilesa_ecaz", "tessia_vernius", "yuna_moritani"])
def test_other_ix_leaders_cannot_be_rivals(leader):
    """IX p.8 names only Rhombur and Hundro as Rivals (HAGAL §7)."""
    with pytest.raises(IllegalAction, match="can't be a Rival"):
        new_game(ix_solo_setup(rivals=(leader, "glossu_rabban")), catalog())


def test_epic_mode_needs_rise_of_ix():
    """IX p.10: Epic mode uses Control the Spice, a Rise of Ix card."""
    with pytest.raises(IllegalAction, match="Rise of Ix"):
        new_game(solo_setup(epic=True), catalog())


def test_epic_conflict_deck_has_no_conflict_i():
    """IX p.10 Epic: no Conflict I; 5 random Conflict II on top of 5 Conflict III."""
    s = ix_two_player(epic=True)
    levels = [catalog().conflicts[c].level for c in s.conflicts_done] + [
        slot.level for slot in s.conflict_deck
    ]
    assert levels == [2] * 5 + [3] * 5


def test_epic_rivals_start_with_five_troops_and_an_intrigue():
    """IX p.10 Epic: each player draws an Intrigue card and starts with 5 garrison troops
    instead of 3. Our ruling for solo Rivals (engine.new_game): those that start with 3
    (Sardaukar and up, RB p.20) start with 5, Mercenary Rivals keep none; each Rival draws
    the Intrigue card."""
    # Physical House Hagal cards: the game waits before the first Rival acts.
    mentat = ix_solo(epic=True, physical_hagal=True)
    assert {(h.garrison, h.intrigue) for h in mentat.rivals} == {(5, 2)}
    mercenary = ix_solo("mercenary", epic=True, physical_hagal=True)
    assert {(h.garrison, h.intrigue) for h in mercenary.rivals} == {(0, 1)}


def test_epic_game_ends_at_12_vp():
    """IX p.10 Epic: play to 12 Victory Points instead of 10."""
    from dataclasses import replace

    from tests.rules.helpers import house

    s = ix_solo(epic=True)
    s = house(s, "r1", vp=10)
    s = replace(s, ledger=())
    s = finish_round(s)
    assert s.phase != "ended"
    s = house(s, "r1", vp=12)
    s = finish_round(s)
    assert s.phase == "ended" and s.end_reason == "vp"

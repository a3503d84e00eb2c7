"""Rivals with Rise of Ix: the new House Hagal cards, the Shipping track, dreadnoughts,
Tech tiles and the Ix Signets.

Sources: Rise of Ix rulebook (IX) pp.4-6 (Tech tiles, Shipping track, dreadnoughts), p.8
"Additions to Solo & Two-Player Games", p.9 "Tech Tiles"; FAQ "Rivals"; HAGAL.md §1, §6,
§7 and §9.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.actions import Adjust, Choose, Freighter, Voice
from companion.rules.engine import apply
from companion.rules.scoring import final_ranking
from companion.rules.state import GameState, Posted
from tests.rules.helpers import (
    answer,
    entries,
    finish_round,
    house,
    idle_rivals,
    kinds,
    place,
    settle,
    stack,
)
from tests.rules.ix_helpers import (
    QUIET,
    hagal_turn,
    ix_solo,
    ix_two_player,
    rival_turn,
    tiles,
    transports_turn,
)

MARKED_CHEAP = ("windtraps", "memocorders", "sonic_snoopers")
SPARE = ("artillery", "minimic_film", "holoprojectors")  # unmarked tiles to fill stacks


def agents(s: GameState) -> list[tuple[str | None, object, object]]:
    return [(e.house, e.data["space"], e.data["card"]) for e in s.log if e.kind == "rival_agent"]


# -- the new House Hagal cards ---------------------------------------------------------------


def test_dreadnought_card_commissions_a_dreadnought_then_acquires_tech():
    """IX p.8 and HAGAL §6: the solo Dreadnought card commissions a dreadnought into the
    garrison, then Acquires Tech (no discount)."""
    s = tiles(ix_solo(), ("windtraps", *SPARE[:1]), ("flagship",), ("chaumurky",))
    s = rival_turn(s, "r1", "dreadnought_1p", spice=4, intrigue=0)
    r1 = s.house("r1")
    assert (r1.dn_garrison, r1.dn_supply) == (1, 1)
    assert r1.tech == ("chaumurky",)  # 4 spice: Chaumurky (4), not Flagship (8)
    assert r1.spice == 0 and r1.intrigue == 2  # Chaumurky: draw 2 Intrigue


def test_dreadnought_card_is_skipped_with_two_dreadnoughts():
    """IX p.8: "If this card is revealed for a Rival that already has two dreadnoughts,
    skip it and reveal another card instead." (One on a control flag still counts.)"""
    s = ix_solo()
    s = replace(s, posted={"arrakeen": Posted("r1", 1)})
    s = rival_turn(s, "r1", "dreadnought_1p", "wealth", dn_garrison=1, dn_posted=1)
    assert entries(s, "hagal_skip", "r1") == [
        {"card": "dreadnought_1p", "reason": "two_dreadnoughts"}
    ]
    assert agents(s)[-1] == ("r1", "wealth", "wealth")


def test_two_player_dreadnought_card_commissions_and_recruits_two():
    """HAGAL §6/§9: the 2P Dreadnought card commissions a dreadnought and recruits 2 troops
    (verdict leaning 2), all into House Hagal's garrison; Hagal ignores Tech [IX p.9]."""
    s = hagal_turn(ix_two_player(), "dreadnought_2p")
    hagal = s.house("hagal")
    assert (hagal.dn_garrison, hagal.garrison, hagal.tech) == (1, 2, ())


def test_interstellar_shipping_card_needs_two_guild_influence():
    """IX p.8: Interstellar Shipping requires 2 Spacing Guild Influence, Rivals too: the
    plain card is skipped by a Rival without it."""
    s = rival_turn(ix_solo(), "r1", "interstellar_shipping", "wealth")
    assert entries(s, "hagal_skip", "r1")[0]["reason"] == "needs_influence"
    assert "interstellar_shipping" not in s.occupants


def test_interstellar_shipping_card_moves_the_freighter_twice():
    """IX p.8: a Rival advances its Freighter until it reaches the second space: two
    Freighter icons from the bottom take it to the second step."""
    s = rival_turn(ix_solo(), "r1", "interstellar_shipping", influence=(0, 2, 0, 0))
    assert s.occupants["interstellar_shipping"] == "r1"
    assert s.house("r1").freighter == 2
    assert [e["step"] for e in entries(s, "freighter", "r1")] == [1, 2]


def test_dual_card_uses_foldspace_below_two_guild_influence():
    """IX p.8, FAQ Rivals: the Foldspace / Interstellar Shipping card sends a Rival with 0
    or 1 Guild Influence to Foldspace, with its Guild Influence."""
    s = rival_turn(ix_solo(), "r1", "foldspace_or_interstellar_shipping", influence=(0, 1, 0, 0))
    assert s.occupants["foldspace"] == "r1"
    assert s.house("r1").inf("spacing_guild") == 2
    assert s.house("r1").freighter == 0


def test_dual_card_uses_interstellar_shipping_from_two_guild_influence():
    """IX p.8, FAQ Rivals: with 2+ Guild Influence the second half applies."""
    s = rival_turn(ix_solo(), "r1", "smuggling_or_interstellar_shipping", influence=(0, 2, 0, 0))
    assert s.occupants["interstellar_shipping"] == "r1"
    assert s.house("r1").freighter == 2


def test_dual_card_never_falls_back_to_the_other_half():
    """FAQ Rivals: use only the half matching the Rival's Influence; if that space is
    occupied, don't use the other half: reveal a new card."""
    s = ix_solo()
    s = replace(s, occupants={**s.occupants, "interstellar_shipping": "r2"})
    s = house(s, "r1", influence=(0, 3, 0, 0))
    s = house(s, "r2", placed=s.house("r2").agents)
    s = stack(s, "smuggling_or_interstellar_shipping", "wealth")
    s = replace(s, occupants={k: v for k, v in s.occupants.items() if k not in ("wealth", QUIET)})
    s = replace(s, occupants={**s.occupants, "interstellar_shipping": "r2"})
    s = place(s, QUIET)
    assert entries(s, "hagal_skip", "r1")[0]["reason"] == "occupied"
    assert "smuggling" not in s.occupants
    assert s.occupants["wealth"] == "r1"


# -- the Shipping track ------------------------------------------------------------------------


def test_rival_recalls_from_the_second_step_with_dividends_troops_and_influence():
    """IX p.8: a Rival advances to the second space, then recalls: Dividends (5 Solari in
    solo, every other player 1 Solari), 2 troops and 1 Influence where it has the least."""
    s = rival_turn(
        ix_solo(),
        "r1",
        "smuggling_or_interstellar_shipping",
        freighter=2,
        influence=(1, 0, 1, 1),
        garrison=3,
        solari=0,
    )
    r1, r2 = s.house("r1"), s.house("r2")
    assert r1.freighter == 0
    assert r1.solari == 5 and r2.solari == 1 + ix_solo().house("r2").solari
    assert r1.garrison == 3 + 2
    assert r1.influence == (1, 1, 1, 1)
    assert "dividends" in kinds(s)


def test_tie_for_least_influence_on_the_shipping_track_is_asked():
    """IX p.8 and FAQ: on a tie for the Faction where the Rival has the least Influence, the
    player with the First Player marker (or acting next after a Rival holding it) chooses;
    in solo that is you."""
    s = rival_turn(ix_solo(), "r1", "smuggling_or_interstellar_shipping", freighter=2)
    assert s.prompt is not None and s.prompt.kind == "rival_influence"
    assert s.prompt.decider == "p1" and len(s.prompt.options) == 4
    s = apply(s, Choose("fremen"))
    assert s.house("r1").inf("fremen") == 1


def test_solo_rival_gains_a_solari_when_you_take_dividends():
    """IX p.8: Rivals in a solo game gain 1 Solari from Dividends whenever another player
    chooses it."""
    s = house(ix_solo(), "p1", freighter=1)
    s = apply(s, Freighter("p1", "recall"))
    assert s.prompt is not None and s.prompt.kind == "shipping_first"
    s = apply(s, Choose("dividends"))
    assert (s.house("r1").solari, s.house("r2").solari) == (1, 1)


def test_house_hagal_takes_no_solari_from_dividends():
    """IX p.8: Dividends give the Rival 5 Solari "in a solo game"; House Hagal never keeps
    resources [RB p.19]."""
    s = hagal_turn(
        ix_two_player(),
        "smuggling_or_interstellar_shipping",
        freighter=2,
        influence=(0, 0, 1, 1),
    )
    assert s.house("hagal").solari == 0
    assert "dividends" in kinds(s)
    assert s.house("hagal").garrison == 2


# -- dreadnoughts ------------------------------------------------------------------------------


def test_rival_deploys_dreadnoughts_before_troops():
    """IX p.8: a Rival always prefers to deploy dreadnoughts over troops; as in Spice Flow
    (HAGAL §6) they come from the garrison and count toward the 2."""
    s = rival_turn(ix_solo(), "r1", "carthag", dn_garrison=1, garrison=3, troops=0)
    r1 = s.house("r1")
    assert (r1.dn_conflict, r1.dn_garrison) == (1, 0)
    assert r1.troops == 1 + 1  # the troop the card recruits, plus one from the garrison
    assert entries(s, "deploy", "r1") == [{"troops": 2, "dreadnoughts": 1}]


def test_dreadnought_is_worth_three_and_keeps_swords_without_troops():
    """IX p.6: each dreadnought is worth 3 strength; with no troops the strength does not
    become 0 and swords still count."""
    s = house(ix_solo(), "r1", dn_conflict=1, swords=2, troops=0)
    assert s.house("r1").rival_strength == 5
    s = house(s, "r1", troops=2)
    assert s.house("r1").rival_strength == 9


def test_a_dreadnought_alone_draws_the_combat_bonus():
    """IX p.6 ("your swords still count") decides HAGAL §9's open case: a Rival with only a
    dreadnought in the Conflict still reveals a card for swords."""
    s = house(idle_rivals(ix_solo()), "r1", dn_conflict=1, troops=0)
    s = house(s, "r2", troops=0)
    s = finish_round(s)
    swords = [e.house for e in s.log if e.kind == "swords"]
    assert swords == ["r1"]


def _win_combat(s: GameState, winner: str = "r1") -> GameState:
    """Round 1 resolves with `winner` alone in the Conflict (a dreadnought)."""
    s = idle_rivals(s)
    for h in s.rivals:
        s = house(s, h.id, troops=0, dn_conflict=0)
    s = house(s, winner, dn_conflict=1, troops=1)
    return finish_round(s)


def test_rival_dreadnought_covers_an_opponents_control_marker():
    """IX p.8: when a Rival's dreadnought must take control, it always covers an opponent's
    Control marker when possible, and avoids covering its own."""
    s = replace(ix_solo(), control={"imperial_basin": "r1", "carthag": "p1"})
    s = _win_combat(s)
    assert s.posted["carthag"] == Posted("r1", 1)
    assert s.house("r1").dn_posted == 1


def test_rival_dreadnought_prefers_imperial_basin_then_arrakeen_then_carthag():
    """IX p.8: with several places, Imperial Basin first, then counter-clockwise to
    Arrakeen, then Carthag; the rulebook's example: opponents at Arrakeen and Carthag, no
    one at Imperial Basin: Arrakeen."""
    s = _win_combat(ix_solo())
    assert set(s.posted) == {"imperial_basin"}
    s = replace(ix_solo(), control={"arrakeen": "p1", "carthag": "r2"})
    s = _win_combat(s)
    assert set(s.posted) == {"arrakeen"}
    s = replace(ix_solo(), control={"imperial_basin": "r1", "arrakeen": "r1"})
    s = _win_combat(s)
    assert set(s.posted) == {"carthag"}


def test_dreadnought_control_gives_the_bonus_and_ends_after_the_next_combat():
    """IX p.6: while your dreadnought is at a location you gain its control bonus; the
    control lasts until the end of the next Combat phase, then the dreadnought returns to
    the garrison and the covered marker's owner controls the space again."""
    s = replace(ix_solo(), control={"carthag": "p1"})
    s = _win_combat(s)
    assert s.round == 2 and s.posted["carthag"] == Posted("r1", 1)
    assert s.controller("carthag") == "r1"
    s = replace(s, occupants={k: v for k, v in s.occupants.items() if k != "carthag"})
    s = place(s, "carthag")
    assert [e.house for e in s.last_entries if e.kind == "control_bonus"] == ["r1"]
    s = finish_round(s)
    assert "carthag" not in s.posted
    assert s.controller("carthag") == "p1"
    ended = [e for e in s.log if e.kind == "post_end"]
    assert [(e.house, e.round, e.data["space"]) for e in ended] == [("r1", 2, "carthag")]


def test_dreadnought_on_carthag_takes_the_control_bonus():
    """IX p.6: a dreadnought at Carthag gives its owner the 1 Solari control bonus, not the
    owner of the covered marker."""
    s = replace(ix_solo(), control={"carthag": "p1"}, posted={"carthag": Posted("r2", 1)})
    s = house(s, "r2", dn_posted=1)
    s = replace(s, occupants={k: v for k, v in s.occupants.items() if k != "carthag"})
    s = place(s, "carthag")
    assert entries(s, "control_bonus")[0]["solari"] == 1
    assert [e.house for e in s.last_entries if e.kind == "control_bonus"] == ["r2"]


def test_losing_dreadnoughts_return_to_the_garrison():
    """IX p.6: dreadnoughts in the Conflict don't return to supply: if you don't win, they
    go back to your garrison."""
    s = house(idle_rivals(ix_solo()), "r1", dn_conflict=1, troops=0, swords=0)
    s = house(s, "r2", troops=5)
    s = finish_round(s)
    r1 = s.house("r1")
    assert (r1.dn_conflict, r1.dn_garrison, r1.dn_supply) == (0, 1, 1)


# -- Tech tiles ---------------------------------------------------------------------------------


def test_tech_negotiation_buys_the_most_expensive_affordable_marked_tile():
    """IX p.9: the Tech Negotiation card Acquires Tech with a 1 spice discount; the Rival
    takes the most expensive tile it can afford, ties to the topmost stack."""
    s = tiles(ix_solo(), ("detonation_devices",), ("training_drones",), ("flagship",))
    s = rival_turn(s, "r1", "tech_negotiation", spice=2)
    assert s.house("r1").tech == ("detonation_devices",)  # 3 - 1 = 2 spice; topmost of two
    assert s.house("r1").spice == 0


def test_tech_negotiation_uses_negotiators_to_lower_the_price():
    """IX p.9: the next time the Rival acquires tech it uses its Negotiators to cut the
    cost; IX p.4: each returned Negotiator is 1 spice off."""
    s = tiles(ix_solo(), ("flagship",), ("holtzman_engine",), SPARE)
    s = rival_turn(s, "r1", "tech_negotiation", spice=2, negotiators=3)
    r1 = s.house("r1")
    assert r1.tech == ("holtzman_engine",)  # 6 - 1 - 3 = 2; Flagship would need 4
    assert (r1.spice, r1.negotiators) == (0, 0)


def test_tech_negotiation_places_a_negotiator_when_nothing_is_affordable():
    """IX p.9: if it can't afford any tile but has a troop in supply, it places a troop as
    a Negotiator on Ix."""
    s = tiles(ix_solo(), ("flagship",), SPARE)
    s = rival_turn(s, "r1", "tech_negotiation", spice=0)
    assert s.house("r1").negotiators == 1
    assert s.house("r1").tech == ()


def test_rivals_buy_only_tiles_with_the_house_hagal_mark():
    """IX p.9: Rivals can acquire only tiles marked with the House Hagal icon, however
    expensive and affordable the unmarked one is."""
    s = tiles(ix_solo(), ("spaceport",), ("memocorders",), ("restricted_ordnance",))
    s = rival_turn(s, "r1", "tech_negotiation", spice=9)
    assert s.house("r1").tech == ("memocorders",)


def test_no_marked_tile_face_up_trashes_from_the_largest_stack():
    """IX p.9: if no face-up tile has the mark, trash the tile from the largest stack and
    reveal a new one (ties: the topmost stack)."""
    s = tiles(
        ix_solo(),
        ("windtraps", "spaceport"),
        ("artillery", "holoprojectors", "flagship"),
        ("minimic_film", "restricted_ordnance", "chaumurky"),
    )
    s = rival_turn(s, "r1", "tech_negotiation", spice=2)
    # r1 buys Windtraps; no marked tile is face up any more: the middle stack (largest,
    # topmost of the two) loses Artillery, then Holoprojectors, until Flagship shows.
    assert s.house("r1").tech == ("windtraps",)
    # Sizes 1/3/3: trash Artillery from the middle (topmost of the largest); 1/2/3: the
    # bottom stack loses Minimic Film; 1/2/2: the middle loses Holoprojectors: Flagship.
    assert [stack[0] for stack in s.tech_stacks] == ["spaceport", "flagship", "restricted_ordnance"]
    assert s.tech_trash[-3:] == ("artillery", "minimic_film", "holoprojectors")


def test_rival_keeps_spice_for_tech_until_conflict_iii():
    """IX p.9 and HAGAL §1: a Rival won't spend 7 spice for a VP unless the current Conflict
    card is a Conflict III card."""
    s = rival_turn(ix_solo(), "r1", "wealth", spice=8)
    assert s.house("r1").spice == 8
    level3 = next(c for c, d in s.catalog.conflicts.items() if d.level == 3)
    s = replace(s, conflict=level3)
    s = house(s, "r1", spice=8)
    s = apply(s, Adjust("r1", "water", 1))
    assert s.house("r1").spice == 1


def test_two_player_house_hagal_ignores_tech():
    """IX p.9: in a two-player game the Rival ignores Tech tiles completely: no Tech
    Negotiation cards, and the Dreadnought card buys nothing."""
    s = ix_two_player()
    assert all(not h.tech for h in s.houses)
    assert not any(s.catalog.hagal[c].acquire_tech for c in (*s.hagal_deck, *s.hagal_discard))


# -- Signets of the Rise of Ix leaders ------------------------------------------------------------


def test_rhombur_signet_acquires_tech_or_places_a_negotiator():
    """IX p.8: when Rhombur's Rival activates his Signet Ring, he Acquires Tech if he can,
    otherwise uses the Tech Negotiation icon."""
    s = ix_solo(rivals=("rhombur_vernius", "memnon_thorvald"))
    s = tiles(s, ("memocorders",), SPARE)
    s = rival_turn(s, "r1", "arrakeen_1p", spice=2)
    assert s.house("r1").tech == ("memocorders",)
    s = ix_solo(rivals=("rhombur_vernius", "memnon_thorvald"))
    s = tiles(s, ("flagship",), SPARE)
    s = rival_turn(s, "r1", "arrakeen_1p", spice=0)
    assert s.house("r1").negotiators == 1


def test_hundro_signet_pays_a_spice_for_a_freighter_move():
    """IX p.8: Hundro always spends 1 spice, if he has it, for the Freighter icon."""
    s = ix_solo(rivals=("hundro_moritani", "memnon_thorvald"))
    s = rival_turn(s, "r1", "arrakeen_1p", spice=1)
    assert (s.house("r1").spice, s.house("r1").freighter) == (0, 1)
    s = ix_solo(rivals=("hundro_moritani", "memnon_thorvald"))
    s = rival_turn(s, "r1", "arrakeen_1p", spice=0)
    assert s.house("r1").freighter == 0
    assert entries(s, "signet", "r1")[0]["done"] is False


# -- tile-specific Rival rules (IX p.9) ----------------------------------------------------------


def test_detonation_devices_rival_always_takes_the_vp():
    """IX p.9 Detonation Devices: a Rival always gains the VP when it can (the dreadnought
    goes to supply instead of taking control)."""
    s = house(ix_solo(), "r1", tech=("detonation_devices",))
    s = _win_combat(s)
    r1 = s.house("r1")
    assert not s.posted and r1.dn_supply == 2
    assert any(e.note == "detonation_devices" and e.house == "r1" for e in s.ledger)


def test_flagship_rival_recruits_and_deploys_three_on_a_combat_space():
    """IX p.9 Flagship: on a Combat space with 4 Solari and 3 troops in supply, the Rival
    pays, flips the tile and recruits and deploys three troops."""
    s = rival_turn(ix_solo(), "r1", "carthag", tech=("flagship",), solari=4, garrison=0, troops=0)
    r1 = s.house("r1")
    assert r1.solari == 0 and "flagship" in r1.flipped
    assert r1.troops == 1 + 3


def test_flagship_needs_four_solari():
    """IX p.9 Flagship: only "if it has 4 Solari"."""
    s = rival_turn(ix_solo(), "r1", "carthag", tech=("flagship",), solari=3, garrison=0, troops=0)
    assert s.house("r1").troops == 1 and not s.house("r1").flipped


def test_holtzman_engine_is_a_vp_for_a_rival_at_endgame():
    """IX p.9 Holtzman Engine: worth 1 VP to a Rival at Endgame."""
    s = house(ix_solo(), "r2", tech=("holtzman_engine",))
    s = house(s, "r1", vp=10)
    s = replace(s, ledger=())
    s = finish_round(s)
    assert s.phase == "ended"
    assert any(e.note == "holtzman_engine" and e.house == "r2" for e in s.ledger)


def test_invasion_ships_rival_goes_where_an_enemy_agent_is():
    """IX p.9 Invasion Ships: a Rival flips it when needed to avoid being blocked, without
    the discard cost."""
    s = ix_solo()
    s = house(s, "r2", placed=s.house("r2").agents)
    s = house(s, "r1", tech=("invasion_ships",))
    s = stack(s, "wealth")
    s = replace(s, occupants={k: v for k, v in s.occupants.items() if k != "wealth"})
    s = place(s, "wealth")
    assert s.occupants["wealth"] == "p1"
    assert ("wealth", "r1") in s.infiltrators
    assert "invasion_ships" in s.house("r1").flipped


def test_invasion_ships_do_not_pass_the_voice():
    """IX p.7: infiltration doesn't ignore The Voice."""
    s = ix_solo()
    s = house(s, "r2", placed=s.house("r2").agents)
    s = house(s, "r1", tech=("invasion_ships",))
    s = stack(s, "wealth", "conspire")
    s = replace(
        s,
        occupants={k: v for k, v in s.occupants.items() if k not in ("wealth", "conspire", QUIET)},
    )
    s = apply(s, Voice("p1", "wealth"))
    s = place(s, QUIET)
    assert ("wealth", "r1") not in s.infiltrators
    assert entries(s, "hagal_skip", "r1")[0]["card"] == "wealth"


def test_sonic_snoopers_draw_an_intrigue_on_acquire():
    """IX p.9 Sonic Snoopers: a Rival draws an Intrigue card when acquiring it, and never
    trashes the tile."""
    s = tiles(ix_solo(), ("sonic_snoopers",), SPARE)
    s = rival_turn(s, "r1", "tech_negotiation", spice=1, intrigue=0)
    assert s.house("r1").tech == ("sonic_snoopers",) and s.house("r1").intrigue == 1


def test_spy_satellites_trashed_for_a_vp_with_three_spice_on_its_turn():
    """IX p.9 Spy Satellites: with 3 spice on its turn, the Rival spends them to trash the
    tile for a VP."""
    s = rival_turn(ix_solo(), "r1", "wealth", tech=("spy_satellites",), spice=3)
    r1 = s.house("r1")
    assert r1.tech == () and r1.spice == 0
    assert "spy_satellites" in s.tech_trash
    assert any(e.note == "spy_satellites" for e in s.ledger)


def test_training_drones_flip_at_the_first_chance_each_round():
    """IX p.9 Training Drones: the Rival flips it during its turn at the first opportunity
    each round (1 troop), including immediately when it acquires the tile."""
    s = tiles(ix_solo(), ("training_drones",), SPARE)
    s = rival_turn(s, "r1", "tech_negotiation", spice=2, garrison=0)
    r1 = s.house("r1")
    assert r1.tech == ("training_drones",) and r1.garrison == 1
    assert "training_drones" in r1.flipped


def test_training_drones_flip_once_per_round():
    """IX p.4: a flipped tile is used once per round and turns face up again at the start
    of the next round; IX p.9: the Rival flips it again at its first chance."""
    s = rival_turn(ix_solo(), "r1", "wealth", tech=("training_drones",), garrison=0)
    assert s.house("r1").garrison == 1
    s = finish_round(s)
    s = finish_round(s)
    flips = [e.round for e in s.log if e.kind == "tech_flip" and e.house == "r1"]
    assert flips == [1, 2]


def test_troop_transports_deploy_the_shipping_troops():
    """IX p.9 Troop Transports: a Rival deploys to the Conflict all troops it recruits from
    the Shipping track; the tile "recruit[s] 1 extra troop" [IX tile], so 3, not 2."""
    s = ix_solo("sardaukar")
    s = transports_turn(s, troops=0)
    s = settle(s)
    assert s.house("r1").troops == 3
    assert [e.data for e in s.log if e.kind == "transports"] == [{"troops": 3}]


def test_troop_transports_follow_expert_deployment_instead():
    """IX p.9: "(unless you're using the Expert Troop Deployment rule)": at Mentat the
    Expert rule decides; leading by 4+ in a Conflict I [FAQ Solo Play] the 3 Shipping
    troops stay in the garrison, and the strength you enter is logged."""
    s = transports_turn(ix_solo("mentat"), troops=2, garrison=3)
    assert s.prompt is not None and s.prompt.kind == "expert_strength"
    s = settle(answer(s, 0))
    assert s.house("r1").troops == 2 and s.house("r1").garrison == 6
    assert [e.data for e in s.log if e.kind == "strength"][:1] == [{"strength": 0}]


def test_troop_transports_deploy_under_expert_rule_without_a_lead():
    """IX p.9 with the Expert rule [FAQ Solo Play]: a Rival not leading by 4 deploys the
    3 troops it recruits from the Shipping track."""
    s = transports_turn(ix_solo("mentat"), troops=0, garrison=3)
    s = settle(s)
    assert s.house("r1").troops == 3 and s.house("r1").garrison == 3


def test_shuttle_fleet_gives_a_rival_two_solari_each_round():
    """IX p.4 and p.9 ("generally works the same"): Shuttle Fleet gives 2 Solari at the
    start of each round."""
    s = house(ix_solo(), "r1", tech=("shuttle_fleet",), solari=0)
    s = finish_round(s)
    assert any(e.kind == "tech_income" and e.house == "r1" for e in s.log)


# -- new Conflict rewards -------------------------------------------------------------------------


def test_rival_collects_conflict_troops_and_freighter_moves():
    """IX p.8: Rivals in a solo game collect the new troop rewards; Skirmish (Ix) gives a
    Freighter move and a troop to the winner."""
    s = replace(ix_solo(), conflict="skirmish_f")
    s = house(s, "r1", troops=3, garrison=0, freighter=0)
    s = house(s, "r2", troops=0)
    s = finish_round(s)
    r1 = s.house("r1")
    assert r1.freighter == 1
    assert any(e.kind == "recruit" and e.house == "r1" and e.data["troops"] == 1 for e in s.log)


def test_rival_buys_economic_supremacy_vp_when_it_can_pay():
    """Economic Supremacy (Ix Conflict III): the winner may buy 1 VP for 6 Solari and 1 for
    4 spice; a Rival uses what it has resources for (RB p.20)."""
    s = replace(ix_solo(), conflict="economic_supremacy")
    s = house(s, "r1", troops=3, solari=6, spice=3)
    s = house(s, "r2", troops=0)
    s = finish_round(s)
    notes = [e for e in s.ledger if e.house == "r1" and e.note == "economic_supremacy"]
    assert sum(e.delta for e in notes) == 2  # the free VP and the one bought with Solari
    assert any(e.kind == "offer" and e.house == "r1" and e.data["solari"] == 6 for e in s.log)
    assert not any(e.kind == "offer" and e.house == "r1" and e.data["spice"] == 4 for e in s.log)


def test_windtraps_give_a_winning_rival_a_water():
    """Windtraps (IX tiles): +1 water when you win a Conflict; IX p.9: a Rival's tile
    generally works as for a player."""
    s = house(ix_solo(), "r1", tech=("windtraps",), water=0)
    s = _win_combat(s)
    assert any(e.kind == "tech_income" and e.house == "r1" and e.data["water"] == 1 for e in s.log)


def test_chaumurky_owner_wins_ties():
    """Chaumurky (IX tiles): "Endgame: you win ties" — first among the houses it ties
    with on VP, whatever the spice, Solari, water and troops."""
    s = house(ix_solo(), "r2", vp=5, tech=("chaumurky",), spice=0)
    s = house(s, "r1", vp=5, spice=9)
    s = house(s, "p1", vp=5, tiebreak=(9, 9, 9, 9))
    ranking = final_ranking(s)
    assert [(x.house, x.rank) for x in ranking] == [("r2", 1), ("p1", 2), ("r1", 3)]


def test_expert_deployment_counts_dreadnought_strength():
    """FAQ Solo Play and HAGAL §9: Expert deployment looks at a lead of 4 strength, and
    dreadnoughts count (3 each, IX p.6)."""
    s = ix_solo("mentat")
    s = house(s, "r2", troops=0, dn_conflict=0)
    s = rival_turn(s, "r1", "carthag", troops=0, dn_conflict=2, garrison=3)
    # r1 leads with 6 strength: the app asks your strength before holding its troops.
    assert s.prompt is not None and s.prompt.kind == "expert_strength"
    s = apply(s, Choose("0"))
    assert entries(s, "expert_hold", "r1")

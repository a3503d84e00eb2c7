"""The rulings the engine makes where the sources disagree, the log lines that state them,
and the settings that play each the other way (companion/rules/rulings.py).

Sources: RB p.19 (House Hagal "can never claim control"; the combat bonus "with at least
one troop"; "If the House Hagal deck is ever empty ..., immediately reshuffle"), Rise of
Ix rulebook p.6 and p.8 (dreadnoughts), p.9 (Troop Transports, Brutal Escalation), p.10
(Epic Game mode), the FAQ's Solo Play entry (Expert troop deployment).
"""

from __future__ import annotations

from dataclasses import fields, replace

from companion.cards import default_root, load_catalog
from companion.lookup.rulings import load_rulings
from companion.rules.actions import Choose
from companion.rules.codec import decode_setup, encode_setup
from companion.rules.engine import apply
from companion.rules.rulings import RULING_ITEMS, is_ruling, ruling_item
from companion.rules.setup import starting_houses
from companion.rules.state import GameState, Options
from companion.rules.text import TEMPLATES
from tests.rules.helpers import finish_round, house, idle_rivals, reveal, settle, solo, stack
from tests.rules.ix_helpers import (
    ix_solo,
    ix_solo_setup,
    ix_two_player,
    rival_turn,
    transports_turn,
)


def rulings_logged(s: GameState) -> list[tuple[str, str | None]]:
    return [(e.kind, e.house) for e in s.log if is_ruling(e.kind)]


def hagal_wins_with_a_dreadnought(**options: bool) -> GameState:
    """Two players: House Hagal alone in the Conflict with a dreadnought and a troop; the
    round plays out."""
    s = ix_two_player(**options)
    s = house(s, "hagal", dn_conflict=1, troops=1, placed=3)
    return finish_round(s)


def test_house_hagal_dreadnought_takes_control_by_default():
    """IX p.8: "Whenever a Rival wins a Conflict and its dreadnought must take control of a
    board space"; IX p.6: the winner's dreadnought takes control. Our ruling, said in the
    log."""
    s = hagal_wins_with_a_dreadnought()
    assert [post.house for post in s.posted.values()] == ["hagal"]
    assert ("ruling_hagal_dreadnought", "hagal") in rulings_logged(s)


def test_house_hagal_dreadnought_goes_home_with_the_setting():
    """RB p.19: House Hagal "can never claim control of a board space"; the setting plays
    it so: the dreadnought returns to the garrison like a loser's [IX p.6]."""
    s = hagal_wins_with_a_dreadnought(hagal_dreadnought_home=True)
    assert s.posted == {}
    hagal = s.house("hagal")
    assert (hagal.dn_garrison, hagal.dn_conflict, hagal.dn_posted) == (1, 0, 0)
    assert ("ruling_hagal_dreadnought_home", "hagal") in rulings_logged(s)


def dreadnought_only_combat(need_troops: bool = False) -> GameState:
    """Solo: r1 has only a dreadnought in the Conflict, r2 nothing; the round plays out."""
    s = ix_solo(swords_need_troops=need_troops)
    s = house(idle_rivals(s), "r1", dn_conflict=1, troops=0)
    s = house(s, "r2", troops=0)
    return finish_round(s)


def test_a_rival_with_only_a_dreadnought_reveals_swords_by_default():
    """IX p.6: with dreadnoughts and no troops "your swords still count"; our ruling over
    RB p.19's "at least one troop" (HAGAL §9 open point), said in the log."""
    s = dreadnought_only_combat()
    assert [e.house for e in s.log if e.kind == "swords"] == ["r1"]
    assert ("ruling_dreadnought_swords", "r1") in rulings_logged(s)


def test_a_rival_with_only_a_dreadnought_reveals_no_swords_with_the_setting():
    """RB p.19: the combat bonus goes to "each Rival that has at least one troop in the
    Conflict"; the dreadnought's 3 strength still counts [IX p.6]."""
    s = dreadnought_only_combat(need_troops=True)
    assert [e.house for e in s.log if e.kind == "swords"] == []
    assert ("ruling_dreadnought_no_swords", "r1") in rulings_logged(s)
    combat = next(e for e in s.log if e.kind == "combat")
    assert combat.data["strengths"]["r1"] == 3  # type: ignore[index]


def epic_rivals(difficulty: str, standard: bool = False) -> list[tuple[int, int]]:
    """Each Rival's garrison troops and Intrigue cards as an Epic solo game sets them up."""
    setup = ix_solo_setup(difficulty, epic=True, epic_rivals_standard=standard)
    houses, _ = starting_houses(setup)
    return [(h.garrison, h.intrigue) for h in houses if h.kind == "rival"]


def test_epic_rivals_get_the_troops_and_the_intrigue_by_default():
    """IX p.10 Epic: "Each player begins with 5 troops in their garrison (instead of 3)"
    and "Each player draws an Intrigue card"; our ruling applies it to Rivals (a
    Mercenary Rival, with no starting troops, keeps none)."""
    assert epic_rivals("sardaukar") == [(5, 2), (5, 2)]
    assert epic_rivals("mercenary") == [(0, 1), (0, 1)]
    assert ("ruling_epic_rivals", None) in rulings_logged(ix_solo(epic=True))


def test_epic_rivals_start_as_standard_with_the_setting():
    """The setting: Rivals start with the difficulty's troops and Intrigue [RB p.20]."""
    assert epic_rivals("sardaukar", standard=True) == [(3, 1), (3, 1)]
    s = ix_solo(epic=True, epic_rivals_standard=True)
    assert ("ruling_epic_rivals_standard", None) in rulings_logged(s)
    assert not any(is_ruling(e.kind) for e in ix_solo().log)


def expert_lead_with_a_dreadnought_home(deploy: bool = False) -> GameState:
    """Solo, Mentat (Expert deployment), Rise of Ix: r1 has 2 troops in the Conflict (4
    strength, r2 none) and a dreadnought and 3 troops in its garrison; its Carthag card
    sends it to a Combat space in a Conflict I, and you answer 0 strength."""
    s = ix_solo("mentat", expert_dreadnoughts_deploy=deploy)
    s = house(s, "r2", troops=0, dn_conflict=0)
    s = rival_turn(s, "r1", "carthag", troops=2, garrison=3, dn_garrison=1, dn_conflict=0)
    assert s.conflict_level < 3
    assert s.prompt is not None and s.prompt.kind == "expert_strength"
    return apply(s, Choose("0"))


def test_expert_deployment_keeps_a_leading_rivals_dreadnought_home_by_default():
    """FAQ, Solo Play: a Rival "won't deploy troops if it is already leading by 4 strength
    or more. (In the Rise of Ix expansion, dreadnoughts mean that you should count a
    Rival's strength to determine deployment, not just its troops.)" Our ruling counts
    every unit: the dreadnought stays with the troops, and the log says so."""
    s = expert_lead_with_a_dreadnought_home()
    r1 = s.house("r1")
    assert (r1.troops, r1.dn_conflict, r1.dn_garrison) == (2, 0, 1)
    assert ("ruling_expert_dreadnoughts", "r1") in rulings_logged(s)


def test_expert_deployment_deploys_the_dreadnought_with_the_setting():
    """Rise of Ix rulebook p.8: a Rival "will deploy a dreadnought to the Conflict whenever
    it can", and the FAQ's "won't deploy troops": the setting deploys the dreadnought and
    keeps only the troops home."""
    s = expert_lead_with_a_dreadnought_home(deploy=True)
    r1 = s.house("r1")
    assert (r1.troops, r1.dn_conflict, r1.dn_garrison) == (2, 1, 0)
    assert ("ruling_expert_dreadnoughts_deploy", "r1") in rulings_logged(s)


def rival_wins_trade_monopoly(kept: bool = False) -> GameState:
    """Solo, Rise of Ix: r1, owning Troop Transports with its Freighter on step 2 and an
    empty garrison, is alone in the Conflict for Trade Monopoly (first: two Freighter
    moves and a troop); the round plays out."""
    s = idle_rivals(ix_solo(transports_kept_after_combat=kept))
    s = replace(s, conflict="trade_monopoly")
    s = house(s, "r1", troops=1, garrison=0, freighter=2, tech=("troop_transports",))
    s = house(s, "r2", troops=0)
    return finish_round(s)


def test_troop_transports_deploy_into_the_resolved_conflict_by_default():
    """Rise of Ix rulebook p.9: "A Rival will always deploy to the Conflict all troops it
    recruits from the Shipping track"; Trade Monopoly's Freighter moves come after the
    Combat, whose end sends the troops in the Conflict to supply [RB p.12]: of the reward's
    troop and the 3 Shipping troops only the first stays. Our ruling, said in the log."""
    s = rival_wins_trade_monopoly()
    assert [e.data for e in s.log if e.kind == "transports"] == [{"troops": 3}]
    assert s.house("r1").garrison == 1
    assert ("ruling_transports_after_combat", "r1") in rulings_logged(s)


def test_troop_transports_keep_the_troops_after_the_combat_with_the_setting():
    """Troop Transports (the tile): "you may deploy those troops to the Conflict"; the
    setting keeps them in the garrison when the Combat is over."""
    s = rival_wins_trade_monopoly(kept=True)
    assert not any(e.kind == "transports" for e in s.log)
    assert s.house("r1").garrison == 4
    assert ("ruling_transports_kept", "r1") in rulings_logged(s)


def test_troop_transports_on_an_agent_turn_state_no_ruling():
    """Before the Combat the tile is plain [IX p.9]: no ruling to state."""
    s = transports_turn(ix_solo(transports_kept_after_combat=True), troops=0)
    assert [e.data for e in s.log if e.kind == "transports"] == [{"troops": 3}]
    assert rulings_logged(s) == []


def brutal_deck_runs_out_after_the_first_card(out: bool = False) -> GameState:
    """Solo with Brutal Escalation, a Conflict III: r1 has a troop in the Conflict, r2
    none, and the House Hagal deck holds only Heighliner (6 swords, one copy): r1 flips
    it, then needs a second card from an empty deck."""
    s = idle_rivals(solo(brutal_escalation=True, brutal_first_card_out=out))
    s = replace(s, conflict="battle_for_carthag", conflict_deck=())
    s = house(house(s, "r1", troops=1), "r2", troops=0)
    s = stack(s, "heighliner")
    s = replace(s, hagal_deck=("heighliner",), hagal_discard=(*s.hagal_deck[1:], *s.hagal_discard))
    s = reveal(s)
    assert s.prompt is not None and s.prompt.kind == "strength"
    return s


def swords_cards(s: GameState) -> list[str]:
    return [str(e.data["card"]) for e in s.log if e.kind == "swords"]


def test_brutal_escalation_reshuffles_the_first_card_too_by_default():
    """RB p.19: "If the House Hagal deck is ever empty ..., immediately reshuffle the House
    Hagal cards to form a new deck": every card, the one just flipped too. Its swords
    still count [IX p.9: "add all the swords from both cards"]; the log says so."""
    s = brutal_deck_runs_out_after_the_first_card()
    first, second = swords_cards(s)
    assert first == "heighliner"
    assert s.hagal_discard == (second,)  # Heighliner went into the new deck
    assert s.house("r1").swords == 6 + s.catalog.hagal[second].swords
    assert ("ruling_brutal_reshuffle_all", "r1") in rulings_logged(s)


def test_brutal_escalation_keeps_the_first_card_out_with_the_setting():
    """The other reading: the first card is still in use for this Combat, so it stays in
    the discard pile and the new deck is made of the others."""
    s = brutal_deck_runs_out_after_the_first_card(out=True)
    first, second = swords_cards(s)
    assert (first, second != "heighliner") == ("heighliner", True)
    assert s.hagal_discard == ("heighliner", second)
    assert "heighliner" not in s.hagal_deck
    assert s.house("r1").swords == 6 + s.catalog.hagal[second].swords
    assert ("ruling_brutal_first_card_out", "r1") in rulings_logged(s)


def test_the_brutal_escalation_ruling_links_the_conflict_being_fought():
    """Its ruling is written on each Conflict III card (card_db/rulings.toml): the line
    links the one on the board."""
    entry = next(e for e in brutal_deck_runs_out_after_the_first_card().log if is_ruling(e.kind))
    assert ruling_item(entry.kind, entry.data) == ("conflict", "battle_for_carthag")


def test_a_game_stored_without_the_settings_plays_the_default_rulings():
    """Old stored setups have no such keys: they decode to the defaults, so they replay
    as they were played."""
    data = encode_setup(ix_solo_setup())
    for name in SETTINGS:
        assert data["options"].pop(name) is False
    assert decode_setup(data).options == Options()


SETTINGS = (
    "hagal_dreadnought_home",
    "swords_need_troops",
    "epic_rivals_standard",
    "expert_dreadnoughts_deploy",
    "transports_kept_after_combat",
    "brutal_first_card_out",
)


def test_every_ruling_has_a_sentence_and_an_explanation_page():
    """Each ruling line says "Ruling" and links an item whose page explains it: a ruling
    of card_db/rulings.toml that says "Ruling" too."""
    catalog = load_catalog(sets=("base", "ix"))
    explained = {
        key
        for key, rulings in load_rulings(default_root(), catalog).items()
        if any(r.text.startswith("Ruling") for r in rulings)
    }
    for kind, (item_kind, item_id) in RULING_ITEMS.items():
        template = TEMPLATES[kind]
        wordings = template if isinstance(template, tuple) else (template,)  # a Plural: both
        assert all(wording.startswith("Ruling") for wording in wordings), kind
        assert f"{item_kind}:{item_id}" in explained, kind


def test_every_setting_defaults_to_off():
    """False is the default reading for every option, so old games keep theirs; the
    exceptions are the round-end step and the strengths asked from the First Player, on
    for new games, which `codec.decode_setup` turns off for setups stored before them."""
    on = {f.name for f in fields(Options) if f.default is not False}
    assert on == {"round_end", "strengths_from_first"}
    assert settle(ix_solo()).setup.options == Options()

"""The rulings the engine makes where the sources disagree, the log lines that state them,
and the settings that play each the other way (companion/rules/rulings.py).

Sources: RB p.19 (House Hagal "can never claim control"; the combat bonus "with at least
one troop"), Rise of Ix rulebook p.6 and p.8 (dreadnoughts), p.10 (Epic Game mode).
"""

from __future__ import annotations

from dataclasses import fields

import pytest

from companion.cards import load_catalog
from companion.cards.index import entries as lookup_entries
from companion.rules.codec import decode_setup, encode_setup
from companion.rules.rulings import RULING_ITEMS, is_ruling
from companion.rules.setup import starting_houses
from companion.rules.state import GameState, Options
from companion.rules.text import TEMPLATES
from tests.rules.helpers import finish_round, house, idle_rivals, settle
from tests.rules.ix_helpers import ix_solo, ix_solo_setup, ix_two_player


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


def test_a_game_stored_without_the_settings_plays_the_default_rulings():
    """Old stored setups have no such keys: they decode to the defaults, so they replay
    as they were played."""
    data = encode_setup(ix_solo_setup())
    for name in ("hagal_dreadnought_home", "swords_need_troops", "epic_rivals_standard"):
        assert data["options"].pop(name) is False
    assert decode_setup(data).options == Options()


@pytest.mark.parametrize("kind", sorted(RULING_ITEMS))
def test_every_ruling_has_a_sentence_and_an_explanation_page(kind):
    """Each ruling line says "Ruling" and links an item the rules lookup has."""
    assert str(TEMPLATES[kind]).startswith("Ruling")
    keys = {e.key for e in lookup_entries(load_catalog(sets=("base", "ix")))}
    assert "{}:{}".format(*RULING_ITEMS[kind]) in keys


def test_every_setting_defaults_to_off():
    """False is the default reading for every option, so old games keep theirs; the one
    exception is the round-end step, on for new games, which `codec.decode_setup` turns
    off for setups stored before it existed."""
    assert {f.name for f in fields(Options) if f.default is not False} == {"round_end"}
    assert settle(ix_solo()).setup.options == Options()

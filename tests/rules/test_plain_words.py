"""Log sentences in plain words: no field ids, proper names, where pieces come from.

Every sentence of every golden game is checked for ids (snake_case words, "influence:")
and lower-case card or space names; the reworded kinds have their own examples.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from companion.rules.codec import decode, decode_setup
from companion.rules.engine import new_game, replay
from companion.rules.i18n import Listing, Message
from companion.rules.state import Entry, GameState
from companion.rules.text import describe, sentence
from tests.rules.helpers import catalog, solo

GOLDEN = sorted((Path(__file__).resolve().parents[1] / "golden").glob("*.json"))
ID_LIKE = re.compile(r"\b[a-z]+_[a-z_]+\b|influence:|\(\d+, \d+")


@cache
def golden_state(path: Path) -> GameState:
    data = json.loads(path.read_text(encoding="utf-8"))
    start = new_game(decode_setup(data["setup"]), catalog())
    return replay(start, [decode(a) for a in data["actions"]])


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_no_sentence_of_a_golden_game_shows_an_id(path):
    state = golden_state(path)
    names = [s.name for s in state.catalog.spaces.values()]
    names += [c.name for c in state.catalog.conflicts.values()]
    for entry in state.log:
        text = sentence(entry, state)
        assert not ID_LIKE.search(text), text
        for name in names:  # names of two words or more: one word may be a common noun
            assert " " not in name or name.lower() not in text, text


def entry(state: GameState, kind: str, house: str | None = "p1", **data: object) -> str:
    return sentence(Entry(state.step, state.round, kind, house, data), state)


def test_a_correction_names_the_number_and_why():
    s = solo()
    text = entry(s, "adjust", field="influence:emperor", delta=1, reason="card")
    assert text == "Correction: You's Emperor Influence +1 (card effect)."
    text = entry(s, "adjust", "r1", field="garrison", delta=-2, reason="manual")
    assert text == "Correction: Rival A's troops in the garrison -2 (by hand)."


def test_a_players_reward_says_where_each_piece_comes_from():
    """RB p.12 Resolve Combat: resources from the bank; the troop icon recruits troops from
    your supply to your garrison (RB icon guide)."""
    s = solo()
    text = entry(s, "take", solari=2, spice=1, intrigue=1, troops=2)
    assert text == (
        "You, take 2 Solari and 1 spice from the bank; 1 Intrigue card; "
        "2 troops from your supply into your garrison."
    )
    assert "bank" not in entry(s, "take", troops=1)


def test_no_bonus_spice_is_said_plainly():
    """RB p.12 Phase 4: 1 spice on each Maker space without an Agent."""
    s = solo()
    assert entry(s, "makers", None, spaces=[]) == (
        "Phase 4: no bonus spice this round, every Maker space has an Agent."
    )
    assert entry(s, "makers", None, spaces=["hagga_basin", "the_great_flat"]) == (
        "Phase 4: add 1 bonus spice to Hagga Basin and The Great Flat."
    )


def test_combat_places_and_tie_break_counts_read_as_words():
    s = solo()
    combat = entry(s, "combat", None, card=s.conflict, strengths={"p1": 4}, places={"p1": "first"})
    assert combat.endswith("strength You 4. Rewards: You 1st.")
    tiebreak = entry(s, "tiebreak", values=(2, 3, 0, 5))
    assert tiebreak.endswith("2 spice, 3 Solari, 0 water, 5 troops in the garrison.")


def filled_values(text: object) -> list[str]:
    """Every value filled into a Message, and the values filled into those (a Listing's
    parts too), in English."""
    if isinstance(text, Listing):
        values: list[object] = list(text.parts)
    elif isinstance(text, Message):
        values = list(text.values.values())
    else:
        return []
    found = [str(v) for v in values if isinstance(v, str)]
    return found + [w for v in values for w in filled_values(v)]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_no_value_filled_into_a_log_sentence_ends_in_punctuation(path):
    """A value filled into a sentence is a noun phrase or a clause of it, never a sentence
    of its own: "3ソラリを銀行から。を受け取ってください" (issue 28) came from one."""
    state = golden_state(path)
    ending = [
        (entry.kind, value)
        for entry in state.log
        for value in filled_values(describe(entry, state))
        if value.rstrip().endswith((".", "!", "?", ":", ";"))
    ]
    assert sorted(set(ending)) == []

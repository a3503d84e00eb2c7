"""Golden games: whole recorded games in tests/golden/*.json, replayed on every run.

Each file holds a setup (`codec.encode_setup`), the action log (`codec.encode` per action)
and what the game came to: the final round, why it ended, each house's VP, Influence and VP
ledger sums per source, and the House Hagal deck and discard sizes. Like python-chess's perft
counts, they catch rule regressions and check that old logs still load.

A failing golden test means a rules change altered the outcome of games already played (or
made an old log unreadable). Don't just regenerate the file: review the change, decide that
stored games may change, say so in the commit, and only then regenerate the files
deliberately (play the same setups with `companion.sim.play` and write them again).
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from companion import sim
from companion.rules.catalog import FACTIONS
from companion.rules.codec import decode, decode_setup
from companion.rules.engine import apply, new_game, replay
from companion.rules.state import GameState
from tests.rules.helpers import catalog

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def summary(state: GameState) -> dict[str, Any]:
    """What a golden file pins of a finished game (JSON-shaped)."""
    houses: dict[str, Any] = {}
    for h in state.houses:
        ledger: defaultdict[str, int] = defaultdict(int)
        for entry in state.ledger:
            if entry.house == h.id:
                ledger[entry.source] += entry.delta
        houses[h.id] = {
            "vp": h.vp,
            "influence": dict(zip(FACTIONS, h.influence, strict=True)),
            "ledger": dict(sorted(ledger.items())),
        }
        if state.ix:  # Rise of Ix: tiles, Freighter, dreadnoughts and Negotiators too
            houses[h.id]["ix"] = {
                "tech": list(h.tech),
                "freighter": h.freighter,
                "dreadnoughts": [h.dn_garrison, h.dn_conflict, h.dn_posted],
                "negotiators": h.negotiators,
            }
    out: dict[str, Any] = {
        "round": state.round,
        "end_reason": state.end_reason,
        "houses": houses,
        "hagal_deck": len(state.hagal_deck),
        "hagal_discard": len(state.hagal_discard),
    }
    if state.ix:
        out["tech_stacks"] = [list(stack) for stack in state.tech_stacks]
        out["tech_trash"] = list(state.tech_trash)
        out["posted"] = {space: post.house for space, post in sorted(state.posted.items())}
    return out


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_the_golden_games_are_there():
    assert len(FILES) >= 10
    modes = {load(p)["setup"]["mode"] for p in FILES}
    assert modes == {"solo", "2p", "3p", "4p"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_golden_game_replays_to_its_recorded_outcome(path):
    data = load(path)
    assert set(data) == {"setup", "actions", "expect"}
    initial = new_game(decode_setup(data["setup"]), catalog())
    actions = [decode(a) for a in data["actions"]]

    final = replay(initial, actions)

    assert final.phase == "ended"
    assert summary(final) == data["expect"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_state_of_a_golden_game_keeps_the_invariants(path):
    data = load(path)
    state = new_game(decode_setup(data["setup"]), catalog())
    assert sim.invariants(state) == []
    actions = [decode(a) for a in data["actions"]]
    for action in actions:
        state = apply(state, action)
        assert sim.invariants(state) == [], action
    assert state == replay(new_game(decode_setup(data["setup"]), catalog()), actions)

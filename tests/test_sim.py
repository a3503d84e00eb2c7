"""The simulator (issue 2, "Simulator and benchmark"): its CLI report, and its invariant
checker, which must itself catch a broken state of every kind it claims to check."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

import pytest

from companion import sim
from companion.cards import load_catalog
from companion.rules.state import Entry, GameState, VpEntry
from tests.rules.helpers import finish_round, house, multiplayer, place, solo, two_player
from tests.rules.ix_helpers import ix_solo, transports_turn

REPORT_KEYS = {
    "games",
    "mode",
    "difficulty",
    "seconds",
    "games_per_second",
    "games_per_cpu_second",
    "rounds_mean",
    "end_reasons",
    "winners",
    "rival_vp_mean",
    "replay_ms_median",
    "replay_cpu_ms_median",
    "invariant_violations",
}


def run_json(capsys, *argv: str) -> tuple[int, dict[str, object]]:
    code = sim.main([*argv, "--json"])
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    report = json.loads(lines[0])
    assert isinstance(report, dict)
    return code, report


def test_solo_json_report(capsys):
    code, report = run_json(
        capsys, "--games", "5", "--mode", "solo", "--difficulty", "mercenary", "--seed", "3"
    )
    assert code == 0
    assert set(report) >= REPORT_KEYS
    assert report["games"] == 5
    assert report["mode"] == "solo"
    assert report["difficulty"] == "mercenary"
    assert report["invariant_violations"] == 0
    end_reasons = report["end_reasons"]
    winners = report["winners"]
    assert isinstance(end_reasons, dict) and isinstance(winners, dict)
    assert sum(end_reasons.values()) == 5
    assert sum(winners.values()) == 5
    assert set(winners) <= {"p1", "r1", "r2", "tie"}
    assert isinstance(report["rival_vp_mean"], float | int)


def test_two_player_json_report(capsys):
    code, report = run_json(capsys, "--games", "5", "--mode", "2p", "--seed", "3")
    assert code == 0
    assert set(report) >= REPORT_KEYS
    assert report["mode"] == "2p"
    assert report["difficulty"] is None
    assert report["rival_vp_mean"] is None  # House Hagal scores no VP
    assert report["invariant_violations"] == 0
    winners = report["winners"]
    assert isinstance(winners, dict)
    assert set(winners) <= {"p1", "p2", "tie"}


@pytest.mark.parametrize(
    ("argv", "players"),
    [
        (("--mode", "3p"), 3),
        (("--mode", "4p", "--expansion", "ix", "--epic"), 4),
    ],
    ids=["3p", "4p-ix-epic"],
)
def test_three_and_four_player_json_reports(capsys, argv, players):
    """Issue 26: whole three- and four-player games, every state checked and every game
    replayed; no Rival, so no Rival VP."""
    code, report = run_json(capsys, "--games", "3", "--seed", "2", *argv)
    assert code == 0
    assert set(report) >= REPORT_KEYS
    assert report["mode"] == argv[1]
    assert report["difficulty"] is None and report["rival_vp_mean"] is None
    assert report["invariant_violations"] == 0
    winners = report["winners"]
    assert isinstance(winners, dict) and sum(winners.values()) == 3
    assert set(winners) <= {*(f"p{i + 1}" for i in range(players)), "tie"}


def test_three_and_four_player_setups_play_the_tables_own_cards_too():
    """The scripted table sometimes reveals its own Conflict cards and Tech tiles, so the
    questions those ask (which card, which tile) are played as well."""
    catalog = load_catalog(sets=("base", "ix"))
    setups = [sim.make_setup(catalog, "4p", None, seed, None, ("base", "ix")) for seed in range(20)]
    assert {s.options.physical_conflicts for s in setups} == {True, False}
    assert {s.options.physical_tech for s in setups} == {True, False}
    assert all(s.rivals == () and s.players == 4 for s in setups)


def test_the_same_seed_gives_the_same_games(capsys):
    argv = ("--games", "3", "--mode", "solo", "--difficulty", "kwisatz", "--seed", "11", "--brutal")
    _, first = run_json(capsys, *argv)
    _, second = run_json(capsys, *argv)
    for key in ("rounds_mean", "end_reasons", "winners", "rival_vp_mean"):
        assert first[key] == second[key]


def test_the_text_report_lists_the_same_keys(capsys):
    assert sim.main(["--games", "2", "--mode", "2p", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    for key in REPORT_KEYS:
        assert f"{key}:" in out


@pytest.mark.parametrize("games", ["0", "-3"])
def test_fewer_than_one_game_is_a_usage_error(capsys, games):
    assert sim.main(["--games", games, "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "--games" in captured.err


def test_a_violated_invariant_makes_the_exit_status_non_zero(capsys, monkeypatch):
    monkeypatch.setattr(sim, "invariants", lambda state: ["broken on purpose"])
    code, report = run_json(capsys, "--games", "1", "--mode", "solo", "--seed", "1")
    assert code == 1
    assert isinstance(report["invariant_violations"], int)
    assert report["invariant_violations"] > 0


# -- the checker catches what it claims to check ---------------------------------------


def mid_solo() -> GameState:
    """A solo game at the human's first Agent turn: both Rivals have placed an Agent."""
    return solo("mentat")


def mid_two_player() -> GameState:
    return two_player()


def with_houses(state: GameState, **changes: dict[str, object]) -> GameState:
    for house_id, values in changes.items():
        state = house(state, house_id, **values)
    return state


Break = Callable[[], GameState]
BROKEN: dict[str, tuple[Break, str]] = {
    "vp-differs-from-ledger": (
        lambda: house(mid_solo(), "r1", vp=3),
        "r1 VP 3 != ledger 0",
    ),
    "negative-spice": (
        lambda: house(mid_solo(), "r2", spice=-1),
        "r2 has a negative count",
    ),
    "negative-placed": (
        lambda: house(mid_solo(), "p1", placed=-1),
        "p1 has a negative count",
    ),
    "more-troops-than-a-house-has": (
        lambda: house(mid_solo(), "r1", garrison=8, troops=5),
        "r1 has more than 12 troops",
    ),
    "influence-out-of-range": (
        lambda: house(mid_solo(), "p1", influence=(0, 7, 0, 0)),
        "p1 influence out of range",
    ),
    "more-agents-placed-than-owned": (
        lambda: house(mid_solo(), "r1", placed=3),
        "r1 placed more Agents than it has",
    ),
    "four-agents": (
        lambda: house(mid_solo(), "p1", agents=4),
        "p1 has 4 Agents",
    ),
    "house-hagal-with-resources": (
        lambda: house(mid_two_player(), "hagal", solari=2),
        "House Hagal holds VP or resources",
    ),
    "human-with-tracked-resources": (
        lambda: house(mid_solo(), "p1", water=1),
        "p1 has tracked resources",
    ),
    "rival-keeps-resources-to-exchange": (
        lambda: house(mid_solo(), "r2", intrigue=3),
        "r2 kept 3 intrigue unconverted",
    ),
    "influence-vp-missing": (
        lambda: house(mid_solo(), "p1", influence=(2, 0, 0, 0)),
        "p1 influence VP 0 != tracks at 2+ 1",
    ),
    "alliance-vp-missing": (
        lambda: replace(
            house(mid_solo(), "r1", influence=(0, 0, 0, 4)), alliances={"fremen": "r1"}
        ),
        "r1 alliance VP 0 != alliances held 1",
    ),
    "alliance-holder-below-four": (
        lambda: replace(mid_solo(), alliances={"emperor": "r2"}),
        "r2 holds the emperor Alliance with 0 Influence",
    ),
    "alliance-unclaimed": (
        lambda: house(mid_solo(), "r2", influence=(0, 0, 4, 0)),
        "nobody holds the bene_gesserit Alliance",
    ),
    "agents-placed-but-space-empty": (
        lambda: replace(mid_solo(), occupants={}),
        "2 Agents placed but 0 on the board",
    ),
    "two-houses-hold-the-mentat": (
        lambda: with_houses(mid_solo(), p1={"mentat": True}, r2={"mentat": True}),
        "more than one house holds the Mentat",
    ),
    "hagal-card-removed": (
        lambda: replace(mid_solo(), hagal_deck=mid_solo().hagal_deck[1:]),
        "House Hagal cards not conserved",
    ),
    "hagal-card-duplicated": (
        lambda: replace(mid_solo(), hagal_discard=(*mid_solo().hagal_discard, "reshuffle")),
        "House Hagal cards not conserved",
    ),
    "conflict-card-lost": (
        lambda: replace(mid_solo(), conflict_deck=mid_solo().conflict_deck[1:]),
        "Conflict cards not conserved",
    ),
    "conflict-card-repeated": (
        lambda: replace(
            mid_solo(),
            conflict_deck=mid_solo().conflict_deck[1:],
            conflicts_done=mid_solo().conflicts_done * 2,
        ),
        "Conflict cards not conserved",
    ),
    "negative-bonus-spice": (
        lambda: replace(mid_solo(), bonus_spice={**mid_solo().bonus_spice, "the_great_flat": -1}),
        "negative bonus spice",
    ),
    "house-hagal-controls-a-space": (
        lambda: replace(mid_two_player(), control={"carthag": "hagal"}),
        "House Hagal controls carthag",
    ),
}


def ended_four_player_round() -> GameState:
    """A four-player game after round 1 (p1 and p2 sent an Agent, everyone revealed),
    declared over, so the whole-log turn order check runs."""
    s = finish_round(place(place(multiplayer(4, first_player=3), "arrakeen"), "carthag"))
    return replace(s, phase="ended")


def with_entry(state: GameState, kind: str, index: int, **changes: object) -> GameState:
    """The state with the index-th log entry of this kind changed."""
    found = [i for i, e in enumerate(state.log) if e.kind == kind][index]
    log = list(state.log)
    entry = log[found]
    log[found] = replace(entry, **changes)  # type: ignore[arg-type]
    return replace(state, log=tuple(log))


MULTIPLAYER_BROKEN: dict[str, tuple[Break, str]] = {
    "four-players-without-the-start-point": (
        lambda: replace(
            house(multiplayer(4), "p2", vp=0),
            ledger=tuple(e for e in multiplayer(4).ledger if e.house != "p2"),
        ),
        "p2 starts on 0 VP, not 1",
    ),
    "three-players-with-a-start-point": (
        lambda: replace(house(multiplayer(3), "p1", vp=1), ledger=(VpEntry("p1", 1, "start", 0),)),
        "p1 starts on 1 VP, not 0",
    ),
    "house-hagal-cards-in-a-three-player-game": (
        lambda: replace(multiplayer(3), hagal_deck=("carthag",)),
        "a 3p game has House Hagal cards",
    ),
    "a-rival-in-a-four-player-game": (
        lambda: replace(multiplayer(4), houses=(*multiplayer(4).houses, mid_solo().house("r1"))),
        "a 4p game has a Rival or House Hagal",
    ),
    "a-turn-out-of-order": (
        lambda: with_entry(ended_four_player_round(), "agent", 1, house="p3"),
        "round 1: p3 played in p1's turn",
    ),
    "the-marker-passed-the-wrong-way": (
        lambda: with_entry(
            ended_four_player_round(), "recall", 0, data={"first": "p3", "agents": {}}
        ),
        "round 1 passed the marker to p3",
    ),
}


@pytest.mark.parametrize(
    ("build", "expected"), MULTIPLAYER_BROKEN.values(), ids=MULTIPLAYER_BROKEN.keys()
)
def test_the_checker_catches_a_broken_three_or_four_player_state(build, expected):
    """RB p.4 G2 (Score markers on 1 with four players, else 0), RB p.19 (no House Hagal
    beyond two players), RB p.8 (turns clockwise from the First Player) and RB p.12 Phase 5
    (the marker passes clockwise)."""
    found = sim.invariants(build())
    assert any(expected in line for line in found), found


@pytest.mark.parametrize(
    "state",
    [mid_solo(), mid_two_player(), multiplayer(3), multiplayer(4), ended_four_player_round()],
    ids=["solo", "2p", "3p", "4p", "4p-ended"],
)
def test_a_sound_state_has_no_violations(state):
    assert sim.invariants(state) == []


@pytest.mark.parametrize(("build", "expected"), BROKEN.values(), ids=BROKEN.keys())
def test_the_checker_catches_a_broken_state(build, expected):
    state = build()
    found = sim.invariants(state)
    assert any(expected in line for line in found), found
    assert all(line.startswith(f"seed {state.setup.seed} step {state.step}: ") for line in found)


# -- Tech tile effects: once per trigger [IX p.4, p.9] ------------------------------------


def tiles_owned_for_a_round(*tech: str) -> GameState:
    """Rise of Ix solo: r1 owns these tiles from the start; round 1 plays out and the game
    is declared over, so the whole-log tile check runs."""
    s = finish_round(house(ix_solo(), "r1", tech=tech))
    return replace(s, phase="ended")


def without(state: GameState, drop: Callable[[Entry], bool]) -> GameState:
    return replace(state, log=tuple(e for e in state.log if not drop(e)))


def test_tile_effects_applied_each_time_pass_the_check():
    """IX p.4 and p.9: Shuttle Fleet's 2 Solari at the start of round 2, Training Drones'
    flip on r1's Agent turns of round 1: each trigger has its effect."""
    state = tiles_owned_for_a_round("shuttle_fleet", "training_drones")
    counts = sim._tile_counts(state, state.house("r1"))
    assert counts["shuttle_fleet"] == (1, 1)
    assert counts["training_drones"] == (1, 1)
    assert not [line for line in sim.invariants(state) if "triggered" in line]


@pytest.mark.parametrize(
    ("tile", "dropped"),
    [
        ("shuttle_fleet", lambda e: e.kind == "tech_income"),
        ("training_drones", lambda e: e.kind == "tech_flip"),
    ],
)
def test_the_checker_catches_a_tile_trigger_without_its_effect(tile, dropped):
    state = without(tiles_owned_for_a_round("shuttle_fleet", "training_drones"), dropped)
    found = sim.invariants(state)
    assert any(f"r1's {tile} triggered 1 times, applied 0" in line for line in found), found


def test_the_checker_catches_a_shipping_recruit_without_troop_transports_troop():
    """Troop Transports: "recruit 1 extra troop" at each Shipping recruit; a recall that
    recruits only 2 breaks the count (the error issue 19 found)."""
    s = transports_turn(ix_solo())
    ended = replace(s, phase="ended")
    assert sim._tile_counts(ended, ended.house("r1"))["troop_transports"] == (1, 1)
    two = tuple(
        replace(e, data={**e.data, "wanted": 2}) if e.data.get("source") == "shipping" else e
        for e in ended.log
    )
    found = sim.invariants(replace(ended, log=two))
    assert any("r1's troop_transports triggered 1 times, applied 0" in f for f in found), found

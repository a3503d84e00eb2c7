"""Log sentences: every kind of log entry the engine emits reads as plain English.

The kinds come from the engine's own source (every `emit("kind", ...)` call), so a new
kind without a sentence fails here. Rise of Ix entries come from simulated games, with
one hand-made entry per kind on a real game's state for the kinds a short run may miss.
"""

from __future__ import annotations

import ast
import pathlib
from dataclasses import replace
from functools import cache

import pytest

import companion.rules
from companion.rules.state import Entry, GameState, Options
from companion.rules.text import SKIP_REASONS, TEMPLATES, describe, sentence
from companion.sim import make_setup, play
from tests.rules.helpers import catalog

RULES = pathlib.Path(companion.rules.__file__).parent
IX = ("base", "ix")
# The log kinds Rise of Ix added, with data like the engine's (the house is r1 unless None).
TECH_PAID: dict[str, object] = {"spice": 3, "negotiators": 1, "discount": 1}
IX_SAMPLES: tuple[tuple[str, dict[str, object]], ...] = (
    ("tech_up", {"tile": "flagship", "stack": 2}),
    ("tech_trash_unmarked", {"tile": "spaceport", "stack": 1}),
    ("tech", {"tile": "windtraps", "stack": 3}),
    ("tech_paid", TECH_PAID),
    ("tech_paid", {"spice": 0, "negotiators": 0, "discount": 2}),
    ("tech_none", {}),
    ("negotiator", {"count": 2}),
    ("negotiators_back", {"count": 2}),
    ("tech_flip", {"tile": "flagship"}),
    ("tech_flip", {"tile": "invasion_ships"}),
    ("freighter", {"step": 2}),
    ("freighter_recall", {"step": 2}),
    ("dividends", {}),
    ("transports", {"troops": 2}),
    ("transports_player", {"troops": 3}),
    ("commission", {}),
    ("dreadnought_home", {"count": 2}),
    ("detonate", {}),
    ("post", {"space": "arrakeen", "covers": "p1"}),
    ("post", {"space": "imperial_basin", "covers": None}),
    ("post_end", {"space": "arrakeen", "uncovers": "p1"}),
    ("offer", {"solari": 0, "spice": 4, "vp": 1}),
    ("tech_income", {"tile": "shuttle_fleet", "solari": 2}),
    ("tech_income", {"tile": "windtraps", "water": 1}),
    ("tech_vp", {"tile": "holtzman_engine"}),
    ("spy_satellites", {}),
    ("tech_trash", {"tile": "spy_satellites"}),
    ("agent", {"space": "carthag", "infiltrate": True}),
    ("deploy", {"troops": 0, "dreadnoughts": 1}),
    ("game_end", {"reason": "vp", "goal": 12}),
    ("hagal_skip", {"card": "dreadnought_1p", "reason": "two_dreadnoughts"}),
    ("hagal_skip", {"card": "interstellar_shipping", "reason": "needs_influence"}),
)
NO_HOUSE = {"tech_up", "tech_trash_unmarked", "game_end"}


def emitted_kinds() -> set[str]:
    """Every kind passed to `emit` anywhere in companion/rules."""
    kinds: set[str] = set()
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "emit"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                kinds.add(node.args[0].value)
    return kinds


def skip_reasons() -> set[str]:
    """The reasons `hagal.target` gives for skipping a card: its `return None, "why"`."""
    tree = ast.parse((RULES / "hagal.py").read_text(encoding="utf-8"))
    reasons: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Return)
            and isinstance(node.value, ast.Tuple)
            and len(node.value.elts) == 2
            and isinstance(node.value.elts[0], ast.Constant)
            and node.value.elts[0].value is None
            and isinstance(node.value.elts[1], ast.Constant)
        ):
            reasons.add(str(node.value.elts[1].value))
    return reasons


@cache
def ix_games() -> tuple[GameState, ...]:
    """Finished Rise of Ix games: solo at two difficulties and two-player, plain and Epic,
    app-drawn and physical Tech tiles."""
    cat = catalog()
    games = []
    for mode, difficulty in (("solo", "mentat"), ("solo", "mercenary"), ("2p", None)):
        for seed in range(1, 4):
            options = Options(epic=seed % 2 == 1, physical_tech=seed == 2)
            setup = make_setup(cat, mode, difficulty, seed, options, IX)  # type: ignore[arg-type]
            final = play(cat, setup, check=False).final
            assert final is not None
            games.append(final)
    return tuple(games)


def test_every_emitted_kind_has_a_template():
    kinds = emitted_kinds()
    assert {"setup", "agent", "tech_paid", "post_end", "control_bonus"} <= kinds  # found them
    assert kinds - set(TEMPLATES) == set()


def test_every_skip_reason_has_words():
    reasons = skip_reasons()
    assert {"two_dreadnoughts", "needs_influence", "occupied"} <= reasons
    assert reasons - set(SKIP_REASONS) == set()


def test_the_samples_cover_every_new_kind():
    """Each Rise of Ix kind the engine emits has a hand-made sample below."""
    ix_source = (RULES / "ix.py").read_text(encoding="utf-8")
    ix_kinds = {k for k in emitted_kinds() if f'emit("{k}"' in ix_source}
    assert ix_kinds - {"take"} <= {kind for kind, _ in IX_SAMPLES}


def _check(text: str, entry: Entry) -> None:
    assert "%(" not in text, (entry, text)
    assert "None" not in text, (entry, text)
    assert text.endswith("."), (entry, text)


def test_sentences_of_simulated_ix_games_are_filled_in():
    seen: set[str] = set()
    for state in ix_games():
        for entry in state.log:
            _check(sentence(entry, state), entry)
            seen.add(entry.kind)
    # A short run still meets most of the new kinds.
    sampled = {kind for kind, _ in IX_SAMPLES}
    assert len(seen & sampled) >= len(sampled) // 2, sorted(seen)


@pytest.mark.parametrize(("kind", "data"), IX_SAMPLES, ids=[k for k, _ in IX_SAMPLES])
def test_each_new_kind_reads_as_a_sentence(kind, data):
    state = ix_games()[0]
    house = None if kind in NO_HOUSE else "r1"
    entry = Entry(state.step + 1, state.round, kind, house, data)
    text = sentence(entry, state)
    _check(text, entry)
    # Ids are shown by their names.
    assert not any(str(v) in text for v in data.values() if isinstance(v, str) and "_" in v)


def _last(state: GameState, entry: Entry) -> GameState:
    """The state with this entry at the end of its log (some sentences read the next one)."""
    return replace(state, log=(*state.log, entry))


def test_a_rival_buying_a_tile_says_what_it_pays_and_for_which_tile():
    state = ix_games()[0]
    paid = Entry(state.step + 1, state.round, "tech_paid", "r1", TECH_PAID)
    took = Entry(state.step + 1, state.round, "tech", "r1", {"tile": "flagship", "stack": 2})
    state = _last(_last(state, paid), took)
    name = state.house("r1").name
    assert sentence(state.log[-2], state) == (
        f"{name} pays 3 spice and returns 1 Negotiator for Flagship "
        "(stack 2; 1 spice Tech discount)."
    )
    assert sentence(state.log[-1], state) == f"{name} acquires the Tech tile Flagship (stack 2)."


def test_the_vp_goal_of_the_game_end_is_the_games():
    """10 VP end the game (rulebook p.12), 12 in an Epic game (Ix rulebook p.10)."""
    state = ix_games()[0]
    for goal in (10, 12):
        entry = Entry(state.step, state.round, "game_end", None, {"reason": "vp", "goal": goal})
        assert sentence(entry, state) == f"The game ends: someone reached {goal} VP."


def test_a_skipped_dreadnought_card_says_why():
    state = ix_games()[0]
    entry = Entry(
        state.step,
        state.round,
        "hagal_skip",
        "r1",
        {"card": "dreadnought_1p", "reason": "two_dreadnoughts"},
    )
    assert sentence(entry, state) == (
        f"{state.house('r1').name} reveals Dreadnought (1P): it already has both "
        "dreadnoughts, reveal another card."
    )


def test_infiltration_and_dreadnought_deployment_have_their_own_wording():
    state = ix_games()[0]
    agent = Entry(state.step, state.round, "agent", "p1", {"space": "carthag", "infiltrate": True})
    line = describe(agent, state)
    assert line.template == TEMPLATES["agent_infiltrate"]
    assert line.values["space"] == "Carthag"
    deploy = Entry(state.step, state.round, "deploy", "r1", {"troops": 2, "dreadnoughts": 1})
    assert "1 dreadnought and 2 troops" in sentence(deploy, state)
    plain = Entry(state.step, state.round, "deploy", "r1", {"troops": 2})
    assert sentence(plain, state).endswith("deploys 2 troops to the Conflict.")


@pytest.mark.parametrize(
    ("kind", "field", "one", "two"),
    [
        ("recruit", "troops", "recruits 1 troop.", "recruits 2 troops."),
        ("deploy", "troops", "deploys 1 troop to the Conflict.", "deploys 2 troops to the"),
        ("expert_hold", "kept", "keeps 1 troop in its garrison.", "keeps 2 troops in its"),
        ("swords", "swords", "shows 1 sword.", "shows 2 swords."),
        ("transports", "troops", "deploys the 1 troop from", "deploys the 2 troops from"),
    ],
)
def test_counted_things_read_as_one_or_many(kind, field, one, two):
    """A count of one takes the singular ("shows 1 sword"), any other count the plural; the
    table read "1 troop(s)" and "1 swords" before."""
    state = ix_games()[0]
    data: dict[str, object] = {field: 1}
    if kind == "swords":
        data["card"] = "secrets"
    single = Entry(state.step, state.round, kind, "r1", data)
    assert one in sentence(single, state)
    several = replace(single, data={**data, field: 2})
    assert two in sentence(several, state)
    assert "(s)" not in sentence(single, state) + sentence(several, state)


def test_churn_names_one_card_or_several():
    """Imperium Row churn (Ix p.9 variant): the dice name the row positions to trash."""
    state = ix_games()[0]
    one = Entry(state.step, state.round, "churn", None, {"dice": [2, 6], "positions": [2]})
    assert sentence(one, state).endswith("Trash the Imperium Row card at position 2.")
    two = replace(one, data={"dice": [2, 3], "positions": [2, 3]})
    assert sentence(two, state).endswith("Trash the Imperium Row cards at positions 2 and 3.")


def test_dividends_name_who_gains_what():
    """Ix p.5: the taker gains 5 Solari, each opponent 1; House Hagal keeps none (RB p.19)."""
    solo = ix_games()[0]
    two = next(s for s in ix_games() if s.setup.mode == "2p")
    rival = Entry(solo.step, solo.round, "dividends", "r1", {})
    assert "it gains 5 Solari" in sentence(rival, solo)
    human = Entry(solo.step, solo.round, "dividends", "p1", {})
    assert "take 5 Solari from the bank" in sentence(human, solo)
    hagal = Entry(two.step, two.round, "dividends", "hagal", {})
    assert "House Hagal keeps no Solari" in sentence(hagal, two)

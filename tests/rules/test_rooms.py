"""The engine's rooms: each task kind has one handler, and the names other code imports
from `companion.rules.engine`, `hagal` and `ix` stay where they were."""

from __future__ import annotations

from companion.rules import combat, engine, hagal, influence, ix, phases


def test_each_task_kind_is_handled_by_one_room():
    rooms = [phases.HANDLERS, combat.HANDLERS, influence.HANDLERS, hagal.HANDLERS, ix.HANDLERS]
    kinds = [kind for room in rooms for kind in room]
    assert len(kinds) == len(set(kinds))
    assert set(engine.HANDLERS) == set(kinds)


def test_the_public_names_are_still_importable():
    for name in (
        "apply",
        "new_game",
        "replay",
        "legal_actions",
        "hagal_cards",
        "mentat_cost",
        "space_problems",
        "strengths",
        "swordmaster_round",
        "DIFFICULTY",
    ):
        assert callable(getattr(engine, name)) or name == "DIFFICULTY", name
    assert "rabban_brutality" in hagal.SIGNETS
    assert (ix.NONE, ix.SKIP, ix.STACKS) == ("none", "skip", 3)

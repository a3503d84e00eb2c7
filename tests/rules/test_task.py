"""The engine's Task: named fields, and the answer carried in its own field."""

from __future__ import annotations

import random
from dataclasses import fields, replace

from companion.rules.draft import Draft
from companion.rules.engine import apply
from companion.rules.players import answer
from companion.rules.state import Task
from companion.sim import choose_action
from tests.rules.ix_helpers import ix_solo


def _every_field_set() -> Task:
    values: dict[str, object] = {}
    for f in fields(Task):
        if f.type in ("int",):
            values[f.name] = 7
        elif f.type == "bool":
            values[f.name] = True
        elif f.type.startswith("tuple"):
            values[f.name] = ("a", "b")
        else:
            values[f.name] = f.name
    return Task(**values)  # type: ignore[arg-type]


def test_answered_is_replace_with_the_answer_for_every_field():
    task = _every_field_set()
    assert task.answered("x") == replace(task, answer="x")
    assert task.answered("x") != task
    assert len({task, task.answered("x")}) == 2  # hashable, compared by value


def test_an_answer_resumes_the_asking_task_with_the_answer_in_its_own_field():
    rng = random.Random(3)
    state = ix_solo()
    asked = 0
    for _ in range(400):
        if state.phase == "ended":
            break
        p = state.prompt
        if p is not None:
            option = str(p.minimum) if p.number else p.options[-1]
            draft = Draft(state)
            answer(draft, option)
            resumed = draft.queue[0]
            assert resumed.answer == option
            assert replace(resumed, answer=None) == p.task
            assert p.task.answer is None  # a question is asked by a task without an answer
            asked += 1
        state = apply(state, choose_action(state, rng))
    assert asked > 10

"""The engine's Task: named fields, and the answer carried in its own field."""

from __future__ import annotations

import random

import pytest

from companion.rules.draft import Draft
from companion.rules.engine import apply
from companion.rules.players import answer
from companion.rules.state import Task
from companion.sim import choose_action
from tests.rules.ix_helpers import ix_solo


def test_a_task_is_immutable_hashable_and_compared_by_value():
    task = Task("choose_influence", "p1", amount=1, picks=2, options=("fremen", "emperor"))
    answered = task.answered("fremen")
    assert answered.answer == "fremen" and answered._replace(answer=None) == task
    assert task == Task("choose_influence", "p1", amount=1, picks=2, options=("fremen", "emperor"))
    assert len({task, answered, Task("choose_influence", "p1", amount=1, picks=2)}) == 3
    with pytest.raises(AttributeError):
        task.amount = 2  # type: ignore[misc]


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
            assert resumed._replace(answer=None) == p.task
            assert p.task.answer is None  # a question is asked by a task without an answer
            asked += 1
        state = apply(state, choose_action(state, rng))
    assert asked > 10

"""The Draft: a mutable working copy of a GameState, used inside one `apply` or `replay`.

It has one attribute per `GameState` field, in the form the rules change in place: a
tuple becomes a list, a mapping a dict, the houses a dict by id and the Tech stacks
lists. `Draft(state)` and `freeze()` go over `dataclasses.fields(GameState)`, so a new
field is carried through every `apply` without being listed here again (a test checks
that each field has its annotation below).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import Any

from companion.rules.catalog import Catalog, SpaceDef
from companion.rules.state import (
    Acquisition,
    ConflictSlot,
    Entry,
    GameState,
    House,
    Phase,
    Posted,
    Prompt,
    Setup,
    Task,
    VpEntry,
    VpSource,
)

STATE_FIELDS = tuple(f.name for f in fields(GameState))


def _thaw(name: str, value: Any) -> Any:
    """A state field's value in the mutable form a Draft keeps."""
    if name == "houses":
        return {house.id: house for house in value}
    if name == "tech_stacks":
        return [list(stack) for stack in value]
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return dict(value)
    return value


def _freeze(name: str, value: Any) -> Any:
    """A Draft attribute's value in the immutable form a GameState keeps."""
    if name == "houses":
        return tuple(value.values())
    if name == "tech_stacks":
        return tuple(tuple(stack) for stack in value)
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, dict):
        return value.copy()
    return value


class Draft:
    """A mutable working copy of a GameState, used inside one `apply` or `replay`."""

    catalog: Catalog
    setup: Setup
    houses: dict[str, House]
    first: str
    step: int
    round: int
    phase: Phase
    turn: str | None
    occupants: dict[str, str]
    voice: dict[str, str]
    bonus_spice: dict[str, int]
    control: dict[str, str]
    alliances: dict[str, str]
    mentat_claim: str | None
    hagal_deck: list[str]
    hagal_discard: list[str]
    conflict_deck: list[ConflictSlot]
    conflict: str | None
    conflicts_done: list[str]
    queue: list[Task]
    prompt: Prompt | None
    recruited: int
    rng: int
    ledger: list[VpEntry]
    log: list[Entry]
    end_reason: str | None
    acquisitions: list[Acquisition]
    tech_stacks: list[list[str]]
    tech_trash: list[str]
    posted: dict[str, Posted]
    infiltrators: list[tuple[str, str]]

    def __init__(self, state: GameState) -> None:
        for name in STATE_FIELDS:
            setattr(self, name, _thaw(name, getattr(state, name)))

    def freeze(self) -> GameState:
        """The draft as a new GameState (the draft's lists and dicts are copied)."""
        values = {name: _freeze(name, getattr(self, name)) for name in STATE_FIELDS}
        return GameState(**values)

    # -- small helpers -------------------------------------------------------------------

    @property
    def solo(self) -> bool:
        return self.setup.mode == "solo"

    def house(self, house_id: str) -> House:
        return self.houses[house_id]

    def put(self, house_id: str, **changes: object) -> House:
        house = replace(self.houses[house_id], **changes)  # type: ignore[arg-type]
        self.houses[house_id] = house
        return house

    def emit(self, kind: str, house: str | None = None, **data: object) -> None:
        self.log.append(Entry(self.step, self.round, kind, house, data))

    def random(self) -> random.Random:
        """A generator drawn from the seed and a counter kept in the state (never global)."""
        self.rng += 1
        return random.Random(self.setup.seed * 1_000_003 + self.rng)

    @property
    def conflict_level(self) -> int:
        return self.catalog.conflicts[self.conflict].level if self.conflict else 0

    @property
    def ix(self) -> bool:
        return "ix" in self.setup.sets

    def controller(self, space: str) -> str | None:
        """Who controls a space: a dreadnought covers the Control marker [IX p.6]."""
        post = self.posted.get(space)
        return post.house if post is not None else self.control.get(space)

    def scores(self, house_id: str) -> bool:
        return self.houses[house_id].kind != "hagal"

    def gain_vp(self, house_id: str, delta: int, source: VpSource, note: str = "") -> None:
        if not delta or not self.scores(house_id):
            return
        self.put(house_id, vp=self.houses[house_id].vp + delta)
        self.ledger.append(VpEntry(house_id, delta, source, self.round, note))

    def deciders(self) -> str:
        """Who decides for a rival: "you" in solo [RB p.20]; the First Player in two-player."""
        return self.humans()[0] if self.solo else self.first

    def humans(self) -> list[str]:
        return [h.id for h in self.houses.values() if h.kind == "human"]

    def rivals(self) -> list[str]:
        return [h.id for h in self.houses.values() if h.kind != "human"]

    def seats(self) -> list[str]:
        """Turn-taking seats, clockwise. House Hagal acts outside the rotation (p.19)."""
        return [h.id for h in self.houses.values() if h.kind != "hagal"]

    def order(self) -> list[str]:
        """Seats in turn order, starting with the First Player."""
        seats = self.seats()
        i = seats.index(self.first)
        return seats[i:] + seats[:i]

    def board(self) -> Mapping[str, SpaceDef]:
        return self.catalog.board(self.setup.sets)

    def ask(
        self, kind: str, house: str, task: Task, options: Sequence[str] = (), **kw: int
    ) -> None:
        decider = house if self.houses[house].is_human else self.deciders()
        if "minimum" in kw or "maximum" in kw:
            self.prompt = Prompt(kind, house, decider, task, number=True, **kw)  # type: ignore[arg-type]
        else:
            self.prompt = Prompt(kind, house, decider, task, options=tuple(options))

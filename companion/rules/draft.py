"""The Draft: a mutable working copy of a GameState, used inside one `apply` or `replay`.

It has one attribute per `GameState` field, in the form the rules change in place: a
tuple becomes a list, a mapping a dict, the houses a dict by id and the Tech stacks
lists. `Draft(state)` and `freeze()` go over `dataclasses.fields(GameState)`, so a new
field is carried through every `apply` without being listed again: its annotation here
says in which form (a field without one fails at import, and a test checks both lists).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any, get_origin, get_type_hints

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
        for name, thaw, _ in _COPIES:
            setattr(self, name, thaw(getattr(state, name)))

    def freeze(self) -> GameState:
        """The draft as a new GameState (the draft's lists and dicts are copied)."""
        return GameState(**{name: freeze(getattr(self, name)) for name, _, freeze in _COPIES})

    # -- small helpers -------------------------------------------------------------------

    @property
    def solo(self) -> bool:
        return self.setup.mode == "solo"

    def house(self, house_id: str) -> House:
        return self.houses[house_id]

    def put(self, house_id: str, **changes: Any) -> House:
        """Replace a house by a copy with these changes (what `dataclasses.replace` does,
        without its generic checks, which cost as much as building the House)."""
        values = {name: getattr(self.houses[house_id], name) for name in HOUSE_FIELDS}
        values.update(changes)
        house = self.houses[house_id] = House(**values)
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
        """Who decides for a rival: "you" in solo [RB p.20]; the First Player in two-player.
        (Three and four players have no rival.)"""
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


Copy = Callable[[Any], Any]


def _same(value: Any) -> Any:
    return value


def _houses_by_id(houses: tuple[House, ...]) -> dict[str, House]:
    return {house.id: house for house in houses}


def _house_tuple(houses: dict[str, House]) -> tuple[House, ...]:
    return tuple(houses.values())


def _stack_lists(stacks: tuple[tuple[str, ...], ...]) -> list[list[str]]:
    return [list(stack) for stack in stacks]


def _stack_tuples(stacks: list[list[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(stack) for stack in stacks)


def _copies() -> tuple[tuple[str, Copy, Copy], ...]:
    """For each GameState field: how a Draft thaws it and freezes it back, read from the
    Draft's annotation of it (a field the Draft doesn't annotate fails here, at import)."""
    hints = get_type_hints(Draft)
    special: dict[str, tuple[Copy, Copy]] = {
        "houses": (_houses_by_id, _house_tuple),
        "tech_stacks": (_stack_lists, _stack_tuples),
    }
    copies: list[tuple[str, Copy, Copy]] = []
    for field in fields(GameState):
        origin = get_origin(hints[field.name])
        if field.name in special:
            thaw, freeze = special[field.name]
        elif origin is list:
            thaw, freeze = list, tuple
        elif origin is dict:
            thaw, freeze = dict, dict
        else:
            thaw = freeze = _same
        copies.append((field.name, thaw, freeze))
    return tuple(copies)


_COPIES = _copies()
HOUSE_FIELDS = tuple(field.name for field in fields(House))

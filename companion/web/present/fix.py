"""The Fix page: each house's numbers a correction may change, each minus and plus button
with the engine's reason when it would refuse it now, and the Control markers."""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.actions import Action, Adjust
from companion.rules.catalog import FACTIONS
from companion.rules.engine import action_problems
from companion.rules.state import GameState, House
from companion.web.language import card_text, house_name, translated
from companion.web.language import lazy_word as _l
from companion.web.present.views import HOUSE_FIELDS, IX_HOUSE_FIELDS
from companion.web.present.words import faction_name

# What House Hagal keeps on the board beyond its Influence [RB p.19].
HAGAL_SHOWN = frozenset({"garrison", "troops", "swords"})
CONTROL_SPACES = ("arrakeen", "carthag", "imperial_basin")  # the spaces with a flag


@dataclass(frozen=True)
class FixRow:
    """One number of a house: its name, its value, its field, and why the engine refuses
    its minus and its plus button now (None: allowed)."""

    label: str
    value: int
    field: str
    minus: str | None
    plus: str | None


@dataclass(frozen=True)
class FixHouse:
    house: House
    rows: tuple[FixRow, ...]


@dataclass(frozen=True)
class FixView:
    houses: tuple[FixHouse, ...]
    # Per space with Control markers: id, name, and a button per house that may hold it
    # (id, name, color).
    control: tuple[tuple[str, str, tuple[tuple[str, str, str], ...]], ...]


def _fields(state: GameState, house: House) -> list[tuple[str, str, int]]:
    """The numbers shown for a house: field, label, value."""
    rows: list[tuple[str, str, int]] = []
    if house.kind != "hagal":
        rows.append(("vp", str(_l("VP")), house.vp))
    rows += [(f"influence:{f}", faction_name(f), house.inf(f)) for f in FACTIONS]
    if not house.is_human:
        rows += [
            (f, str(name), int(getattr(house, f)))
            for f, name in HOUSE_FIELDS
            if house.kind == "rival" or f in HAGAL_SHOWN
        ]
    if state.ix:
        rows += [
            (f, str(name), int(getattr(house, f)))
            for f, name in IX_HOUSE_FIELDS
            if not (house.kind == "hagal" and f == "negotiators")
        ]
    return rows


def corrections(state: GameState) -> FixView:
    """Every house's correctable numbers, each button asked of the engine."""
    shown = [(house, _fields(state, house)) for house in state.houses]
    asked: list[Action] = [
        Adjust(house.id, field, delta, "manual")
        for house, rows in shown
        for field, _label, _value in rows
        for delta in (-1, 1)
    ]
    why = iter(
        None if problem is None else translated(problem)
        for problem in action_problems(state, asked)
    )
    houses = tuple(
        FixHouse(
            house,
            tuple(
                FixRow(label, value, field, next(why), next(why)) for field, label, value in rows
            ),
        )
        for house, rows in shown
    )
    holders = tuple((h.id, house_name(h.name), h.color) for h in state.houses if h.kind != "hagal")
    control = tuple(
        (space, card_text(state.catalog.spaces[space].name), holders)
        for space in CONTROL_SPACES
        if space in state.catalog.spaces
    )
    return FixView(houses, control)

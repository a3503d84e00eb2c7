"""The card_db schema read from the record classes: one declaration per field."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType

import pytest

from companion.cards.schema import RECORDS, SETS, build, column, columns, record_columns
from companion.rules.catalog import (
    FACTIONS,
    CardDef,
    ConflictDef,
    HagalCardDef,
    LeaderDef,
    Offer,
    Resources,
    Reward,
    SpaceDef,
    TrackDef,
    TrackStep,
    spec,
)


@pytest.mark.parametrize("kind", list(RECORDS))
def test_every_field_of_a_record_class_is_a_key_of_its_records(kind: str) -> None:
    record_class = RECORDS[kind][1]
    keys = [c.key for c in columns(record_class)]
    read = [f.name for f in fields(record_class) if f.name != "kind" or record_class is not CardDef]
    assert keys == read
    extra = [c.key for c in record_columns(kind)][len(keys) :]
    assert extra == (["uncertain"] if record_class in (SpaceDef, LeaderDef) else [])


def test_the_type_gives_the_kind_of_value_and_the_allowed_values() -> None:
    faction = column(SpaceDef, "faction")
    assert (faction.kind, faction.values, faction.nullable, faction.required) == (
        "str",
        FACTIONS,
        True,
        False,
    )
    assert column(SpaceDef, "set").values == SETS
    assert column(SpaceDef, "removed_with").kind == "set_list"
    assert column(SpaceDef, "cost").kind == "resources"
    assert column(SpaceDef, "requires_influence").kind == "influence"
    assert column(ConflictDef, "first").kind == "reward"
    assert (column(Reward, "options").kind, column(Reward, "options").item) == ("options", Reward)
    steps = column(TrackDef, "steps")
    assert (steps.kind, steps.item, steps.minimum) == ("tables", TrackStep, 1)


def test_a_default_makes_a_key_optional_unless_the_metadata_says_otherwise() -> None:
    assert not column(HagalCardDef, "freighter").required
    assert column(HagalCardDef, "freighter").ix
    assert column(HagalCardDef, "troops").required
    assert column(Offer, "vp").required
    assert not column(CardDef, "agent").required
    assert column(ConflictDef, "level").values == (1, 2, 3)
    assert "rhombur_tech" in column(LeaderDef, "rival_signet").values


def test_build_fills_missing_keys_with_the_kind_of_values_empty_value() -> None:
    reward = build(Reward, {"vp": 1, "options": [{"spice": 2}], "offers": [{"cost": {}, "vp": 1}]})
    assert reward == Reward(vp=1, options=(Reward(spice=2),), offers=(Offer(Resources(), 1),))
    step = build(TrackStep, {"step": 2, "effects": "x"})
    assert step == TrackStep(step=2, effects="x")


def test_a_new_field_is_read_without_touching_the_loader() -> None:
    @dataclass(frozen=True)
    class Gadget:
        id: str
        owners: tuple[str, ...]
        cost: Resources
        rule: str = field(metadata=spec(required=False))
        influence: Mapping[str, int] = field(default_factory=dict)
        note: str | None = None

    assert [c.required for c in columns(Gadget)] == [True, True, True, False, False, False]
    gadget = build(Gadget, {"id": "g", "owners": ["a"], "cost": {"spice": 1}})
    assert gadget == Gadget("g", ("a",), Resources(spice=1), "", MappingProxyType({}), None)


def test_a_type_card_db_cannot_hold_is_refused() -> None:
    @dataclass(frozen=True)
    class Odd:
        weight: float

    with pytest.raises(TypeError, match="no kind of value"):
        columns(Odd)

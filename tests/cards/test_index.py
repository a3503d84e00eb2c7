"""The flat index the rules lookup searches: one entry per record, unique keys, doubts kept."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.cards import load_catalog
from companion.cards.index import CONCEPT, KIND_NAMES, Entry, entries
from companion.rules.catalog import Catalog


@pytest.fixture(scope="module")
def full() -> Catalog:
    return load_catalog(sets=("base", "ix"))


@pytest.fixture(scope="module")
def listed(full: Catalog) -> list[Entry]:
    return entries(full)


def test_every_record_is_listed_once_with_a_unique_key(full: Catalog, listed: list[Entry]) -> None:
    total = len(full.cards) + len(full.intrigue) + len(full.conflicts) + len(full.leaders)
    total += len(full.tech) + len(full.spaces) + len(full.tracks) + len(full.hagal)
    assert len(listed) == total
    assert len({e.key for e in listed}) == total


def test_kinds_come_in_the_listed_order(listed: list[Entry]) -> None:
    kinds = list(dict.fromkeys(e.kind for e in listed))
    assert kinds == [k for k in KIND_NAMES if k != CONCEPT]  # concepts: concepts.toml
    assert Counter(e.kind for e in listed)["tech"] == 18


def test_the_same_id_in_two_kinds_has_two_keys(listed: list[Entry]) -> None:
    """The Reserve card, the space and the House Hagal card are all called Foldspace."""
    keys = {e.key for e in listed if e.id == "foldspace"}
    assert keys == {"reserve:foldspace", "space:foldspace", "hagal:foldspace"}


def test_search_text_holds_effects_and_explanation(listed: list[Entry]) -> None:
    by_key = {e.key: e for e in listed}
    spice = by_key["reserve:the_spice_must_flow"]
    assert "Victory Point" in spice.text and spice.explanation in spice.text
    assert "Signet" in by_key["leader:hundro_moritani"].text
    assert "Dividends" in by_key["track:shipping_track"].text


def test_doubts_on_spaces_and_leaders_come_from_extra(listed: list[Entry]) -> None:
    by_key = {e.key: e for e in listed}
    assert by_key["space:sell_melange"].uncertain
    assert by_key["leader:rhombur_vernius"].uncertain
    assert not by_key["space:wealth"].uncertain
    assert by_key["hagal:dreadnought_2p"].uncertain

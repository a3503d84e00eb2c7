"""Sticker URLs: any host in, the card id and copy out; everything else is unknown."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cards import load_catalog
from companion.rules.catalog import Catalog
from companion.vision.payload import (
    DECKS_IN_BOX,
    CardRef,
    build_payload,
    identify,
    known_copies,
    parse_payload,
)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(sets=("base", "ix"))


@pytest.mark.parametrize(
    "base",
    [
        "http://192.168.1.20:5000",
        "http://192.168.1.20:5000/",
        "https://dune.local",
        "https://dune.example.org:8443/companion",
        "https://dune.example.org:8443/companion/",
        "http://[fe80::1]:5000",
    ],
)
def test_build_then_parse_returns_the_card_whatever_the_host(base):
    url = build_payload(base, "guild_chief_administrator", 3)
    assert "//c/" not in url.split("://", 1)[1]
    assert url.endswith("/c/guild_chief_administrator/3")
    assert parse_payload(url) == CardRef("guild_chief_administrator", 3)


@pytest.mark.parametrize(
    "text",
    [
        "http://h/c/spice_hunter/2",
        "http://h/c/spice_hunter/2/",
        "http://h/c/spice_hunter/2?from=sticker",
        "http://h/c/spice_hunter/2/?a=1&b=2#top",
        "HTTPS://H.example:1/c/spice_hunter/2",
        "  http://h/c/spice_hunter/2\n",
        "http://h/dune/c/spice_hunter/2",
    ],
)
def test_trailing_slash_query_fragment_and_prefix_are_ignored(text):
    assert parse_payload(text) == CardRef("spice_hunter", 2)


@pytest.mark.parametrize(
    "text",
    [
        "http://h/c/spice_hunter/0",
        "http://h/c/spice_hunter/-1",
        "http://h/c/spice_hunter/01",
        "http://h/c/spice_hunter/1000",
        "http://h/c/spice_hunter/two",
        "http://h/c/spice_hunter/2.0",
        "http://h/c/spice_hunter/",
        "http://h/c/spice_hunter",
        "http://h/c//2",
        "http://h/c/Spice-Hunter/2",
        "http://h/c/spice_hunter/2/extra",
        "http://h/card/spice_hunter/2",
        "http://h/xc/spice_hunter/2",
        "ftp://h/c/spice_hunter/2",
        "/c/spice_hunter/2",
        "WIFI:S:home;T:WPA;P:secret;;",
        "",
        "hello",
    ],
)
def test_anything_else_is_not_a_card(text):
    assert parse_payload(text) is None


@pytest.mark.parametrize(
    ("card_id", "copy"),
    [("Spice_Hunter", 1), ("spice hunter", 1), ("", 1), ("spice_hunter", 0), ("x", 1000)],
)
def test_build_refuses_bad_ids_and_copies(card_id, copy):
    with pytest.raises(ValueError):
        build_payload("http://h", card_id, copy)


@pytest.mark.parametrize("base", ["h:5000", "ftp://h", "http://h/?x=1", "http://h/#top"])
def test_build_refuses_bad_base_urls(base):
    with pytest.raises(ValueError):
        build_payload(base, "spice_hunter", 1)


@given(
    card_id=st.from_regex(r"[a-z0-9]{1,8}(_[a-z0-9]{1,8}){0,3}", fullmatch=True),
    copy=st.integers(1, 999),
    host=st.sampled_from(["http://a", "https://b.example:8443", "http://10.0.0.7:8000/x/"]),
)
def test_parse_inverts_build(card_id, copy, host):
    assert parse_payload(build_payload(host, card_id, copy)) == CardRef(card_id, copy)


def test_known_copies_counts_every_physical_card(catalog):
    known = known_copies(catalog)
    assert known["the_spice_must_flow"] == 10
    assert known["arrakis_recruiter"] == 2
    assert known["dagger"] == 2 * DECKS_IN_BOX
    assert known["ambush"] == catalog.intrigue["ambush"].copies
    assert known["holtzman_engine"] == 1
    assert known["paul_atreides"] == 1
    assert known["skirmish_a"] == 1
    assert len(known) == (
        len(catalog.cards)
        + len(catalog.intrigue)
        + len(catalog.tech)
        + len(catalog.conflicts)
        + len(catalog.leaders)
    )


def test_identify_checks_id_and_copy_against_the_catalog(catalog):
    known = known_copies(catalog)
    assert identify("http://h/c/arrakis_recruiter/2", known) == CardRef("arrakis_recruiter", 2)
    assert identify("http://h/c/arrakis_recruiter/3", known) is None
    assert identify("http://h/c/not_a_card/1", known) is None
    assert identify("http://h/c/not_a_card/1") == CardRef("not_a_card", 1)
    assert identify("https://example.com/menu", known) is None

"""The rules lookup pages: search, detail pages, the game's rules panel, QR sticker paths."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cards import default_root
from companion.cards.search import CARD_NAMESPACE, PLAYER_COLOURS, Item
from companion.lookup import load_lookup
from companion.rules.catalog import CardDef
from tests.lookup.conftest import HX, full_index

ITEMS = full_index().items
RULINGS = load_lookup(default_root()).rulings
CARD_ITEMS = [i for i in ITEMS if i.kind in CARD_NAMESPACE]


def page(
    client: FlaskClient, url: str, status: int = 200, headers: dict[str, str] | None = None
) -> str:
    response = client.get(url, headers=headers or {})
    assert response.status_code == status, (url, response.status_code)
    return response.get_data(as_text=True)


def result_names(html: str) -> list[str]:
    return re.findall(r'<span class="rl-name">([^<]*)</span>', html)


def ident(item: Item) -> str:
    return item.entry.key


# -- the search page ----------------------------------------------------------------------


def test_nav_has_a_rules_link(client: FlaskClient) -> None:
    html = page(client, "/")
    assert '<a href="/cards">Rules</a>' in html


def test_search_page_is_a_plain_get_form_with_htmx_on_top(client: FlaskClient) -> None:
    html = page(client, "/cards")
    assert "<html" in html
    form = re.search(r'<form id="rl-search"[^>]*>', html)
    assert form is not None
    tag = form.group(0)
    assert 'method="get"' in tag and 'action="/cards"' in tag
    assert 'hx-get="/cards"' in tag and 'hx-target="#results"' in tag
    assert 'hx-trigger="input changed delay:150ms, search' in tag
    assert 'id="results"' in html
    assert "246 items" in html


@pytest.mark.parametrize(
    ("url", "first"),
    [
        ("/cards?q=gurney", "Gurney Halleck"),
        ("/cards?q=SPICE+must", "The Spice Must Flow"),
        ("/cards?q=infiltrat", "Infiltrate"),
        ("/cards?q=G%C3%9CRNEY", "Gurney Halleck"),
    ],
)
def test_done_when_searches_through_the_page(client: FlaskClient, url: str, first: str) -> None:
    assert result_names(page(client, url))[0] == first


def test_infiltration_cards_are_listed(client: FlaskClient) -> None:
    names = result_names(page(client, "/cards?q=infiltrat"))
    for name in ("Jamis", "Bounty Hunter", "CHOAM Delegate", "Web of Power", "Guild Accord"):
        assert name in names


def test_two_water_lists_phrase_matches_before_the_divider(client: FlaskClient) -> None:
    html = page(client, "/cards?q=2+water")
    before, _, after = html.partition("Also containing every word")
    assert after, "loose matches are introduced by a divider"
    for name in ("Heighliner", "Research Station", "The Great Flat", "Secure Imperial Basin"):
        assert f'<span class="rl-name">{name}</span>' in before


def test_fremen_costing_five_or_more_through_the_page(client: FlaskClient) -> None:
    html = page(client, "/cards?faction=fremen&cost_min=5")
    assert sorted(result_names(html)) == [
        "Chani",
        "Liet Kynes",
        "Satellite Ban",
        "Shai-Hulud",
        "Stilgar",
        "Worm Riders",
    ]
    # The form keeps the filters, and the filter box is open.
    assert '<option value="fremen" selected>' in html
    assert 'name="cost_min" min="0" max="20" inputmode="numeric" value="5"' in html
    assert '<details class="rl-filterbox" open>' in html


def test_results_show_cost_icons_and_faction_inline(client: FlaskClient) -> None:
    html = page(client, "/cards?q=gurney")
    row = html[html.index('<a class="rl-row"') :]
    row = row[: row.index("</a>")]
    assert 'class="rl-res rl-persuasion">6<' in row
    assert "rl-i-city" in row
    html = page(client, "/cards?q=stilgar")
    assert 'class="rl-faction rl-f-fremen">Fremen<' in html


def test_htmx_search_returns_only_the_results_fragment(client: FlaskClient) -> None:
    response = client.get("/cards?q=gurney", headers=HX)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" not in html and "<form" not in html
    assert html.lstrip().startswith('<section id="results"')
    assert "Gurney Halleck" in html
    assert "HX-Request" in response.headers.get("Vary", "")


def test_htmx_search_puts_the_clean_search_in_the_address_bar(client: FlaskClient) -> None:
    response = client.get("/cards?q=gurney&set=&kind=&faction=fremen&cost_min=x", headers=HX)
    assert response.headers["HX-Replace-Url"] == "/cards?q=gurney&faction=fremen"


def test_history_restore_gets_the_full_page(client: FlaskClient) -> None:
    headers = {**HX, "HX-History-Restore-Request": "true"}
    assert "<html" in page(client, "/cards?q=gurney", headers=headers)


def test_long_result_lists_are_cut_with_a_show_all_link(client: FlaskClient) -> None:
    html = page(client, "/cards")
    assert len(result_names(html)) == 60
    assert "Show all 246" in html and "all=1" in html
    assert len(result_names(page(client, "/cards?all=1"))) == 246


def test_nothing_found_says_so(client: FlaskClient) -> None:
    assert "Nothing matches." in page(client, "/cards?q=zzzzqqq")


def test_typed_text_is_escaped(client: FlaskClient) -> None:
    html = page(client, "/cards?q=%3Cscript%3Ealert(1)%3C/script%3E")
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;" in html


JUNK = [
    "/cards?q=%ff%fe%00",
    "/cards?q=%",
    "/cards?cost_min=abc&cost_max=-1&level=99&type=x&kind=y&set=z&faction=%00&icon=",
    "/cards?cost_min=99999999999999999999999999&cost_max=1e9",
    "/cards?q=a&q=b&kind=space&kind=leader",
    "/cards?all=yes&rival=%F0%9F%92%A9",
    "/cards?q=" + "x" * 5000,
    "/cards?q=%E2%80%8B%CC%81%CC%81",
    "/cards?" + "&".join(f"k{n}=v" for n in range(300)),
    "/cards/space/arrakeen?copy=abc",
    "/cards/starter/dagger?copy=-5",
    "/cards/imperium/gurney_halleck?copy=99999999999999999999999",
    "/cards/space/arrakeen/panel?copy=%00",
]


@pytest.mark.parametrize("url", JUNK)
def test_junk_query_strings_never_fail(client: FlaskClient, url: str) -> None:
    for headers in ({}, HX):
        assert client.get(url, headers=headers).status_code == 200


PARAMS = ("q", "set", "kind", "faction", "icon", "cost_min", "cost_max", "type", "level", "rival")
TEXT = st.text(st.characters(codec="utf-8"), max_size=30)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(args=st.dictionaries(st.sampled_from((*PARAMS, "all", "copy")), TEXT), htmx=st.booleans())
def test_any_arguments_give_a_page(client: FlaskClient, args: dict[str, str], htmx: bool) -> None:
    response = client.get("/cards", query_string=args, headers=HX if htmx else {})
    assert response.status_code == 200


# -- detail pages --------------------------------------------------------------------------


@pytest.mark.parametrize("item", ITEMS, ids=ident)
def test_every_item_has_a_detail_page(client: FlaskClient, item: Item) -> None:
    html = page(client, f"/cards/{item.kind}/{item.id}")
    assert "<html" in html
    assert 'id="rules-panel"' in html
    assert item.entry.explanation.split()[0] in html
    for doubt in item.entry.uncertain:
        assert "Uncertain:" in html
        assert doubt.split()[0] in html


@pytest.mark.parametrize("item", ITEMS, ids=ident)
def test_every_item_has_a_panel(client: FlaskClient, item: Item) -> None:
    html = page(client, f"/cards/{item.kind}/{item.id}/panel")
    assert html.lstrip().startswith('<article id="rules-panel"')
    assert "<html" not in html
    assert '<form method="dialog">' in html


def test_detail_page_for_htmx_is_the_panel(client: FlaskClient) -> None:
    html = page(client, "/cards/space/arrakeen", headers=HX)
    assert html.lstrip().startswith('<article id="rules-panel"')
    assert '<form method="dialog">' not in html  # no Close button outside the dialog


def test_card_page_shows_cost_icons_and_boxes(client: FlaskClient) -> None:
    html = page(client, "/cards/imperium/gurney_halleck")
    assert "<h1" in html and "Gurney Halleck" in html
    assert 'class="rl-res rl-persuasion">6<' in html
    assert "rl-i-city" in html
    assert "Agent</h3>" in html and "Reveal</h3>" in html
    assert "/cards/space/arrakeen" in html  # a City space it can go to
    assert "<img" not in html


def test_uncertain_notes_are_shown_plainly(client: FlaskClient) -> None:
    html = page(client, "/cards/hagal/dreadnought_2p")
    assert "<strong>Uncertain:</strong> Troops 2 per the current Spice Flow mod" in html


def test_space_lists_the_hagal_cards_that_target_it(client: FlaskClient) -> None:
    html = page(client, "/cards/space/arrakeen")
    assert "House Hagal cards that send a Rival here" in html
    assert 'href="/cards/hagal/arrakeen_1p"' in html
    assert 'href="/cards/hagal/arrakeen_2p"' in html
    assert 'href="/cards/conflict/siege_of_arrakeen"' in html
    html = page(client, "/cards/space/interstellar_shipping")
    for hagal in (
        "interstellar_shipping",
        "foldspace_or_interstellar_shipping",
        "smuggling_or_interstellar_shipping",
    ):
        assert f'href="/cards/hagal/{hagal}"' in html


def test_space_no_rival_goes_to_says_so(client: FlaskClient) -> None:
    html = page(client, "/cards/space/swordmaster")
    assert "a Rival never sends an Agent here" in html


def test_maker_space_lists_harvest_spice(client: FlaskClient) -> None:
    assert 'href="/cards/hagal/harvest_spice"' in page(client, "/cards/space/the_great_flat")


def test_conflict_links_its_controlled_space(client: FlaskClient) -> None:
    html = page(client, "/cards/conflict/battle_for_carthag")
    assert 'href="/cards/space/carthag"' in html
    assert 'href="/cards/conflict/siege_of_carthag"' in html


def test_hagal_card_links_its_target_space(client: FlaskClient) -> None:
    html = page(client, "/cards/hagal/heighliner")
    assert 'href="/cards/space/heighliner"' in html
    html = page(client, "/cards/hagal/smuggling_or_interstellar_shipping")
    assert 'href="/cards/space/smuggling"' in html
    assert 'href="/cards/space/interstellar_shipping"' in html
    assert "FAQ, Rivals" in html


def test_leader_shows_how_a_rival_uses_its_signet(client: FlaskClient) -> None:
    html = page(client, "/cards/leader/vladimir_harkonnen")
    assert "Signet: Scheme" in html
    assert "As a Rival" in html
    assert 'href="/cards/hagal/arrakeen_1p"' in html  # the card with the Signet icon


@pytest.mark.parametrize("leader", ["paul_atreides", "helena_richese", "tessia_vernius"])
def test_leader_that_cant_be_a_rival_says_why(client: FlaskClient, leader: str) -> None:
    html = page(client, f"/cards/leader/{leader}")
    assert "not a Rival" in html
    assert "can&#39;t be Rivals" in html or "only Rhombur Vernius and Hundro Moritani" in html


def test_faq_rulings_are_pointed_to(client: FlaskClient) -> None:
    html = page(client, "/cards/imperium/assassination_mission")
    assert "FAQ, Assassination Mission" in html
    html = page(client, "/cards/reserve/foldspace")
    assert "FAQ, Foldspace" in html and 'href="/cards/space/foldspace"' in html


def test_every_ruling_key_names_an_item(client: FlaskClient) -> None:
    known = {i.entry.key for i in ITEMS}
    assert set(RULINGS) <= known


def test_related_links_all_resolve(client: FlaskClient) -> None:
    """Every link of an item page goes to a page that answers: an item's page (each one
    answers, test_every_item_has_a_detail_page), or any other, fetched here."""
    seen: set[str] = set()
    for item in ITEMS:
        html = page(client, f"/cards/{item.kind}/{item.id}")
        seen |= set(re.findall(r'href="(/cards/[a-z_]+/[a-z0-9_]+)"', html))
    assert len(seen) > 50
    items = {f"/cards/{item.kind}/{item.id}" for item in ITEMS}
    for url in sorted(seen - items):
        page(client, url)


def test_panel_links_reload_the_panel_in_place(client: FlaskClient) -> None:
    html = page(client, "/cards/space/arrakeen/panel")
    assert (
        'href="/cards/hagal/arrakeen_1p" hx-get="/cards/hagal/arrakeen_1p/panel" '
        'hx-target="#rules-panel" hx-swap="outerHTML"'
    ) in html
    assert 'target="_blank"' in html  # a full page opens beside the game, never over it


# -- QR sticker paths ---------------------------------------------------------------------


@pytest.mark.parametrize("item", CARD_ITEMS, ids=ident)
def test_sticker_path_resolves_to_the_card_page(client: FlaskClient, item: Item) -> None:
    response = client.get(f"/c/{item.id}")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/cards/{item.kind}/{item.id}"
    response = client.get(f"/c/{item.id}/{item.copies}")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/cards/{item.kind}/{item.id}?copy={item.copies}"


def test_copy_numbers(client: FlaskClient, app: Flask) -> None:
    response = client.get("/c/bene_gesserit_sister/3", follow_redirects=True)
    assert response.status_code == 200
    assert "Scanned copy 3 of 3." in response.get_data(as_text=True)
    html = page(client, "/c/bene_gesserit_sister/4", 404)
    assert "Bene Gesserit Sister has 3 copies, so there is no copy 4." in html
    page(client, "/c/gurney_halleck/0", 404)
    page(client, "/c/gurney_halleck/-1", 404)
    page(client, "/c/gurney_halleck/2", 404)
    page(client, "/c/gurney_halleck/abc", 404)


def test_per_player_cards_have_a_copy_per_player_colour(client: FlaskClient) -> None:
    dagger = full_index().get("starter", "dagger")
    assert dagger is not None and isinstance(dagger.entry.record, CardDef)
    copies = dagger.entry.record.copies * PLAYER_COLOURS
    assert client.get(f"/c/dagger/{copies}").status_code == 302
    assert client.get(f"/c/dagger/{copies + 1}").status_code == 404


@pytest.mark.parametrize(
    "card_id", ["arrakeen", "harvest_spice", "shipping_track", "nope", "x" * 300]
)
def test_ids_outside_the_card_namespace_are_404(client: FlaskClient, card_id: str) -> None:
    html = page(client, f"/c/{card_id}", 404)
    assert "No card has the id" in html


def test_foldspace_sticker_is_the_reserve_card(client: FlaskClient) -> None:
    assert client.get("/c/foldspace").headers["Location"] == "/cards/reserve/foldspace"


# -- 404s ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/cards/planet/arrakis", "no kind of item called"),
        ("/cards/space/nowhere", "has the id"),
        ("/cards/hagal/gurney_halleck", "has the id"),
        ("/cards/space/nowhere/panel", "has the id"),
        ("/cards/%00/%ff", "no kind of item called"),
    ],
)
def test_unknown_items_are_404_pages(client: FlaskClient, url: str, message: str) -> None:
    html = page(client, url, 404)
    assert message in html
    assert "<html" in html
    fragment = page(client, url, 404, HX)
    assert "<html" not in fragment and 'role="alert"' in fragment


def test_deeper_paths_are_404_not_500(client: FlaskClient) -> None:
    page(client, "/cards/space/arrakeen/panel/more", 404)
    page(client, "/c/", 404)

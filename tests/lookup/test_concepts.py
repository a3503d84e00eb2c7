"""Rules concept pages (card_db/concepts.toml), their links both ways, and the content
fixes of issue 15 (defensive bonus, dreadnoughts, Rapid Mobilization, uncertain flags)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask, render_template_string
from flask.testing import FlaskClient
from markupsafe import escape

from companion.cards import default_root
from companion.cards.concepts import SELECTORS, ConceptDef, problems
from companion.cards.search import Query, SearchIndex
from companion.lookup import detail, load_lookup
from companion.lookup.concepts import SELECT
from companion.rules.hagal import EXCHANGES
from tests.lookup.conftest import HX

LOOKUP = load_lookup(default_root())
CONCEPTS = {c.id: c for c in LOOKUP.index.concepts}


def concept(concept_id: str) -> ConceptDef:
    return CONCEPTS[concept_id]


def figures(concept_id: str) -> dict[str, str]:
    return {f.label: f.amount for f in concept(concept_id).figures}


def test_the_concepts_of_the_issue_exist() -> None:
    assert {
        "alliance",
        "control",
        "combat",
        "dreadnoughts",
        "resource_exchange",
        "bonus_spice",
        "end_of_game",
        "deploying_troops",
        "intrigue_cards",
        "mentat",
    } <= set(CONCEPTS)
    for c in CONCEPTS.values():
        assert c.sources and c.paragraphs and c.summary


def test_selectors_named_in_the_file_are_the_ones_the_lookup_knows() -> None:
    assert set(SELECTORS) == set(SELECT)


@pytest.mark.parametrize("concept_id", sorted(CONCEPTS))
def test_concept_page_and_panel(client: FlaskClient, concept_id: str) -> None:
    page = client.get(f"/cards/concept/{concept_id}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert str(escape(concept(concept_id).title)) in text
    assert all(str(escape(s)) in text for s in concept(concept_id).sources)
    assert len(page.get_data()) < 100_000
    panel = client.get(f"/cards/concept/{concept_id}/panel", headers=HX)
    assert panel.status_code == 200
    assert 'id="rules-panel"' in panel.get_data(as_text=True)
    assert "<html" not in panel.get_data(as_text=True)


@pytest.mark.parametrize("concept_id", sorted(CONCEPTS))
def test_every_item_a_concept_touches_links_back(concept_id: str) -> None:
    touched = LOOKUP.concepts.items[concept_id]
    assert touched, concept_id
    for item in touched:
        assert (
            "concept",
            concept_id,
        ) in {(link.kind, link.id) for link in detail(LOOKUP, item).concepts}


def test_unknown_concept_is_a_404_with_a_message(client: FlaskClient) -> None:
    page = client.get("/cards/concept/no_such_rule")
    assert page.status_code == 404
    assert "no rules concept called" in page.get_data(as_text=True)


def test_control_space_dialog_links_to_control_and_the_defensive_bonus(
    client: FlaskClient,
) -> None:
    """The in-game info dialog of a control space [RB p.10, Control Bonuses]."""
    for space in ("arrakeen", "carthag", "imperial_basin"):
        panel = client.get(f"/cards/space/{space}/panel", headers=HX).get_data(as_text=True)
        assert 'hx-get="/cards/concept/control/panel"' in panel
        assert "Control and the defensive bonus" in panel
        assert "may deploy one troop from your supply to the Conflict" in panel


def test_control_conflicts_state_the_defensive_bonus(index: SearchIndex) -> None:
    """Every Conflict fought for a space gives its controller the defensive troop
    [RB p.10, Control Bonuses], a dreadnought's controller too [Ix p.6]."""
    conflicts = [c for c in index.catalog.conflicts.values() if c.controlled_space]
    assert len(conflicts) == 6
    for conflict in conflicts:
        item = index.get("conflict", conflict.id)
        assert item is not None
        texts = [r.text for r in detail(LOOKUP, item).rulings]
        assert any("Defensive bonus" in t and "dreadnought" in t for t in texts)


def test_control_concept_figures_follow_the_rulebook() -> None:
    """1 Solari at Arrakeen/Carthag, 1 spice at Imperial Basin, 1 defensive troop
    [RB p.10, Control Bonuses]."""
    amounts = {(f.res, f.amount) for f in concept("control").figures}
    assert amounts == {("solari", "1"), ("spice", "1"), ("troops", "1")}
    for space_id, bonus in (
        ("arrakeen", "solari"),
        ("carthag", "solari"),
        ("imperial_basin", "spice"),
    ):
        control = LOOKUP.catalog.spaces[space_id].control_bonus
        assert control is not None and getattr(control, bonus) == 1


def test_combat_concept_strength_and_ties() -> None:
    """2 strength a troop, 1 a sword [RB p.11, Set Strength]; ties [RB p.12, Ties]."""
    assert {(f.res, f.amount) for f in concept("combat").figures} == {
        ("troops", "2"),
        ("swords", "1"),
    }
    rule = concept("combat").rule
    assert "tie for first means nobody wins" in rule
    assert "tie for second gives each tied player the third reward" in rule


def test_dreadnought_space_page_explains_strength_and_control(client: FlaskClient) -> None:
    """3 strength, back to the garrison, control after a win [Ix p.6, Dreadnoughts]."""
    text = client.get("/cards/space/dreadnought").get_data(as_text=True)
    assert "worth 3 strength" in text
    assert "Arrakeen, Carthag or Imperial Basin" in text
    assert "/cards/concept/dreadnoughts" in text
    assert ("dreadnought", "3") in {(f.res, f.amount) for f in concept("dreadnoughts").figures}


def test_resource_exchange_figures_follow_the_rulebook() -> None:
    """3 Intrigue, 3 water, 7 Solari or 7 spice for 1 VP [RB p.20; HAGAL §1]."""
    assert {(f.res, f.amount) for f in concept("resource_exchange").figures} == {
        ("intrigue", "3"),
        ("water", "3"),
        ("solari", "7"),
        ("spice", "7"),
    }
    assert "Conflict III" in concept("resource_exchange").rule  # [Ix p.9]
    drawn = {f.res: int(f.amount) for f in concept("resource_exchange").figures}
    assert drawn == dict(EXCHANGES)  # the engine's table


def test_end_of_game_tie_breakers_in_order() -> None:
    """10 VP or an empty Conflict deck; spice, Solari, water, garrison [RB p.13]."""
    rule = concept("end_of_game").rule
    assert "10 or more Victory Points" in rule and "Conflict deck" in rule
    assert rule.index("spice") < rule.index("Solari") < rule.index("water")
    assert rule.index("water") < rule.index("garrison")


def test_bonus_spice_base_amounts_match_the_spaces() -> None:
    """Base spice 3, 2 and 1 [FAQ "Carryall"]; +1 bonus a Makers phase [RB p.13]."""
    spaces = LOOKUP.catalog.spaces
    assert [spaces[s].base_spice for s in ("the_great_flat", "hagga_basin", "imperial_basin")] == [
        3,
        2,
        1,
    ]
    assert "(3, 2 and 1)" in concept("bonus_spice").rule


def test_rapid_mobilization_ruling_speaks_of_deploying() -> None:
    """[FAQ "Rapid Mobilization"]: see Retreat; 'any number' may be zero."""
    item = LOOKUP.index.get("intrigue", "rapid_mobilization")
    assert item is not None
    texts = [r.text for r in detail(LOOKUP, item).rulings]
    assert any(t.startswith("Deploying 'any number'") for t in texts)
    assert not any(t.startswith("Retreating") for t in texts)


@pytest.mark.parametrize(
    ("kind", "item_id"),
    [
        ("track", "shipping_track"),
        ("space", "high_council"),
        ("space", "mentat"),
        ("space", "swordmaster"),
    ],
)
def test_inferred_facts_are_flagged_uncertain(client: FlaskClient, kind: str, item_id: str) -> None:
    """The Shipping Track's step order [Ix pp.5, 8] and the overlay reprints [Ix p.3]
    are inferred: the page says so."""
    item = LOOKUP.index.get(kind, item_id)
    assert item is not None and any("inferred" in d for d in item.entry.uncertain)
    assert "Uncertain:" in client.get(f"/cards/{kind}/{item_id}").get_data(as_text=True)


@pytest.mark.parametrize(
    ("typed", "concept_id"),
    [
        ("alliance", "alliance"),
        ("defensive bonus", "control"),
        ("control", "control"),
        ("tie breaker", "end_of_game"),
        ("ties", "combat"),
        ("bonus spice", "bonus_spice"),
        ("rival exchange", "resource_exchange"),
        ("extra agent", "mentat"),
        ("endgame intrigue", "intrigue_cards"),
    ],
)
def test_concepts_are_found_by_search(index: SearchIndex, typed: str, concept_id: str) -> None:
    assert index.find(Query(text=typed)).hits[0].item.entry.key == f"concept:{concept_id}"


def test_concept_page_draws_its_picture(client: FlaskClient) -> None:
    text = client.get("/cards/concept/control").get_data(as_text=True)
    assert text.count('class="rl-res rl-solari"') >= 1
    assert "rl-i-city" in text  # the spaces' Agent icon, drawn
    assert 'href="/cards/space/arrakeen"' in text


def test_concepts_file_problems(tmp_path: Path) -> None:
    (tmp_path / "concepts.toml").write_text(
        '[[concept]]\nid = "x"\ntitle = "X"\nsummary = "s"\nrule = "r"\nsources = ["FAQ"]\n'
        'touches = ["nowhere"]\nlinks = ["space:nope"]\ncolour = 1\n'
        '[[concept.figure]]\nres = "gold"\namount = "1"\nlabel = "l"\n'
        '[[concept]]\nid = "x"\ntitle = "Y"\n',
        encoding="utf-8",
    )
    found = problems(tmp_path, LOOKUP.catalog)
    assert any("unknown key 'colour'" in p for p in found)
    assert any("missing 'summary'" in p for p in found)
    assert any("the id is used twice" in p for p in found)
    assert problems(default_root(), LOOKUP.catalog) == []


def test_the_games_info_macro_opens_a_concept_in_the_dialog(
    app: Flask, client: FlaskClient
) -> None:
    """templates/games/_macros.html's info(): the table's dialogs can open a concept."""
    with app.test_request_context():
        link = render_template_string(
            '{% from "games/_macros.html" import info %}{{ info("concept", "combat", "Combat") }}'
        )
    assert 'hx-get="/cards/concept/combat/panel"' in link
    panel = client.get("/cards/concept/combat/panel", headers=HX).get_data(as_text=True)
    assert "Combat, strength and ties" in panel


def test_intrigue_types_follow_the_rulebook() -> None:
    """Plot on your Agent or Reveal turns, Combat only in combat, Endgame only at the end
    [RB p.7, Intrigue Cards]; every Intrigue card links back."""
    rule = concept("intrigue_cards").rule
    assert "Agent turns or your Reveal turn" in rule
    assert "only in the Combat phase" in rule and "only at the end of" in rule
    intrigue = {i.id for i in LOOKUP.index.items if i.kind == "intrigue"}
    assert {i.id for i in LOOKUP.concepts.items["intrigue_cards"] if i.kind == "intrigue"} == (
        intrigue
    )


def test_every_conflict_dialog_links_to_combat_and_ties(client: FlaskClient) -> None:
    """The Conflict's info dialog on the table links to how combat is resolved
    [RB p.12, Phase 3: Combat]."""
    for conflict in LOOKUP.catalog.conflicts.values():
        item = LOOKUP.index.get("conflict", conflict.id)
        assert item is not None
        assert "combat" in {link.id for link in detail(LOOKUP, item).concepts}
    panel = client.get("/cards/conflict/skirmish_b/panel", headers=HX).get_data(as_text=True)
    assert 'hx-get="/cards/concept/combat/panel"' in panel

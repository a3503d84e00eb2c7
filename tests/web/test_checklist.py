"""The physical set-up checklist with Rise of Ix and Epic mode, solo and two-player.

Sources: Rise of Ix rulebook (Ix) p.3 "Setup", p.8 "Additions to Solo & Two-Player
Games", p.10 "Epic Game Mode"; HAGAL.md §6 (House Hagal deck sizes).
"""

from __future__ import annotations

import html as html_lib
import re

import pytest

from companion.lookup.checklist import checklist
from companion.rules.engine import hagal_cards, new_game
from companion.rules.state import GameState, Options, SeatSetup, Setup

IX_FIELDS = {"expansion": "ix"}
EPIC_FIELDS = {"expansion": "ix", "epic": "on"}
VARIANTS = {"base": {}, "ix": IX_FIELDS, "epic": EPIC_FIELDS}


def _items(page: str) -> list[str]:
    """The checklist's lines as text."""
    return [
        " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", item)).split())
        for item in re.findall(r"<li>(.*?)</li>", page, re.S)
    ]


def _setup_page(game, client, mode: str, variant: str, **fields: str) -> list[str]:
    form = VARIANTS[variant] | fields
    game_id = game.new_solo(**form) if mode == "solo" else game.new_2p(**form)
    response = client.get(f"/games/{game_id}/setup")
    assert response.status_code == 200
    return _items(response.get_data(as_text=True))


def _text(items: list[str]) -> str:
    return "\n".join(items)


@pytest.mark.parametrize("mode", ["solo", "2p"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_checklist_follows_expansion_and_epic(game, client, mode, variant):
    text = _text(_setup_page(game, client, mode, variant))
    ix = variant != "base"
    epic = variant == "epic"
    # Ix p.3: the overlay, the Ix board, Tech tiles, the new cards, dreadnoughts, Freighters.
    for phrase in (
        "CHOAM board overlay",
        "Hall of Oratory, Rally Troops, Secure Contract and Sell Melange are gone",
        "Smuggling, Interstellar Shipping and the Shipping track are new",
        "Ix board next to the game board: the Dreadnought and Tech Negotiation spaces",
        "three stacks of 6",
        "17 Rise of Ix Intrigue cards",
        "35 Rise of Ix Imperium cards",
        "2 dreadnoughts",
        "Freighter disc on the bottom space of the Shipping track",
    ):
        assert (phrase in text) == ix, phrase
    assert ("Rise of Ix" in text) == ix
    # Ix p.10: Epic mode.
    for phrase in ("12 VP", "Control the Spice", "5 troops", "1 Intrigue card (Rise of Ix"):
        assert (phrase in text) == epic, phrase
    if not epic:
        troops = "3 troops in your garrison" if mode == "solo" else "2 Agents, 3 troops"
        assert troops in text


def test_a_base_checklist_has_no_rise_of_ix_step(game, client):
    for mode in ("solo", "2p"):
        items = _setup_page(game, client, mode, "base", physical_hagal="on")
        assert not any("Ix" in item or "dreadnought" in item for item in items)


@pytest.mark.parametrize("mode", ["solo", "2p"])
def test_the_house_hagal_deck_with_ix_counts_the_engines_deck(game, client, mode):
    """Ix p.8: remove 2 Hall of Oratory and 2 Rally Troops, add the 9 Ix cards less the 2P
    (solo) or 1P (two-player) ones: 30 cards solo, 29 two-player (HAGAL.md §6)."""
    items = _setup_page(game, client, mode, "ix", physical_hagal="on")
    (deck,) = [item for item in items if item.startswith("House Hagal deck")]
    setup = Setup(
        mode=mode,
        seed=1,
        humans=(),
        rivals=(),
        difficulty="mentat" if mode == "solo" else None,
        sets=("base", "ix"),
    )
    n = len(hagal_cards(setup, game.catalog))
    assert n == (30 if mode == "solo" else 29)
    assert f"shuffle the {n} cards" in deck
    assert "2 Hall of Oratory" in deck and "2 Rally Troops" in deck
    assert "add the 9 Rise of Ix cards" in deck
    if mode == "solo":
        assert "not the 2 marked 2P (2 Dreadnought)" in deck
        assert "the Reshuffle card" in deck and "keep the Reshuffle" not in deck
    else:
        assert "not the 4 marked 1P" in deck
        assert "2 Dreadnought" in deck and "2 Tech Negotiation" in deck
        assert "keep the Reshuffle card" in deck


@pytest.mark.parametrize(
    ("variant", "phrase"),
    [
        ("base", "Build the Conflict deck: 4 Conflict III at the bottom"),
        ("ix", "base and Rise of Ix Conflict cards: 4 random Conflict III"),
        ("ix", "the Conflict III left over goes back to the box"),
        ("epic", "without Conflict I: 5 Conflict III at the bottom, 5 random Conflict II"),
    ],
)
@pytest.mark.parametrize("mode", ["solo", "2p"])
def test_the_physical_conflict_deck(game, client, mode, variant, phrase):
    """Rulebook p.4; Ix p.3 (still 1/5/4 from more cards); Ix p.10 (Epic: 5 II over 5 III)."""
    text = _text(_setup_page(game, client, mode, variant, physical_conflicts="on"))
    assert phrase in text


def test_physical_tech_tiles_are_shuffled_by_the_table(game, client):
    text = _text(_setup_page(game, client, "solo", "ix", physical_tech="on"))
    assert "turn the top tile of each stack face up" in text
    assert "the app then asks which tiles came up" in text
    assert "face-up tiles" not in text


def test_app_drawn_tech_tiles_are_named_for_the_table(game, client):
    text = _text(_setup_page(game, client, "2p", "ix"))
    assert "The app drew the face-up tiles" in text
    assert "Tech stack 1 (from the top):" in text


def _ix_setup(mode: str, seed: int = 1, difficulty: str = "mentat", **options: bool) -> Setup:
    if mode == "solo":
        return Setup(
            mode="solo",
            seed=seed,
            humans=(SeatSetup("Ann", "hundro_moritani", "green"),),
            rivals=(
                SeatSetup("Lefty", "rhombur_vernius", "red"),
                SeatSetup("Righty", "glossu_rabban", "yellow"),
            ),
            difficulty=difficulty,  # type: ignore[arg-type]
            options=Options(**options),
            sets=("base", "ix"),
        )
    return Setup(
        mode="2p",
        seed=seed,
        humans=(
            SeatSetup("Ann", "paul_atreides", "green"),
            SeatSetup("Ben", "hundro_moritani", "blue"),
        ),
        rivals=(SeatSetup("House Hagal", "", "red"),),
        options=Options(**options),
        sets=("base", "ix"),
    )


def _lines(app, setup: Setup, state: GameState | None) -> list[str]:
    with app.test_request_context():
        return [
            item
            for _, items in checklist(setup, app.extensions["catalog"], state)
            for item in items
        ]


def test_with_the_state_the_checklist_names_each_face_up_tile(app):
    setup = _ix_setup("solo")
    state = new_game(setup, app.extensions["catalog"])
    lines = _lines(app, setup, state)
    for k, stack in enumerate(state.tech_stacks):
        name = state.catalog.tech[stack[0]].name
        assert f"Tech stack {k + 1} (from the top): {name} face up." in lines


def test_tiles_trashed_at_setup_for_want_of_a_hagal_mark_are_named(app):
    """Ix p.9: with no face-up tile marked for Rivals, trash the top tile of the largest
    stack and reveal the next (seed 75 trashes two at setup)."""
    setup = _ix_setup("solo", seed=75)
    state = new_game(setup, app.extensions["catalog"])
    trashed = [e for e in state.log if e.kind == "tech_trash_unmarked"]
    assert len(trashed) == 2
    text = _text(_lines(app, setup, state))
    for e in trashed:
        name = state.catalog.tech[str(e.data["tile"])].name
        assert f"the app trashed {name} from Tech stack {e.data['stack']}" in text


@pytest.mark.parametrize("difficulty", ["mercenary", "sardaukar", "mentat", "kwisatz"])
@pytest.mark.parametrize("epic", [False, True])
def test_the_rivals_start_as_the_engine_starts_them(app, difficulty, epic):
    """Epic (Ix p.10): "each player" starts with 5 troops instead of 3 and draws an
    Intrigue card; the app's ruling for Rivals (engine.new_game) and the checklist agree."""
    setup = _ix_setup("solo", difficulty=difficulty, epic=epic, physical_hagal=True)
    state = new_game(setup, app.extensions["catalog"])
    # Stopped at the first House Hagal card: no Rival has acted yet.
    assert state.prompt is not None and state.prompt.kind == "hagal_card"
    lines = _lines(app, setup, None)
    for rival in (h for h in state.houses if h.kind == "rival"):
        (line,) = [item for item in lines if item.startswith(f"{rival.name} (")]
        assert f"{rival.garrison} troops in its garrison" in line
        if rival.intrigue:
            plural = "card" if rival.intrigue == 1 else "cards"
            assert f"and {rival.intrigue} Intrigue {plural}," in line
        else:
            assert "Intrigue" not in line
    assert any("Epic game: each Rival" in item for item in lines) == epic


@pytest.mark.parametrize("mode", ["solo", "2p"])
def test_an_epic_hundro_waits_for_the_others_intrigue_cards(app, mode):
    """Ix p.10: a player using Viscount Hundro Moritani waits until all players have drawn
    their Intrigue card, then uses the Intelligence ability. Rivals use only their Signet."""
    setup = _ix_setup(mode, epic=True)
    text = _text(_lines(app, setup, None))
    assert "plays Viscount Hundro Moritani: wait until everyone has drawn" in text
    assert "then use Intelligence" in text
    assert "Lefty plays" not in text
    plain = _text(_lines(app, _ix_setup(mode), None))
    assert "wait until everyone" not in plain

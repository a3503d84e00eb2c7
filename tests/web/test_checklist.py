"""The physical set-up checklist: solo, two, three and four players, with Rise of Ix and
Epic mode; every number it tells the table against the engine's starting houses.

Sources: rulebook (RB) pp.4-5 "Setup" (F1 water, G1 Agents, G2 Score marker on 1 in a
4-player game, G5 3 troops, H first player), p.19 Two-Player, p.20 Solo; Rise of Ix
rulebook (Ix) p.3 "Setup", p.8 "Additions to Solo & Two-Player Games", p.10 "Epic Game
Mode"; HAGAL.md §6 (House Hagal deck sizes).
"""

from __future__ import annotations

import html as html_lib
import re
from collections import Counter
from dataclasses import replace

import pytest

from companion.lookup.checklist import checklist
from companion.rules.engine import hagal_cards, mentat_cost, new_game, swordmaster_round
from companion.rules.setup import starting_houses, table_houses
from companion.rules.state import GameState, Options, SeatSetup, Setup
from companion.sim import make_setup
from tests.web.test_forms import FOUR_PLAYER_FORM, THREE_PLAYER_FORM

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
    if mode == "solo":
        game_id = game.new_solo(**form)
    elif mode == "2p":
        game_id = game.new_2p(**form)
    else:
        game_id = game.create({"3p": THREE_PLAYER_FORM, "4p": FOUR_PLAYER_FORM}[mode] | form)
    response = client.get(f"/games/{game_id}/setup")
    assert response.status_code == 200
    return _items(response.get_data(as_text=True))


def _text(items: list[str]) -> str:
    return "\n".join(items)


@pytest.mark.parametrize("mode", ["solo", "2p", "3p", "4p"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_checklist_follows_expansion_and_epic(game, client, mode, variant):
    text = _text(_setup_page(game, client, mode, variant))
    ix = variant != "base"
    epic = variant == "epic"
    # Ix p.3: the overlay, the Ix board, Tech tiles, the new cards, dreadnoughts, Freighters.
    for phrase in (
        "CHOAM board overlay",
        "Hall of Oratory, Rally Troops, Secure Contract, and Sell Melange are gone",
        "Smuggling, Interstellar Shipping, and the Shipping track are new",
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
        assert "Put 3 troops in your garrison" in text


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


def _sections(app, setup: Setup, state: GameState | None) -> list[tuple[str, list[str]]]:
    with app.test_request_context():
        return checklist(setup, app.extensions["catalog"], state)


def _lines(app, setup: Setup, state: GameState | None) -> list[str]:
    return [item for _, items in _sections(app, setup, state) for item in items]


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
    sections = _sections(app, setup, None)
    for rival in (h for h in state.houses if h.kind == "rival"):
        (items,) = [items for title, items in sections if title.startswith(f"{rival.name}, ")]
        line = _text(items)
        if rival.garrison:
            assert f"Put {rival.garrison} troops in its garrison" in line
        else:
            assert "It starts with no troops in its garrison" in line
        if rival.intrigue:
            plural = "card" if rival.intrigue == 1 else "cards"
            assert f"Deal it {rival.intrigue} Intrigue {plural}." in line
        else:
            assert "Intrigue" not in line
    assert any("app's reading of \u201ceach player\u201d" in item for item in lines) == epic


@pytest.mark.parametrize("mode", ["solo", "2p"])
def test_an_epic_hundro_waits_for_the_others_intrigue_cards(app, mode):
    """Ix p.10: a player using Viscount Hundro Moritani waits until all players have drawn
    their Intrigue card, then uses the Intelligence ability. Rivals use only their Signet."""
    setup = _ix_setup(mode, epic=True)
    sections = dict(_sections(app, setup, None))
    hundro = [title for title in sections if "Viscount Hundro Moritani" in title]
    assert hundro == [
        "Ann plays Viscount Hundro Moritani in green"
        if mode == "solo"
        else "Ben plays Viscount Hundro Moritani in blue"
    ]
    text = _text(sections[hundro[0]])
    assert "You play Viscount Hundro Moritani: wait until everyone has drawn" in text
    assert "then use Intelligence" in text
    others = _text(
        [item for title, items in sections.items() if title != hundro[0] for item in items]
    )
    assert "wait until everyone" not in others
    plain = _text(_lines(app, _ix_setup(mode), None))
    assert "wait until everyone" not in plain


# -- every number against the engine --------------------------------------------------------

MODES = {
    "solo-mercenary": ("solo", "mercenary"),
    "solo-sardaukar": ("solo", "sardaukar"),
    "solo-mentat": ("solo", "mentat"),
    "solo-kwisatz": ("solo", "kwisatz"),
    "2p": ("2p", None),
    "3p": ("3p", None),
    "4p": ("4p", None),
}
SETTINGS: dict[str, tuple[tuple[str, ...], dict[str, bool]]] = {
    "base": (("base",), {}),
    "base-physical-conflicts": (("base",), {"physical_conflicts": True}),
    "ix": (("base", "ix"), {}),
    "ix-physical-tech-and-conflicts": (
        ("base", "ix"),
        {"physical_tech": True, "physical_conflicts": True},
    ),
    "epic": (("base", "ix"), {"epic": True}),
    "epic-physical-conflicts": (("base", "ix"), {"epic": True, "physical_conflicts": True}),
    "epic-rivals-standard": (("base", "ix"), {"epic": True, "epic_rivals_standard": True}),
}
# A citation ("rulebook pp.4-5, G2", "Rise of Ix rulebook p.10") and the 1P/2P marks of
# House Hagal cards are no number the table counts out.
CITATION = re.compile(r"rulebook pp?\.\s?\d+(?:\s?[-,]\s?\d+)*(?:, [A-H]\d?)?|\b[12]P\b")


def _numbers(text: str) -> list[int]:
    return sorted(int(n) for n in re.findall(r"\d+", CITATION.sub("", text)))


def _expected_house(setup: Setup, house) -> list[int]:
    """What the table must be told for a house: the engine's starting house, and for a
    player what the rulebook gives that the engine does not track: 1 water (RB p.5, F1),
    3 troops (G5) or 5 and an Intrigue card in an Epic game (Ix p.10), 1 Solari and
    1 spice at Mercenary difficulty (RB p.20)."""
    ix = "ix" in setup.sets
    dreadnoughts = [house.dn_supply] if ix else []
    if house.kind == "hagal":
        assert (house.garrison, house.water, house.intrigue) == (0, 0, 0)  # RB p.19
        return sorted([house.agents, *dreadnoughts])
    if house.kind == "rival":
        extras = [n for n in (house.garrison, house.water, house.intrigue) if n]
        return sorted([house.agents, house.vp, house.rival_strength, *extras, *dreadnoughts])
    epic = setup.options.epic
    numbers = [house.agents, house.vp, house.strength, 5 if epic else 3, 1]
    numbers += [1] if epic else []
    numbers += [1, 1] if setup.difficulty == "mercenary" else []
    return sorted(numbers + dreadnoughts)


def _expected_board(setup: Setup, state: GameState) -> list[int]:
    catalog = state.catalog
    numbers = [5]  # the Imperium Row (RB p.4, C2)
    if state.ix:
        numbers += [
            sum(c.copies for c in catalog.intrigue.values() if c.set == "ix"),
            sum(c.copies for c in catalog.cards.values() if c.set == "ix" and c.kind == "imperium"),
        ]
        tiles = [t for t in catalog.tech.values() if t.set in setup.sets]
        numbers += [len(tiles), len(tiles) // 3]  # Ix p.3: three stacks
        if not setup.options.physical_tech:
            trashed = [e for e in state.log if e.kind == "tech_trash_unmarked" and e.round == 0]
            numbers += [int(str(e.data["stack"])) for e in trashed]
            numbers += [k + 1 for k, stack in enumerate(state.tech_stacks) if stack]
    if mentat_cost(setup) != 2:
        numbers += [mentat_cost(setup)] * 2  # the token, and what the space costs
    if setup.options.physical_conflicts:
        # The engine's Conflict deck (RB p.4 B; Ix p.10), counted by level.
        levels = Counter(slot.level for slot in state.conflict_deck)
        if state.conflict:
            levels[state.catalog.conflicts[state.conflict].level] += 1
        numbers += list(levels.values())
    arrival = swordmaster_round(setup)
    if arrival is not None:
        numbers.append(arrival)
    return sorted(numbers)


def _expected_start(setup: Setup, houses) -> list[int]:
    numbers = []
    start = {h.vp for h in houses if h.kind != "hagal"}
    if start != {0}:
        numbers += [setup.players, *start]
    if setup.options.epic:
        numbers += [12, 10]  # Ix p.10: to 12 VP instead of 10
    return sorted(numbers)


@pytest.mark.parametrize(
    ("mode_name", "setting"),
    [
        (mode, setting)
        for mode in MODES
        for setting in SETTINGS
        # Epic Rivals standard is a solo setting
        if mode.startswith("solo") or "rivals" not in setting
    ],
)
def test_every_number_the_checklist_tells_is_the_engines(app, mode_name, setting):
    """Each house's section tells exactly the numbers of the house the engine starts with
    (`starting_houses`), the board the engine's Conflict deck, Tech tiles and difficulty;
    with the Epic Rivals standard setting the Rivals start as in a standard game."""
    mode, difficulty = MODES[mode_name]
    sets, options = SETTINGS[setting]
    catalog = app.extensions["catalog"]
    setup = make_setup(catalog, mode, difficulty, seed=5, sets=sets)  # type: ignore[arg-type]
    setup = replace(setup, options=Options(**options))
    houses, _first = starting_houses(setup)
    state = new_game(setup, catalog)
    sections = _sections(app, setup, state)
    assert len(sections) == len(houses) + 2
    (board_title, board), *house_sections, (start_title, start) = sections
    assert (board_title, start_title) == ("Board", "Start")
    assert _numbers(_text(board)) == _expected_board(setup, state)
    for house, (title, items) in zip(houses, house_sections, strict=True):
        assert house.name in title
        assert _numbers(title.replace(house.name, "")) == []
        assert _numbers(_text(items)) == _expected_house(setup, house), title
    told = _text(start)
    for house in houses:  # a name such as "Rival 1" is no number told
        told = told.replace(house.name, "")
    assert _numbers(told) == _expected_start(setup, houses)


@pytest.mark.parametrize("mode", ["solo", "2p"])
@pytest.mark.parametrize("epic", [False, True])
def test_every_human_seat_is_told_its_garrison_and_influence_cubes(app, mode, epic):
    """RB p.5, G4: "Place four cubes, one each, on the bottom spaces of the Influence
    tracks"; G5: three of the other 12 cubes in your garrison (5 in an Epic game, Ix p.10).
    Each player's own section says both, from `table_houses`, in solo and two-player too."""
    setup = _ix_setup(mode, epic=epic)
    sections = _sections(app, setup, None)
    humans = [h for h in table_houses(setup) if h.is_human]
    assert len(humans) == (1 if mode == "solo" else 2)
    for house in humans:
        (items,) = [items for title, items in sections if title.startswith(f"{house.name} plays")]
        assert house.garrison == (5 if epic else 3)
        assert (
            f"Put {house.garrison} troops in your garrison; the other cubes stay in your supply."
        ) in items
        assert "Put one of your cubes on the bottom space of each Faction's Influence track." in (
            items
        )

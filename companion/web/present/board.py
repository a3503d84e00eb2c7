"""The board map: each space with its fixed words and what lies on it now."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from companion.rules.catalog import Resources, SpaceDef
from companion.rules.engine import mentat_cost, space_problems
from companion.rules.state import GameState
from companion.web.language import card_text, npgettext, per_language, translator
from companion.web.language import gettext as _
from companion.web.language import lazy_word as _l
from companion.web.present.views import Chip, SpaceView, chip
from companion.web.present.words import catalog_words, faction_name, listed

AREAS = (
    ("emperor", _l("Emperor")),
    ("spacing_guild", _l("Spacing Guild")),
    ("bene_gesserit", _l("Bene Gesserit")),
    ("fremen", _l("Fremen")),
    ("landsraad", _l("Landsraad")),
    ("choam", _l("CHOAM")),
    ("city", _l("Cities")),
    ("desert", _l("Desert")),
)
# The board's three columns, as on the printed board: the Factions, the Landsraad and
# CHOAM, then Arrakis.
BOARD_COLUMNS = (
    ("emperor", "spacing_guild", "bene_gesserit", "fremen"),
    ("landsraad", "choam"),
    ("city", "desert"),
)
Board = tuple[tuple[tuple[str, str, tuple[SpaceView, ...]], ...], ...]


def area_of(space: SpaceDef) -> str:
    if space.icon == "spice_trade":
        return "desert" if space.maker else "choam"
    return space.faction or space.icon


# A variable cost the space data gives as text (card_db/base/spaces.toml).
COST_NOTES = {"2 to 5 spice": _l("2 to 5 spice")}


# An amount on a space is a label: entries of their own (context "amount label"), as a
# label and the object of "pay" differ in Polish ("1 woda" here, "zapłać 1 wodę").
def solari_label(n: int) -> str:
    return npgettext("amount label", "%(n)s Solari", "%(n)s Solari", n, n=n)


def spice_label(n: int) -> str:
    return npgettext("amount label", "%(n)s spice", "%(n)s spice", n, n=n)


def water_label(n: int) -> str:
    return npgettext("amount label", "%(n)s water", "%(n)s water", n, n=n)


def amounts_label(amounts: Resources) -> str:
    """'2 Solari, 1 spice' as a label on the board; "" for nothing."""
    return listed(
        [
            label(n)
            for n, label in (
                (amounts.solari, solari_label),
                (amounts.spice, spice_label),
                (amounts.water, water_label),
            )
            if n
        ]
    )


def cost_text(space: SpaceDef, state: GameState) -> str:
    """What a space costs, in the reader's language ("" when free)."""
    if space.id == "mentat":
        return solari_label(mentat_cost(state.setup))
    if space.cost_note:
        note = COST_NOTES.get(space.cost_note)
        return str(note) if note is not None else space.cost_note
    return amounts_label(space.cost)


def requirement_text(space: SpaceDef) -> str:
    return ", ".join(
        _("%(n)s %(faction)s Influence", n=n, faction=faction_name(f))
        for f, n in space.requires_influence.items()
    )


def control_bonus_text(space: SpaceDef) -> str:
    bonus = space.control_bonus
    if not bonus:
        return ""
    return solari_label(bonus.solari) if bonus.solari else spice_label(bonus.spice)


class SpaceWords(NamedTuple):
    """What a space shows that the game does not change: its words in the reader's
    language (its cost, the Mentat's from the game's set-up) and its area."""

    space: SpaceDef
    name: str
    area: str
    cost: str
    requirement: str
    control_bonus: str


def board_words(state: GameState) -> tuple[SpaceWords, ...]:
    """Each space's fixed words, found once per language, ruleset, sets and Mentat cost."""
    catalog, sets = state.catalog, state.setup.sets

    def make() -> tuple[SpaceWords, ...]:
        return tuple(
            SpaceWords(
                space=space,
                name=card_text(space.name),
                area=area_of(space),
                cost=cost_text(space, state),
                requirement=requirement_text(space),
                control_bonus=control_bonus_text(space),
            )
            for space in catalog.board(sets).values()
        )

    return catalog_words(catalog, ("board", sets, mentat_cost(state.setup)), make)


def board(state: GameState, here: bool = True) -> Board:
    """The board's columns of areas, each area with its spaces (an area with none in the
    game's sets is left out); `here`: this screen taps for the player whose turn it is (a
    screen that is another player's shows the board untappable, web/seats.py)."""
    by_area: dict[str, list[SpaceView]] = {area: [] for area, _label in AREAS}
    for space in spaces(state, here):
        by_area[space.area].append(space)
    labels = per_language("areas", lambda: {area: str(label) for area, label in AREAS})
    return tuple(
        tuple((area, labels[area], tuple(by_area[area])) for area in column if by_area[area])
        for column in BOARD_COLUMNS
    )


def board_wide_problem(columns: Board) -> str | None:
    """When no space can be used, the reason most free spaces give ("No Agent left",
    which the banner says), for the map to leave off them; None while one can be used."""
    problems: Counter[str] = Counter()
    for column in columns:
        for _area, _label, spaces_ in column:
            for space in spaces_:
                if space.tappable:
                    return None
                if space.problem and not space.occupant:
                    problems[space.problem] += 1
    return problems.most_common(1)[0][0] if problems else None


def spaces(state: GameState, here: bool = True) -> list[SpaceView]:
    """Every space of the game's board; on a player's Agent turn, shown on a screen that
    taps for them (`here`), with why each one can't be used (None where it can)."""
    acting = state.house(state.turn) if state.turn else None
    human_turn = here and acting is not None and acting.is_human and state.prompt is None
    problems = space_problems(state, acting.id) if human_turn and acting else {}
    # Infiltration [IX p.7]: an occupied space the acting player may still enter.
    infiltrable = (
        {s for s, why in space_problems(state, acting.id, infiltrate=True).items() if why is None}
        if state.ix and human_turn and acting
        else set()
    )
    chips = {h.id: chip(h) for h in state.houses}
    infiltrators: dict[str, list[Chip]] = {}
    for space_id, house_id in state.infiltrators:
        infiltrators.setdefault(space_id, []).append(chips[house_id])

    def chip_of(house_id: str | None) -> Chip | None:
        return chips[house_id] if house_id else None

    translated = translator()  # the spaces often give the same reason
    views = []
    for space, name, area, cost, requirement, control_bonus in board_words(state):
        post = state.posted.get(space.id)
        problem = problems.get(space.id) if human_turn else None
        views.append(
            SpaceView(
                id=space.id,
                name=name,
                area=area,
                cost=cost,
                requirement=requirement,
                occupant=chip_of(state.occupants.get(space.id)),
                bonus_spice=state.bonus_spice.get(space.id) if space.maker else None,
                controller=chip_of(post.house if post else state.control.get(space.id)),
                control_bonus=control_bonus,
                combat=space.combat,
                voice=chip_of(state.voice.get(space.id)),
                problem=translated(problem) if problem else None,
                tappable=human_turn and problem is None,
                dreadnought=chip_of(post.house) if post else None,
                covered=chip_of(state.control.get(space.id)) if post else None,
                infiltrators=tuple(infiltrators.get(space.id, ())),
                infiltrate=space.id in infiltrable,
            )
        )
    return views

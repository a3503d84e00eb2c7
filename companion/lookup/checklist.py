"""The physical set-up checklist for the table, generated from the game's setup.

Every line a player reads is translated with gettext when the checklist is built (in a
request, so in its language).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from babel.lists import format_list
from flask_babel import get_locale, gettext, ngettext

from companion.rules.catalog import Catalog
from companion.rules.hagal import hagal_cards
from companion.rules.ix import STACKS
from companion.rules.setup import (
    CONFLICT_LEVELS,
    EPIC_LEVELS,
    IMPERIUM_ROW,
    mentat_cost,
    starting_houses,
    swordmaster_round,
    table_houses,
)
from companion.rules.state import UNKNOWN_TILE, VP_TO_END, GameState, House, Setup

# Where the Rise of Ix board spaces are (Ix rulebook p.3 and p.12).
OVERLAY_SPACES = ("smuggling", "interstellar_shipping")
IX_BOARD_SPACES = ("dreadnought", "tech_negotiation")
HUNDRO = "hundro_moritani"  # waits for the others' Epic Intrigue card (Ix rulebook p.10)


def _(message: str, **values: object) -> str:
    return str(gettext(message, **values))


def _as_stored(text: str) -> str:
    return text


@dataclass(frozen=True, slots=True)
class Names:
    """How the checklist names what it lists: a house by the name it shows (a seat's
    default name translated), a name of card_db in the reader's language. The web layer
    gives both (companion.web.language); by default, as stored."""

    house: Callable[[str], str] = _as_stored
    card: Callable[[str], str] = _as_stored


def _color(color: str) -> str:
    """A house's colour in words."""
    words = {"red": _("red"), "blue": _("blue"), "green": _("green"), "yellow": _("yellow")}
    return words.get(color, color)


def _leader(catalog: Catalog, names: Names, leader_id: str) -> str:
    found = catalog.leaders.get(leader_id)
    return names.card(found.name) if found else leader_id


def checklist(
    setup: Setup, catalog: Catalog, state: GameState | None = None, names: Names | None = None
) -> list[tuple[str, list[str]]]:
    """Sections of set-up steps, in the order the table does them (rulebook pp.4-5, 19-20;
    Rise of Ix rulebook pp.3, 8, 10): the board, then one section per house written from
    the houses the engine starts with (`rules.setup.table_houses`), then who starts. With
    the game's `state`, the Tech tiles the app turned face up are named; `names` shows the
    houses' and card_db's names."""
    names = names or Names()
    houses = table_houses(setup)
    sections = [(_("Board"), _board(setup, catalog, names, state))]
    for house in houses:
        sections.append((_title(house, catalog, names), _house(setup, catalog, names, house)))
    sections.append((_("Start"), _start(setup, houses, names)))
    return sections


# -- the board ------------------------------------------------------------------------------


def _board(setup: Setup, catalog: Catalog, names: Names, state: GameState | None) -> list[str]:
    ix = "ix" in setup.sets
    board = [
        *(_ix_cards(catalog) if ix else []),
        ngettext(
            "Lay out the board, the Imperium Row (%(num)s card), the Reserve stacks and the "
            "shuffled Intrigue deck (rulebook p.4).",
            "Lay out the board, the Imperium Row (%(num)s cards), the Reserve stacks and the "
            "shuffled Intrigue deck (rulebook p.4).",
            IMPERIUM_ROW,
        ),
        *(_ix_board(setup, catalog, names, state) if ix else []),
        _("Put the Mentat on its space and the four Alliance tokens on the Influence tracks."),
    ]
    cost = mentat_cost(setup)
    if cost != mentat_cost(replace(setup, difficulty=None)):  # the 5 Solari token
        board.append(
            _(
                "Place the %(cost)s Solari token on the Mentat space: it costs %(cost)s "
                "Solari this game.",
                cost=cost,
            )
        )
    board.append(_conflicts(setup))
    arrival = swordmaster_round(setup)
    if arrival is not None:
        board.append(_rival_swordmasters(setup, arrival))
    if setup.mode in ("solo", "2p"):
        board.append(_hagal_deck(setup, catalog, names))
    else:
        board.append(
            _(
                "Leave the House Hagal cards and their rules sheet in the box: they are for "
                "solo and two-player games."
            )
        )
    return board


def _rival_swordmasters(setup: Setup, arrival: int) -> str:
    """Where the Rivals' Swordmasters wait [RB p.20]."""
    if setup.options.physical_conflicts:
        return str(
            ngettext(
                "Slide both Rivals' Swordmasters (third Agents) under the top %(num)s "
                "Conflict card.",
                "Slide both Rivals' Swordmasters (third Agents) under the top %(num)s "
                "Conflict cards.",
                arrival,
            )
        )
    return _(
        "Keep both Rivals' Swordmasters aside: the app gives them their third Agent in "
        "round %(n)s.",
        n=arrival,
    )


def _conflicts(setup: Setup) -> str:
    """Who draws the Conflict cards."""
    if setup.options.physical_conflicts:
        return _conflict_deck(setup)
    return _("The app draws the Conflict cards: each round, take the card it names from the box.")


def _conflict_deck(setup: Setup) -> str:
    """The physical Conflict deck (rulebook p.4; Ix rulebook p.3; Epic: Ix rulebook p.10)."""
    if setup.options.epic:
        epic = dict(EPIC_LEVELS)
        return _(
            "Build the Conflict deck from the base and Rise of Ix Conflict cards, without "
            "Conflict I: %(three)s Conflict III at the bottom, %(two)s random Conflict II on "
            "top (Rise of Ix rulebook p.10).",
            three=epic[3],
            two=epic[2],
        )
    counts = dict(CONFLICT_LEVELS)
    values = {"three": counts[3], "two": counts[2], "one": counts[1]}
    if "ix" in setup.sets:
        return _(
            "Build the Conflict deck from the base and Rise of Ix Conflict cards: %(three)s "
            "random Conflict III at the bottom, %(two)s random Conflict II on top, %(one)s "
            "random Conflict I on top; the Conflict III left over goes back to the box (Rise "
            "of Ix rulebook p.3).",
            **values,
        )
    return _(
        "Build the Conflict deck: %(three)s Conflict III at the bottom, %(two)s random "
        "Conflict II on top, %(one)s random Conflict I on top.",
        **values,
    )


def _hagal_deck(setup: Setup, catalog: Catalog, names: Names) -> str:
    """How the table builds the House Hagal deck, or that the app plays it."""
    n_hagal = len(hagal_cards(setup, catalog))
    if not setup.options.physical_hagal:
        return _("The app plays the House Hagal deck: leave those cards in the box.")
    if "ix" in setup.sets:
        return _hagal_deck_ix(setup, catalog, names, n_hagal)
    if setup.mode == "solo":
        return str(
            ngettext(
                "House Hagal deck: remove the Reshuffle card and the three Arrakeen "
                "cards marked 2P, then shuffle the %(num)s other.",
                "House Hagal deck: remove the Reshuffle card and the three Arrakeen "
                "cards marked 2P, then shuffle the %(num)s others.",
                n_hagal,
            )
        )
    return str(
        ngettext(
            "House Hagal deck: remove the three Arrakeen cards marked 1P, keep the "
            "Reshuffle card, and shuffle the %(num)s card.",
            "House Hagal deck: remove the three Arrakeen cards marked 1P, keep the "
            "Reshuffle card, and shuffle the %(num)s cards.",
            n_hagal,
        )
    )


# -- the houses -----------------------------------------------------------------------------


def _title(house: House, catalog: Catalog, names: Names) -> str:
    """A house's section title: who it is, its leader and its colour."""
    values = {
        "name": names.house(house.name),
        "leader": _leader(catalog, names, house.leader),
        "color": _color(house.color),
    }
    if house.kind == "hagal":
        return _("%(name)s in %(color)s", **values)
    if house.id == "r1":
        return _("%(name)s, the Rival on your left: %(leader)s in %(color)s", **values)
    if house.id == "r2":
        return _("%(name)s, the Rival on your right: %(leader)s in %(color)s", **values)
    return _("%(name)s plays %(leader)s in %(color)s", **values)


def _house(setup: Setup, catalog: Catalog, names: Names, house: House) -> list[str]:
    """What one house takes, every number from the house the engine starts with (and, for
    a player, `table_houses`' share the engine does not track) [RB pp.4-5, E-G; p.19
    Two-Player; p.20 Solo; IX p.3, p.10 Epic]."""
    if house.is_human:
        return _player(setup, catalog, names, house)
    return _rival(setup, house)


def _player(setup: Setup, catalog: Catalog, names: Names, house: House) -> list[str]:
    epic = setup.options.epic
    items = []
    if epic:
        items.append(
            _(
                "Epic game: swap one Dune, the Desert Planet in your starting deck for "
                "Control the Spice (Rise of Ix rulebook p.10)."
            )
        )
    items += [
        _("Shuffle your starting deck and put it face down to the left of your Leader."),
        ngettext(
            "Put %(num)s Agent on your Leader and your Swordmaster (third Agent) next to "
            "the board.",
            "Put %(num)s Agents on your Leader and your Swordmaster (third Agent) next to "
            "the board.",
            house.agents,
        ),
        _(
            "Put your Score marker on the %(vp)s space of the Score track and your Combat "
            "marker on the %(strength)s space of the Combat track.",
            vp=house.vp,
            strength=house.strength,
        ),
        _("Put one of your cubes on the bottom space of each Faction's Influence track."),
        ngettext(
            "Put %(num)s troop in your garrison; the other cubes stay in your supply.",
            "Put %(num)s troops in your garrison; the other cubes stay in your supply.",
            house.garrison,
        ),
        ngettext("Take %(num)s water.", "Take %(num)s water.", house.water),
    ]
    if house.intrigue:
        items.append(
            ngettext(
                "Epic game: draw %(num)s Intrigue card (Rise of Ix rulebook p.10).",
                "Epic game: draw %(num)s Intrigue cards (Rise of Ix rulebook p.10).",
                house.intrigue,
            )
        )
    if house.solari or house.spice:
        spice = ngettext("%(n)s spice", "%(n)s spice", house.spice, n=house.spice)
        items.append(
            ngettext(
                "Mercenary difficulty: take %(num)s Solari and %(spice)s.",
                "Mercenary difficulty: take %(num)s Solari and %(spice)s.",
                house.solari,
                spice=spice,
            )
        )
    if "ix" in setup.sets:
        items.append(
            ngettext(
                "Put your %(num)s dreadnought in your supply and your Freighter disc on the "
                "bottom space of the Shipping track (Rise of Ix rulebook p.3).",
                "Put your %(num)s dreadnoughts in your supply and your Freighter disc on the "
                "bottom space of the Shipping track (Rise of Ix rulebook p.3).",
                house.dn_supply,
            )
        )
    if epic and house.leader == HUNDRO:
        found = catalog.leaders.get(HUNDRO)
        items.append(
            _(
                "You play %(leader)s: wait until everyone has drawn their Intrigue card, "
                "then use %(ability)s (Rise of Ix rulebook p.10).",
                leader=names.card(found.name) if found else HUNDRO,
                ability=names.card(found.ability_name) if found else "Intelligence",
            )
        )
    if setup.difficulty == "kwisatz":
        items.append(_("Kwisatz Haderach difficulty: you can't gain a Swordmaster this game."))
    return items


def _rival(setup: Setup, house: House) -> list[str]:
    """A Rival [RB p.20] or House Hagal [RB p.19]: its pieces, in the third person."""
    hagal = house.kind == "hagal"
    items = []
    if not hagal:
        items.append(_("It uses only the Signet ability of its Leader (the right side)."))
    items.append(
        ngettext(
            "Put its %(num)s Agent near its supply.",
            "Put its %(num)s Agents near its supply.",
            house.agents,
        )
    )
    if hagal:
        items.append(_("It scores no VP: it has no Score marker (rulebook p.19)."))
    else:
        items.append(
            _(
                "Put its Score marker on the %(vp)s space of the Score track and its Combat "
                "marker on the %(strength)s space of the Combat track.",
                vp=house.vp,
                strength=house.rival_strength,
            )
        )
    items.append(_("Put one of its cubes on the bottom space of each Faction's Influence track."))
    if house.garrison:
        items.append(
            ngettext(
                "Put %(num)s troop in its garrison; the other cubes stay in its supply.",
                "Put %(num)s troops in its garrison; the other cubes stay in its supply.",
                house.garrison,
            )
        )
    else:
        items.append(_("It starts with no troops in its garrison: its cubes stay in its supply."))
    if house.water:
        items.append(ngettext("Give it %(num)s water.", "Give it %(num)s water.", house.water))
    if house.intrigue:
        items.append(
            ngettext(
                "Deal it %(num)s Intrigue card.",
                "Deal it %(num)s Intrigue cards.",
                house.intrigue,
            )
        )
    if hagal and not (house.water or house.intrigue or house.solari or house.spice):
        items.append(_("It takes no resources (rulebook p.19)."))
    if "ix" in setup.sets:
        items.append(
            ngettext(
                "Put its %(num)s dreadnought in its supply and its Freighter disc on the "
                "bottom space of the Shipping track (Rise of Ix rulebook pp.3, 8).",
                "Put its %(num)s dreadnoughts in its supply and its Freighter disc on the "
                "bottom space of the Shipping track (Rise of Ix rulebook pp.3, 8).",
                house.dn_supply,
            )
        )
    return items


# -- the start ------------------------------------------------------------------------------


def _start(setup: Setup, houses: tuple[House, ...], names: Names) -> list[str]:
    """Who takes the First Player marker, where the Score markers start, the goal and the
    variants in play."""
    first_id = starting_houses(setup)[1]
    first = names.house(next(h.name for h in houses if h.id == first_id))
    options = setup.options
    if setup.mode == "solo":
        items = [_("%(name)s, the Rival on your left, takes the First Player marker.", name=first)]
    elif options.draw_first_player:
        items = [
            _(
                "The app drew the first player at random (rulebook p.5, H): %(name)s takes "
                "the First Player marker.",
                name=first,
            )
        ]
    else:
        items = [_("%(name)s takes the First Player marker.", name=first)]
    if setup.mode == "2p":
        items.append(_("House Hagal acts after each of the First Player's Agent turns."))
    start_vp = {h.vp for h in houses if h.kind != "hagal"}
    if start_vp != {0}:
        (vp,) = start_vp  # every scoring house starts on the same space
        items.append(
            _(
                "With %(players)s players every Score marker starts on the %(vp)s space "
                "(rulebook pp.4-5, G2): the app counts that VP.",
                players=setup.players,
                vp=vp,
            )
        )
    if options.epic:
        items.append(
            _(
                "Epic game: the game ends at %(vp)s VP instead of %(standard)s (Rise of Ix "
                "rulebook p.10).",
                vp=setup.vp_to_end,
                standard=VP_TO_END,
            )
        )
        if setup.mode == "solo":
            items.append(
                _(
                    "Epic game: the Rivals start as in a standard game, as you chose (Rise of "
                    "Ix rulebook p.10 speaks of players only)."
                )
                if options.epic_rivals_standard
                else _(
                    "Epic game: the Rivals' troops and Intrigue cards above are the app's "
                    "reading of \u201ceach player\u201d (Rise of Ix rulebook p.10): a Rival "
                    "that starts with troops starts with as many as you, and every Rival "
                    "draws the Intrigue card."
                )
            )
    if options.churn:
        items.append(
            _(
                "Imperium Row churn: after each of your Reveal turns the app rolls two "
                "dice and names the Row positions to trash."
            )
        )
    if options.brutal_escalation:
        items.append(_("Brutal Escalation: in a Conflict III, Rivals reveal two cards for swords."))
    return items


def _join(names: Sequence[str]) -> str:
    """ "a, b, and c" joined the reader's way (Babel's format_list, CLDR's data)."""
    return str(format_list(list(names), locale=get_locale() or "en")) if names else ""


def _ix_cards(catalog: Catalog) -> list[str]:
    """The Rise of Ix cards go into the decks before the Imperium Row is dealt (Ix p.3)."""
    imperium = sum(
        c.copies for c in catalog.cards.values() if c.set == "ix" and c.kind == "imperium"
    )
    intrigue = sum(c.copies for c in catalog.intrigue.values() if c.set == "ix")
    imperium_cards = ngettext(
        "the %(num)s Rise of Ix Imperium card",
        "the %(num)s Rise of Ix Imperium cards",
        imperium,
    )
    return [
        ngettext(
            "Shuffle the %(num)s Rise of Ix Intrigue card into the Intrigue deck and "
            "%(imperium_cards)s into the Imperium deck, before you deal the Imperium Row "
            "(Rise of Ix rulebook p.3).",
            "Shuffle the %(num)s Rise of Ix Intrigue cards into the Intrigue deck and "
            "%(imperium_cards)s into the Imperium deck, before you deal the Imperium Row "
            "(Rise of Ix rulebook p.3).",
            intrigue,
            imperium_cards=imperium_cards,
        )
    ]


def _ix_board(setup: Setup, catalog: Catalog, names: Names, state: GameState | None) -> list[str]:
    """The CHOAM board overlay, the Ix board and the Tech tiles (Ix rulebook p.3)."""

    def space(sid: str) -> str:
        found = catalog.spaces.get(sid)
        return names.card(found.name) if found else sid

    gone = [names.card(s.name) for s in catalog.spaces.values() if "ix" in s.removed_with]
    shipping = _("the Shipping track")  # apart: pybabel skips a _() inside another's arguments
    return [
        _(
            "Place the CHOAM board overlay on the upper right corner of the board, over the "
            "Landsraad and CHOAM sections: %(gone)s are gone; %(new)s are new (Rise of Ix "
            "rulebook p.3).",
            gone=_join(gone),
            new=_join([*(space(s) for s in OVERLAY_SPACES), shipping]),
        ),
        _(
            "Place the Ix board next to the game board: the %(spaces)s spaces, the three "
            "Tech stacks and the planet Ix for Negotiators (Rise of Ix rulebook p.3).",
            spaces=_join([space(s) for s in IX_BOARD_SPACES]),
        ),
        *_tech_tiles(setup, catalog, names, state),
    ]


def _tech_tiles(setup: Setup, catalog: Catalog, names: Names, state: GameState | None) -> list[str]:
    """Three stacks of Tech tiles: the table's own shuffle, or the app's face-up tiles."""
    tiles = len([t for t in catalog.tech.values() if t.set in setup.sets])
    size = tiles // STACKS
    if setup.options.physical_tech:
        return [
            ngettext(
                "Tech tiles: shuffle the %(num)s tile face down, make three stacks of "
                "%(size)s on the Ix board and turn the top tile of each stack face up; the "
                "app then asks which tiles came up (Rise of Ix rulebook p.3).",
                "Tech tiles: shuffle the %(num)s tiles face down, make three stacks of "
                "%(size)s on the Ix board and turn the top tile of each stack face up; the "
                "app then asks which tiles came up (Rise of Ix rulebook p.3).",
                tiles,
                size=size,
            )
        ]
    shuffle = ngettext(
        "Tech tiles: shuffle the %(num)s tile face down and make three stacks of %(size)s "
        "on the Ix board (Rise of Ix rulebook p.3).",
        "Tech tiles: shuffle the %(num)s tiles face down and make three stacks of %(size)s "
        "on the Ix board (Rise of Ix rulebook p.3).",
        tiles,
        size=size,
    )
    if state is None:
        return [
            shuffle,
            _(
                "The app draws the face-up tiles and the table screen names them: put each "
                "one face up on top of its stack."
            ),
        ]
    items = [
        shuffle,
        _("The app drew the face-up tiles: put each one below face up on top of its stack."),
    ]

    def name(tile: str) -> str:
        found = catalog.tech.get(tile)
        return names.card(found.name) if found else tile

    for e in state.log:
        if e.kind == "tech_trash_unmarked" and e.round == 0:
            items.append(
                _(
                    "No face-up tile had the House Hagal mark, so the app trashed %(tile)s "
                    "from Tech stack %(n)s: put it back in the box, one tile fewer in that "
                    "stack (Rise of Ix rulebook p.9).",
                    tile=name(str(e.data.get("tile"))),
                    n=e.data.get("stack"),
                )
            )
    for k, stack in enumerate(state.tech_stacks):
        if stack and stack[0] != UNKNOWN_TILE:
            items.append(
                _(
                    "Tech stack %(n)s (from the top): %(tile)s face up.",
                    n=k + 1,
                    tile=name(stack[0]),
                )
            )
    return items


def _hagal_deck_ix(setup: Setup, catalog: Catalog, names: Names, deck_size: int) -> str:
    """The physical House Hagal deck with Rise of Ix (Ix rulebook p.8; HAGAL.md §6)."""
    drop = "2P" if setup.mode == "solo" else "1P"
    if setup.mode == "solo":
        removed = [_("the Reshuffle card"), _("the three Arrakeen cards marked 2P")]
    else:
        removed = [_("the three Arrakeen cards marked 1P")]
    removed += [
        _("%(n)s %(card)s", n=c.copies, card=names.card(c.name))
        for c in catalog.hagal.values()
        if "ix" in c.removed_with
    ]
    added = [c for c in catalog.hagal.values() if c.set == "ix"]
    left_out = [c for c in added if c.players == drop]
    marked = f" ({drop})"  # said once for them all
    n_added = sum(c.copies for c in added)
    n_left = sum(c.copies for c in left_out)
    values: dict[str, object] = {
        "removed": _join(removed),
        "added_cards": ngettext(
            "the %(num)s Rise of Ix card", "the %(num)s Rise of Ix cards", n_added
        ),
        "left_cards": (
            ngettext("the %(num)s marked 2P", "the %(num)s marked 2P", n_left)
            if drop == "2P"
            else ngettext("the %(num)s marked 1P", "the %(num)s marked 1P", n_left)
        ),
        "cards": _join(
            [
                _("%(n)s %(card)s", n=c.copies, card=names.card(c.name).replace(marked, ""))
                for c in left_out
            ]
        ),
    }
    if setup.mode == "solo":
        return str(
            ngettext(
                "House Hagal deck: remove %(removed)s; add %(added_cards)s but not "
                "%(left_cards)s (%(cards)s); shuffle the %(num)s card (Rise of Ix rulebook p.8).",
                "House Hagal deck: remove %(removed)s; add %(added_cards)s but not "
                "%(left_cards)s (%(cards)s); shuffle the %(num)s cards (Rise of Ix rulebook p.8).",
                deck_size,
                **values,
            )
        )
    return str(
        ngettext(
            "House Hagal deck: remove %(removed)s, keep the Reshuffle card; add %(added_cards)s "
            "but not %(left_cards)s (%(cards)s); shuffle the %(num)s card (Rise of Ix rulebook "
            "p.8).",
            "House Hagal deck: remove %(removed)s, keep the Reshuffle card; add %(added_cards)s "
            "but not %(left_cards)s (%(cards)s); shuffle the %(num)s cards (Rise of Ix rulebook "
            "p.8).",
            deck_size,
            **values,
        )
    )

"""The physical set-up checklist for the table, generated from the game's setup.

Every line a player reads is translated with gettext when the checklist is built (in a
request, so in its language).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from flask_babel import gettext, ngettext

from companion.rules.catalog import Catalog
from companion.rules.hagal import hagal_cards
from companion.rules.ix import STACKS
from companion.rules.setup import DIFFICULTY
from companion.rules.state import UNKNOWN_TILE, GameState, SeatSetup, Setup

# Where the Rise of Ix board spaces are (Ix rulebook p.3 and p.12).
OVERLAY_SPACES = ("smuggling", "interstellar_shipping")
IX_BOARD_SPACES = ("dreadnought", "tech_negotiation")
HUNDRO = "hundro_moritani"  # waits for the others' Epic Intrigue card (Ix rulebook p.10)
EPIC_GARRISON = 5  # instead of 3 (Ix rulebook p.10)


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


def _player(setup: Setup, catalog: Catalog, names: Names, seat: SeatSetup) -> dict[str, object]:
    """What a player's set-up line names: name, leader, colour and starting troops."""
    return {
        "name": names.house(seat.name),
        "leader": _leader(catalog, names, seat.leader),
        "color": _color(seat.color),
        "troops": EPIC_GARRISON if setup.options.epic else 3,
    }


def checklist(
    setup: Setup, catalog: Catalog, state: GameState | None = None, names: Names | None = None
) -> list[tuple[str, list[str]]]:
    """Sections of set-up steps, in the order the table does them (rulebook pp.4-5, 19-20;
    Rise of Ix rulebook pp.3, 8, 10). With the game's `state`, the Tech tiles the app
    turned face up are named; `names` shows the houses' and card_db's names."""
    names = names or Names()
    ix = "ix" in setup.sets
    board = [
        *(_ix_cards(catalog) if ix else []),
        _(
            "Lay out the board, the Imperium Row (5 cards), the Reserve stacks and the shuffled "
            "Intrigue deck (rulebook p.4)."
        ),
        *(_ix_board(setup, catalog, names, state) if ix else []),
        _("Put the Mentat on its space and the four Alliance tokens on the Influence tracks."),
    ]
    if setup.mode == "solo":
        return [
            (_("Board"), board + _solo_board(setup, catalog, names)),
            (_("Rivals"), _solo_rivals(setup, catalog, names)),
            (_("You"), _solo_you(setup, catalog, names)),
            (_("Start"), _solo_start(setup, names)),
        ]
    return [
        (_("Board"), [*board, _conflicts(setup), _hagal_deck(setup, catalog, names)]),
        (_("Houses"), _houses(setup, catalog, names)),
        (_("Start"), _two_player_start(setup, names)),
    ]


def _difficulty(setup: Setup) -> dict[str, int]:
    assert setup.difficulty is not None
    return DIFFICULTY[setup.difficulty]


def _conflicts(setup: Setup) -> str:
    """Who draws the Conflict cards."""
    if setup.options.physical_conflicts:
        return _conflict_deck(setup)
    return _("The app draws the Conflict cards: each round, take the card it names from the box.")


def _hagal_deck(setup: Setup, catalog: Catalog, names: Names) -> str:
    """How the table builds the House Hagal deck, or that the app plays it."""
    n_hagal = len(hagal_cards(setup, catalog))
    if not setup.options.physical_hagal:
        return _("The app plays the House Hagal deck: leave those cards in the box.")
    if "ix" in setup.sets:
        return _hagal_deck_ix(setup, catalog, names, n_hagal)
    if setup.mode == "solo":
        return _(
            "House Hagal deck: remove the Reshuffle card and the three Arrakeen "
            "cards marked 2P, then shuffle the %(n)s others.",
            n=n_hagal,
        )
    return _(
        "House Hagal deck: remove the three Arrakeen cards marked 1P, keep the "
        "Reshuffle card, and shuffle the %(n)s cards.",
        n=n_hagal,
    )


def _solo_board(setup: Setup, catalog: Catalog, names: Names) -> list[str]:
    """The Mentat's cost, the Conflict deck and the House Hagal deck of a solo game."""
    diff = _difficulty(setup)
    board = []
    if diff["mentat_cost"] == 5:
        board.append(
            _("Place the 5 Solari token on the Mentat space: it costs 5 Solari this game.")
        )
    board.append(_conflicts(setup))
    if setup.options.physical_conflicts:
        board.append(
            _(
                "Slide both Rivals' Swordmasters (third Agents) under the top %(n)s "
                "Conflict cards.",
                n=diff["swordmaster_round"],
            )
        )
    else:
        board.append(
            _(
                "Keep both Rivals' Swordmasters aside: the app gives them their third "
                "Agent in round %(n)s.",
                n=diff["swordmaster_round"],
            )
        )
    board.append(_hagal_deck(setup, catalog, names))
    return board


def _solo_rivals(setup: Setup, catalog: Catalog, names: Names) -> list[str]:
    """Where both Rivals sit and what they start with."""
    epic = setup.options.epic
    diff = _difficulty(setup)
    # The same reading of Epic's "each player" as engine.new_game: Rivals that start
    # with 3 troops start with 5, and every Rival draws the Intrigue card.
    rival_troops = EPIC_GARRISON if epic and diff["garrison"] == 3 else diff["garrison"]
    rival_intrigue = diff["intrigue"] + (1 if epic else 0)
    rivals = []
    for i, seat in enumerate(setup.rivals):
        side = _("on your left") if i == 0 else _("on your right")
        rivals.append(
            _(
                "%(name)s (%(leader)s, %(color)s) sits %(side)s: a cube at the bottom of "
                "each Influence track, 2 Agents, 1 water%(extra)s, %(troops)s troops in "
                "its garrison.",
                name=names.house(seat.name),
                leader=_leader(catalog, names, seat.leader),
                color=_color(seat.color),
                side=side,
                troops=rival_troops,
                extra=ngettext(
                    " and %(num)s Intrigue card", " and %(num)s Intrigue cards", rival_intrigue
                )
                if rival_intrigue
                else "",
            )
        )
    rivals.append(_("Rivals use only their Signet ability (right side of the leader)."))
    if "ix" in setup.sets:
        rivals.append(
            _(
                "Each Rival puts its 2 dreadnoughts in its supply and its Freighter disc "
                "on the bottom space of the Shipping track (Rise of Ix rulebook p.3)."
            )
        )
    if epic:
        rivals.append(
            _(
                "Epic game: each Rival starts with 5 troops instead of 3 and draws one "
                "more Intrigue card (the app's reading of \u201ceach player\u201d, Rise of "
                "Ix rulebook p.10)."
            )
            if diff["garrison"] == 3
            else _(
                "Epic game: each Rival draws 1 Intrigue card; Mercenary Rivals still "
                "start with no troops (the app's reading of \u201ceach player\u201d, Rise "
                "of Ix rulebook p.10)."
            )
        )
    return rivals


def _solo_you(setup: Setup, catalog: Catalog, names: Names) -> list[str]:
    """What the solo player starts with."""
    mine = [
        _(
            "%(name)s plays %(leader)s in %(color)s: starting deck, 2 Agents, %(troops)s "
            "troops in your garrison, cubes on the tracks, 1 water.",
            **_player(setup, catalog, names, setup.humans[0]),
        )
    ]
    if setup.difficulty == "mercenary":
        mine.append(_("Mercenary difficulty: you also take 1 Solari and 1 spice."))
    if setup.difficulty == "kwisatz":
        mine.append(_("Kwisatz Haderach difficulty: you can't gain a Swordmaster this game."))
    pieces = _(
        "Put your 2 dreadnoughts in your supply and your Freighter disc on the "
        "bottom space of the Shipping track (Rise of Ix rulebook p.3)."
    )
    return mine + _ix_and_epic(setup, catalog, names, pieces)


def _ix_and_epic(setup: Setup, catalog: Catalog, names: Names, ix_pieces: str) -> list[str]:
    """The players' Rise of Ix pieces step (with Rise of Ix), then the Epic mode steps."""
    steps = [ix_pieces] if "ix" in setup.sets else []
    return steps + (_epic_players(setup, catalog, names) if setup.options.epic else [])


def _solo_start(setup: Setup, names: Names) -> list[str]:
    """Who starts a solo game, and the variants in play."""
    options = setup.options
    first = [
        _(
            "%(name)s, the Rival on your left, takes the First Player marker.",
            name=names.house(setup.rivals[0].name),
        )
    ]
    if options.epic:
        first.append(_epic_goal())
    if options.churn:
        first.append(
            _(
                "Imperium Row churn: after each of your Reveal turns the app rolls two "
                "dice and names the Row positions to trash."
            )
        )
    if options.brutal_escalation:
        first.append(_("Brutal Escalation: in a Conflict III, Rivals reveal two cards for swords."))
    return first


def _houses(setup: Setup, catalog: Catalog, names: Names) -> list[str]:
    """What House Hagal and each player start with in a two-player game."""
    houses = [
        _(
            "House Hagal in %(color)s: a cube at the bottom of each Influence track, 3 Agents, "
            "no troops in its garrison, no resources.",
            color=_color(setup.rivals[0].color),
        )
    ]
    if "ix" in setup.sets:
        houses.append(
            _(
                "House Hagal puts its 2 dreadnoughts in its supply and its Freighter disc on "
                "the bottom space of the Shipping track (Rise of Ix rulebook pp.3, 8)."
            )
        )
    for seat in setup.humans:
        houses.append(
            _(
                "%(name)s plays %(leader)s in %(color)s: starting deck, 2 Agents, %(troops)s "
                "troops, 1 water.",
                **_player(setup, catalog, names, seat),
            )
        )
    pieces = _(
        "Each player puts their 2 dreadnoughts in their supply and their Freighter "
        "disc on the bottom space of the Shipping track (Rise of Ix rulebook p.3)."
    )
    return houses + _ix_and_epic(setup, catalog, names, pieces)


def _two_player_start(setup: Setup, names: Names) -> list[str]:
    """Who starts a two-player game."""
    first = [
        _(
            "%(name)s takes the First Player marker. House Hagal acts after each of the First "
            "Player's Agent turns.",
            name=names.house(setup.humans[setup.first_player].name),
        )
    ]
    if setup.options.epic:
        first.append(_epic_goal())
    return first


def _join(names: Sequence[str]) -> str:
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s and %(last)s", first=", ".join(names[:-1]), last=names[-1])


def _ix_cards(catalog: Catalog) -> list[str]:
    """The Rise of Ix cards go into the decks before the Imperium Row is dealt (Ix p.3)."""
    imperium = sum(
        c.copies for c in catalog.cards.values() if c.set == "ix" and c.kind == "imperium"
    )
    intrigue = sum(c.copies for c in catalog.intrigue.values() if c.set == "ix")
    return [
        _(
            "Shuffle the %(intrigue)s Rise of Ix Intrigue cards into the Intrigue deck and "
            "the %(imperium)s Rise of Ix Imperium cards into the Imperium deck, before you "
            "deal the Imperium Row (Rise of Ix rulebook p.3).",
            intrigue=intrigue,
            imperium=imperium,
        )
    ]


def _ix_board(setup: Setup, catalog: Catalog, names: Names, state: GameState | None) -> list[str]:
    """The CHOAM board overlay, the Ix board and the Tech tiles (Ix rulebook p.3)."""

    def space(sid: str) -> str:
        found = catalog.spaces.get(sid)
        return names.card(found.name) if found else sid

    gone = [names.card(s.name) for s in catalog.spaces.values() if "ix" in s.removed_with]
    return [
        _(
            "Place the CHOAM board overlay on the upper right corner of the board, over the "
            "Landsraad and CHOAM sections: %(gone)s are gone; %(new)s are new (Rise of Ix "
            "rulebook p.3).",
            gone=_join(gone),
            new=_join([*(space(s) for s in OVERLAY_SPACES), _("the Shipping track")]),
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
            _(
                "Tech tiles: shuffle the %(tiles)s tiles face down, make three stacks of "
                "%(size)s on the Ix board and turn the top tile of each stack face up; the "
                "app then asks which tiles came up (Rise of Ix rulebook p.3).",
                tiles=tiles,
                size=size,
            )
        ]
    shuffle = _(
        "Tech tiles: shuffle the %(tiles)s tiles face down and make three stacks of %(size)s "
        "on the Ix board (Rise of Ix rulebook p.3).",
        tiles=tiles,
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


def _conflict_deck(setup: Setup) -> str:
    """The physical Conflict deck (rulebook p.4; Ix rulebook p.3; Epic: Ix rulebook p.10)."""
    if setup.options.epic:
        return _(
            "Build the Conflict deck from the base and Rise of Ix Conflict cards, without "
            "Conflict I: 5 Conflict III at the bottom, 5 random Conflict II on top (Rise of "
            "Ix rulebook p.10)."
        )
    if "ix" in setup.sets:
        return _(
            "Build the Conflict deck from the base and Rise of Ix Conflict cards: 4 random "
            "Conflict III at the bottom, 5 random Conflict II on top, 1 random Conflict I on "
            "top; the Conflict III left over goes back to the box (Rise of Ix rulebook p.3)."
        )
    return _(
        "Build the Conflict deck: 4 Conflict III at the bottom, 5 random Conflict II on top, "
        "1 random Conflict I on top."
    )


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
    values: dict[str, object] = {
        "removed": _join(removed),
        "added": sum(c.copies for c in added),
        "left": sum(c.copies for c in left_out),
        "cards": _join(
            [
                _("%(n)s %(card)s", n=c.copies, card=names.card(c.name).replace(marked, ""))
                for c in left_out
            ]
        ),
        "n": deck_size,
    }
    if setup.mode == "solo":
        return _(
            "House Hagal deck: remove %(removed)s; add the %(added)s Rise of Ix cards "
            "but not the %(left)s marked 2P (%(cards)s); shuffle the %(n)s cards (Rise of "
            "Ix rulebook p.8).",
            **values,
        )
    return _(
        "House Hagal deck: remove %(removed)s, keep the Reshuffle card; add the %(added)s "
        "Rise of Ix cards but not the %(left)s marked 1P (%(cards)s); shuffle the %(n)s "
        "cards (Rise of Ix rulebook p.8).",
        **values,
    )


def _epic_players(setup: Setup, catalog: Catalog, names: Names) -> list[str]:
    """What every player does for an Epic game (Ix rulebook p.10)."""
    if setup.mode == "solo":
        items = [
            _(
                "Epic game: swap one Dune, the Desert Planet in your starting deck for Control "
                "the Spice; you start with 5 troops in your garrison instead of 3 (Rise of Ix "
                "rulebook p.10)."
            ),
            _("Epic game: draw 1 Intrigue card (Rise of Ix rulebook p.10)."),
        ]
    else:
        items = [
            _(
                "Epic game: each player swaps one Dune, the Desert Planet in their starting "
                "deck for Control the Spice and starts with 5 troops in their garrison instead "
                "of 3 (Rise of Ix rulebook p.10)."
            ),
            _("Epic game: each player draws 1 Intrigue card (Rise of Ix rulebook p.10)."),
        ]
    for seat in setup.humans:
        if seat.leader == HUNDRO:
            found = catalog.leaders.get(HUNDRO)
            items.append(
                _(
                    "%(name)s plays %(leader)s: wait until everyone has drawn their Intrigue "
                    "card, then use %(ability)s (Rise of Ix rulebook p.10).",
                    name=names.house(seat.name),
                    leader=names.card(found.name) if found else HUNDRO,
                    ability=names.card(found.ability_name) if found else "Intelligence",
                )
            )
    return items


def _epic_goal() -> str:
    return _("Epic game: the game ends at 12 VP instead of 10 (Rise of Ix rulebook p.10).")

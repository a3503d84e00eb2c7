"""The physical set-up checklist for the table, generated from the game's setup."""

from __future__ import annotations

from flask_babel import gettext as _

from companion.rules.catalog import Catalog
from companion.rules.engine import DIFFICULTY, hagal_cards
from companion.rules.state import Setup


def checklist(setup: Setup, catalog: Catalog) -> list[tuple[str, list[str]]]:
    """Sections of set-up steps, in the order the table does them (rulebook pp.4-5, 19-20)."""

    def leader(lid: str) -> str:
        found = catalog.leaders.get(lid)
        return found.name if found else lid

    o = setup.options
    board = [
        _(
            "Lay out the board, the Imperium Row (5 cards), the Reserve stacks and the shuffled "
            "Intrigue deck (rulebook p.4)."
        ),
        _("Put the Mentat on its space and the four Alliance tokens on the Influence tracks."),
    ]
    n_hagal = len(hagal_cards(setup, catalog))
    if setup.mode == "solo":
        assert setup.difficulty is not None
        diff = DIFFICULTY[setup.difficulty]
        if diff["mentat_cost"] == 5:
            board.append(
                _("Place the 5 Solari token on the Mentat space: it costs 5 Solari this game.")
            )
        if o.physical_conflicts:
            board.append(
                _(
                    "Build the Conflict deck: 4 Conflict III at the bottom, 5 random Conflict "
                    "II on top, 1 random Conflict I on top."
                )
            )
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
                    "The app draws the Conflict cards: each round, take the card it names "
                    "from the box."
                )
            )
            board.append(
                _(
                    "Keep both Rivals' Swordmasters aside: the app gives them their third "
                    "Agent in round %(n)s.",
                    n=diff["swordmaster_round"],
                )
            )
        if o.physical_hagal:
            board.append(
                _(
                    "House Hagal deck: remove the Reshuffle card and the three Arrakeen "
                    "cards marked 2P, then shuffle the %(n)s others.",
                    n=n_hagal,
                )
            )
        else:
            board.append(_("The app plays the House Hagal deck: leave those cards in the box."))
        rivals = []
        for i, seat in enumerate(setup.rivals):
            side = _("on your left") if i == 0 else _("on your right")
            rivals.append(
                _(
                    "%(name)s (%(leader)s, %(color)s) sits %(side)s: a cube at the bottom of "
                    "each Influence track, 2 Agents, 1 water%(extra)s, %(troops)s troops in "
                    "its garrison.",
                    name=seat.name,
                    leader=leader(seat.leader),
                    color=seat.color,
                    side=side,
                    troops=diff["garrison"],
                    extra=_(" and 1 Intrigue card") if diff["intrigue"] else "",
                )
            )
        rivals.append(_("Rivals use only their Signet ability (right side of the leader)."))
        you = setup.humans[0]
        mine = [
            _(
                "%(name)s plays %(leader)s in %(color)s: starting deck, 2 Agents, 3 troops in "
                "your garrison, cubes on the tracks, 1 water.",
                name=you.name,
                leader=leader(you.leader),
                color=you.color,
            )
        ]
        if setup.difficulty == "mercenary":
            mine.append(_("Mercenary difficulty: you also take 1 Solari and 1 spice."))
        if setup.difficulty == "kwisatz":
            mine.append(_("Kwisatz Haderach difficulty: you can't gain a Swordmaster this game."))
        first = [
            _(
                "%(name)s, the Rival on your left, takes the First Player marker.",
                name=setup.rivals[0].name,
            )
        ]
        if o.churn:
            first.append(
                _(
                    "Imperium Row churn: after each of your Reveal turns the app rolls two "
                    "dice and names the Row positions to trash."
                )
            )
        if o.brutal_escalation:
            first.append(
                _("Brutal Escalation: in a Conflict III, Rivals reveal two cards for swords.")
            )
        return [(_("Board"), board), (_("Rivals"), rivals), (_("You"), mine), (_("Start"), first)]
    if o.physical_conflicts:
        board.append(
            _(
                "Build the Conflict deck: 4 Conflict III at the bottom, 5 random Conflict II "
                "on top, 1 random Conflict I on top."
            )
        )
    else:
        board.append(
            _("The app draws the Conflict cards: each round, take the card it names from the box.")
        )
    if o.physical_hagal:
        board.append(
            _(
                "House Hagal deck: remove the three Arrakeen cards marked 1P, keep the "
                "Reshuffle card, and shuffle the %(n)s cards.",
                n=n_hagal,
            )
        )
    else:
        board.append(_("The app plays the House Hagal deck: leave those cards in the box."))
    hagal = setup.rivals[0]
    houses = [
        _(
            "House Hagal in %(color)s: a cube at the bottom of each Influence track, 3 Agents, "
            "no troops in its garrison, no resources.",
            color=hagal.color,
        )
    ]
    for seat in setup.humans:
        houses.append(
            _(
                "%(name)s plays %(leader)s in %(color)s: starting deck, 2 Agents, 3 troops, "
                "1 water.",
                name=seat.name,
                leader=leader(seat.leader),
                color=seat.color,
            )
        )
    first = [
        _(
            "%(name)s takes the First Player marker. House Hagal acts after each of the First "
            "Player's Agent turns.",
            name=setup.humans[setup.first_player].name,
        )
    ]
    return [(_("Board"), board), (_("Houses"), houses), (_("Start"), first)]

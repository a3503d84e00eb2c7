"""What the table records or corrects by hand: numbers, Control, tie-breaks, Corner the
Market and bought cards [RB p.12, p.20; FAQ]. A correction never leaves a house below 0 VP."""

from __future__ import annotations

from companion.rules.actions import (
    HUMAN_ADJUSTABLE,
    IX_FIELDS,
    VP_REASONS,
    Acquire,
    Adjust,
    CornerTheMarket,
    IllegalAction,
    SetTiebreak,
)
from companion.rules.catalog import FACTIONS
from companion.rules.draft import Draft
from companion.rules.i18n import N_
from companion.rules.influence import set_influence
from companion.rules.state import (
    MAX_INFLUENCE,
    MAX_STRENGTH,
    TRACK_TOP,
    TROOPS_PER_HOUSE,
    Acquisition,
    House,
    VpEntry,
)

# What House Hagal has to correct: units, swords, Influence and its Freighter [RB p.19].
HAGAL_FIELDS = ("garrison", "troops", "swords", "freighter", "dn_garrison", "dn_conflict")


def adjust(draft: Draft, action: Adjust) -> None:
    """Correct one number of a house, or record an effect the app can't see."""
    house = draft.houses.get(action.house)
    if house is None:
        raise IllegalAction(N_("Unknown house."))
    _check_adjustable(draft, house, action)
    if action.field == "vp":
        if house.vp + action.delta < 0:
            raise IllegalAction(N_("VP can't go below 0."))
        draft.gain_vp(action.house, action.delta, action.reason, "")  # type: ignore[arg-type]
    elif action.field.startswith("influence:"):
        faction = action.field.split(":", 1)[1]
        if faction not in FACTIONS:
            raise IllegalAction(N_("Unknown Faction."))
        if draft.prompt is not None:
            raise IllegalAction(N_("First answer the question on screen."))
        new = house.inf(faction) + action.delta
        if not 0 <= new <= MAX_INFLUENCE:
            raise IllegalAction(N_("Influence goes from 0 to %(top)s."), top=MAX_INFLUENCE)
        set_influence(draft, action.house, faction, new)
    else:
        draft.put(action.house, **{action.field: _corrected_count(house, action)})
    _no_negative_vp(draft)
    draft.emit("adjust", action.house, field=action.field, delta=action.delta, reason=action.reason)


def _check_adjustable(draft: Draft, house: House, action: Adjust) -> None:
    """Raise IllegalAction unless this house's field may be corrected by this delta."""
    if not isinstance(action.delta, int) or action.delta == 0 or abs(action.delta) > 50:
        raise IllegalAction(N_("A correction changes a number by 1 to 50."))
    if action.field in IX_FIELDS and not draft.ix:
        raise IllegalAction(N_("Freighters, dreadnoughts and Negotiators come with Rise of Ix."))
    if house.is_human and action.field not in HUMAN_ADJUSTABLE:
        raise IllegalAction(
            N_("Players keep their own resources and troops; the app doesn't track them.")
        )
    if (
        house.kind == "hagal"
        and action.field not in HAGAL_FIELDS
        and not action.field.startswith("influence:")
    ):
        raise IllegalAction(N_("House Hagal has no resources and scores no VP (rulebook p.19)."))
    if action.reason not in VP_REASONS:
        raise IllegalAction(N_("Unknown reason for a correction."))
    if not house.is_human and action.field == "strength":
        raise IllegalAction(
            N_("A Rival's strength comes from its troops and swords: correct those.")
        )


def _corrected_count(house: House, action: Adjust) -> int:
    """The new value of a counted field (resources, units, the Freighter), if in range."""
    field = action.field
    if field in ("solari", "spice", "water", "intrigue", "swords", "strength"):
        new = int(getattr(house, field)) + action.delta
        if new < 0:
            raise IllegalAction(N_("That would go below 0."))
        if field == "strength" and new > MAX_STRENGTH:
            raise IllegalAction(N_("That strength is out of range."))
    elif field in ("garrison", "troops", "negotiators"):
        new = int(getattr(house, field)) + action.delta
        if new < 0 or house.supply - action.delta < 0:
            raise IllegalAction(N_("A house has %(n)s troops in all."), n=TROOPS_PER_HOUSE)
    elif field == "freighter":
        new = house.freighter + action.delta
        if not 0 <= new <= TRACK_TOP:
            raise IllegalAction(N_("The Freighter goes from step 0 to %(top)s."), top=TRACK_TOP)
    elif field in ("dn_garrison", "dn_conflict"):
        new = int(getattr(house, field)) + action.delta
        if new < 0 or house.dn_supply - action.delta < 0:
            raise IllegalAction(N_("A house has two dreadnoughts."))
    else:
        raise IllegalAction(N_("That number can't be corrected."))
    return new


def set_control(draft: Draft, space_id: str, house_id: str) -> None:
    """Record who controls a space (a correction of the Control markers)."""
    space = draft.board().get(space_id)
    if space is None or space.control_bonus is None:
        raise IllegalAction(N_("Only Arrakeen, Carthag and Imperial Basin have Control markers."))
    if house_id and (house_id not in draft.houses or not draft.scores(house_id)):
        raise IllegalAction(N_("House Hagal never controls a space (rulebook p.19)."))
    if house_id:
        draft.control[space_id] = house_id
    else:
        draft.control.pop(space_id, None)
    draft.emit("set_control", house_id or None, space=space_id)


def set_tiebreak(draft: Draft, action: SetTiebreak) -> None:
    """A player's end-of-game resources for breaking ties."""
    if draft.phase != "ended":
        raise IllegalAction(N_("Tie-breaks are entered at the end of the game."))
    if action.house not in draft.houses or not draft.houses[action.house].is_human:
        raise IllegalAction(N_("Tie-breaks are asked of the players only."))
    values = (action.spice, action.solari, action.water, action.garrison)
    if (
        any(not isinstance(v, int) or v < 0 or v > 999 for v in values)
        or action.garrison > TROOPS_PER_HOUSE
    ):
        raise IllegalAction(N_("Enter counts of 0 or more."))
    draft.put(action.house, tiebreak=values)
    draft.emit("tiebreak", action.house, values=values)


def corner_the_market(draft: Draft, action: CornerTheMarket) -> None:
    """Corner the Market; each solo Rival counts as two The Spice Must Flow [RB p.20]."""
    if draft.phase != "ended":
        raise IllegalAction(N_("Corner the Market is an Endgame card: play it at the end."))
    if action.house not in draft.houses or not draft.houses[action.house].is_human:
        raise IllegalAction(N_("Only a player can play Corner the Market."))
    if any(e.note == "corner_the_market" for e in draft.ledger):
        raise IllegalAction(N_("Corner the Market was already played."))
    if not (0 <= action.own <= 10 and 0 <= action.other <= 10):
        raise IllegalAction(N_("Count The Spice Must Flow cards: 0 to 10."))
    # With two to four players `other` is the most that any one opponent holds [FAQ].
    others = [2 for _ in draft.rivals()] if draft.solo else [action.other]
    gained = 0
    if action.own >= 2:
        gained += 1
        # [FAQ] Corner the Market: an opponent with as many or more denies the second VP.
        if all(action.own > n for n in others):
            gained += 1
    draft.gain_vp(action.house, gained, "endgame", "corner_the_market")
    if not gained:
        draft.ledger.append(VpEntry(action.house, 0, "endgame", draft.round, "corner_the_market"))
    draft.emit("corner_the_market", action.house, own=action.own, vp=gained)


BUYABLE = ("imperium", "reserve")


def acquire(draft: Draft, action: Acquire) -> None:
    """Record a bought card; its Acquire effects the app tracks (VP, Influence) apply at
    once: The Spice Must Flow's VP is kept even if the card is later trashed [FAQ]."""
    if action.house not in draft.houses or not draft.houses[action.house].is_human:
        raise IllegalAction(N_("Only a player at the table buys cards."))
    card = draft.catalog.cards.get(action.card)
    if card is None or card.kind not in BUYABLE or card.set not in draft.setup.sets:
        raise IllegalAction(N_("That card can't be bought in this game."))
    if not isinstance(action.copy, int) or not 1 <= action.copy <= card.copies:
        raise IllegalAction(N_("%(card)s has copies 1 to %(n)s."), card=card.name, n=card.copies)
    owner = next(
        (x for x in draft.acquisitions if x.card == action.card and x.copy == action.copy), None
    )
    if owner is not None and owner.house == action.house:
        raise IllegalAction(
            N_("%(house)s already has this %(card)s."),
            house=draft.houses[action.house].name,
            card=card.name,
        )
    if owner is not None and not action.move:
        raise IllegalAction(
            N_("This %(card)s (copy %(copy)s) belongs to %(house)s: confirm to move it."),
            card=card.name,
            copy=action.copy,
            house=draft.houses[owner.house].name,
        )
    if draft.prompt is not None and card.acquire_influence:
        raise IllegalAction(N_("First answer the question on screen."))
    if owner is not None:
        # A moved copy was recorded for the wrong player: take its effects back.
        draft.acquisitions.remove(owner)
        draft.gain_vp(owner.house, -card.acquire_vp, "card", card.id)
        for faction, n in card.acquire_influence.items():
            old = draft.house(owner.house).inf(faction)
            set_influence(draft, owner.house, faction, max(0, old - n))
    draft.acquisitions.append(Acquisition(action.house, action.card, action.copy, draft.round))
    draft.emit(
        "acquire",
        action.house,
        card=action.card,
        copy=action.copy,
        moved_from=owner.house if owner else None,
    )
    draft.gain_vp(action.house, card.acquire_vp, "card", card.id)
    for faction, n in card.acquire_influence.items():
        old = draft.house(action.house).inf(faction)
        set_influence(draft, action.house, faction, min(MAX_INFLUENCE, old + n))
    _no_negative_vp(draft)


def _no_negative_vp(draft: Draft) -> None:
    """A correction may not leave a house below 0 VP (the draft is then thrown away)."""
    for house in draft.houses.values():
        if house.vp < 0:
            raise IllegalAction(
                N_("That would take %(house)s below 0 VP: correct VP first."), house=house.name
            )

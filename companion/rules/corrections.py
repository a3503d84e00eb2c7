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
from companion.rules.i18n import N_, Message, Name, Nn_, counted
from companion.rules.influence import set_influence
from companion.rules.state import (
    MAX_INFLUENCE,
    MAX_STRENGTH,
    TRACK_TOP,
    TROOPS_PER_HOUSE,
    Acquisition,
    House,
    Setup,
    VpEntry,
)

# What House Hagal has to correct: units, swords, Influence and its Freighter [RB p.19].
HAGAL_FIELDS = ("garrison", "troops", "swords", "freighter", "dn_garrison", "dn_conflict")


def adjust_problem(draft: Draft, action: Adjust) -> Message | None:
    """Why this correction or card effect can't be recorded now, or None (one that would
    take a house below 0 VP by the VP it costs is refused when applied)."""
    house = draft.houses.get(action.house)
    if house is None:
        return Message(N_("Unknown house."))
    problem = _adjustable_problem(draft, house, action)
    if problem is not None:
        return problem
    if action.field == "vp":
        if house.vp + action.delta < 0:
            return Message(N_("VP can't go below 0."))
        return None
    if action.field.startswith("influence:"):
        faction = action.field.split(":", 1)[1]
        if faction not in FACTIONS:
            return Message(N_("Unknown Faction."))
        if draft.prompt is not None and not _between_rounds(draft):
            # A cube moved mid-task could need a question of its own (an Alliance).
            return Message(N_("First answer the question on screen."))
        if not 0 <= house.inf(faction) + action.delta <= MAX_INFLUENCE:
            return Message(N_("Influence goes from 0 to %(top)s."), top=MAX_INFLUENCE)
        return None
    return _count_problem(house, action)


def adjust(draft: Draft, action: Adjust) -> None:
    """Correct one number of a house, or record an effect the app can't see."""
    problem = adjust_problem(draft, action)
    if problem is not None:
        raise IllegalAction(problem)
    house = draft.house(action.house)
    if action.field == "vp":
        draft.gain_vp(action.house, action.delta, action.reason, "")  # type: ignore[arg-type]
    elif action.field.startswith("influence:"):
        faction = action.field.split(":", 1)[1]
        if draft.prompt is not None:  # the End of Round card: asked again after the cube
            draft.queue.insert(0, draft.prompt.task)
            draft.prompt = None
        set_influence(draft, action.house, faction, house.inf(faction) + action.delta)
    else:
        draft.put(action.house, **{action.field: int(getattr(house, action.field)) + action.delta})
    _no_negative_vp(draft)
    draft.emit("adjust", action.house, field=action.field, delta=action.delta, reason=action.reason)


def _between_rounds(draft: Draft) -> bool:
    """The game waits for the End of Round chores [RB p.12 Phases 3-5]: no task is under
    way, so a correction may move a cube (and its Alliance question comes first)."""
    return draft.prompt is not None and draft.prompt.kind == "round_end"


def _adjustable_problem(draft: Draft, house: House, action: Adjust) -> Message | None:
    """Why this house's field may not be corrected by this delta, or None."""
    if not isinstance(action.delta, int) or action.delta == 0 or abs(action.delta) > 50:
        return Message(N_("A correction changes a number by 1 to 50."))
    if action.field in IX_FIELDS and not draft.ix:
        return Message(N_("Freighters, dreadnoughts and Negotiators come with Rise of Ix."))
    if house.is_human and action.field not in HUMAN_ADJUSTABLE:
        return Message(
            N_("Players keep their own resources and troops; the app doesn't track them.")
        )
    if (
        house.kind == "hagal"
        and action.field not in HAGAL_FIELDS
        and not action.field.startswith("influence:")
    ):
        return Message(N_("House Hagal has no resources and scores no VP (rulebook p.19)."))
    if action.reason not in VP_REASONS:
        return Message(N_("Unknown reason for a correction."))
    if not house.is_human and action.field == "strength":
        return Message(N_("A Rival's strength comes from its troops and swords: correct those."))
    return None


def _count_problem(house: House, action: Adjust) -> Message | None:
    """Why a counted field (resources, units, the Freighter) can't take this delta, or None."""
    field = action.field
    if field in ("solari", "spice", "water", "intrigue", "swords", "strength"):
        new = int(getattr(house, field)) + action.delta
        if new < 0:
            return Message(N_("That would go below 0."))
        if field == "strength" and new > MAX_STRENGTH:
            return Message(N_("That strength is out of range."))
    elif field in ("garrison", "troops", "negotiators"):
        new = int(getattr(house, field)) + action.delta
        if new < 0 or house.supply - action.delta < 0:
            in_all = Nn_("A house has %(n)s troop in all.", "A house has %(n)s troops in all.")
            return counted(in_all, TROOPS_PER_HOUSE)
    elif field == "freighter":
        new = house.freighter + action.delta
        if not 0 <= new <= TRACK_TOP:
            return Message(N_("The Freighter goes from step 0 to %(top)s."), top=TRACK_TOP)
    elif field in ("dn_garrison", "dn_conflict"):
        new = int(getattr(house, field)) + action.delta
        if new < 0 or house.dn_supply - action.delta < 0:
            return Message(N_("A house has two dreadnoughts."))
    else:
        return Message(N_("That number can't be corrected."))
    return None


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


def corner_problem(draft: Draft, action: CornerTheMarket) -> Message | None:
    """Why this Corner the Market can't be played now [RB p.12, p.20; FAQ], or None."""
    if draft.phase != "ended":
        return Message(N_("Corner the Market is an Endgame card: play it at the end."))
    if action.house not in draft.houses or not draft.houses[action.house].is_human:
        return Message(N_("Only a player can play Corner the Market."))
    if any(e.note == "corner_the_market" for e in draft.ledger):
        return Message(N_("Corner the Market was already played."))
    if not (0 <= action.own <= 10 and 0 <= action.other <= 10):
        return Message(N_("Count The Spice Must Flow cards: 0 to 10."))
    return None


def corner_asks_other(setup: Setup) -> bool:
    """Corner the Market needs the opponents' count with two to four players; solo
    Rivals count as two each [RB p.20; FAQ]."""
    return setup.mode != "solo"


def corner_the_market(draft: Draft, action: CornerTheMarket) -> None:
    """Corner the Market; each solo Rival counts as two The Spice Must Flow [RB p.20]."""
    problem = corner_problem(draft, action)
    if problem is not None:
        raise IllegalAction(problem)
    # With two to four players `other` is the most that any one opponent holds [FAQ].
    others = [action.other] if corner_asks_other(draft.setup) else [2 for _ in draft.rivals()]
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


def buyable(draft: Draft, card_id: str) -> bool:
    """A card of this game's Imperium Row or Reserve, which players buy."""
    card = draft.catalog.cards.get(card_id)
    return card is not None and card.kind in BUYABLE and card.set in draft.setup.sets


def may_buy(draft: Draft, house_id: str) -> bool:
    """Players buy cards, at any time the table records it; Rivals' cards are not tracked."""
    house = draft.houses.get(house_id)
    return house is not None and house.is_human


def acquire_problem(draft: Draft, action: Acquire) -> Message | None:
    """Why this purchase can't be recorded now, or None (a purchase that would take a house
    below 0 VP is refused when applied)."""
    if not may_buy(draft, action.house):
        return Message(N_("Only a player at the table buys cards."))
    card = draft.catalog.cards.get(action.card)
    if card is None or not buyable(draft, action.card):
        return Message(N_("That card can't be bought in this game."))
    if not isinstance(action.copy, int) or not 1 <= action.copy <= card.copies:
        return Message(N_("%(card)s has copies 1 to %(n)s."), card=Name(card.name), n=card.copies)
    owner = _owner(draft, action)
    if owner is not None and owner.house == action.house:
        return Message(
            N_("%(house)s already has this %(card)s."),
            house=draft.houses[action.house].name,
            card=Name(card.name),
        )
    if owner is not None and not action.move:
        return Message(
            N_("This %(card)s (copy %(copy)s) belongs to %(house)s: confirm to move it."),
            card=Name(card.name),
            copy=action.copy,
            house=draft.houses[owner.house].name,
        )
    if draft.prompt is not None and card.acquire_influence:
        return Message(N_("First answer the question on screen."))
    return None


def _owner(draft: Draft, action: Acquire) -> Acquisition | None:
    return next(
        (x for x in draft.acquisitions if x.card == action.card and x.copy == action.copy), None
    )


def acquire(draft: Draft, action: Acquire) -> None:
    """Record a bought card; its Acquire effects the app tracks (VP, Influence) apply at
    once: The Spice Must Flow's VP is kept even if the card is later trashed [FAQ]."""
    problem = acquire_problem(draft, action)
    if problem is not None:
        raise IllegalAction(problem)
    card = draft.catalog.cards[action.card]
    owner = _owner(draft, action)
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

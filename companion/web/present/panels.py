"""The side panels: score and Influence, the Conflict, the rivals, the Tech tiles and the
cards bought."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.rules.actions import Action, Adjust, Dreadnought, Freighter, Tech
from companion.rules.catalog import FACTIONS, ConflictDef
from companion.rules.engine import (
    action_problems,
    corner_asks_other,
    corner_players,
    strengths,
    swordmaster_round,
)
from companion.rules.state import TRACK_TOP, UNKNOWN_TILE, GameState, House
from companion.web.language import card_text, translated
from companion.web.language import gettext as _
from companion.web.language import lazy_word as _l
from companion.web.present.views import (
    CardEffect,
    Chip,
    ConflictView,
    CornerView,
    IxHouseView,
    IxTurnView,
    RivalView,
    ScoreRow,
    ScoreView,
    StackView,
    TechView,
    chip,
)
from companion.web.present.words import FACTION_LABELS, catalog_words, faction_name, reward_text

PLACES = {"first": _l("1st"), "second": _l("2nd"), "third": _l("3rd")}
VP_SOURCES = {
    # A four-player game's Score markers start on 1 [RB p.4, G2].
    "start": _l("Starting space (4 players)"),
    "conflict": _l("Conflict"),
    "influence": _l("Influence (2 on a track)"),
    "alliance": _l("Alliance"),
    "exchange": _l("Exchange"),
    "card": _l("Card"),
    "endgame": _l("Endgame"),
    "manual": _l("Correction"),
    "tech": _l("Tech"),
}
Purchases = tuple[tuple[Chip, tuple[tuple[str, int, str, int], ...]], ...]


RESOURCE_NAMES = {
    "solari": _l("Solari"),
    "spice": _l("Spice"),
    "water": _l("Water"),
    "intrigue": _l("Intrigue cards"),
}


SMALL_WORDS = frozenset({"the", "of", "and", "for", "a"})


def vp_note(state: GameState, note: str) -> str:
    """What a VP came from, by its proper name: a Faction, a Conflict card, a card, a Tech
    tile, or the resource a Rival exchanged."""
    catalog = state.catalog
    named = catalog.conflicts.get(note) or catalog.cards.get(note) or catalog.tech.get(note)
    if named is not None:
        return card_text(named.name)
    if note in FACTION_LABELS:
        return faction_name(note)
    if note in RESOURCE_NAMES:
        return str(RESOURCE_NAMES[note])
    words = note.split("_")
    return " ".join(w if i and w in SMALL_WORDS else w.capitalize() for i, w in enumerate(words))


def vp_words(state: GameState, source: str, note: str) -> tuple[str, str]:
    """A VP ledger entry's source and note in words, found once per language."""

    def make() -> tuple[str, str]:
        said = VP_SOURCES.get(source)
        return (source if said is None else str(said), vp_note(state, note))

    return catalog_words(state.catalog, ("vp", source, note), make)


def score(state: GameState) -> ScoreView:
    """Each house's VP with its ledger, and the Influence tracks with the Alliances."""
    ledger: dict[str, list[tuple[int, str, str, str]]] = {h.id: [] for h in state.houses}
    words: dict[tuple[str, str], tuple[str, str]] = {}  # a game's VP come from few sources
    for entry in state.ledger:
        said = words.get((entry.source, entry.note))
        if said is None:
            said = words[(entry.source, entry.note)] = vp_words(state, entry.source, entry.note)
        ledger[entry.house].append((entry.round, *said, f"{entry.delta:+d}"))
    factions = tuple((faction, faction_name(faction)) for faction in FACTIONS)
    rows = []
    for h in state.houses:
        cells = []
        for faction, name in factions:
            value = h.inf(faction)
            ally = state.alliances.get(faction) == h.id
            classes = (" two" if value >= 2 else "") + (" four" if value >= 4 else "")
            cells.append((value, classes + (" ally" if ally else ""), name if ally else ""))
        scored = h.kind != "hagal"
        rows.append(
            ScoreRow(
                chip=chip(h),
                vp=h.vp if scored else None,
                ledger=tuple(ledger[h.id]) if scored else None,
                cells=tuple(cells),
            )
        )
    return ScoreView(factions=factions, rows=tuple(rows))


def score_changed(before: GameState, after: GameState) -> bool:
    """Whether `score` shows something else after than before: what it reads from the
    state (the VP ledger, the Alliances, each house's chip, VP and Influence) differs."""
    return (
        before.ledger != after.ledger
        or before.alliances != after.alliances
        or [(h.name, h.color, h.vp, h.influence) for h in before.houses]
        != [(h.name, h.color, h.vp, h.influence) for h in after.houses]
    )


def conflict(state: GameState) -> ConflictView | None:
    """This round's Conflict: its rewards, each house's strength, the swords revealed."""
    if state.conflict is None:
        return None
    card = state.catalog.conflicts[state.conflict]
    swords = []
    for entry in reversed(state.log):  # only this round's entries: stop at the previous one
        if entry.round != state.round:
            break
        if entry.kind == "swords":
            swords.append(entry)
    swords.reverse()
    strength = strengths(state)
    combat = state.phase == "combat"
    return ConflictView(
        card_id=card.id,
        name=card.name,
        level="I" * card.level,
        rewards=rewards(card, state),
        remaining=len(state.conflict_deck),
        rows=tuple(
            (
                chip(h),
                "" if h.is_human else str(h.troops),
                "" if h.is_human else str(h.swords),
                str(strength[h.id]) if combat or not h.is_human else "",
                str(h.dn_conflict),
            )
            for h in state.houses
        ),
        swords=tuple(
            (
                chip(state.house(entry.house or "")),
                state.catalog.hagal[str(entry.data["card"])].name,
                int(str(entry.data["swords"])),
            )
            for entry in swords
        ),
        ix=state.ix,
        tracked=any(not h.is_human for h in state.houses),
    )


def rewards(card: ConflictDef, state: GameState) -> tuple[tuple[str, str], ...]:
    """A Conflict card's rewards in words: the third only in a four-player game, the only
    one that gives it [RB p.12: "In a 4-player game (only)"]."""
    places = ("first", "second", "third") if state.setup.players == 4 else ("first", "second")
    return catalog_words(
        state.catalog,
        ("rewards", card.id, places),
        lambda: tuple(
            (str(PLACES[place]), reward_text(getattr(card, place), state)) for place in places
        ),
    )


def rivals(state: GameState) -> tuple[RivalView, ...]:
    """One panel per rival (House Hagal in a two-player game has no resources)."""
    comes = swordmaster_round(state.setup)
    later = _("round %(n)s", n=comes) if comes else ""
    leaders = state.catalog.leaders
    return tuple(
        RivalView(
            chip=chip(h),
            leader=h.leader,
            leader_name=leaders[h.leader].name if h.leader else "",
            rows=_rival_rows(h, later),
            ix=ix_house(state, h) if state.ix else None,
        )
        for h in state.rivals
    )


def _rival_rows(house: House, swordmaster_later: str) -> tuple[tuple[str, object], ...]:
    rows: list[tuple[str, object]] = [
        (_("Agents left"), f"{house.agents_left} / {house.agents + (1 if house.mentat else 0)}"),
        (_("Garrison"), house.garrison),
        (_("In Conflict"), house.troops),
    ]
    if house.kind == "rival":  # a solo Rival
        rows += [
            (_("Solari"), house.solari),
            (_("Spice"), house.spice),
            (_("Water"), house.water),
            (_("Intrigue"), house.intrigue),
            (_("VP"), house.vp),
            (_("Swordmaster"), _("yes") if house.swordmaster else swordmaster_later),
        ]
    if house.mentat:
        rows.append((_("Mentat"), _("this round")))
    return tuple(rows)


def ix_house(
    state: GameState, house: House, trash: Mapping[str, str | None] | None = None
) -> IxHouseView:
    """A house's Rise of Ix pieces; `trash`: for each of a player's tiles, why the engine
    refuses its Trash button now (None when allowed)."""
    tech = state.catalog.tech
    return IxHouseView(
        id=house.id,
        chip=chip(house),
        is_human=house.is_human,
        freighter=house.freighter,
        dn_garrison=house.dn_garrison,
        dn_conflict=house.dn_conflict,
        dn_posted=house.dn_posted,
        dn_supply=house.dn_supply,
        negotiators=house.negotiators,
        tech=tuple((t, tech[t].name, t in house.flipped) for t in house.tech),
        trash=trash or {},
    )


def refusals(state: GameState, actions: Sequence[Action]) -> list[str | None]:
    """Why the engine refuses each action now, in the reader's language (None: allowed)."""
    return [None if why is None else translated(why) for why in action_problems(state, actions)]


def tech(state: GameState, acting: House | None) -> TechView | None:
    """The Tech stacks and the players' Rise of Ix pieces [IX pp.4-6]: a Buy button per
    face-up tile for the acting player (for every player when no player acts), and a
    Trash button per owned tile, each greyed with the engine's reason when refused."""
    if not state.ix:
        return None
    shown = (acting,) if acting is not None and acting.is_human else state.humans
    buys = [
        Tech(h.id, "acquire", stack[0])
        for stack in state.tech_stacks
        if stack and stack[0] != UNKNOWN_TILE
        for h in shown
    ]
    asked: list[Action] = [*buys, *(Tech(h.id, "trash", t) for h in state.humans for t in h.tech)]
    why = dict(zip(asked, refusals(state, asked), strict=True))
    return TechView(
        stacks=tuple(
            _stack(state, number, stack, shown, why)
            for number, stack in enumerate(state.tech_stacks, 1)
        ),
        trashed=len(state.tech_trash),
        solo=state.setup.mode == "solo",
        buyers=tuple((h.id, chip(h)) for h in shown),
        players=tuple(
            ix_house(state, h, {t: why[Tech(h.id, "trash", t)] for t in h.tech})
            for h in state.humans
        ),
    )


def _stack(
    state: GameState,
    number: int,
    stack: Sequence[str],
    shown: Sequence[House] = (),
    why: Mapping[Action, str | None] | None = None,
) -> StackView:
    top = stack[0] if stack else ""
    known = state.catalog.tech.get(top)
    refused = why or {}
    return StackView(
        number=number,
        tile=top,
        name=known.name if known else "",
        cost=known.cost if known else 0,
        hagal_mark=bool(known and known.hagal_ok),
        left=len(stack),
        unknown=top == UNKNOWN_TILE,
        buys=tuple(
            (h.id, chip(h), refused[Tech(h.id, "acquire", top)])
            for h in shown
            if Tech(h.id, "acquire", top) in refused
        ),
    )


def ix_turn(state: GameState, acting: House | None) -> IxTurnView | None:
    """The acting player's Freighter, dreadnought and Negotiator buttons [IX pp.4-6], each
    with the engine's reason when it refuses it now."""
    if not state.ix or acting is None or not acting.is_human:
        return None
    icons: list[Action] = [
        Freighter(acting.id, "advance"),
        Freighter(acting.id, "recall"),
        Dreadnought(acting.id, "commission"),
        Dreadnought(acting.id, "deploy"),
        Tech(acting.id, "negotiator"),
    ]
    advance, recall, commission, deploy, negotiator = refusals(state, icons)
    return IxTurnView(
        freighter=acting.freighter,
        at_top=acting.freighter >= TRACK_TOP,
        advance=advance,
        recall=recall,
        commission=commission,
        deploy=deploy,
        negotiator=negotiator,
    )


def card_effects(state: GameState, acting: House | None) -> tuple[CardEffect, ...]:
    """The acting player's card-effect buttons (+1 Influence on each track, +1 VP), each
    with the engine's reason when it refuses it now (a track at the top [RB p.7])."""
    if acting is None or not acting.is_human:
        return ()
    effects = [
        *((f"influence:{f}", "+1 " + faction_name(f), f"button f-{f}") for f in FACTIONS),
        ("vp", str(_("+1 VP")), "button"),
    ]
    asked: list[Action] = [Adjust(acting.id, effect[0], 1, "card") for effect in effects]
    why = refusals(state, asked)
    return tuple(
        CardEffect(field, label, cls, refused)
        for (field, label, cls), refused in zip(effects, why, strict=True)
    )


def corner(state: GameState) -> CornerView:
    """Who may play Corner the Market now, and whether it asks the opponents' count."""
    return CornerView(players=corner_players(state), asks_other=corner_asks_other(state.setup))


def purchases(state: GameState) -> Purchases:
    """The players' bought cards: per player who bought any, name, copy, Acquire reminder
    and round."""
    bought: dict[str, list[tuple[str, int, str, int]]] = {h.id: [] for h in state.humans}
    for acquisition in state.acquisitions:
        card = state.catalog.cards.get(acquisition.card)
        if card is not None and acquisition.house in bought:
            bought[acquisition.house].append(
                (card.name, acquisition.copy, card.acquire, acquisition.round)
            )
    return tuple((chip(h), tuple(bought[h.id])) for h in state.humans if bought[h.id])

"""The rulings an item's page shows: those that follow from its fields, one function per
kind, then the rulings card_db/rulings.toml lists for it."""

from __future__ import annotations

from typing import Final

from companion.cards.search import Item
from companion.lookup.rulings import Ruling, Rulings
from companion.rules.catalog import (
    CardDef,
    Catalog,
    ConflictDef,
    HagalCardDef,
    IntrigueDef,
    LeaderDef,
    SpaceDef,
    TechDef,
)
from companion.rules.i18n import N_, Message, Name


def _ruling(text: str, source: str) -> Ruling:
    """A ruling in English whose text and source the web layer shows in the reader's
    language (both marked with N_ where they are written)."""
    return Ruling(Message(text), Message(source))


RB19: Final = N_("Rulebook p.19, House Hagal cards")
RB20: Final = N_("Rulebook p.20, Solo play")
RB13: Final = N_("Rulebook p.13, Clarifications")
IX7: Final = N_("Rise of Ix rulebook p.7")
IX8: Final = N_("Rise of Ix rulebook p.8, Solo & two-player")
IX9: Final = N_("Rise of Ix rulebook p.9, Solo & two-player")
H: Final = N_("House Hagal rules (HAGAL.md)")

_RIVAL_IGNORES_SPACE: Final = _ruling(
    N_(
        "A Rival sent here pays none of the cost and ignores the space's effects: it only does "
        "what its House Hagal card shows. If the space is taken, its card is ignored and the "
        "next one revealed."
    ),
    RB19,
)
_DEPLOY: Final = _ruling(
    N_(
        "Sending an Agent here lets you deploy every troop you recruit this turn, from any "
        "source, plus up to two from your garrison; troops already in the garrison can't be "
        "recruited again to pass that limit."
    ),
    N_("FAQ, troops"),
)
_RIVAL_DEPLOYS: Final = _ruling(
    N_(
        "A Rival sent here puts its recruited troops in the Conflict and also deploys up to two "
        "from its garrison."
    ),
    RB19,
)
_CONTROL_BONUS: Final = _ruling(
    N_(
        "Whoever sends an Agent here, a Rival included, the player holding its control takes the "
        "control bonus; a solo Rival can hold control too."
    ),
    RB20,
)
_DEFENSIVE_BONUS: Final = _ruling(
    N_(
        "Defensive bonus: when a Conflict card for this space is revealed and you control it, "
        "you may deploy one troop from your supply to the Conflict."
    ),
    N_("Rulebook p.10, Control Bonuses"),
)
_DEFENSIVE_ON_REVEAL: Final = _ruling(
    N_(
        "Defensive bonus: when this card is revealed, whoever controls its space (a Control "
        "marker, or with Rise of Ix a dreadnought on the flag) may deploy one troop from their "
        "supply to the Conflict."
    ),
    N_("Rulebook p.10, Control Bonuses; Rise of Ix rulebook p.6"),
)
_DREADNOUGHT_CONTROL: Final = _ruling(
    N_(
        "Rise of Ix: a dreadnought that won a Conflict may cover this space's flag until the end "
        "of the next Combat phase; its owner then takes the control bonus and the defensive "
        "bonus troop."
    ),
    N_("Rise of Ix rulebook p.6, Controlling Locations with a Dreadnought"),
)
_DREADNOUGHT: Final = _ruling(
    N_(
        "Each dreadnought in a Conflict is worth 3 strength, even without troops there. After "
        "combat it goes back to your garrison, not your supply, and after a win one dreadnought "
        "must hold Arrakeen, Carthag or Imperial Basin until the next Combat phase ends. Each "
        "player has two."
    ),
    N_("Rise of Ix rulebook p.6, Dreadnoughts"),
)
_BONUS_SPICE: Final = _ruling(
    N_(
        "Bonus spice keeps growing on a maker space left empty until the Makers phase, even if an "
        "Agent was moved away from it."
    ),
    RB13,
)
_RIVAL_INFLUENCE_NEEDED: Final = _ruling(
    N_(
        "Rivals need the Influence too: a House Hagal card for this space is skipped (or its "
        "other half used) when the Rival lacks it."
    ),
    IX8,
)
_OVERLAY: Final = _ruling(
    N_(
        "With Rise of Ix the CHOAM board overlay covers the Landsraad and CHOAM sections of the "
        "board, this space included."
    ),
    N_("Rise of Ix rulebook p.2, Setup"),
)


def _space(catalog: Catalog, rulings: Rulings, space: SpaceDef) -> list[Ruling]:
    targeted = any(space.id in (h.space, h.space_if_guild_2) for h in catalog.hagal.values())
    rival_goes = targeted or space.maker
    found = [_RIVAL_IGNORES_SPACE] if rival_goes else []
    if space.combat:
        found += [_DEPLOY, _RIVAL_DEPLOYS] if rival_goes else [_DEPLOY]
    if space.control_bonus is not None:
        found += [_CONTROL_BONUS, _DEFENSIVE_BONUS, _DREADNOUGHT_CONTROL]
    if space.dreadnought:
        found.append(_DREADNOUGHT)
    if space.maker:
        found.append(_BONUS_SPICE)
    if space.requires_influence:
        found.append(_RIVAL_INFLUENCE_NEEDED)
    if space.id == "foldspace":  # the Reserve card's ruling names the space too
        found += rulings.get("reserve:foldspace", ())[:1]
    if space.removed_with:
        found.append(_OVERLAY)
    return found


_REVEALED: Final = _ruling(
    N_(
        "Revealed on a Rival's Agent turn. If its space is taken, ignore it and reveal the next "
        "card. The Rival pays no cost and ignores the space's own effects."
    ),
    RB19,
)
_GARRISON_DEPLOY: Final = _ruling(
    N_(
        "On a Combat space the Rival also deploys up to two troops from its garrison, even when "
        "the card recruits none."
    ),
    RB19,
)
_RIVAL_INFLUENCE: Final = _ruling(
    N_(
        "A Rival gets no Influence-track bonuses, but takes an Alliance when it can. In solo it "
        "scores the Victory Points for 2 Influence and for an Alliance, never the 4-Influence "
        "bonus."
    ),
    N_("FAQ, Solo Play"),
)
_SIGNET: Final = _ruling(
    N_(
        "Solo only: the Rival uses its Leader's Signet ability if it has what it costs; in "
        "two-player games the Signet does nothing."
    ),
    RB20,
)
_DUAL: Final = _ruling(
    N_(
        "Use only the half that matches the Rival's Spacing Guild Influence. If that space is "
        "taken, don't use the other half: reveal a new card."
    ),
    N_("FAQ, Rivals"),
)
_COMBAT_BONUS: Final = _ruling(
    N_(
        "For the combat bonus, each Rival with a troop in the Conflict reveals one card and adds "
        "only its swords."
    ),
    RB19,
)


def _hagal(catalog: Catalog, card: HagalCardDef) -> list[Ruling]:
    found = [_REVEALED] if card.space or card.harvest else []
    target = catalog.spaces.get(card.space or "")
    if card.troops and target is not None:
        text = (
            N_("The recruited troops go to the Conflict (%(space)s is a Combat space).")
            if target.combat
            else N_("The recruited troops go to the garrison (%(space)s is not a Combat space).")
        )
        found.append(Ruling(Message(text, space=Name(target.name, "space")), Message(RB19)))
    if (target is not None and target.combat) or card.harvest:
        found.append(_GARRISON_DEPLOY)
    if card.influence or card.influence_if_guild_2:
        found.append(_RIVAL_INFLUENCE)
    if card.signet:
        found.append(_SIGNET)
    if card.space_if_guild_2:
        found.append(_DUAL)
    found.append(_COMBAT_BONUS)
    if card.players != "both":
        text = (
            N_("Removed from the deck in two-player games.")
            if card.players == "1P"
            else N_("Removed from the deck in solo games.")
        )
        found.append(_ruling(text, RB19))
    return found


def _leader(leader: LeaderDef) -> list[Ruling]:
    if leader.rival_allowed:
        text = N_(
            "A Rival uses only the Signet (right-hand) ability, never the left one, and only "
            "when it has what the Signet costs."
        )
        return [_ruling(text, RB20)]
    if leader.set == "base":
        return [_ruling(N_("Paul Atreides and Helena Richese can't be Rivals."), RB20)]
    text = N_("Of the Rise of Ix Leaders, only Rhombur Vernius and Hundro Moritani can be Rivals.")
    return [_ruling(text, IX8)]


_REWARDS: Final = _ruling(
    N_(
        "Rewards work the same with one, two or three players; the third reward is only paid in "
        "four-player games."
    ),
    N_("FAQ, Conflict"),
)
_RIVAL_REWARDS: Final = _ruling(
    N_(
        "Solo Rivals take first and second rewards in full, control and the Mentat included. "
        "House Hagal (two players) takes nothing, but its win removes another player's Control "
        "marker from the space."
    ),
    N_("Rulebook p.19, House Hagal cards; Rulebook p.20, Solo play"),
)
_WON_INTRIGUE: Final = _ruling(
    N_("An Intrigue card won here that says 'when you win a Conflict' may be played at once."),
    N_("FAQ, When you win a Conflict"),
)


def _conflict(conflict: ConflictDef) -> list[Ruling]:
    found = [_REWARDS, _RIVAL_REWARDS]
    if conflict.controlled_space:
        found.append(_DEFENSIVE_ON_REVEAL)
    if conflict.first.intrigue or any(o.intrigue for o in conflict.first.options):
        found.append(_WON_INTRIGUE)
    return found


_PLAY_INTRIGUE: Final = _ruling(
    N_(
        "To play it you must meet its conditions and pay its costs. Plot cards are played on an "
        "Agent or a Reveal turn."
    ),
    N_("FAQ, Intrigue cards"),
)
_NO_TIE: Final = _ruling(
    N_("A 'when you win a Conflict' card can't be played on a tie for first."),
    N_("FAQ, When you win a Conflict"),
)


def _intrigue(intrigue: IntrigueDef) -> list[Ruling]:
    return [_PLAY_INTRIGUE, _NO_TIE] if "win" in intrigue.combat.lower() else [_PLAY_INTRIGUE]


_FLIP: Final = _ruling(
    N_(
        "A once-per-round ability (flip the tile) works on your Agent or your Reveal turn; the "
        "first printing said Agent turn only."
    ),
    N_("FAQ, Errata (Rise of Ix p.4)"),
)
_RIVAL_BUYS: Final = _ruling(
    N_(
        "A solo Rival may acquire it: it buys the most expensive marked tile it can afford, ties "
        "to the topmost stack."
    ),
    IX9,
)
_RIVAL_NEVER_BUYS: Final = _ruling(
    N_("It lacks the House Hagal mark, so a Rival never acquires it."), IX9
)
_HAGAL_IGNORES_TECH: Final = _ruling(N_("House Hagal (two players) ignores Tech tiles."), IX8)


def _tech(tile: TechDef) -> list[Ruling]:
    found = [_FLIP] if "once_per_round" in tile.timing else []
    found.append(_RIVAL_BUYS if tile.hagal_ok else _RIVAL_NEVER_BUYS)
    found.append(_HAGAL_IGNORES_TECH)
    return found


_INFILTRATION: Final = _ruling(
    N_(
        "Infiltration: enemy Agents don't block this Agent on spaces with its icon. It never gets "
        "you a second Agent on a space you hold, doesn't beat The Voice, and icons added by "
        "Dispatch an Envoy don't infiltrate."
    ),
    IX7,
)
_UNLOAD: Final = _ruling(
    N_(
        "Unload: the Reveal box also triggers when the card is discarded or trashed; the card "
        "gives no way to do either by itself."
    ),
    IX7,
)


def _card(card: CardDef) -> list[Ruling]:
    return ([_INFILTRATION] if card.infiltration else []) + ([_UNLOAD] if card.unload else [])


def _by_kind(catalog: Catalog, rulings: Rulings, item: Item) -> list[Ruling]:
    record = item.entry.record
    if isinstance(record, SpaceDef):
        return _space(catalog, rulings, record)
    if isinstance(record, HagalCardDef):
        return _hagal(catalog, record)
    if isinstance(record, LeaderDef):
        return _leader(record)
    if isinstance(record, ConflictDef):
        return _conflict(record)
    if isinstance(record, IntrigueDef):
        return _intrigue(record)
    if isinstance(record, TechDef):
        return _tech(record)
    if isinstance(record, CardDef):
        return _card(record)
    return []  # a track: its own rule is on the page


def item_rulings(catalog: Catalog, rulings: Rulings, item: Item) -> list[Ruling]:
    """Every ruling for this item: those its kind and fields call for, then its listed ones."""
    return [*_by_kind(catalog, rulings, item), *rulings.get(item.entry.key, ())]

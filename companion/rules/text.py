"""Plain English sentences for log entries.

`describe` returns a template and its values so that a web layer can translate the
template (it is the message id) before filling it in; `sentence` fills it in English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from companion.rules.catalog import FACTION_NAMES
from companion.rules.i18n import N_, Message, Name, Nn_, Plural, counted, joined, listed
from companion.rules.state import VP_TO_END, Entry, GameState, House

TEMPLATES: Mapping[str, str | Plural] = {
    "setup": N_("New game set up. %(first)s takes the First Player marker."),
    "conflict": N_("Round %(round)s: reveal the Conflict card %(card)s (level %(level)s)."),
    "rival_swordmaster": N_("%(house)s's Swordmaster arrives: it has 3 Agents from now on."),
    "defensive_bonus": N_(
        "%(house)s controls %(space)s: you may deploy 1 troop from your supply to the Conflict."
    ),
    "defensive_bonus_deployed": N_(
        "%(house)s controls %(space)s: it deploys 1 troop from supply to the Conflict."
    ),
    "agent": N_("%(house)s sends an Agent to %(space)s."),
    "influence": N_("%(house)s: %(faction)s Influence %(old)s → %(new)s."),
    "influence_choice": N_("%(house)s takes %(amount)s %(faction)s Influence."),
    "influence_bonus": N_(
        "%(house)s reached 4 %(faction)s Influence: take the bonus shown on the track."
    ),
    "harvest": Nn_(
        "%(house)s harvests %(spice)s spice at %(space)s (including %(bonus)s bonus spice).",
        "%(house)s harvests %(spice)s spice at %(space)s (including %(bonus)s bonus spice).",
    ),
    "harvest_plain": Nn_(
        "%(house)s harvests %(spice)s spice at %(space)s.",
        "%(house)s harvests %(spice)s spice at %(space)s.",
    ),
    "mentat_taken": N_("%(house)s takes the Mentat: one more Agent this round."),
    "mentat_claimed": N_(
        "%(house)s takes the Mentat won in the last Conflict: one more Agent this round."
    ),
    "mentat_won": N_("%(house)s will take the Mentat at the start of next round."),
    "swordmaster": N_("%(house)s gains the Swordmaster: a third Agent, usable this round."),
    "council_seat": N_("%(house)s takes a seat on the High Council."),
    "secrets_steal": N_(
        "%(rival)s has 4+ Intrigue cards: it gives %(house)s one of them at random."
    ),
    "control_bonus": N_(
        "%(house)s controls %(space)s and gets %(bonus)s (%(visitor)s went there)."
    ),
    "reveal": N_("%(house)s takes a Reveal turn."),
    "churn": Nn_(
        "Imperium Row churn: the dice show %(dice)s. Trash the Imperium Row card at position "
        "%(positions)s.",
        "Imperium Row churn: the dice show %(dice)s. Trash the Imperium Row cards at positions "
        "%(positions)s.",
    ),
    "churn_none": N_(
        "Imperium Row churn: the dice show %(dice)s. Nothing to trash (6s are ignored)."
    ),
    "voice": N_(
        "%(house)s uses The Voice on %(space)s: opponents can't go there until their next turn."
    ),
    "adjust": N_("Correction: %(house)s's %(field)s %(delta)s (%(reason)s)."),
    "set_control": N_("Correction: %(space)s is now controlled by %(house)s."),
    "tiebreak": N_("%(house)s counts for tie-breaks: %(values)s."),
    "corner_the_market": N_(
        "%(house)s plays Corner the Market with %(own)s The Spice Must Flow: +%(vp)s VP."
    ),
    "hagal_reshuffle": Nn_(
        "Shuffle all %(cards)s House Hagal cards into a new deck.",
        "Shuffle all %(cards)s House Hagal cards into a new deck.",
    ),
    "hagal_reshuffle_card": N_("Reshuffle card: shuffle all House Hagal cards and reveal again."),
    "hagal_skip": N_("%(house)s reveals %(card)s: %(reason)s, reveal another card."),
    "rival_blocked": N_(
        "%(house)s finds no free space on any card and places no Agent this round."
    ),
    "rival_agent": N_("%(house)s reveals %(card)s: Agent to %(space)s."),
    "recruit": Nn_("%(house)s recruits %(troops)s troop.", "%(house)s recruits %(troops)s troops."),
    "deploy": Nn_(
        "%(house)s deploys %(troops)s troop to the Conflict.",
        "%(house)s deploys %(troops)s troops to the Conflict.",
    ),
    "expert_hold": Nn_(
        "%(house)s leads by 4 or more: it keeps %(kept)s troop in its garrison.",
        "%(house)s leads by 4 or more: it keeps %(kept)s troops in its garrison.",
    ),
    # Rulings where they apply (companion/rules/rulings.py).
    "ruling_hagal_dreadnought": N_(
        "Ruling: %(house)s's dreadnought takes control like any Rival's (Rise of Ix p.8); "
        "House Hagal gets no bonus from it."
    ),
    "ruling_hagal_dreadnought_home": N_(
        "Ruling (this game's setting): %(house)s never claims control (rulebook p.19); its "
        "dreadnought returns to the garrison."
    ),
    "ruling_dreadnought_swords": N_(
        "Ruling: %(house)s has only dreadnoughts in the Conflict and still reveals a card "
        "for swords (Rise of Ix p.6: your swords still count)."
    ),
    "ruling_dreadnought_no_swords": N_(
        "Ruling (this game's setting): %(house)s has no troop in the Conflict, so no card "
        "for swords (rulebook p.19)."
    ),
    "ruling_epic_rivals": N_(
        "Ruling: in this Epic game each Rival with 3 garrison troops starts with 5, and "
        "every Rival draws an Intrigue card (Rise of Ix p.10: each player)."
    ),
    "ruling_epic_rivals_standard": N_(
        "Ruling (this game's setting): the Rivals start as in a standard game, without the "
        "Epic troops and Intrigue card."
    ),
    "ruling_expert_dreadnoughts": Nn_(
        "Ruling: %(house)s keeps its %(dreadnoughts)s dreadnought in the garrison too: with "
        "Rise of Ix a Rival's strength decides Expert deployment (FAQ, Solo Play).",
        "Ruling: %(house)s keeps its %(dreadnoughts)s dreadnoughts in the garrison too: with "
        "Rise of Ix a Rival's strength decides Expert deployment (FAQ, Solo Play).",
    ),
    "ruling_expert_dreadnoughts_deploy": Nn_(
        "Ruling (this game's setting): %(house)s keeps its troops but deploys its "
        "%(dreadnoughts)s dreadnought (Rise of Ix p.8: whenever it can).",
        "Ruling (this game's setting): %(house)s keeps its troops but deploys its "
        "%(dreadnoughts)s dreadnoughts (Rise of Ix p.8: whenever it can).",
    ),
    "ruling_transports_after_combat": N_(
        "Ruling: %(house)s's Troop Transports deploy the Shipping troops though the Combat is "
        "over, so they go back to its supply (Rise of Ix p.9: a Rival always deploys them)."
    ),
    "ruling_transports_kept": N_(
        "Ruling (this game's setting): the Combat is over, so %(house)s keeps the Shipping "
        "troops in its garrison (Troop Transports: you may deploy them)."
    ),
    "ruling_brutal_reshuffle_all": N_(
        "Ruling: the House Hagal deck ran out after %(house)s's first card; every House Hagal "
        "card, %(card)s too, is shuffled into the new deck (rulebook p.19)."
    ),
    "ruling_brutal_first_card_out": N_(
        "Ruling (this game's setting): the House Hagal deck ran out after %(house)s's first "
        "card; %(card)s stays in the discard pile, the other cards make the new deck."
    ),
    "signet": N_("%(house)s uses its Signet ability (%(leader)s)%(outcome)s."),
    "rival_harvest": Nn_(
        "%(house)s harvests %(space)s: it gains %(spice)s spice.",
        "%(house)s harvests %(space)s: it gains %(spice)s spice.",
    ),
    "rival_harvest_return": Nn_(
        "%(house)s harvests %(space)s: return its %(bonus)s bonus spice to the bank.",
        "%(house)s harvests %(space)s: return its %(bonus)s bonus spice to the bank.",
    ),
    "swords": Nn_(
        "%(house)s's combat bonus: %(card)s shows %(swords)s sword.",
        "%(house)s's combat bonus: %(card)s shows %(swords)s swords.",
    ),
    "strength": N_("%(house)s's strength: %(strength)s."),
    "phase": N_("Phase 3: Combat."),
    "combat": N_("Combat for %(card)s: strength %(strengths)s. Rewards: %(rewards)s."),
    "combat_no_reward": N_("Combat for %(card)s: strength %(strengths)s. Nobody takes a reward."),
    "combat_none": N_("Combat for %(card)s: nobody is in the Conflict, nobody takes a reward."),
    "control_removed": N_("House Hagal wins: remove %(house)s's Control marker from %(space)s."),
    "reward": N_("%(house)s takes the %(place)s-place reward of %(card)s."),
    "take": N_("%(house)s, take %(what)s."),
    "reward_choice": N_("%(house)s takes %(reward)s."),
    "control": N_("%(house)s places a Control marker on %(space)s."),
    "makers": N_("Phase 4: add 1 bonus spice to %(spaces)s."),
    "makers_none": N_("Phase 4: no bonus spice this round, every Maker space has an Agent."),
    "recall": N_("Phase 5: recall Agents, return the Mentat; %(first)s is now First Player."),
    "game_end": N_("The game ends: someone reached %(goal)s VP."),
    "game_end_deck": N_("The game ends: the Conflict deck is empty."),
    "alliance": N_("%(house)s takes the %(faction)s Alliance."),
    "alliance_from": N_("%(house)s takes the %(faction)s Alliance from %(previous)s."),
    # No house meets the Alliance's conditions any more: nobody holds it [FAQ Alliance].
    "alliance_returned": N_(
        "Nobody takes the %(faction)s Alliance (returned to the board by %(previous)s)."
    ),
    "exchange": N_("%(house)s spends %(paid)s for %(vp)s VP."),
    "exchange_intrigue": Nn_(
        "%(house)s spends %(paid)s Intrigue card for %(vp)s VP.",
        "%(house)s spends %(paid)s Intrigue cards for %(vp)s VP.",
    ),
    "acquire": N_("%(house)s buys %(card)s (copy %(copy)s)%(moved)s."),
    # Rise of Ix. A few kinds have a second wording: `describe` picks it by the entry's data.
    "agent_infiltrate": N_(
        "%(house)s sends an Agent to %(space)s with Infiltration, past the enemy Agent there."
    ),
    "deploy_units": N_("%(house)s deploys %(units)s to the Conflict."),
    "tech_up": N_("Tech stack %(stack)s: %(tile)s is now face up."),
    "tech_trash_unmarked": N_(
        "No face-up Tech tile has the House Hagal mark: trash %(tile)s from stack %(stack)s "
        "and turn up the next tile."
    ),
    "tech": N_("%(house)s acquires the Tech tile %(tile)s (stack %(stack)s)."),
    "tech_paid": N_("%(house)s %(paid)s for %(tile)s%(where)s."),
    "tech_none": N_(
        "%(house)s gets nothing from the Tech icon: no Tech tile it can afford, or no troop "
        "in supply for a Negotiator."
    ),
    "negotiator": N_(
        "%(house)s places a troop from supply on Ix as a Negotiator (%(count)s there now)."
    ),
    "negotiators_back": Nn_(
        "%(house)s returns %(negotiators)s from Ix to supply: %(count)s spice off the Tech tile.",
        "%(house)s returns %(negotiators)s from Ix to supply: %(count)s spice off the Tech tile.",
    ),
    "tech_flip": N_("%(house)s flips %(tile)s face down%(why)s."),
    "freighter": N_("%(house)s advances their Freighter to step %(step)s of the Shipping track."),
    "freighter_recall": N_(
        "%(house)s recalls their Freighter from step %(step)s to the bottom of the Shipping "
        "track and collects the rewards of that step and every step below it."
    ),
    "dividends": N_("%(house)s takes Dividends: it gains 5 Solari; everyone else gains 1 Solari."),
    "dividends_player": N_(
        "%(house)s takes Dividends: take 5 Solari from the bank; everyone else gains 1 Solari."
    ),
    "dividends_hagal": N_(
        "%(house)s takes Dividends: House Hagal keeps no Solari; each player gains 1 Solari."
    ),
    "transports": Nn_(
        "%(house)s's Troop Transports: it deploys the %(troops)s troop from the Shipping "
        "track straight to the Conflict.",
        "%(house)s's Troop Transports: it deploys the %(troops)s troops from the Shipping "
        "track straight to the Conflict.",
    ),
    "transports_player": Nn_(
        "%(house)s's Troop Transports: %(troops)s troop from the Shipping track; you may "
        "deploy it to the Conflict.",
        "%(house)s's Troop Transports: %(troops)s troops from the Shipping track; you may "
        "deploy them to the Conflict.",
    ),
    "commission": N_("%(house)s commissions a dreadnought: from supply to the garrison."),
    "dreadnought_home": N_("%(house)s returns %(dreadnoughts)s from the Conflict to the garrison."),
    "detonate": N_(
        "%(house)s uses Detonation Devices: the dreadnought goes back to supply instead of "
        "taking control, +1 VP."
    ),
    "post": N_(
        "%(house)s's dreadnought takes control of %(space)s until the end of the next "
        "Combat%(covers)s."
    ),
    "post_end": N_(
        "%(house)s's dreadnought leaves %(space)s and returns to the garrison%(uncovers)s."
    ),
    "offer": N_("%(house)s pays %(cost)s for %(vp)s VP."),
    "tech_income": N_("%(house)s gains %(what)s from %(tile)s."),
    "tech_vp": N_("Endgame: %(house)s scores 1 VP for %(tile)s."),
    "spy_satellites": N_("%(house)s pays 3 spice and trashes Spy Satellites: +1 VP."),
    "tech_trash": N_("%(house)s trashes the Tech tile %(tile)s%(vp)s."),
    # What to change on the board after Undo or Redo (`changes.board_changes`); a house's
    # changes are phrases the table screen joins after the house's name.
    "board_round_back": N_("Back to Round %(round)s."),
    "board_round_on": N_("On to Round %(round)s."),
    "board_conflict_back": N_("Put the Conflict card %(card)s back on top of the Conflict deck."),
    "board_conflict_reveal": N_("Reveal the Conflict card %(card)s."),
    "board_hagal_back": N_("Put these House Hagal cards back on top of their deck: %(cards)s."),
    "board_bonus_spice": N_("Bonus spice on %(space)s: %(old)s → %(new)s."),
    "board_agent_off": N_("take the Agent back from %(space)s"),
    "board_agent_on": N_("put an Agent on %(space)s"),
    "board_troops_less": Nn_(
        "remove %(n)s troop from the Conflict", "remove %(n)s troops from the Conflict"
    ),
    "board_troops_more": Nn_("put %(n)s troop in the Conflict", "put %(n)s troops in the Conflict"),
    "board_garrison_less": Nn_(
        "take %(n)s troop out of the garrison", "take %(n)s troops out of the garrison"
    ),
    "board_garrison_more": Nn_(
        "put %(n)s troop in the garrison", "put %(n)s troops in the garrison"
    ),
    "board_vp": N_("move the VP marker from %(old)s to %(new)s"),
    "board_influence": N_("move the %(faction)s Influence cube from %(old)s to %(new)s"),
    "board_count": N_("%(field)s %(old)s → %(new)s"),
    "board_mentat_off": N_("return the Mentat to its space"),
    "board_mentat_on": N_("take the Mentat"),
    "board_swordmaster_off": N_("put the Swordmaster back"),
    "board_swordmaster_on": N_("take the Swordmaster"),
    "board_council_seat_off": N_("take the High Council seat marker back"),
    "board_council_seat_on": N_("put a marker on a High Council seat"),
    "board_tech_off": N_("give back the Tech tile %(tile)s"),
    "board_tech_on": N_("take the Tech tile %(tile)s"),
    "board_control_off": N_("remove the Control marker from %(space)s"),
    "board_control_on": N_("put a Control marker on %(space)s"),
    "board_alliance_off": N_("give back the %(faction)s Alliance"),
    "board_alliance_on": N_("take the %(faction)s Alliance"),
    "board_first": N_("take the First Player marker"),
    # What a player got from the bank or paid to it, undone or done again.
    "board_undo_gained": N_("give back %(what)s"),
    "board_undo_paid": N_("take back the %(what)s you paid"),
    "board_undo_recruited": Nn_(
        "return %(n)s troop from your garrison to your supply",
        "return %(n)s troops from your garrison to your supply",
    ),
    "board_redo_gained": N_("take %(what)s again"),
    "board_redo_paid": N_("pay %(what)s again"),
    "board_redo_recruited": Nn_(
        "put %(n)s troop from your supply in your garrison again",
        "put %(n)s troops from your supply in your garrison again",
    ),
}
# The wordings of a count (Plural in TEMPLATES), by the field that counts.
COUNTS = {
    "recruit": "troops",
    "deploy": "troops",
    "expert_hold": "kept",
    "harvest": "spice",
    "harvest_plain": "spice",
    "churn": "trashed",
    "rival_harvest": "spice",
    "rival_harvest_return": "bonus",
    "ruling_expert_dreadnoughts": "dreadnoughts",
    "ruling_expert_dreadnoughts_deploy": "dreadnoughts",
    "swords": "swords",
    "exchange_intrigue": "paid",
    "transports": "troops",
    "transports_player": "troops",
    "hagal_reshuffle": "cards",
    "negotiators_back": "count",
    **dict.fromkeys(
        (
            "board_troops_less",
            "board_troops_more",
            "board_garrison_less",
            "board_garrison_more",
            "board_undo_recruited",
            "board_redo_recruited",
        ),
        "n",
    ),
}
SKIP_REASONS = {
    "occupied": N_("the space is taken"),
    "no_bonus_spice": N_("no Maker space with bonus spice is free"),
    "not_on_board": N_("that space is not in this game"),
    "two_dreadnoughts": N_("it already has both dreadnoughts"),
    "needs_influence": N_("Interstellar Shipping needs 2 Spacing Guild Influence"),
}
# The numbers a correction changes, in words.
FIELD_NAMES = {
    "vp": N_("VP"),
    "influence:emperor": N_("Emperor Influence"),
    "influence:spacing_guild": N_("Spacing Guild Influence"),
    "influence:bene_gesserit": N_("Bene Gesserit Influence"),
    "influence:fremen": N_("Fremen Influence"),
    "solari": N_("Solari"),
    "spice": N_("spice"),
    "water": N_("water"),
    "intrigue": N_("Intrigue cards"),
    "garrison": N_("troops in the garrison"),
    "troops": N_("troops in the Conflict"),
    "swords": N_("swords"),
    "strength": N_("strength"),
    "freighter": N_("Freighter step"),
    "negotiators": N_("Negotiators on Ix"),
    "dn_garrison": N_("dreadnoughts in the garrison"),
    "dn_conflict": N_("dreadnoughts in the Conflict"),
}
# Why a correction was made.
ADJUST_REASONS = {
    "manual": N_("by hand"),
    "card": N_("card effect"),
    "endgame": N_("Endgame card"),
}
PLACE_NAMES = {"first": N_("1st"), "second": N_("2nd"), "third": N_("3rd")}
# The same places as the words of "takes the first-place reward".
PLACE_WORDS = {"first": N_("first"), "second": N_("second"), "third": N_("third")}
# Amounts of each resource, and the tie-break counts in their order [RB p.12 Endgame].
RESOURCE_AMOUNTS = {
    "solari": Nn_("%(n)s Solari", "%(n)s Solari"),
    "spice": Nn_("%(n)s spice", "%(n)s spice"),
    "water": Nn_("%(n)s water", "%(n)s water"),
}
TIEBREAK_COUNTS = (
    RESOURCE_AMOUNTS["spice"],
    RESOURCE_AMOUNTS["solari"],
    RESOURCE_AMOUNTS["water"],
    Nn_("%(n)s troop in the garrison", "%(n)s troops in the garrison"),
)
TROOPS = Nn_("%(n)s troop", "%(n)s troops")
# What a Conflict reward option gives, in its order (companion/rules/combat.py).
REWARD_AMOUNTS = {
    "vp": Nn_("%(n)s VP", "%(n)s VP"),
    **RESOURCE_AMOUNTS,
    "intrigue": Nn_("%(n)s Intrigue card", "%(n)s Intrigue cards"),
    "troops": TROOPS,
}
REWARD_KINDS = tuple(REWARD_AMOUNTS)
DREADNOUGHTS = Nn_("%(n)s dreadnought", "%(n)s dreadnoughts")
NEGOTIATORS = Nn_("%(n)s Negotiator", "%(n)s Negotiators")
# What flipping a Tech tile does, where the log line should say it (Ix rulebook p.9).
FLIP_REASONS = {
    "flagship": N_(", paying 4 Solari, to recruit 3 troops and deploy them to the Conflict"),
    "training_drones": N_(" to recruit 1 troop"),
    "invasion_ships": N_(" to send its Agent to a space an enemy Agent holds"),
}


def describe(entry: Entry, state: GameState) -> Message:
    """A log entry as a Message: its template (the message id; a count's has its plural
    too) and its values, which the web translates before filling it in."""
    names = _Names(state)
    data = dict(entry.data)
    values: dict[str, object] = {"house": names.house(entry.house), "round": entry.round, **data}
    if "tile" in data:
        values["tile"] = names.tile(data["tile"])
    if "space" in data:
        values["space"] = names.space(data["space"])
    if "faction" in data:
        faction = str(data["faction"])
        values["faction"] = Message(FACTION_NAMES[faction]) if faction in FACTION_NAMES else faction
    if "card" in data:
        values["card"] = names.card(data["card"], bought=entry.kind == "acquire")
    details = _DETAILS.get(entry.kind)
    if details is not None:
        values.update(details(entry, data, names))
    template = entry.kind
    if entry.kind == "agent" and data.get("infiltrate"):
        template = "agent_infiltrate"
    elif entry.kind == "deploy" and data.get("dreadnoughts"):
        template = "deploy_units"
    elif entry.kind == "alliance" and entry.house is None:
        template = "alliance_returned"
    elif entry.kind == "alliance" and data.get("previous"):
        template = "alliance_from"
    elif entry.kind == "dividends":
        template = _dividends(entry, names) or template
    else:
        template = _PLAIN_VARIANTS.get(entry.kind, _no_variant)(data) or template
    wording = TEMPLATES.get(template, template)
    if isinstance(wording, Plural):
        return counted(wording, values.get(COUNTS[template]), **values)
    return Message(wording, **values)


class _Names:
    """The names of the houses, spaces, cards and Tech tiles a log entry refers to by id."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.catalog = state.catalog

    def house(self, house_id: object) -> str:
        if not house_id:
            return Message(N_("nobody"))
        found = _house(self.state, str(house_id))
        return found.name if found else str(house_id)

    def space(self, space_id: object) -> str:
        found = self.catalog.spaces.get(str(space_id))
        return Name(found.name, "space") if found else str(space_id)

    def tile(self, tile_id: object) -> str:
        found = self.catalog.tech.get(str(tile_id))
        return Name(found.name, "tile") if found else str(tile_id)

    def card(self, card_id: object, bought: bool = False) -> str:
        """A card's name; `bought`: a card of the Imperium Row or the Reserve, whose id may
        be a House Hagal card's too (the Reserve's Foldspace, the Hagal card Foldspace)."""
        card = str(card_id)
        catalog = self.catalog
        if bought and card in catalog.cards:
            return Name(catalog.cards[card].name, "card")
        hagal = catalog.hagal.get(card)
        if hagal is not None:
            return Name(hagal.name, "hagal")
        found = catalog.conflicts.get(card) or catalog.cards.get(card)
        return Name(found.name, "card") if found else card


Data = dict[str, object]
Details = Callable[[Entry, Data, _Names], Data]


def _first_player(entry: Entry, data: Data, names: _Names) -> Data:
    return {"first": names.house(data.get("first"))}


def _defensive_bonus(data: Data) -> str | None:
    return "defensive_bonus_deployed" if data.get("deployed") else None


def _control_bonus(entry: Entry, data: Data, names: _Names) -> Data:
    return {
        "bonus": listed(_amounts(data, ("solari", "spice"))),
        "visitor": names.house(data.get("visitor")),
    }


def _secrets_steal(entry: Entry, data: Data, names: _Names) -> Data:
    return {"rival": names.house(data.get("rival"))}


def _churn(entry: Entry, data: Data, names: _Names) -> Data:
    positions = _items(data.get("positions"))
    return {
        **_dice(entry, data, names),
        "positions": listed([str(p) for p in positions]),
        "trashed": len(positions),
    }


def _hagal_skip(entry: Entry, data: Data, names: _Names) -> Data:
    reason = str(data.get("reason"))
    return {"reason": Message(SKIP_REASONS[reason]) if reason in SKIP_REASONS else reason}


def _signet(entry: Entry, data: Data, names: _Names) -> Data:
    leader = names.catalog.leaders.get(str(data.get("leader")))
    return {
        "leader": Name(leader.signet_name, "leader") if leader else data.get("leader"),
        "outcome": "" if data.get("done") else Message(N_(", but can't pay for it")),
    }


def _rival_harvest(data: Data) -> str | None:
    return None if data.get("spice") else "rival_harvest_return"


def _combat(entry: Entry, data: Data, names: _Names) -> Data:
    parts = [
        Message(N_("%(house)s %(strength)s"), house=names.house(h), strength=v)
        for h, v in _pairs(data.get("strengths"))
    ]
    won = [
        Message(N_("%(house)s %(place)s"), house=names.house(h), place=_named(PLACE_NAMES, p))
        for h, p in _pairs(data.get("places"))
    ]
    return {"strengths": joined(parts), "rewards": joined(won)}


def reward_phrase(amounts: object) -> str:
    """A reward option as a noun phrase ("2 spice and 1 Intrigue card"), each amount a
    count's Message; text as it is (a log line of an older game)."""
    if not isinstance(amounts, Mapping):
        return str(amounts)
    return listed(
        [counted(words, amounts[k]) for k, words in REWARD_AMOUNTS.items() if amounts.get(k)]
    )


def _reward_choice(entry: Entry, data: Data, names: _Names) -> Data:
    return {"reward": reward_phrase(data.get("reward"))}


def _reward(entry: Entry, data: Data, names: _Names) -> Data:
    return {"place": _named(PLACE_WORDS, data.get("place"))}


def _take(entry: Entry, data: Data, names: _Names) -> Data:
    """A player's Conflict reward: what comes from the bank, the Intrigue deck and their
    own supply [RB p.12 Resolve Combat; icon guide: a troop icon recruits from supply]."""
    bank = _amounts(data, ("solari", "spice", "water"))
    parts: list[str] = [Message(N_("%(what)s from the bank"), what=listed(bank))] if bank else []
    if data.get("intrigue"):
        parts.append(counted(REWARD_AMOUNTS["intrigue"], data["intrigue"]))
    if data.get("troops"):
        troops = counted(TROOPS, data["troops"])
        parts.append(Message(N_("%(troops)s from your supply into your garrison"), troops=troops))
    if data.get("choose"):
        options = listed([reward_phrase(o) for o in _items(data.get("options"))], "or")
        parts.append(Message(N_("%(n)s of: %(options)s"), n=data["choose"], options=options))
    if data.get("trash"):
        parts.append(Message(N_("and you may trash a card")))
    return {"what": joined(parts, N_("%(first)s; %(second)s"))}


def _makers(entry: Entry, data: Data, names: _Names) -> Data:
    return {"spaces": listed([names.space(s) for s in _items(data.get("spaces"))])}


def _game_end(entry: Entry, data: Data, names: _Names) -> Data:
    return {"goal": data.get("goal", VP_TO_END)}


def _alliance(entry: Entry, data: Data, names: _Names) -> Data:
    return {"previous": names.house(data.get("previous"))}


def _exchange(entry: Entry, data: Data, names: _Names) -> Data:
    resource = str(data.get("resource"))
    if resource not in RESOURCE_AMOUNTS:
        return {}  # Intrigue cards: their own wording counts them
    return {"paid": counted(RESOURCE_AMOUNTS[resource], data.get("paid"))}


def _acquire(entry: Entry, data: Data, names: _Names) -> Data:
    moved = data.get("moved_from")
    if not moved:
        return {"moved": ""}
    return {"moved": Message(N_(", moved from %(house)s"), house=names.house(moved))}


def _adjust(entry: Entry, data: Data, names: _Names) -> Data:
    delta = data.get("delta")
    return {
        "field": _named(FIELD_NAMES, data.get("field")),
        "delta": f"{delta:+d}" if isinstance(delta, int) else delta,
        "reason": _named(ADJUST_REASONS, data.get("reason")),
    }


def _board_count(entry: Entry, data: Data, names: _Names) -> Data:
    return {"field": _named(FIELD_NAMES, data.get("field"))}


def _named(words: Mapping[str, str], key: object) -> object:
    """The marked word for `key` (a Message, which the web translates), or `key` itself."""
    return Message(words[str(key)]) if str(key) in words else key


def _hagal_cards(entry: Entry, data: Data, names: _Names) -> Data:
    return {"cards": joined([names.card(c) for c in _items(data.get("cards"))])}


def _tiebreak(entry: Entry, data: Data, names: _Names) -> Data:
    counts = _items(data.get("values"))
    return {
        "values": joined(
            [counted(label, n) for n, label in zip(counts, TIEBREAK_COUNTS, strict=False)]
        )
    }


def _dice(entry: Entry, data: Data, names: _Names) -> Data:
    return {"dice": listed([str(d) for d in _items(data.get("dice"))])}


def _deploy(entry: Entry, data: Data, names: _Names) -> Data:
    if not data.get("dreadnoughts"):
        return {}
    units = [counted(DREADNOUGHTS, data.get("dreadnoughts"))]
    if data.get("troops"):
        units.append(counted(TROOPS, data.get("troops")))
    return {"units": listed(units)}


def _tech_paid(entry: Entry, data: Data, names: _Names) -> Data:
    paid: list[str] = []
    if data.get("spice"):
        paid.append(counted(Nn_("pays %(n)s spice", "pays %(n)s spice"), data["spice"]))
    if data.get("negotiators"):
        negotiators = counted(NEGOTIATORS, data["negotiators"])
        paid.append(Message(N_("returns %(negotiators)s"), negotiators=negotiators))
    values: Data = {"paid": listed(paid) if paid else Message(N_("pays nothing"))}
    taken = _next_entry(entry, names.state)
    where: list[str] = []
    if taken is not None and taken.kind == "tech" and taken.house == entry.house:
        values["tile"] = names.tile(taken.data.get("tile"))
        where.append(Message(N_("stack %(stack)s"), stack=taken.data.get("stack")))
    else:
        values["tile"] = Message(N_("a Tech tile"))
    if data.get("discount"):
        discount = Nn_("%(n)s spice Tech discount", "%(n)s spice Tech discount")
        where.append(counted(discount, data["discount"]))
    where_text = joined(where, N_("%(first)s; %(second)s"))
    values["where"] = Message(N_(" (%(where)s)"), where=where_text) if where else ""
    return values


def _negotiators_back(entry: Entry, data: Data, names: _Names) -> Data:
    return {"negotiators": counted(NEGOTIATORS, data.get("count"))}


def _tech_flip(entry: Entry, data: Data, names: _Names) -> Data:
    return {"why": Message(FLIP_REASONS.get(str(data.get("tile")), N_(" to use it")))}


def _dividends(entry: Entry, names: _Names) -> str | None:
    taker = _house(names.state, entry.house)
    if taker is not None and taker.kind == "hagal":
        return "dividends_hagal"
    return "dividends_player" if taker is not None and taker.is_human else None


def _dreadnought_home(entry: Entry, data: Data, names: _Names) -> Data:
    return {"dreadnoughts": counted(DREADNOUGHTS, data.get("count"))}


def _post(entry: Entry, data: Data, names: _Names) -> Data:
    covered = data.get("covers")
    if not covered:
        return {"covers": ""}
    if covered == entry.house:
        return {"covers": Message(N_(", covering their own Control marker"))}
    return {
        "covers": Message(N_(", covering %(house)s's Control marker"), house=names.house(covered))
    }


def _post_end(entry: Entry, data: Data, names: _Names) -> Data:
    uncovered = data.get("uncovers")
    if not uncovered:
        return {"uncovers": ""}
    return {
        "uncovers": Message(
            N_("; %(house)s's Control marker there counts again"), house=names.house(uncovered)
        )
    }


def _offer(entry: Entry, data: Data, names: _Names) -> Data:
    cost = _amounts(data, ("solari", "spice"))
    return {"cost": listed(cost) if cost else Message(N_("nothing"))}


def _tech_income(entry: Entry, data: Data, names: _Names) -> Data:
    return {"what": listed(_amounts(data, ("solari", "spice", "water")))}


def _tech_trash(entry: Entry, data: Data, names: _Names) -> Data:
    return {"vp": Message(N_(": +1 VP")) if data.get("tile") == "spy_satellites" else ""}


def _bank_amounts(entry: Entry, data: Data, names: _Names) -> Data:
    """ "2 spice", "3 Solari, 1 Intrigue card": what a player got from the bank or paid."""
    parts = _amounts(data, ("solari", "spice", "water"))
    if data.get("intrigue"):
        parts.append(counted(REWARD_AMOUNTS["intrigue"], data["intrigue"]))
    return {"what": listed(parts)}


# The values a kind of log entry needs beyond its data and the names of what it refers to.
_DETAILS: Mapping[str, Details] = {
    "setup": _first_player,
    "recall": _first_player,
    "control_bonus": _control_bonus,
    "secrets_steal": _secrets_steal,
    "churn": _churn,
    "hagal_skip": _hagal_skip,
    "signet": _signet,
    "combat": _combat,
    "reward": _reward,
    "reward_choice": _reward_choice,
    "take": _take,
    "makers": _makers,
    "game_end": _game_end,
    "alliance": _alliance,
    "exchange": _exchange,
    "acquire": _acquire,
    "adjust": _adjust,
    "tiebreak": _tiebreak,
    "board_count": _board_count,
    "board_hagal_back": _hagal_cards,
    "deploy": _deploy,
    "tech_paid": _tech_paid,
    "negotiators_back": _negotiators_back,
    "tech_flip": _tech_flip,
    "dreadnought_home": _dreadnought_home,
    "post": _post,
    "post_end": _post_end,
    "offer": _offer,
    "tech_income": _tech_income,
    "tech_trash": _tech_trash,
    **dict.fromkeys(
        ("board_undo_gained", "board_undo_paid", "board_redo_gained", "board_redo_paid"),
        _bank_amounts,
    ),
}


def _amounts(data: Data, keys: Sequence[str]) -> list[str]:
    """ "2 Solari", "1 spice": the resources of `keys` that `data` holds, in that order."""
    return [counted(RESOURCE_AMOUNTS[k], data[k]) for k in keys if data.get(k)]


def _no_variant(data: Data) -> str | None:
    return None


# Kinds with a plainer wording for some data: the data picks the template.
_PLAIN_VARIANTS: Mapping[str, Callable[[Data], str | None]] = {
    "harvest": lambda data: None if data.get("bonus") else "harvest_plain",
    "makers": lambda data: None if _items(data.get("spaces")) else "makers_none",
    "combat": lambda data: (
        ("combat_no_reward" if not _pairs(data.get("places")) else None)
        if _pairs(data.get("strengths"))
        else "combat_none"
    ),
    "churn": lambda data: None if _items(data.get("positions")) else "churn_none",
    "defensive_bonus": _defensive_bonus,
    "rival_harvest": _rival_harvest,
    "game_end": lambda data: None if data.get("reason") == "vp" else "game_end_deck",
    "exchange": lambda data: "exchange_intrigue" if data.get("resource") == "intrigue" else None,
}


def _house(state: GameState, house_id: str | None) -> House | None:
    try:
        return state.house(str(house_id))
    except KeyError:
        return None


def _next_entry(entry: Entry, state: GameState) -> Entry | None:
    """The log line right after this one (searched from the newest, where the table's
    lines are)."""
    log = state.log
    for i in range(len(log) - 1, -1, -1):
        if log[i] is entry:
            return log[i + 1] if i + 1 < len(log) else None
    return None


def _items(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def _pairs(value: object) -> list[tuple[object, object]]:
    return list(value.items()) if isinstance(value, Mapping) else []


def sentence(entry: Entry, state: GameState) -> str:
    """A log entry as one English sentence."""
    return str(describe(entry, state))

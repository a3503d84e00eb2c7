"""Plain English sentences for log entries.

`describe` returns a template and its values so that a web layer can translate the
template (it is the message id) before filling it in; `sentence` fills it in English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.rules.catalog import FACTION_NAMES
from companion.rules.i18n import N_, Message
from companion.rules.state import VP_TO_END, Entry, GameState, House

TEMPLATES: Mapping[str, str] = {
    "setup": N_("New game set up. %(first)s takes the First Player marker."),
    "conflict": N_("Round %(round)s: reveal the Conflict card %(card)s (level %(level)s)."),
    "rival_swordmaster": N_("%(house)s's Swordmaster arrives: it has 3 Agents from now on."),
    "defensive_bonus": N_("%(house)s controls %(space)s: %(what)s"),
    "agent": N_("%(house)s sends an Agent to %(space)s."),
    "influence": N_("%(house)s: %(faction)s Influence %(old)s → %(new)s."),
    "influence_choice": N_("%(house)s takes %(amount)s %(faction)s Influence."),
    "influence_bonus": N_(
        "%(house)s reached 4 %(faction)s Influence: take the bonus shown on the track."
    ),
    "harvest": N_("%(house)s harvests %(spice)s spice at %(space)s (%(bonus)s of it bonus spice)."),
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
    "churn": N_("Imperium Row churn: dice %(dice)s. %(what)s"),
    "voice": N_(
        "%(house)s uses The Voice on %(space)s: opponents can't go there until its next turn."
    ),
    "adjust": N_("Correction: %(house)s %(field)s %(delta)s (%(reason)s)."),
    "set_control": N_("Correction: %(space)s is now controlled by %(house)s."),
    "tiebreak": N_("%(house)s enters spice, Solari, water, garrison: %(values)s."),
    "corner_the_market": N_(
        "%(house)s plays Corner the Market with %(own)s The Spice Must Flow: +%(vp)s VP."
    ),
    "hagal_reshuffle": N_("Shuffle all %(cards)s House Hagal cards into a new deck."),
    "hagal_reshuffle_card": N_("Reshuffle card: shuffle all House Hagal cards and reveal again."),
    "hagal_skip": N_("%(house)s reveals %(card)s: %(reason)s, reveal another card."),
    "rival_blocked": N_(
        "%(house)s finds no free space on any card and places no Agent this round."
    ),
    "rival_agent": N_("%(house)s reveals %(card)s: Agent to %(space)s."),
    "recruit": N_("%(house)s recruits %(troops)s troops."),
    "recruit_one": N_("%(house)s recruits 1 troop."),
    "deploy": N_("%(house)s deploys %(troops)s troops to the Conflict."),
    "deploy_one": N_("%(house)s deploys 1 troop to the Conflict."),
    "expert_hold": N_("%(house)s leads by 4 or more: it keeps %(kept)s troops in its garrison."),
    "expert_hold_one": N_("%(house)s leads by 4 or more: it keeps 1 troop in its garrison."),
    "signet": N_("%(house)s uses its Signet ability (%(leader)s)%(outcome)s."),
    "rival_harvest": N_("%(house)s harvests %(space)s: %(what)s"),
    "swords": N_("%(house)s's combat bonus: %(card)s shows %(swords)s swords."),
    "swords_one": N_("%(house)s's combat bonus: %(card)s shows 1 sword."),
    "strength": N_("%(house)s's strength: %(strength)s."),
    "phase": N_("Phase 3: Combat."),
    "combat": N_("Combat for %(card)s: %(result)s"),
    "control_removed": N_("House Hagal wins: remove %(house)s's Control marker from %(space)s."),
    "reward": N_("%(house)s takes the %(place)s-place reward of %(card)s."),
    "take": N_("%(house)s takes from the bank: %(what)s"),
    "reward_choice": N_("%(house)s takes %(reward)s."),
    "control": N_("%(house)s places a Control marker on %(space)s."),
    "makers": N_("Phase 4: one bonus spice on %(spaces)s."),
    "recall": N_("Phase 5: recall Agents, return the Mentat; %(first)s is now First Player."),
    "game_end": N_("The game ends: %(why)s"),
    "alliance": N_("%(house)s takes the %(faction)s Alliance%(previous)s."),
    "exchange": N_("%(house)s spends %(paid)s %(resource)s for %(vp)s VP."),
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
    "negotiators_back": N_(
        "%(house)s returns %(negotiators)s from Ix to supply: %(count)s spice off the Tech tile."
    ),
    "tech_flip": N_("%(house)s flips %(tile)s face down%(why)s."),
    "freighter": N_("%(house)s advances their Freighter to step %(step)s of the Shipping track."),
    "freighter_recall": N_(
        "%(house)s recalls their Freighter from step %(step)s to the bottom of the Shipping "
        "track and collects the rewards of that step and every step below it."
    ),
    "dividends": N_("%(house)s takes Dividends: %(what)s"),
    "transports": N_(
        "%(house)s's Troop Transports: it deploys the %(troops)s troops from the Shipping "
        "track straight to the Conflict."
    ),
    "transports_one": N_(
        "%(house)s's Troop Transports: it deploys the 1 troop from the Shipping track "
        "straight to the Conflict."
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
}
# Wordings with a twin for a count of one (kind + "_one"), by the field that counts.
ONE = {
    "recruit": "troops",
    "deploy": "troops",
    "expert_hold": "kept",
    "swords": "swords",
    "transports": "troops",
}
SKIP_REASONS = {
    "occupied": N_("the space is taken"),
    "no_bonus_spice": N_("no Maker space with bonus spice is free"),
    "not_on_board": N_("that space is not in this game"),
    "two_dreadnoughts": N_("it already has both dreadnoughts"),
    "needs_influence": N_("Interstellar Shipping needs 2 Spacing Guild Influence"),
}
# Corrections of the Rise of Ix numbers, in words.
FIELD_NAMES = {
    "freighter": N_("Freighter step"),
    "negotiators": N_("Negotiators on Ix"),
    "dn_garrison": N_("dreadnoughts in the garrison"),
    "dn_conflict": N_("dreadnoughts in the Conflict"),
}
# What flipping a Tech tile does, where the log line should say it (Ix rulebook p.9).
FLIP_REASONS = {
    "flagship": N_(", paying 4 Solari, to recruit 3 troops and deploy them to the Conflict"),
    "training_drones": N_(" to recruit 1 troop"),
    "invasion_ships": N_(" to send its Agent to a space an enemy Agent holds"),
}


def describe(entry: Entry, state: GameState) -> tuple[str, dict[str, object]]:
    """The message template of a log entry and its values."""
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
        values["card"] = names.card(data["card"])
    details = _DETAILS.get(entry.kind)
    if details is not None:
        values.update(details(entry, data, names))
    template = entry.kind
    if entry.kind == "agent" and data.get("infiltrate"):
        template = "agent_infiltrate"
    elif entry.kind == "deploy" and data.get("dreadnoughts"):
        template = "deploy_units"
    counted = ONE.get(template)
    if counted is not None and data.get(counted) == 1:
        template += "_one"
    return TEMPLATES.get(template, template), values


class _Names:
    """The names of the houses, spaces, cards and Tech tiles a log entry refers to by id."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.catalog = state.catalog

    def house(self, house_id: object) -> str:
        if not house_id:
            return "nobody"
        found = _house(self.state, str(house_id))
        return found.name if found else str(house_id)

    def space(self, space_id: object) -> str:
        found = self.catalog.spaces.get(str(space_id))
        return found.name if found else str(space_id)

    def tile(self, tile_id: object) -> str:
        found = self.catalog.tech.get(str(tile_id))
        return found.name if found else str(tile_id)

    def card(self, card_id: object) -> str:
        card = str(card_id)
        catalog = self.catalog
        found = catalog.hagal.get(card) or catalog.conflicts.get(card) or catalog.cards.get(card)
        return found.name if found else card


Data = dict[str, object]
Details = Callable[[Entry, Data, _Names], Data]


def _first_player(entry: Entry, data: Data, names: _Names) -> Data:
    return {"first": names.house(data.get("first"))}


def _defensive_bonus(entry: Entry, data: Data, names: _Names) -> Data:
    if data.get("deployed"):
        return {"what": Message(N_("it deploys 1 troop from supply to the Conflict."))}
    return {"what": Message(N_("you may deploy 1 troop from your supply to the Conflict."))}


def _control_bonus(entry: Entry, data: Data, names: _Names) -> Data:
    gains = (("Solari", data.get("solari")), ("spice", data.get("spice")))
    return {
        "bonus": " and ".join(f"{n} {r}" for r, n in gains if n),
        "visitor": names.house(data.get("visitor")),
    }


def _secrets_steal(entry: Entry, data: Data, names: _Names) -> Data:
    return {"rival": names.house(data.get("rival"))}


def _churn(entry: Entry, data: Data, names: _Names) -> Data:
    positions = _items(data.get("positions"))
    if not positions:
        return {"what": Message(N_("Nothing to trash (6s are ignored)."))}
    one = len(positions) == 1
    return {
        "what": f"Trash the Imperium Row {'card' if one else 'cards'} at "
        f"{'position' if one else 'positions'} {', '.join(map(str, positions))}."
    }


def _hagal_skip(entry: Entry, data: Data, names: _Names) -> Data:
    reason = str(data.get("reason"))
    return {"reason": Message(SKIP_REASONS[reason]) if reason in SKIP_REASONS else reason}


def _signet(entry: Entry, data: Data, names: _Names) -> Data:
    leader = names.catalog.leaders.get(str(data.get("leader")))
    return {
        "leader": leader.signet_name if leader else data.get("leader"),
        "outcome": "" if data.get("done") else Message(N_(", but can't pay for it")),
    }


def _rival_harvest(entry: Entry, data: Data, names: _Names) -> Data:
    if data.get("spice"):
        return {"what": Message(N_("it gains %(spice)s spice."), spice=data.get("spice"))}
    return {
        "what": Message(
            N_("return its %(bonus)s bonus spice to the bank."), bonus=data.get("bonus")
        )
    }


def _combat(entry: Entry, data: Data, names: _Names) -> Data:
    parts = [f"{names.house(h)} {v}" for h, v in _pairs(data.get("strengths"))]
    won = [f"{names.house(h)} {p}" for h, p in _pairs(data.get("places"))]
    rewards = "Rewards: " + ", ".join(won) + "." if won else "Nobody takes a reward."
    return {"result": "strength " + ", ".join(parts) + ". " + rewards}


def _take(entry: Entry, data: Data, names: _Names) -> Data:
    kinds = ("solari", "spice", "water", "intrigue", "troops")
    parts = [f"{data[k]} {k}" for k in kinds if data.get(k)]
    if data.get("choose"):
        options = " / ".join(map(str, _items(data.get("options"))))
        parts.append(f"choose {data['choose']} of: " + options)
    if data.get("trash"):
        parts.append("you may trash a card")
    return {"what": ", ".join(parts) + "."}


def _makers(entry: Entry, data: Data, names: _Names) -> Data:
    spaces = [names.space(s) for s in _items(data.get("spaces"))]
    if not spaces:
        return {"spaces": Message(N_("no space (all had an Agent)"))}
    return {"spaces": ", ".join(spaces)}


def _game_end(entry: Entry, data: Data, names: _Names) -> Data:
    if data.get("reason") == "vp":
        goal = data.get("goal", VP_TO_END)
        return {"why": Message(N_("someone reached %(goal)s VP."), goal=goal)}
    return {"why": Message(N_("the Conflict deck is empty."))}


def _alliance(entry: Entry, data: Data, names: _Names) -> Data:
    previous = data.get("previous")
    if entry.house is None:
        return {
            "house": "Nobody",
            "previous": f" (returned to the board by {names.house(previous)})",
        }
    return {"previous": f" from {names.house(previous)}" if previous else ""}


def _acquire(entry: Entry, data: Data, names: _Names) -> Data:
    moved = data.get("moved_from")
    return {"moved": f", moved from {names.house(moved)}" if moved else ""}


def _adjust(entry: Entry, data: Data, names: _Names) -> Data:
    field = str(data.get("field"))
    return {"field": Message(FIELD_NAMES[field]) if field in FIELD_NAMES else field}


def _deploy(entry: Entry, data: Data, names: _Names) -> Data:
    if not data.get("dreadnoughts"):
        return {}
    units = [_count(data.get("dreadnoughts"), "dreadnought", "dreadnoughts")]
    if data.get("troops"):
        units.append(_count(data.get("troops"), "troop", "troops"))
    return {"units": " and ".join(units)}


def _tech_paid(entry: Entry, data: Data, names: _Names) -> Data:
    paid = []
    if data.get("spice"):
        paid.append(f"pays {data['spice']} spice")
    if data.get("negotiators"):
        paid.append(f"returns {_count(data['negotiators'], 'Negotiator', 'Negotiators')}")
    values: Data = {"paid": " and ".join(paid) or "pays nothing"}
    taken = _next_entry(entry, names.state)
    if taken is not None and taken.kind == "tech" and taken.house == entry.house:
        values["tile"] = names.tile(taken.data.get("tile"))
        where = [f"stack {taken.data.get('stack')}"]
    else:
        values["tile"] = "a Tech tile"
        where = []
    if data.get("discount"):
        where.append(f"{data['discount']} spice Tech discount")
    values["where"] = f" ({'; '.join(where)})" if where else ""
    return values


def _negotiators_back(entry: Entry, data: Data, names: _Names) -> Data:
    return {"negotiators": _count(data.get("count"), "Negotiator", "Negotiators")}


def _tech_flip(entry: Entry, data: Data, names: _Names) -> Data:
    return {"why": Message(FLIP_REASONS.get(str(data.get("tile")), N_(" to use it")))}


def _dividends(entry: Entry, data: Data, names: _Names) -> Data:
    taker = _house(names.state, entry.house)
    if taker is not None and taker.kind == "hagal":
        return {"what": Message(N_("House Hagal keeps no Solari; each player gains 1 Solari."))}
    if taker is not None and taker.is_human:
        return {"what": Message(N_("take 5 Solari from the bank; everyone else gains 1 Solari."))}
    return {"what": Message(N_("it gains 5 Solari; everyone else gains 1 Solari."))}


def _dreadnought_home(entry: Entry, data: Data, names: _Names) -> Data:
    return {"dreadnoughts": _count(data.get("count"), "dreadnought", "dreadnoughts")}


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
    costs = (("solari", "Solari"), ("spice", "spice"))
    cost = [f"{data[k]} {label}" for k, label in costs if data.get(k)]
    return {"cost": " and ".join(cost) or "nothing"}


def _tech_income(entry: Entry, data: Data, names: _Names) -> Data:
    gains = (("solari", "Solari"), ("spice", "spice"), ("water", "water"))
    return {"what": " and ".join(f"{data[k]} {label}" for k, label in gains if data.get(k))}


def _tech_trash(entry: Entry, data: Data, names: _Names) -> Data:
    return {"vp": Message(N_(": +1 VP")) if data.get("tile") == "spy_satellites" else ""}


# The values a kind of log entry needs beyond its data and the names of what it refers to.
_DETAILS: Mapping[str, Details] = {
    "setup": _first_player,
    "recall": _first_player,
    "defensive_bonus": _defensive_bonus,
    "control_bonus": _control_bonus,
    "secrets_steal": _secrets_steal,
    "churn": _churn,
    "hagal_skip": _hagal_skip,
    "signet": _signet,
    "rival_harvest": _rival_harvest,
    "combat": _combat,
    "take": _take,
    "makers": _makers,
    "game_end": _game_end,
    "alliance": _alliance,
    "acquire": _acquire,
    "adjust": _adjust,
    "deploy": _deploy,
    "tech_paid": _tech_paid,
    "negotiators_back": _negotiators_back,
    "tech_flip": _tech_flip,
    "dividends": _dividends,
    "dreadnought_home": _dreadnought_home,
    "post": _post,
    "post_end": _post_end,
    "offer": _offer,
    "tech_income": _tech_income,
    "tech_trash": _tech_trash,
}


def _count(count: object, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


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
    template, values = describe(entry, state)
    try:
        return template % values
    except (KeyError, TypeError, ValueError):
        return template

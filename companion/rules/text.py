"""Plain English sentences for log entries.

`describe` returns a template and its values so that a web layer can translate the
template (it is the message id) before filling it in; `sentence` fills it in English.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules.catalog import FACTION_NAMES
from companion.rules.state import VP_TO_END, Entry, GameState, House

TEMPLATES: Mapping[str, str] = {
    "setup": "New game set up. %(first)s takes the First Player marker.",
    "conflict": "Round %(round)s: reveal the Conflict card %(card)s (level %(level)s).",
    "rival_swordmaster": "%(house)s's Swordmaster arrives: it has 3 Agents from now on.",
    "defensive_bonus": "%(house)s controls %(space)s: %(what)s",
    "agent": "%(house)s sends an Agent to %(space)s.",
    "influence": "%(house)s: %(faction)s Influence %(old)s → %(new)s.",
    "influence_choice": "%(house)s takes %(amount)s %(faction)s Influence.",
    "influence_bonus": (
        "%(house)s reached 4 %(faction)s Influence: take the bonus shown on the track."
    ),
    "harvest": "%(house)s harvests %(spice)s spice at %(space)s (%(bonus)s of it bonus spice).",
    "mentat_taken": "%(house)s takes the Mentat: one more Agent this round.",
    "mentat_claimed": (
        "%(house)s takes the Mentat won in the last Conflict: one more Agent this round."
    ),
    "mentat_won": "%(house)s will take the Mentat at the start of next round.",
    "swordmaster": "%(house)s gains the Swordmaster: a third Agent, usable this round.",
    "council_seat": "%(house)s takes a seat on the High Council.",
    "secrets_steal": "%(rival)s has 4+ Intrigue cards: it gives %(house)s one of them at random.",
    "control_bonus": "%(house)s controls %(space)s and gets %(bonus)s (%(visitor)s went there).",
    "reveal": "%(house)s takes a Reveal turn.",
    "churn": "Imperium Row churn: dice %(dice)s. %(what)s",
    "voice": "%(house)s uses The Voice on %(space)s: opponents can't go there until its next turn.",
    "adjust": "Correction: %(house)s %(field)s %(delta)s (%(reason)s).",
    "set_control": "Correction: %(space)s is now controlled by %(house)s.",
    "tiebreak": "%(house)s enters spice, Solari, water, garrison: %(values)s.",
    "corner_the_market": (
        "%(house)s plays Corner the Market with %(own)s The Spice Must Flow: +%(vp)s VP."
    ),
    "hagal_reshuffle": "Shuffle all %(cards)s House Hagal cards into a new deck.",
    "hagal_reshuffle_card": "Reshuffle card: shuffle all House Hagal cards and reveal again.",
    "hagal_skip": "%(house)s reveals %(card)s: %(reason)s, reveal another card.",
    "rival_blocked": "%(house)s finds no free space on any card and places no Agent this round.",
    "rival_agent": "%(house)s reveals %(card)s: Agent to %(space)s.",
    "recruit": "%(house)s recruits %(troops)s troops.",
    "recruit_one": "%(house)s recruits 1 troop.",
    "deploy": "%(house)s deploys %(troops)s troops to the Conflict.",
    "deploy_one": "%(house)s deploys 1 troop to the Conflict.",
    "expert_hold": "%(house)s leads by 4 or more: it keeps %(kept)s troops in its garrison.",
    "expert_hold_one": "%(house)s leads by 4 or more: it keeps 1 troop in its garrison.",
    "signet": "%(house)s uses its Signet ability (%(leader)s)%(outcome)s.",
    "rival_harvest": "%(house)s harvests %(space)s: %(what)s",
    "swords": "%(house)s's combat bonus: %(card)s shows %(swords)s swords.",
    "swords_one": "%(house)s's combat bonus: %(card)s shows 1 sword.",
    "strength": "%(house)s's strength: %(strength)s.",
    "phase": "Phase 3: Combat.",
    "combat": "Combat for %(card)s: %(result)s",
    "control_removed": "House Hagal wins: remove %(house)s's Control marker from %(space)s.",
    "reward": "%(house)s takes the %(place)s-place reward of %(card)s.",
    "take": "%(house)s takes from the bank: %(what)s",
    "reward_choice": "%(house)s takes %(reward)s.",
    "control": "%(house)s places a Control marker on %(space)s.",
    "makers": "Phase 4: one bonus spice on %(spaces)s.",
    "recall": "Phase 5: recall Agents, return the Mentat; %(first)s is now First Player.",
    "game_end": "The game ends: %(why)s",
    "alliance": "%(house)s takes the %(faction)s Alliance%(previous)s.",
    "exchange": "%(house)s spends %(paid)s %(resource)s for %(vp)s VP.",
    "acquire": "%(house)s buys %(card)s (copy %(copy)s)%(moved)s.",
    # Rise of Ix. A few kinds have a second wording: `describe` picks it by the entry's data.
    "agent_infiltrate": (
        "%(house)s sends an Agent to %(space)s with Infiltration, past the enemy Agent there."
    ),
    "deploy_units": "%(house)s deploys %(units)s to the Conflict.",
    "tech_up": "Tech stack %(stack)s: %(tile)s is now face up.",
    "tech_trash_unmarked": (
        "No face-up Tech tile has the House Hagal mark: trash %(tile)s from stack %(stack)s "
        "and turn up the next tile."
    ),
    "tech": "%(house)s acquires the Tech tile %(tile)s (stack %(stack)s).",
    "tech_paid": "%(house)s %(paid)s for %(tile)s%(where)s.",
    "tech_none": (
        "%(house)s gets nothing from the Tech icon: no Tech tile it can afford, or no troop "
        "in supply for a Negotiator."
    ),
    "negotiator": (
        "%(house)s places a troop from supply on Ix as a Negotiator (%(count)s there now)."
    ),
    "negotiators_back": (
        "%(house)s returns %(negotiators)s from Ix to supply: %(count)s spice off the Tech tile."
    ),
    "tech_flip": "%(house)s flips %(tile)s face down%(why)s.",
    "freighter": "%(house)s advances their Freighter to step %(step)s of the Shipping track.",
    "freighter_recall": (
        "%(house)s recalls their Freighter from step %(step)s to the bottom of the Shipping "
        "track and collects the rewards of that step and every step below it."
    ),
    "dividends": "%(house)s takes Dividends: %(what)s",
    "transports": (
        "%(house)s's Troop Transports: it deploys the %(troops)s troops from the Shipping "
        "track straight to the Conflict."
    ),
    "transports_one": (
        "%(house)s's Troop Transports: it deploys the 1 troop from the Shipping track "
        "straight to the Conflict."
    ),
    "commission": "%(house)s commissions a dreadnought: from supply to the garrison.",
    "dreadnought_home": "%(house)s returns %(dreadnoughts)s from the Conflict to the garrison.",
    "detonate": (
        "%(house)s uses Detonation Devices: the dreadnought goes back to supply instead of "
        "taking control, +1 VP."
    ),
    "post": (
        "%(house)s's dreadnought takes control of %(space)s until the end of the next "
        "Combat%(covers)s."
    ),
    "post_end": (
        "%(house)s's dreadnought leaves %(space)s and returns to the garrison%(uncovers)s."
    ),
    "offer": "%(house)s pays %(cost)s for %(vp)s VP.",
    "tech_income": "%(house)s gains %(what)s from %(tile)s.",
    "tech_vp": "Endgame: %(house)s scores 1 VP for %(tile)s.",
    "spy_satellites": "%(house)s pays 3 spice and trashes Spy Satellites: +1 VP.",
    "tech_trash": "%(house)s trashes the Tech tile %(tile)s%(vp)s.",
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
    "occupied": "the space is taken",
    "no_bonus_spice": "no Maker space with bonus spice is free",
    "not_on_board": "that space is not in this game",
    "two_dreadnoughts": "it already has both dreadnoughts",
    "needs_influence": "Interstellar Shipping needs 2 Spacing Guild Influence",
}
# Corrections of the Rise of Ix numbers, in words.
FIELD_NAMES = {
    "freighter": "Freighter step",
    "negotiators": "Negotiators on Ix",
    "dn_garrison": "dreadnoughts in the garrison",
    "dn_conflict": "dreadnoughts in the Conflict",
}
# What flipping a Tech tile does, where the log line should say it (Ix rulebook p.9).
FLIP_REASONS = {
    "flagship": ", paying 4 Solari, to recruit 3 troops and deploy them to the Conflict",
    "training_drones": " to recruit 1 troop",
    "invasion_ships": " to send its Agent to a space an enemy Agent holds",
}


def describe(entry: Entry, state: GameState) -> tuple[str, dict[str, object]]:
    """The message template of a log entry and its values."""
    cat = state.catalog

    def name(house_id: object) -> str:
        if not house_id:
            return "nobody"
        try:
            return state.house(str(house_id)).name
        except KeyError:
            return str(house_id)

    def space(space_id: object) -> str:
        found = cat.spaces.get(str(space_id))
        return found.name if found else str(space_id)

    def tile(tile_id: object) -> str:
        found = cat.tech.get(str(tile_id))
        return found.name if found else str(tile_id)

    d = dict(entry.data)
    values: dict[str, object] = {"house": name(entry.house), "round": entry.round, **d}
    template = entry.kind
    if "tile" in d:
        values["tile"] = tile(d["tile"])
    if "space" in d:
        values["space"] = space(d["space"])
    if "faction" in d:
        values["faction"] = FACTION_NAMES.get(str(d["faction"]), str(d["faction"]))
    if "card" in d:
        card = str(d["card"])
        found = cat.hagal.get(card) or cat.conflicts.get(card) or cat.cards.get(card)
        values["card"] = found.name if found else card
    kind = entry.kind
    if kind in ("setup", "recall"):
        values["first"] = name(d.get("first"))
    elif kind == "defensive_bonus":
        values["what"] = (
            "it deploys 1 troop from supply to the Conflict."
            if d.get("deployed")
            else "you may deploy 1 troop from your supply to the Conflict."
        )
    elif kind == "control_bonus":
        values["bonus"] = " and ".join(
            f"{n} {r}" for r, n in (("Solari", d.get("solari")), ("spice", d.get("spice"))) if n
        )
        values["visitor"] = name(d.get("visitor"))
    elif kind == "secrets_steal":
        values["rival"] = name(d.get("rival"))
    elif kind == "churn":
        positions = _items(d.get("positions"))
        values["what"] = (
            f"Trash the Imperium Row {'card' if len(positions) == 1 else 'cards'} at "
            f"{'position' if len(positions) == 1 else 'positions'} "
            f"{', '.join(map(str, positions))}."
            if positions
            else "Nothing to trash (6s are ignored)."
        )
    elif kind == "hagal_skip":
        values["reason"] = SKIP_REASONS.get(str(d.get("reason")), str(d.get("reason")))
    elif kind == "signet":
        leader = cat.leaders.get(str(d.get("leader")))
        values["leader"] = leader.signet_name if leader else d.get("leader")
        values["outcome"] = "" if d.get("done") else ", but can't pay for it"
    elif kind == "rival_harvest":
        values["what"] = (
            f"it gains {d.get('spice')} spice."
            if d.get("spice")
            else f"return its {d.get('bonus')} bonus spice to the bank."
        )
    elif kind == "combat":
        strengths = _pairs(d.get("strengths"))
        places = _pairs(d.get("places"))
        parts = [f"{name(h)} {v}" for h, v in strengths]
        won = [f"{name(h)} {p}" for h, p in places]
        values["result"] = (
            "strength "
            + ", ".join(parts)
            + ". "
            + ("Rewards: " + ", ".join(won) + "." if won else "Nobody takes a reward.")
        )
    elif kind == "take":
        parts = [
            f"{d[k]} {k}" for k in ("solari", "spice", "water", "intrigue", "troops") if d.get(k)
        ]
        if d.get("choose"):
            parts.append(
                f"choose {d['choose']} of: " + " / ".join(map(str, _items(d.get("options"))))
            )
        if d.get("trash"):
            parts.append("you may trash a card")
        values["what"] = ", ".join(parts) + "."
    elif kind == "makers":
        spaces = [space(s) for s in _items(d.get("spaces"))]
        values["spaces"] = ", ".join(spaces) if spaces else "no space (all had an Agent)"
    elif kind == "game_end":
        values["why"] = (
            f"someone reached {d.get('goal', VP_TO_END)} VP."
            if d.get("reason") == "vp"
            else "the Conflict deck is empty."
        )
    elif kind == "alliance":
        previous = d.get("previous")
        if entry.house is None:
            values["house"] = "Nobody"
            values["previous"] = f" (returned to the board by {name(previous)})"
        else:
            values["previous"] = f" from {name(previous)}" if previous else ""
    elif kind == "acquire":
        moved = d.get("moved_from")
        values["moved"] = f", moved from {name(moved)}" if moved else ""
    elif kind == "set_control":
        values["house"] = name(entry.house)
    elif kind == "adjust":
        values["field"] = FIELD_NAMES.get(str(d.get("field")), d.get("field"))
    elif kind == "agent" and d.get("infiltrate"):
        template = "agent_infiltrate"
    elif kind == "deploy" and d.get("dreadnoughts"):
        template = "deploy_units"
        units = [_count(d.get("dreadnoughts"), "dreadnought", "dreadnoughts")]
        if d.get("troops"):
            units.append(_count(d.get("troops"), "troop", "troops"))
        values["units"] = " and ".join(units)
    elif kind == "tech_paid":
        paid = []
        if d.get("spice"):
            paid.append(f"pays {d['spice']} spice")
        if d.get("negotiators"):
            paid.append(f"returns {_count(d['negotiators'], 'Negotiator', 'Negotiators')}")
        values["paid"] = " and ".join(paid) or "pays nothing"
        taken = _next_entry(entry, state)
        if taken is not None and taken.kind == "tech" and taken.house == entry.house:
            values["tile"] = tile(taken.data.get("tile"))
            where = [f"stack {taken.data.get('stack')}"]
        else:
            values["tile"] = "a Tech tile"
            where = []
        if d.get("discount"):
            where.append(f"{d['discount']} spice Tech discount")
        values["where"] = f" ({'; '.join(where)})" if where else ""
    elif kind == "negotiators_back":
        values["negotiators"] = _count(d.get("count"), "Negotiator", "Negotiators")
    elif kind == "tech_flip":
        values["why"] = FLIP_REASONS.get(str(d.get("tile")), " to use it")
    elif kind == "dividends":
        taker = _house(state, entry.house)
        if taker is not None and taker.kind == "hagal":
            values["what"] = "House Hagal keeps no Solari; each player gains 1 Solari."
        elif taker is not None and taker.is_human:
            values["what"] = "take 5 Solari from the bank; everyone else gains 1 Solari."
        else:
            values["what"] = "it gains 5 Solari; everyone else gains 1 Solari."
    elif kind == "dreadnought_home":
        values["dreadnoughts"] = _count(d.get("count"), "dreadnought", "dreadnoughts")
    elif kind == "post":
        covered = d.get("covers")
        if not covered:
            values["covers"] = ""
        elif covered == entry.house:
            values["covers"] = ", covering their own Control marker"
        else:
            values["covers"] = f", covering {name(covered)}'s Control marker"
    elif kind == "post_end":
        uncovered = d.get("uncovers")
        values["uncovers"] = (
            f"; {name(uncovered)}'s Control marker there counts again" if uncovered else ""
        )
    elif kind == "offer":
        cost = [
            f"{d[k]} {label}" for k, label in (("solari", "Solari"), ("spice", "spice")) if d.get(k)
        ]
        values["cost"] = " and ".join(cost) or "nothing"
    elif kind == "tech_income":
        values["what"] = " and ".join(
            f"{d[k]} {label}"
            for k, label in (("solari", "Solari"), ("spice", "spice"), ("water", "water"))
            if d.get(k)
        )
    elif kind == "tech_trash":
        values["vp"] = ": +1 VP" if d.get("tile") == "spy_satellites" else ""
    counted = ONE.get(template)
    if counted is not None and d.get(counted) == 1:
        template += "_one"
    return TEMPLATES.get(template, template), values


def _count(n: object, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


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

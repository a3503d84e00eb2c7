"""Plain English sentences for log entries.

`describe` returns a template and its values so that a web layer can translate the
template (it is the message id) before filling it in; `sentence` fills it in English.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules.catalog import FACTION_NAMES
from companion.rules.state import Entry, GameState

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
    "recruit": "%(house)s recruits %(troops)s troop(s).",
    "deploy": "%(house)s deploys %(troops)s troop(s) to the Conflict.",
    "expert_hold": "%(house)s leads by 4 or more: it keeps %(kept)s troop(s) in its garrison.",
    "signet": "%(house)s uses its Signet ability (%(leader)s)%(outcome)s.",
    "rival_harvest": "%(house)s harvests %(space)s: %(what)s",
    "swords": "%(house)s's combat bonus: %(card)s shows %(swords)s sword(s).",
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
}
SKIP_REASONS = {
    "occupied": "the space is taken",
    "no_bonus_spice": "no Maker space with bonus spice is free",
    "not_on_board": "that space is not in this game",
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

    d = dict(entry.data)
    values: dict[str, object] = {"house": name(entry.house), "round": entry.round, **d}
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
            f"Trash the Imperium Row card(s) at position {', '.join(map(str, positions))}."
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
            "someone reached 10 VP." if d.get("reason") == "vp" else "the Conflict deck is empty."
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
    return TEMPLATES.get(kind, kind), values


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

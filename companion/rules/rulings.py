"""The rulings the engine makes where the sources leave a doubt, and the log entries that
say so where they apply.

Each ruling has a game setting for the other reading (`Options`); its explanation, with
its sources, is the rules lookup's page of the item named here (card_db/rulings.toml).
A ruling's log entry kind starts with "ruling_"; `RULING_ITEMS` gives the page to link.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

# Log entry kind -> the rules lookup item ("kind", "id") whose page explains it.
RULING_ITEMS: Final[Mapping[str, tuple[str, str]]] = {
    # House Hagal's dreadnought takes control [IX p.6, p.8] (setting: RB p.19).
    "ruling_hagal_dreadnought": ("hagal", "dreadnought_2p"),
    "ruling_hagal_dreadnought_home": ("hagal", "dreadnought_2p"),
    # A Rival with only dreadnoughts reveals swords [IX p.6] (setting: RB p.19 "troop").
    "ruling_dreadnought_swords": ("space", "dreadnought"),
    "ruling_dreadnought_no_swords": ("space", "dreadnought"),
    # Epic game: Rivals get the 5 troops and the Intrigue card [IX p.10] (setting: not).
    "ruling_epic_rivals": ("control_the_spice", "control_the_spice"),
    "ruling_epic_rivals_standard": ("control_the_spice", "control_the_spice"),
    # Expert deployment keeps a leading Rival's garrison dreadnoughts home too [FAQ Solo
    # Play] (setting: they deploy, IX p.8).
    "ruling_expert_dreadnoughts": ("hagal", "dreadnought_1p"),
    "ruling_expert_dreadnoughts_deploy": ("hagal", "dreadnought_1p"),
    # Troop Transports deploy Shipping troops recruited after the Combat [IX p.9]
    # (setting: they stay in the garrison, the tile's "may").
    "ruling_transports_after_combat": ("tech", "troop_transports"),
    "ruling_transports_kept": ("tech", "troop_transports"),
    # Brutal Escalation: a reshuffle between a Rival's two cards takes every card [RB p.19]
    # (setting: the first card stays in the discard pile). The page is the Conflict III
    # card being fought, which the entry names; this one stands in without it.
    "ruling_brutal_reshuffle_all": ("conflict", "battle_for_arrakeen"),
    "ruling_brutal_first_card_out": ("conflict", "battle_for_arrakeen"),
}


def ruling_item(kind: str, data: Mapping[str, object]) -> tuple[str, str]:
    """The rules lookup item whose page explains a ruling's log entry: the Conflict card
    the entry names (`data["conflict"]`) for a ruling written on each Conflict III card,
    else the one of `RULING_ITEMS`."""
    item_kind, item_id = RULING_ITEMS[kind]
    named = data.get("conflict")
    if item_kind == "conflict" and isinstance(named, str) and named:
        return item_kind, named
    return item_kind, item_id


def is_ruling(kind: str) -> bool:
    """True for the log entries that state a ruling."""
    return kind in RULING_ITEMS

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
}


def is_ruling(kind: str) -> bool:
    """True for the log entries that state a ruling."""
    return kind in RULING_ITEMS

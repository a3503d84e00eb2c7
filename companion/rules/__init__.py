"""The pure rules engine: standard library only, no Flask, database or OpenCV."""

from companion.rules.actions import Action, IllegalAction
from companion.rules.engine import apply, legal_actions, new_game, replay
from companion.rules.state import GameState, Setup

__all__ = [
    "Action",
    "GameState",
    "IllegalAction",
    "Setup",
    "apply",
    "legal_actions",
    "new_game",
    "replay",
]

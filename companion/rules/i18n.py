"""Marking the engine's player-facing words for translation, without importing Flask."""

from __future__ import annotations


def N_(message: str) -> str:
    """Mark `message` for `pybabel extract`; the web layer translates it where it is shown."""
    return message

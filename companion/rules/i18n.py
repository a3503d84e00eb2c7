"""Marking the engine's player-facing words for translation, without importing Flask."""

from __future__ import annotations

from collections.abc import Sequence


def N_(message: str) -> str:
    """Mark `message` for `pybabel extract`; the web layer translates it where it is shown."""
    return message


class Message(str):
    """English text that keeps its template and values, so the web can translate it.

    It is the filled-in English string everywhere a string is expected; `template` (marked
    with N_ where it is written) is the message id, and a value that is itself a Message
    (an engine word such as a Faction's name) is translated too.
    """

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, **values: object) -> Message:
        text = super().__new__(cls, template % values if values else template)
        text.template = template
        text.values = values
        return text


def joined(parts: Sequence[str], template: str = N_("%(first)s, %(second)s")) -> str:
    """ "a, b, c" with `template` joining each next part (a Message from two parts on), so
    each language joins them its way."""
    if not parts:
        return ""
    result = parts[0]
    for part in parts[1:]:
        result = Message(template, first=result, second=part)
    return result


def listed(parts: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c" (Messages, so each language joins them its way)."""
    if len(parts) < 2:
        return parts[0] if parts else ""
    return Message(N_("%(first)s and %(second)s"), first=joined(parts[:-1]), second=parts[-1])

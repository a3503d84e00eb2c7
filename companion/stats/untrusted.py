"""The caps on what an uploaded file may hold (a JSON export, or the JSON values of a
backup file), and its JSON read within them.

Anyone on the table's Wi-Fi can post a file to `/import`, so nothing in it is trusted: its
size, the number of JSON values it holds, their nesting and the games and events it lists
are capped, and each cap is checked before the work it bounds (the values are counted in
the raw bytes, at C speed, before a parse would build them).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

MAX_IMPORT_BYTES = 12 * 1024 * 1024  # an uploaded file
# JSON values (counted as commas, colons and opening brackets: an upper bound of the
# values and keys a parse makes). A JSON export of 12 MB counts about 900,000.
MAX_JSON_ITEMS = 1_000_000
MAX_DEPTH = 24  # nesting of JSON values (an export's is under 10)
MAX_GAMES = 2_000
MAX_EVENTS = 200_000  # every game's together
MAX_VALUE_BYTES = 1024 * 1024  # one value of a backup file (a game's setup, one action)


class ImportRefused(ValueError):
    """The file is not a games export this server can read; nothing was imported."""


def not_an_export() -> ImportRefused:
    return ImportRefused(_("That file is neither a games export (.json) nor a backup (.sqlite)."))


def too_many_values() -> ImportRefused:
    return ImportRefused(
        ngettext(
            "This file holds more than %(num)d value: nothing was imported.",
            "This file holds more than %(num)d values: nothing was imported.",
            MAX_JSON_ITEMS,
        )
    )


def too_deep() -> ImportRefused:
    return ImportRefused(
        ngettext(
            "This file nests its values more than %(num)d level deep: it is not a games "
            "export of this app, and nothing was imported.",
            "This file nests its values more than %(num)d levels deep: it is not a games "
            "export of this app, and nothing was imported.",
            MAX_DEPTH,
        )
    )


def too_many_games() -> ImportRefused:
    return ImportRefused(
        ngettext(
            "This file holds more than %(num)d game: nothing was imported.",
            "This file holds more than %(num)d games: nothing was imported.",
            MAX_GAMES,
        )
    )


def too_many_events() -> ImportRefused:
    return ImportRefused(
        ngettext(
            "The games of this file hold more than %(num)d event: nothing was imported.",
            "The games of this file hold more than %(num)d events: nothing was imported.",
            MAX_EVENTS,
        )
    )


def items(raw: bytes | str) -> int:
    """An upper bound of the JSON values and keys in `raw` (brackets and separators inside
    strings count too: never fewer)."""
    if isinstance(raw, str):
        return raw.count(",") + raw.count(":") + raw.count("{") + raw.count("[")
    return raw.count(b",") + raw.count(b":") + raw.count(b"{") + raw.count(b"[")


@dataclass
class Budget:
    """What one import may still read: JSON values (all of the file's together)."""

    items: int = MAX_JSON_ITEMS

    def spend(self, raw: bytes | str) -> None:
        """Count `raw`'s values against the budget (ImportRefused once it is spent)."""
        self.items -= items(raw)
        if self.items < 0:
            raise too_many_values()


def parse(raw: bytes | str, budget: Budget, *, lenient: bool = False) -> Any:
    """A JSON text read within the caps (ImportRefused: over a cap, or not JSON; with
    `lenient`, None for a text that is not JSON)."""
    budget.spend(raw)
    try:
        value = json.loads(raw)
    except RecursionError as exc:
        raise too_deep() from exc
    except ValueError as exc:  # not JSON, not UTF-8 (JSONDecodeError, UnicodeDecodeError)
        if lenient:
            return None
        raise not_an_export() from exc
    check_depth(value)
    return value


def _children(value: dict[str, Any] | list[Any]) -> Iterator[Any]:
    return iter(value.values() if isinstance(value, dict) else value)


def check_depth(value: Any) -> None:
    """ImportRefused if `value` nests deeper than MAX_DEPTH (walked without recursion,
    keeping only the path to the current value)."""
    if not isinstance(value, dict | list):
        return
    path = [_children(value)]
    while path:
        for child in path[-1]:
            if isinstance(child, dict | list):
                if len(path) >= MAX_DEPTH:
                    raise too_deep()
                path.append(_children(child))
                break
        else:
            path.pop()


def check_counts(games: list[Any]) -> None:
    """ImportRefused if the file lists more games, or more events, than the caps allow."""
    if len(games) > MAX_GAMES:
        raise too_many_games()
    events = sum(
        len(game["events"])
        for game in games
        if isinstance(game, dict) and isinstance(game.get("events"), list)
    )
    if events > MAX_EVENTS:
        raise too_many_events()

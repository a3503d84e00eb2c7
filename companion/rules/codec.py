"""JSON encoding of actions and setups for the event log.

>>> from companion.rules.actions import PlaceAgent
>>> encode(PlaceAgent("p1", "carthag"))
{'type': 'PlaceAgent', 'house': 'p1', 'space': 'carthag'}
>>> decode(encode(PlaceAgent("p1", "carthag"))) == PlaceAgent("p1", "carthag")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from companion.rules.actions import ACTION_TYPES, Action, IllegalAction
from companion.rules.i18n import N_
from companion.rules.state import DIFFICULTIES, MODES, Options, SeatSetup, Setup

_BY_NAME: dict[str, type[Action]] = {t.__name__: t for t in ACTION_TYPES}
_INT_FIELDS = {"delta", "spice", "solari", "water", "garrison", "own", "other", "copy"}
_BOOL_FIELDS = {"move", "infiltrate"}
_OPTIONAL = {"reason", "other", "move", "infiltrate", "tile"}


def encode(action: Action) -> dict[str, Any]:
    """An action as a JSON-ready dict with its type name."""
    out: dict[str, Any] = {"type": type(action).__name__}
    for f in fields(action):
        out[f.name] = getattr(action, f.name)
    return out


def decode(data: Mapping[str, Any]) -> Action:
    """Rebuild an action; raise IllegalAction with a readable message for bad data."""
    if not isinstance(data, Mapping):
        raise IllegalAction(N_("An action must be an object."))
    cls = _BY_NAME.get(str(data.get("type")))
    if cls is None:
        raise IllegalAction(N_("Unknown action type."))
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.name in _OPTIONAL:
                continue
            raise IllegalAction(N_("Missing %(field)s."), field=f.name)
        value = data[f.name]
        if f.name in _BOOL_FIELDS:
            if not isinstance(value, bool):
                raise IllegalAction(N_("%(field)s must be true or false."), field=f.name)
        elif f.name in _INT_FIELDS:
            if isinstance(value, bool) or not isinstance(value, int):
                raise IllegalAction(N_("%(field)s must be a whole number."), field=f.name)
        elif not isinstance(value, str):
            raise IllegalAction(N_("%(field)s must be text."), field=f.name)
        kwargs[f.name] = value
    extra = set(data) - {f.name for f in fields(cls)} - {"type"}
    if extra:
        raise IllegalAction(N_("Unexpected fields: %(fields)s."), fields=", ".join(sorted(extra)))
    return cls(**kwargs)


def encode_setup(setup: Setup) -> dict[str, Any]:
    """A setup as a JSON-ready dict."""
    return {
        "mode": setup.mode,
        "seed": setup.seed,
        "humans": [vars_of(s) for s in setup.humans],
        "rivals": [vars_of(s) for s in setup.rivals],
        "difficulty": setup.difficulty,
        "first_player": setup.first_player,
        "options": {f.name: getattr(setup.options, f.name) for f in fields(Options)},
        "sets": list(setup.sets),
    }


def vars_of(seat: SeatSetup) -> dict[str, str]:
    return {"name": seat.name, "leader": seat.leader, "color": seat.color}


def decode_setup(data: Mapping[str, Any]) -> Setup:
    """Rebuild a setup; raise IllegalAction for malformed data."""
    if not isinstance(data, Mapping):
        raise IllegalAction(N_("Malformed game setup: it must be an object."))
    extra = set(data) - _SETUP_KEYS
    if extra:
        raise IllegalAction(
            N_("Malformed game setup: unexpected %(fields)s."), fields=", ".join(sorted(extra))
        )
    try:
        options = data.get("options", {})
        known = {f.name for f in fields(Options)}
        if set(options) - known or not all(isinstance(v, bool) for v in options.values()):
            raise IllegalAction(N_("Unknown or malformed options."))
        # Games stored before the round-end step played on without the tap, and asked the
        # strengths in seat order.
        options = {"round_end": False, "strengths_from_first": False, **options}
        difficulty = data.get("difficulty")
        if difficulty is not None and difficulty not in DIFFICULTIES:
            raise IllegalAction(N_("Unknown difficulty."))
        seed = data["seed"]
        first = data.get("first_player", 0)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (seed, first)):
            raise IllegalAction(N_("Seed and first player must be whole numbers."))
        mode = data["mode"]
        if mode not in MODES:
            raise IllegalAction(N_("Unknown mode."))
        sets = data.get("sets", ["base"])
        if not isinstance(sets, list | tuple) or not all(isinstance(x, str) for x in sets):
            raise IllegalAction(N_("Malformed game setup: card sets must be a list of names."))
        return Setup(
            mode=mode,
            seed=seed,
            humans=tuple(_seat(s) for s in data["humans"]),
            rivals=tuple(_seat(s) for s in data["rivals"]),
            difficulty=difficulty,
            first_player=first,
            options=Options(**options),
            sets=tuple(sets),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise IllegalAction(N_("Malformed game setup (%(error)s)."), error=str(exc)) from None


_SETUP_KEYS = {"mode", "seed", "humans", "rivals", "difficulty", "first_player", "options", "sets"}


def _seat(data: Mapping[str, Any]) -> SeatSetup:
    if not isinstance(data, Mapping) or set(data) - {"name", "leader", "color"}:
        raise IllegalAction(N_("Malformed game setup: a seat has a name, a leader and a color."))
    values = [data["name"], data["leader"], data["color"]]
    if not all(isinstance(v, str) for v in values):
        raise IllegalAction(N_("Seat names, leaders and colors must be text."))
    return SeatSetup(*values)

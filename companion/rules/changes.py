"""What to change on the physical board when the app's state goes from one state to another
(Undo and Redo): Agents, troops, markers, cubes, cards, in the log's structured form.

Each change is an `Entry` whose kind starts with "board_" (`text.TEMPLATES` words it); a
house's changes carry its id, so the table screen can group them per house.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from companion.rules.catalog import FACTIONS, RESOURCES, Resources
from companion.rules.setup import mentat_cost
from companion.rules.state import Entry, GameState, House

# Numbers the table keeps with pieces, per house (solo Rivals' resources, Rise of Ix).
COUNTED = (
    "solari",
    "spice",
    "water",
    "intrigue",
    "freighter",
    "negotiators",
    "dn_garrison",
    "dn_conflict",
)


def board_changes(before: GameState, after: GameState) -> list[Entry]:
    """The physical changes from `before` to `after`, the table's changes first, then each
    house's."""
    out = _table_changes(before, after)
    undone, done = _log_difference(before, after)
    bank = {"undo": _bank(before, undone), "redo": _bank(after, done)}
    for old in before.houses:
        new = after.house(old.id)
        out += _markers(before, after, old.id)
        out += [_entry(after, kind, old.id, data) for kind, data in _house_changes(old, new)]
        for way, counts in bank.items():
            out += [
                _entry(after, kind, old.id, data)
                for kind, data in _bank_changes(way, counts.get(old.id))
            ]
    return out


def _log_difference(before: GameState, after: GameState) -> tuple[tuple[Entry, ...], ...]:
    """The log lines only `before` has (undone), and those only `after` has (done)."""
    same = 0
    for old, new in zip(before.log, after.log, strict=False):
        if old is not new and old != new:
            break
        same += 1
    return before.log[same:], after.log[same:]


# What a player's lines got from the bank or their supply: the amounts of a Conflict
# reward they were told to take, and of a control bonus.
TAKEN = (*RESOURCES, "intrigue", "troops")


def _bank(state: GameState, entries: Sequence[Entry]) -> dict[str, Counter[str]]:
    """Per player, what these log lines gave them (a cost paid counts below 0): a board
    space's cost and gain [RB pp.8-9; the Mentat's cost p.20], a Maker space's harvest
    with its bonus spice [RB p.12], a control bonus [RB p.9] and the Solari, spice, water,
    Intrigue cards and troops of a Conflict reward [RB p.12]. Rivals' resources are
    counted by the engine itself (`COUNTED`)."""
    out: dict[str, Counter[str]] = {}
    for entry in entries:
        if entry.house is None or not _is_player(state, entry.house):
            continue
        got = out.setdefault(entry.house, Counter())
        if entry.kind == "agent":
            space = state.catalog.spaces.get(str(entry.data.get("space")))
            if space is None:
                continue
            cost = (
                Resources(solari=mentat_cost(state.setup)) if space.id == "mentat" else space.cost
            )
            for resource in RESOURCES:
                got[resource] += getattr(space.gain, resource) - getattr(cost, resource)
        elif entry.kind == "harvest":
            got["spice"] += _number(entry.data.get("spice"))
        elif entry.kind in ("take", "control_bonus"):
            for key in TAKEN:
                got[key] += _number(entry.data.get(key))
    return out


def _is_player(state: GameState, house_id: str) -> bool:
    try:
        return state.house(house_id).is_human
    except KeyError:
        return False


def _number(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _bank_changes(way: str, got: Counter[str] | None) -> list[tuple[str, dict[str, object]]]:
    """What a player gives back or takes back after Undo, or takes or pays again after
    Redo, in the order: resources and cards gained, resources paid, troops recruited."""
    if not got:
        return []
    gained: dict[str, object] = {k: n for k in (*RESOURCES, "intrigue") if (n := got[k]) > 0}
    paid: dict[str, object] = {k: -n for k in RESOURCES if (n := got[k]) < 0}
    out: list[tuple[str, dict[str, object]]] = []
    if gained:
        out.append((f"board_{way}_gained", gained))
    if paid:
        out.append((f"board_{way}_paid", paid))
    if got["troops"] > 0:
        out.append((f"board_{way}_recruited", {"n": got["troops"]}))
    return out


def _entry(state: GameState, kind: str, house: str | None, data: dict[str, object]) -> Entry:
    return Entry(state.step, state.round, kind, house, data)


def _table_changes(before: GameState, after: GameState) -> list[Entry]:
    """The round, the Conflict card, the House Hagal cards and the bonus spice."""
    out = []
    if before.round != after.round:
        kind = "board_round_back" if after.round < before.round else "board_round_on"
        out.append(_entry(after, kind, None, {"round": after.round}))
    if before.conflict != after.conflict:
        if before.conflict:
            out.append(_entry(after, "board_conflict_back", None, {"card": before.conflict}))
        if after.conflict:
            out.append(_entry(after, "board_conflict_reveal", None, {"card": after.conflict}))
    if after.setup.options.physical_hagal:
        returned = _revealed(before, after)
        if returned:
            out.append(_entry(after, "board_hagal_back", None, {"cards": returned}))
    for space in sorted(set(before.bonus_spice) | set(after.bonus_spice)):
        old, new = before.bonus_spice.get(space, 0), after.bonus_spice.get(space, 0)
        if old != new:
            out.append(_entry(after, "board_bonus_spice", None, _old_new(old, new, space=space)))
    return out


def _revealed(before: GameState, after: GameState) -> list[str]:
    """House Hagal cards revealed in `before`'s log but not in `after`'s (undone)."""
    return [
        str(e.data.get("card"))
        for e in before.log[len(after.log) :]
        if e.kind in ("rival_agent", "hagal_skip")
    ]


def _house_changes(old: House, new: House) -> list[tuple[str, dict[str, object]]]:
    """One house's troops, VP, Influence, resources, Mentat and Tech tiles."""
    out: list[tuple[str, dict[str, object]]] = []
    for where in ("troops", "garrison"):
        delta = getattr(new, where) - getattr(old, where)
        if delta:
            kind = f"board_{where}_{'more' if delta > 0 else 'less'}"
            out.append((kind, {"n": abs(delta)}))
    if old.vp != new.vp:
        out.append(("board_vp", _old_new(old.vp, new.vp)))
    for faction, was, now in zip(FACTIONS, old.influence, new.influence, strict=True):
        if was != now:
            out.append(("board_influence", _old_new(was, now, faction=faction)))
    for field in COUNTED:
        was, now = getattr(old, field), getattr(new, field)
        if was != now:
            out.append(("board_count", _old_new(was, now, field=field)))
    for piece in ("mentat", "swordmaster", "council_seat"):
        if getattr(old, piece) != getattr(new, piece):
            out.append((f"board_{piece}_{'on' if getattr(new, piece) else 'off'}", {}))
    out += [("board_tech_off", {"tile": t}) for t in old.tech if t not in new.tech]
    out += [("board_tech_on", {"tile": t}) for t in new.tech if t not in old.tech]
    return out


def _markers(before: GameState, after: GameState, house: str) -> list[Entry]:
    """A house's Agents, Control markers, Alliances and the First Player marker."""
    pairs = (
        ("agent", _agents(before, house), _agents(after, house)),
        ("control", _held(before.control, house), _held(after.control, house)),
        ("alliance", _held(before.alliances, house), _held(after.alliances, house)),
    )
    out = []
    for name, was, now in pairs:
        key = "faction" if name == "alliance" else "space"
        out += [_entry(after, f"board_{name}_off", house, {key: k}) for k in was if k not in now]
        out += [_entry(after, f"board_{name}_on", house, {key: k}) for k in now if k not in was]
    if after.first == house and before.first != house:
        out.append(_entry(after, "board_first", house, {}))
    return out


def _agents(state: GameState, house: str) -> list[str]:
    spaces = [s for s, h in state.occupants.items() if h == house]
    return spaces + [s for s, h in state.infiltrators if h == house]


def _held(markers: Mapping[str, str], house: str) -> list[str]:
    return [k for k, h in markers.items() if h == house]


def _old_new(old: int, new: int, **data: object) -> dict[str, object]:
    return {"old": old, "new": new, **data}

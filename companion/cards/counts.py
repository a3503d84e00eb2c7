"""How many cards of each kind a set holds, and the check against the box's component lists."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from companion.cards.problems import Problem, Run, is_int
from companion.cards.schema import FILES, KINDS, SETS, column, record_columns
from companion.rules.catalog import ConflictDef

# Kinds whose records carry `copies`; a record of any other kind is one physical item.
COPIES_KINDS: Final[tuple[str, ...]] = tuple(
    kind for kind in KINDS if any(c.key == "copies" for c in record_columns(kind))
)

LEVELS: Final = column(ConflictDef, "level").values

# Expected copies per set and kind, the one table every count check reads. Kinds with
# `copies` count physical cards; the others count records. A set holds exactly the kinds
# listed here (one file each). Extra keys check a part of a kind:
#   hagal_1P / hagal_2P: House Hagal cards marked for one mode only;
#   conflicts_level_N: Conflict cards of level N; leaders_rival: leaders a Rival may play;
#   tech_hagal_ok: Tech tiles with the Rival mark.
# base: rulebook p.3 components (67 Imperium Deck cards; a 10-card starting deck per player;
#   24 Reserve cards: 8 Arrakis Liaison, 10 The Spice Must Flow, 6 Foldspace; 40 Intrigue
#   cards; 18 Conflict cards 4/10/4; 8 Leaders; 31 House Hagal cards), the 22 spaces of the
#   Board Space Guide, pp.19-20 (three 1P Arrakeen; Reshuffle + three 2P), p.20 (Paul and
#   Helena can't be Rivals).
# ix: Rise of Ix rulebook p.2 (35 Imperium Deck cards, 17 Intrigue cards, 18 Tech tiles,
#   4 Conflict cards 2/1/1, 6 Leaders, 9 House Hagal cards; one Control the Spice per player
#   colour, Epic mode p.10), p.8 (four 1P cards, two 2P Dreadnought cards; Rhombur and
#   Hundro are the only new Rivals), p.12 (4 new spaces); p.5 the Shipping Track; the 12
#   Rival-marked tiles per SOURCES-cards.md §5.6.
EXPECTED_COUNTS: Final[Mapping[str, Mapping[str, int]]] = {
    "base": {
        "spaces": 22,
        "hagal": 31,
        "hagal_1P": 3,
        "hagal_2P": 4,
        "leaders": 8,
        "leaders_rival": 6,
        "conflicts": 18,
        "conflicts_level_1": 4,
        "conflicts_level_2": 10,
        "conflicts_level_3": 4,
        "imperium": 67,
        "starter": 10,
        "reserve": 24,
        "intrigue": 40,
    },
    "ix": {
        "spaces": 4,
        "hagal": 9,
        "hagal_1P": 4,
        "hagal_2P": 2,
        "leaders": 6,
        "leaders_rival": 2,
        "conflicts": 4,
        "conflicts_level_1": 2,
        "conflicts_level_2": 1,
        "conflicts_level_3": 1,
        "imperium": 35,
        "intrigue": 17,
        "tech": 18,
        "tech_hagal_ok": 12,
        "control_the_spice": 1,
        "track": 1,
    },
}


def set_kinds(card_set: str) -> tuple[str, ...]:
    """The kinds (and so the files) a set holds, in KINDS order."""
    expected = EXPECTED_COUNTS.get(card_set, {})
    return tuple(kind for kind in KINDS if kind in expected)


# How the count checks name what they counted, e.g. "30 House Hagal cards".
COUNT_NOUNS: Final[Mapping[str, str]] = {
    "spaces": "spaces",
    "hagal": "House Hagal cards",
    "hagal_1P": "1P House Hagal cards",
    "hagal_2P": "2P House Hagal cards",
    "leaders": "leaders",
    "leaders_rival": "leaders a Rival may play",
    "conflicts": "conflicts",
    "conflicts_level_1": "level 1 conflicts",
    "conflicts_level_2": "level 2 conflicts",
    "conflicts_level_3": "level 3 conflicts",
    "imperium": "Imperium cards",
    "starter": "starting-deck cards per player",
    "reserve": "Reserve cards",
    "control_the_spice": "Control the Spice cards per player",
    "intrigue": "Intrigue cards",
    "tech": "Tech tiles",
    "tech_hagal_ok": "Tech tiles with the Rival mark",
    "track": "tracks",
}

_SINGULARS: Final[tuple[tuple[str, str], ...]] = (
    ("spaces", "space"),
    ("cards", "card"),
    ("leaders", "leader"),
    ("conflicts", "conflict"),
    ("tiles", "tile"),
    ("tracks", "track"),
)


def _copies(records: list[Mapping[str, object]]) -> int:
    total = 0
    for record in records:
        copies = record.get("copies")
        if is_int(copies):
            total += copies
    return total


def _actual_counts(run: Run, card_set: str) -> dict[str, int]:
    def of(kind: str) -> list[Mapping[str, object]]:
        return [r for _, r in run.records(kind) if r.get("set") == card_set]

    counts = {kind: _copies(of(kind)) if kind in COPIES_KINDS else len(of(kind)) for kind in KINDS}
    hagal, conflicts = of("hagal"), of("conflicts")
    for players in ("1P", "2P"):
        counts[f"hagal_{players}"] = _copies([r for r in hagal if r.get("players") == players])
    for level in LEVELS:
        counts[f"conflicts_level_{level}"] = sum(1 for r in conflicts if r.get("level") == level)
    counts["leaders_rival"] = sum(1 for r in of("leaders") if r.get("rival_allowed") is True)
    counts["tech_hagal_ok"] = sum(1 for r in of("tech") if r.get("hagal_ok") is True)
    return counts


def count_label(key: str, value: int) -> str:
    """`value` with the noun COUNT_NOUNS gives `key`, singular for one: "1 Tech tile"."""
    noun = COUNT_NOUNS.get(key, key)
    if value == 1:
        for plural, singular in _SINGULARS:
            noun = noun.replace(plural, singular)
    return f"{value} {noun}"


def _file_of(card_set: str, key: str) -> str:
    kind = next((k for k in KINDS if key == k or key.startswith(f"{k}_")), key)
    return f"{card_set}/{FILES.get(kind, f'{kind}.toml')}"


def check_counts(run: Run, sets: Sequence[str]) -> None:
    for card_set in sets:
        expected = EXPECTED_COUNTS.get(card_set)
        if expected is None:
            continue
        actual = _actual_counts(run, card_set)
        for key, want in expected.items():
            got = actual.get(key, 0)
            if got != want:
                msg = f"set '{card_set}' has {count_label(key, got)}, expected {want}"
                run.problems.append(Problem(_file_of(card_set, key), None, msg))
        for kind in KINDS:
            if kind not in expected and actual[kind]:
                msg = f"set '{card_set}' has {count_label(kind, actual[kind])}, expected none"
                run.problems.append(Problem(_file_of(card_set, kind), None, msg))


def present_sets(run: Run) -> list[str]:
    found = {r.get("set") for kind in KINDS for _, r in run.records(kind)}
    return [s for s in SETS if s in found]


def count_summary(raw: Mapping[str, Sequence[object]], card_set: str) -> dict[str, int]:
    """Copies per kind in one set (records, for kinds without `copies`)."""
    counts = _actual_counts(Run(raw, {}, []), card_set)
    return {kind: counts[kind] for kind in set_kinds(card_set)}

"""Counts go through ngettext (one plural entry per count, each language with its own forms:
Polish "3 karty", "5 kart"), never a pair of msgids for one and many, nor a number filled in
before a noun in a message of one form (issue 28)."""

from __future__ import annotations

import re
from collections import defaultdict

from tests.i18n.catalogs import PLACEHOLDER, extracted_messages

# The placeholders that hold a count where a message fills them in.
COUNT_NAMES = frozenset(
    {
        "n", "num", "count", "troops", "spice", "solari", "water", "swords", "kept", "bonus",
        "cards", "paid", "goal", "rounds", "games", "tiles", "added", "skipped", "intrigue",
        "imperium", "row", "total", "shown", "size", "minutes", "copies", "dreadnoughts",
        "factions", "matching", "trashed",
    }
)  # fmt: skip
# Words after a count that are no noun it counts: it is a step or a label ("step 2 of 3",
# "2 left"), or VP, which no language of ours inflects (pl PZ, ja 勝利点, ko 승점).
NOT_COUNTED = frozenset(
    {
        "of",
        "to",
        "and",
        "or",
        "on",
        "has",
        "in",
        "at",
        "for",
        "from",
        "is",
        "was",
        "were",
        "there",
        "VP",
    }
)
COUNT_BEFORE_WORD = re.compile(r"%\((\w+)\)[sd]\s+([A-Za-z]\w*)")


def _singular_form(word: str) -> str:
    """A word without its English plural ending: 'copies' copy, 'troops' troop."""
    lowered = word.lower()
    for ending, stem in (("ies", "y"), ("ches", "ch"), ("s", "")):
        if lowered.endswith(ending) and len(lowered) > len(ending) + 2:
            return lowered[: -len(ending)] + stem
    return lowered


def pair_key(message_id: str) -> str | None:
    """What a one/many pair of msgids has in common ("recruits 1 troop." and "recruits
    %(n)s troops." alike): the count as #, each word in its singular; None for a message
    that counts nothing."""
    text = _counted(message_id)
    if "#" not in text:
        return None
    return re.sub(r"[A-Za-z]+", lambda m: _singular_form(m[0]), text)


def _counted(message_id: str) -> str:
    """The message with each placeholder and each count of one as #, in lower case."""
    text = PLACEHOLDER.sub("#", message_id)
    return re.sub(r"(?<![\w.])1(?![\w.])", "#", text).lower()


def test_no_count_is_a_pair_of_msgids_for_one_and_many() -> None:
    """`Nn_` (the engine's) or `ngettext` for every count: a pair of plain msgids leaves a
    language with three forms (Polish) two of them."""
    groups: dict[str, set[str]] = defaultdict(set)
    for message_id, _where in extracted_messages():
        if isinstance(message_id, str) and (key := pair_key(message_id)) is not None:
            groups[key].add(message_id)
    # Two ids a pair where their words differ (not only their placeholders' names).
    pairs = sorted(sorted(ids) for ids in groups.values() if len({_counted(i) for i in ids}) > 1)
    assert pairs == []


def test_pair_key_finds_the_pairs_this_test_is_for() -> None:
    assert pair_key("%(house)s recruits 1 troop.") == pair_key("%(house)s recruits %(n)s troops.")
    assert pair_key("%(n)s copy") == pair_key("%(n)s copies")
    assert pair_key("Combat space.") is None
    assert _counted("Round %(n)s") == _counted("round %(round)s")  # no pair: same words


def count_before_noun(message_id: str) -> list[tuple[str, str]]:
    """The (placeholder, word) of each count filled in before a noun in `message_id`."""
    return [
        (name, word)
        for name, word in COUNT_BEFORE_WORD.findall(message_id)
        if name in COUNT_NAMES and word not in NOT_COUNTED
    ]


def test_no_count_is_filled_before_a_noun_outside_a_plural_entry() -> None:
    found = sorted(
        (message_id, where)
        for message_id, where in extracted_messages()
        if isinstance(message_id, str) and count_before_noun(message_id)
    )
    assert found == []


def test_count_before_noun_sees_a_count_and_not_a_step() -> None:
    assert count_before_noun("%(house)s recruits %(troops)s troops.") == [("troops", "troops")]
    assert count_before_noun("step %(n)s of 3") == []
    assert count_before_noun("%(house)s pays %(cost)s for %(vp)s VP.") == []

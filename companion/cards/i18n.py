"""The words of card_db a player reads, as messages of the `cards` translation domain.

Every card, space, leader, Conflict, Tech tile, House Hagal card and track, every ruling of
`rulings.toml` and every rules concept of `concepts.toml` is written in English in card_db;
its visible texts (names, effects, explanations, rulings, "uncertain" notes, citations) are
the message ids of `companion/translations/<locale>/LC_MESSAGES/cards.po`. `pybabel
extract -F babel-cards.cfg` finds them with `extract` below (README: Languages); the web
layer shows each through that catalog (companion.web.language.card_text).

A translator comment on a name says where the translation comes from, as in the glossaries:
`origin: seed <file:line>` (a localized rulebook), `origin: web <address>` (a published
name) or `origin: ours` (no published name found: our careful translation).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Final

from companion.cards.schema import SETS

DOMAIN: Final[str] = "cards"

# The keys whose values are words a player reads. Other keys hold ids, numbers or search
# words (`aliases`, `icons`, `space`...), shown through the app's own catalog if at all.
TEXT_KEYS: Final[frozenset[str]] = frozenset(
    {
        "name",
        "title",
        "summary",
        "rule",
        "text",
        "label",
        "source",
        "sources",
        "explanation",
        "agent",
        "reveal",
        "plot",
        "combat",
        "endgame",
        "special",
        "acquire",
        "effects",
        "ability",
        "ability_name",
        "ability_text",
        "signet_name",
        "signet_text",
        "rival_explanation",
        "rival_rule",
        "uncertain",
    }
)
# card_db files that hold no words a player reads (words.toml holds search words).
SKIPPED_FILES: Final[frozenset[str]] = frozenset({"catalog.toml", "words.toml"})
SKIPPED_FOLDERS: Final[frozenset[str]] = frozenset({"i18n"})
NAME_KEYS: Final[frozenset[str]] = frozenset({"name", "title", "ability_name", "signet_name"})
# A deck card named as a board space is (the Reserve card Foldspace) may have a name of its
# own in a language: its name is a message of this context (companion.web.language.card_text
# looks there first for these kinds; "card" stands for any of them).
CARD_CONTEXT: Final[str] = "card"
CARD_CONTEXT_KINDS: Final[frozenset[str]] = frozenset(
    {"card", "imperium", "starter", "reserve", "control_the_spice", "intrigue"}
)
ORIGIN = re.compile(r"^origin: (seed \S+|web \S+|ours)\b")


def texts(data: Mapping[str, object], kind: str | None = None) -> Iterator[tuple[int, str, str]]:
    """(record number, "kind:id key", text) for each visible text of a card_db file.

    Records are named as the rules lookup's items are ("space:arrakeen", "imperium:carryall"):
    by their table, but a deck card (`[[card]]`) by its file's `kind`.
    """
    for table, records in data.items():
        if not isinstance(records, list):
            continue
        for number, record in enumerate(records):
            if isinstance(record, Mapping):
                name = record.get("id", record.get("item", number))
                label = kind if table == "card" and kind else table
                yield from _walk(number, f"{label}:{name}", record)


def kind_of(path: Path) -> str | None:
    """The kind of the records in a set's file (its stem), None for the other files."""
    return path.stem if path.parent.name in SETS else None


def _walk(number: int, where: str, record: Mapping[str, object]) -> Iterator[tuple[int, str, str]]:
    for key, value in record.items():
        if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            for inner in value:
                yield from _walk(number, f"{where} {key}", inner)
        elif key in TEXT_KEYS:
            values = value if isinstance(value, list) else [value]
            for text in values:
                if isinstance(text, str) and text.strip():
                    yield number, f"{where} {key}", text


def is_text_file(path: Path) -> bool:
    """True for the card_db files whose texts are messages."""
    return (
        path.suffix == ".toml"
        and path.name not in SKIPPED_FILES
        and not SKIPPED_FOLDERS.intersection(path.parts)
    )


def card_db_texts(root: Path) -> dict[str, list[str]]:
    """Every visible text of card_db under `root`, with where each is used."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.toml")):
        if not is_text_file(path.relative_to(root)):
            continue
        with path.open("rb") as handle:
            data = tomllib.load(handle)
        for _number, where, text in texts(data, kind_of(path)):
            found.setdefault(text, []).append(where)
    return found


def extract(
    fileobj: IO[bytes],
    keywords: object,
    comment_tags: object,
    options: Mapping[str, object],
) -> Iterator[tuple[int, str | None, str | tuple[str, str], list[str]]]:
    """Babel's extraction method for card_db TOML (babel-cards.cfg).

    Each text comes with the line of its record's `[[table]]` header and, as the comment
    translators see, the record and key it belongs to. A deck card's name that is also a
    board space's comes a second time in context "card" (CARD_CONTEXT).
    """
    source = fileobj.read().decode("utf-8")
    name = getattr(fileobj, "name", "")
    if name and not is_text_file(Path(name)):
        return
    headers = [
        number
        for number, line in enumerate(source.splitlines(), start=1)
        if re.match(r"^\[\[\w+\]\]", line)
    ]
    path = Path(name)
    kind = kind_of(path)
    shared = _space_names(path.parents[1]) if kind in CARD_CONTEXT_KINDS else frozenset()
    for record, where, text in texts(tomllib.loads(source), kind):
        line = headers[record] if record < len(headers) else 1
        if where.endswith(" name") and text in shared:
            yield line, "pgettext", (CARD_CONTEXT, text), [where]  # a name of its own
        yield line, None, text, [where]


def _space_names(root: Path) -> frozenset[str]:
    """The names of the board spaces of every set under card_db `root`."""
    names: set[str] = set()
    for path in root.glob("*/spaces.toml"):
        with path.open("rb") as handle:
            names.update(str(s["name"]) for s in tomllib.load(handle).get("space", []))
    return frozenset(names)

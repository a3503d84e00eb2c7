"""Export every game (CSV of the finished ones, JSON of all with their event logs) and
import a JSON export, or a backup file, into another server without duplicating the games
already there.

A game is the same game on both servers when its setup (which holds its seed) and its
creation time are the same: an import skips those.
"""

from __future__ import annotations

import csv
import io
import json
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flask_babel import gettext as _

from companion.db import repository
from companion.db.repository import ArchivedGame, LoggedEvent
from companion.rules import codec
from companion.rules.actions import IllegalAction
from companion.rules.catalog import Catalog
from companion.rules.engine import new_game, replay
from companion.rules.state import GameState
from companion.stats import untrusted
from companion.stats.backup_file import SQLITE_HEADER as SQLITE_HEADER
from companion.stats.backup_file import document_from_backup
from companion.stats.store import RecordStore
from companion.stats.summary import VP_SOURCES, Record, iso_utc
from companion.stats.untrusted import ImportRefused as ImportRefused

EXPORT_FORMAT = "dune-imperium-companion/games"
EXPORT_VERSION = 1
CSV_COLUMNS = (
    "game_id",
    "ended_at",
    "mode",
    "difficulty",
    "expansion",
    "epic",
    "rounds",
    "minutes",
    "player",
    "kind",
    "leader",
    "vp",
    "rank",
    "winner",
    "start_player",
    *(f"vp_{source}" for source in VP_SOURCES),
    "conflicts_won",
    "purchases",
)


def csv_text(records: Iterable[Record]) -> str:
    """One row per finished game and house (House Hagal included, with no VP)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for record in records:
        for house in record["houses"]:
            writer.writerow(_csv_row(record, house))
    return out.getvalue()


def _csv_row(record: Record, house: dict[str, Any]) -> list[object]:
    return [
        record["game_id"],
        record["ended_at"],
        record["mode"],
        record["difficulty"] or "",
        "ix" if record["ix"] else "base",
        int(record["epic"]),
        record["rounds"],
        record["minutes"],
        house["name"],
        house["kind"],
        house["leader"],
        house["vp"],
        "" if house["rank"] is None else house["rank"],
        int(house["winner"]),
        int(house["start"]),
        *(house["sources"].get(source, 0) for source in VP_SOURCES),
        " ".join(house["conflicts"]),
        " ".join(house["purchases"]),
    ]


def _exported_game(game: ArchivedGame, events: list[LoggedEvent], record: Record | None) -> Record:
    return {
        "created_at": iso_utc(game.created_at),
        "updated_at": iso_utc(game.updated_at),
        "mode": game.mode,
        "ruleset": game.ruleset,
        "title": game.title,
        "status": game.status,
        "round": game.round,
        "setup": game.setup,
        "events": [
            {
                "seq": e.seq,
                "action": e.action,
                "undone": e.undone,
                "created_at": iso_utc(e.created_at),
            }
            for e in events
        ],
        "summary": record,
    }


def export_json() -> dict[str, Any]:
    """Every game with its whole event log (and its summary once it has ended)."""
    games = repository.for_app()
    by_game = games.logs()
    records = RecordStore(games.session)
    exported = [
        _exported_game(game, by_game.get(game_id, []), records.get(game_id))
        for game_id, game in games.archive()
    ]
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": iso_utc(datetime.now(UTC)),
        "games": exported,
    }


@dataclass(frozen=True)
class Imported:
    """What an import did."""

    added: int
    skipped: int  # already on this server


def _fingerprint(setup: Any, created_at: datetime) -> str:
    return json.dumps([setup, iso_utc(created_at)], sort_keys=True)


def _moment(value: Any) -> datetime:
    if not isinstance(value, str):
        raise ValueError(value)
    return datetime.fromisoformat(value.removesuffix("Z")).replace(tzinfo=None)


@dataclass(frozen=True)
class _Checked:
    """A game of the file, read and replayed: ready to store."""

    game: ArchivedGame
    events: list[LoggedEvent]
    state: GameState
    ended: datetime


def _checked(data: Any, catalog: Catalog) -> _Checked:
    """One game of the file, replayed (ValueError, KeyError, TypeError, IllegalAction)."""
    setup = codec.decode_setup(data["setup"])
    events = [
        LoggedEvent(
            seq=int(e["seq"]),
            action=dict(e["action"]),
            undone=bool(e["undone"]),
            created_at=_moment(e["created_at"]),
        )
        for e in data["events"]
    ]
    if [e.seq for e in events] != list(range(1, len(events) + 1)):
        raise ValueError("events out of order")
    actions = [codec.decode(e.action) for e in events if not e.undone]
    state = replay(new_game(setup, catalog), actions)
    created = _moment(data["created_at"])
    game = ArchivedGame(
        created_at=created,
        updated_at=_moment(data["updated_at"]),
        mode=setup.mode,
        ruleset=str(data.get("ruleset", catalog.version))[:40],
        setup=codec.encode_setup(setup),
        title=str(data["title"])[:200],
        status="ended" if state.phase == "ended" else "active",
        round=state.round,
        version=len(events),
    )
    summary = data.get("summary")
    ended = _moment(summary["ended_at"]) if isinstance(summary, dict) else game.updated_at
    return _Checked(game, events, state, ended)


def _games_of(document: Any) -> list[Any]:
    if not (
        isinstance(document, dict)
        and document.get("format") == EXPORT_FORMAT
        and isinstance(document.get("games"), list)
    ):
        raise ImportRefused(_("This file is not a games export of this app."))
    if document.get("version") != EXPORT_VERSION:
        raise ImportRefused(_("This export was made by another version of the app."))
    games = list(document["games"])
    untrusted.check_counts(games)
    return games


def _read_all(games: list[Any], catalog: Catalog) -> Iterator[_Checked]:
    for number, data in enumerate(games, start=1):
        try:
            yield _checked(data, catalog)
        except (IllegalAction, ValueError, KeyError, TypeError, AttributeError) as exc:
            message = _(
                "Game %(number)d of the file can't be replayed: nothing was imported.",
                number=number,
            )
            raise ImportRefused(message) from exc


def import_json(document: Any, catalog: Catalog) -> Imported:
    """Add the file's games that this server doesn't have, in one transaction; every game
    is replayed first, and nothing is imported if one of them fails."""
    checked = list(_read_all(_games_of(document), catalog))
    games = repository.for_app()
    added = 0
    with games.transaction() as session:
        known = {_fingerprint(setup, created) for setup, created in games.fingerprints()}
        for item in checked:
            key = _fingerprint(item.game.setup, item.game.created_at)
            if key in known:
                continue
            known.add(key)
            game_id = games.add_archived(item.game, item.events)
            if item.state.phase == "ended":
                RecordStore(session).put(game_id, item.state, item.game.created_at, item.ended)
            added += 1
    return Imported(added, len(checked) - added)


def document_from_upload(raw: bytes) -> dict[str, Any]:
    """The games of an uploaded JSON export or backup file, read within the caps of
    `untrusted` (ImportRefused, with what was wrong, if it is not one or is over one)."""
    if len(raw) > untrusted.MAX_IMPORT_BYTES:
        raise ImportRefused(_("That file is too large."))
    budget = untrusted.Budget()
    if not raw.startswith(SQLITE_HEADER):
        document = untrusted.parse(raw, budget)
        _games_of(document)
        return document  # type: ignore[no-any-return]
    with tempfile.TemporaryDirectory(prefix="companion-import-") as folder:
        path = Path(folder) / "backup.sqlite"
        path.write_bytes(raw)
        games = document_from_backup(path, budget)["games"]
    untrusted.check_counts(games)
    return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "games": games}

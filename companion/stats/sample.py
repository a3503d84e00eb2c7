"""Many finished games at once, for the statistics benchmark and the page tests: a few
games played by the simulator (fixed seeds), solo and two to four players, stored again
and again under other player names and end dates, each with its summary row."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from companion.db import repository
from companion.db.repository import ArchivedGame
from companion.rules import codec
from companion.rules.catalog import Catalog
from companion.rules.state import GameState, Options
from companion.sim import make_setup, play
from companion.stats.store import RecordStore

PLAYERS = ("Ann", "Ben", "Chani", "Duncan", "Irulan")
KINDS = (  # mode, difficulty, sets, epic
    ("solo", "mercenary", ("base",), False),
    ("solo", "mentat", ("base",), False),
    ("solo", "kwisatz", ("base", "ix"), False),
    ("2p", None, ("base",), False),
    ("2p", None, ("base", "ix"), True),
    ("3p", None, ("base",), False),
    ("3p", None, ("base", "ix"), False),
    ("4p", None, ("base",), False),
    ("4p", None, ("base", "ix"), True),
)


def played_games(catalog: Catalog, seed: int = 1) -> list[GameState]:
    """One finished game of each kind, played by the simulator's scripted player."""
    finals: list[GameState] = []
    for offset, (mode, difficulty, sets, epic) in enumerate(KINDS):
        setup = make_setup(catalog, mode, difficulty, seed + offset, Options(epic=epic), sets)  # type: ignore[arg-type]
        final = play(catalog, setup, check=False).final
        assert final is not None
        finals.append(final)
    return finals


def store_games(count: int, catalog: Catalog, start: datetime) -> None:
    """Store `count` finished games (rows and summaries), one an hour from `start`."""
    finals = played_games(catalog)
    games = repository.for_app()
    with games.transaction() as session:
        store = RecordStore(session)
        for number in range(count):
            final = finals[number % len(finals)]
            started = start + timedelta(hours=number)
            game = ArchivedGame(
                created_at=started,
                updated_at=started + timedelta(minutes=50),
                mode=final.setup.mode,
                ruleset=catalog.version,
                setup=codec.encode_setup(final.setup),
                title=f"sample {number}",
                status="ended",
                round=final.round,
                version=0,
            )
            game_id = games.add_archived(game, [])
            store.put(game_id, _renamed(final, number), started, game.updated_at)


def _renamed(state: GameState, number: int) -> GameState:
    """The state with its human players called after `PLAYERS`, from the `number`th on."""
    names = iter(PLAYERS[(number + i) % len(PLAYERS)] for i in range(len(PLAYERS)))
    houses = tuple(replace(h, name=next(names)) if h.is_human else h for h in state.houses)
    return replace(state, houses=houses)

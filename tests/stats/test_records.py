"""The summary rows: written in the transaction of the change that ends a game, kept
current while it stays ended, deleted by an Undo of the end, rebuilt by the CLI."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select

from companion import services
from companion.db import db
from companion.rules.actions import SetTiebreak
from companion.stats import store
from companion.stats.models import GameRecord
from companion.stats.summary import Record, iso_utc, summarize
from tests.stats.games import play_to_the_end
from tests.web.conftest import GameActions


def _record(game: GameActions, game_id: int) -> Any:
    with game.app.app_context():
        return store.for_app().get(game_id)


def _count(game: GameActions) -> int:
    with game.app.app_context():
        return store.count()


def test_a_game_that_ends_gets_its_summary_in_the_same_change(game):
    game_id = game.new_solo(seed=5)
    with game.app.app_context():
        before_end = store.for_app().get(game_id)
    assert before_end is None
    final = play_to_the_end(game, game_id, 5)
    record = _record(game, game_id)
    assert record is not None
    with game.app.app_context():
        created = services.load(game_id, game.catalog).created
        ended = store.for_app().ended_at(game_id)
    assert ended is not None
    assert record["started_at"] == iso_utc(datetime.fromisoformat(created))
    assert record == summarize(game_id, final, *_times(record))
    assert record["houses"][0]["vp"] == final.house("p1").vp


def _times(record: Record) -> tuple[datetime, datetime]:
    return (
        datetime.fromisoformat(record["started_at"].removesuffix("Z")),
        datetime.fromisoformat(record["ended_at"].removesuffix("Z")),
    )


def test_undo_of_the_end_deletes_the_summary_and_redo_writes_it_again(game):
    game_id = game.new_solo(seed=5)
    play_to_the_end(game, game_id, 5)
    ended = _record(game, game_id)["ended_at"]
    game.undo(game_id)
    assert game.state(game_id).phase != "ended"
    assert _record(game, game_id) is None
    game.redo(game_id)
    again = _record(game, game_id)
    assert (
        again is not None
        and again["houses"] == summarize(game_id, game.state(game_id), *_times(again))["houses"]
    )
    assert again["ended_at"] >= ended


def test_a_change_after_the_end_rewrites_the_summary_but_keeps_its_end_time(game):
    game_id = game.new_solo(seed=5)
    play_to_the_end(game, game_id, 5)
    first = _record(game, game_id)
    game.do(game_id, SetTiebreak("p1", 9, 9, 9, 9))
    rewritten = _record(game, game_id)
    assert rewritten["ended_at"] == first["ended_at"]
    assert rewritten == summarize(game_id, game.state(game_id), *_times(first))


def test_deleting_a_game_deletes_its_summary(game):
    game_id = game.new_solo(seed=5)
    play_to_the_end(game, game_id, 5)
    assert _count(game) == 1
    game.delete(game_id)
    assert _count(game) == 0


def test_the_rebuild_command_writes_every_finished_games_summary_again(game):
    finished = game.new_solo(seed=5)
    play_to_the_end(game, finished, 5)
    game.new_solo(seed=6)  # still in progress: no summary
    stored = _record(game, finished)
    with game.app.app_context():
        db.session.execute(db.delete(GameRecord))
        db.session.commit()
    result = game.app.test_cli_runner().invoke(args=["stats", "rebuild"])
    assert result.exit_code == 0, result.output
    assert "Rebuilt the summaries of 1 finished games." in result.output
    rebuilt = _record(game, finished)
    # The end time is now the last event's time; everything else is the same.
    assert {k: v for k, v in rebuilt.items() if k not in ("ended_at", "minutes")} == {
        k: v for k, v in stored.items() if k not in ("ended_at", "minutes")
    }
    with game.app.app_context():
        ids = db.session.scalars(select(GameRecord.game_id)).all()
    assert ids == [finished]

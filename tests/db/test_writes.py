"""A tap's writes on the DB-API cursor store what the ORM and Core would have stored."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest
from flask import Flask
from sqlalchemy import select, text
from sqlalchemy.dialects.postgresql import psycopg2

from companion import services
from companion.db import db
from companion.db.models import Game, GameEvent
from companion.db.writes import Duplicate, Write
from tests.web.conftest import dispose, make_app

WHEN = datetime(2026, 11, 25, 7, 0, 0)  # no microseconds: still stored with them
ACTION = {"type": "PlaceAgent", "house": "p1", "space": "carthag", "note": "é ⚔"}


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'writes.sqlite'}")
    with app.app_context():
        db.session.add(Game(id=1, mode="solo", ruleset="r", setup={}, created_at=WHEN))
        db.session.commit()
    yield app
    dispose(app)


def record(seq: int) -> dict[str, object]:
    return {
        "game": 1,
        "seq": seq,
        "actor": "player",
        "action": ACTION,
        "is_undone": False,
        "now": WHEN,
    }


def stored_rows(app: Flask) -> list[tuple[object, ...]]:
    with app.app_context():
        rows = db.session.execute(
            text("SELECT seq, actor, action, undone, created_at FROM game_event ORDER BY seq")
        )
        return [tuple(r) for r in rows]


def test_an_event_written_on_the_cursor_is_stored_as_the_orm_stores_it(app):
    with app.app_context():
        db.session.add(GameEvent(game_id=1, seq=1, action=ACTION, created_at=WHEN))
        db.session.commit()
        with Write(db.engine) as write:
            assert write.run(services._RECORD, record(2)) == 1
            write.commit()
    by_orm, by_cursor = stored_rows(app)
    assert by_cursor[1:] == by_orm[1:]  # the same text for the JSON, bool and datetime
    with app.app_context():
        event = db.session.scalars(select(GameEvent).where(GameEvent.seq == 2)).one()
        assert (event.action, event.undone, event.created_at) == (ACTION, False, WHEN)


def test_the_version_bump_matches_the_stored_creation_time_and_counts_its_row(app):
    bump = {
        "game": 1,
        "expected": 0,
        "created": WHEN,
        "next": 1,
        "game_round": 2,
        "now": WHEN,
        "game_status": "active",
    }
    with app.app_context():
        with Write(db.engine) as write:
            assert write.run(services._BUMP, bump) == 1
            assert write.run(services._BUMP, bump) == 0  # no longer at version 0
            assert write.run(services._BUMP, bump | {"created": WHEN.replace(second=1)}) == 0
            write.commit()
        game = db.session.get(Game, 1)
        assert game is not None
        assert (game.version, game.round, game.updated_at) == (1, 2, WHEN)


def test_a_write_left_without_commit_is_rolled_back(app):
    with app.app_context():
        with Write(db.engine) as write:
            write.run(services._RECORD, record(1))
        with pytest.raises(RuntimeError), Write(db.engine) as write:
            write.run(services._RECORD, record(2))
            raise RuntimeError("the request failed")
    assert stored_rows(app) == []


def test_a_second_event_with_the_same_seq_is_a_duplicate_and_nothing_of_it_is_kept(app):
    with app.app_context():
        with Write(db.engine) as write:
            write.run(services._RECORD, record(1))
            write.commit()
        with Write(db.engine) as write:
            write.run(services._MARK, {"game": 1, "event": 1, "is_undone": True})
            with pytest.raises(Duplicate):
                write.run(services._RECORD, record(1))
    assert [row[3] for row in stored_rows(app)] == [0]  # the mark was rolled back too


def test_a_named_parameter_style_gets_a_mapping_with_the_dialects_conversions():
    dialect = psycopg2.dialect()  # type: ignore[no-untyped-call]  # PostgreSQL: %(name)s parameters, datetimes as they are
    compiled = services._RECORD.compiled(dialect)
    assert "%(seq)s" in compiled.sql and "RETURNING" not in compiled.sql
    sent = compiled.bind(record(3))
    assert isinstance(sent, dict)
    assert sent["now"] == WHEN and sent["seq"] == 3
    assert sent["action"] == '{"type": "PlaceAgent", "house": "p1", "space": "carthag", ' + (
        '"note": "\\u00e9 \\u2694"}'
    )

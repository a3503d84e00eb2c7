"""The repository on a real SQLite file: rows round-trip, and a change is all or nothing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from flask import Flask

from companion.db import repository
from companion.db.repository import Bump, NewGame, SqlAlchemyRepository, VersionConflict
from tests.web.conftest import dispose, make_app

ACTION = {"type": "PlaceAgent", "house": "p1", "space": "carthag", "note": "é ⚔"}
SETUP = {"mode": "solo", "seed": 3, "sets": ["base", "ix"]}
NEW = NewGame(
    mode="solo", ruleset="r1", setup=SETUP, title="Ann vs Rabban", round=1, status="active"
)


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'repository.sqlite'}")
    yield app
    dispose(app)


@pytest.fixture
def games(app: Flask) -> Iterator[SqlAlchemyRepository]:
    with app.app_context():
        yield repository.for_app()


def bump(games: SqlAlchemyRepository, game_id: int, round: int = 1) -> Bump:
    """The check of a change made from the game's current version."""
    game = games.get(game_id)
    assert game is not None
    return Bump(game_id, game.created_at, game.version, round, "active")


def stored(games: SqlAlchemyRepository, game_id: int) -> list[tuple[int, bool]]:
    return [(event.seq, event.undone) for event in games.events(game_id)]


def test_a_game_and_its_events_read_back_as_they_were_stored(games):
    added = games.add(NEW)
    assert (added.version, added.title, added.setup, added.round) == (0, NEW.title, SETUP, 1)
    with games.change(bump(games, added.id, round=2)):
        games.append(added.id, 1, ACTION)
    game = games.get(added.id)
    assert game is not None
    assert (game.version, game.round, game.created_at) == (1, 2, added.created_at)
    assert game.updated_at >= added.updated_at
    assert [(e.seq, e.action, e.undone) for e in games.events(added.id)] == [(1, ACTION, False)]
    assert games.action(added.id, 1) == ACTION
    assert games.action(added.id, 2) is None
    assert games.version(added.id) == 1
    assert games.get(added.id + 1) is None and games.version(added.id + 1) is None


def test_games_are_listed_most_recently_changed_first(games):
    first, second = games.add(NEW), games.add(NEW)
    assert [game.id for game in games.list_games()] == [second.id, first.id]
    with games.change(bump(games, first.id)):
        games.append(first.id, 1, ACTION)
    assert [game.id for game in games.list_games()] == [first.id, second.id]


def test_undo_marks_an_event_and_a_new_intent_drops_the_undone_ones(games):
    game_id = games.add(NEW).id
    for seq in (1, 2):
        with games.change(bump(games, game_id)):
            games.append(game_id, seq, ACTION)
    with games.change(bump(games, game_id)):
        games.mark_undone(game_id, 2, True)
    assert stored(games, game_id) == [(1, False), (2, True)]
    with games.change(bump(games, game_id)):
        games.drop_undone(game_id)
        games.append(game_id, 2, ACTION | {"space": "arrakeen"})
    assert stored(games, game_id) == [(1, False), (2, False)]
    assert games.action(game_id, 2) == ACTION | {"space": "arrakeen"}


def test_a_change_from_a_stale_version_is_refused_and_writes_nothing(games):
    game_id = games.add(NEW).id
    stale = bump(games, game_id)
    with games.change(stale):
        games.append(game_id, 1, ACTION)
    with pytest.raises(VersionConflict), games.change(stale):
        games.append(game_id, 2, ACTION)
    assert stored(games, game_id) == [(1, False)]
    assert games.version(game_id) == 1


def test_a_change_made_for_a_deleted_game_whose_id_came_back_is_refused(games):
    game_id = games.add(NEW).id
    other_game = Bump(game_id, bump(games, game_id).created_at - timedelta(seconds=1), 0, 1, "")
    with pytest.raises(VersionConflict), games.change(other_game):
        games.append(game_id, 1, ACTION)
    assert stored(games, game_id) == [] and games.version(game_id) == 0


def test_a_duplicate_event_is_refused_and_the_whole_change_rolled_back(games):
    game_id = games.add(NEW).id
    with games.change(bump(games, game_id)):
        games.append(game_id, 1, ACTION)
    with pytest.raises(VersionConflict), games.change(bump(games, game_id)):
        games.mark_undone(game_id, 1, True)
        games.append(game_id, 1, ACTION)  # a double tap that passed the version check
    assert stored(games, game_id) == [(1, False)]  # the mark is rolled back too
    assert games.version(game_id) == 1


def test_an_error_inside_a_change_rolls_it_back(games):
    game_id = games.add(NEW).id
    with pytest.raises(RuntimeError), games.change(bump(games, game_id)):
        games.append(game_id, 1, ACTION)
        raise RuntimeError("the request failed")
    assert stored(games, game_id) == [] and games.version(game_id) == 0


def test_deleting_a_game_removes_its_events(games):
    game_id, kept = games.add(NEW).id, games.add(NEW).id
    for each in (game_id, kept):
        with games.change(bump(games, each)):
            games.append(each, 1, ACTION)
    assert games.delete(game_id) is True
    assert games.get(game_id) is None and games.events(game_id) == []
    assert stored(games, kept) == [(1, False)]
    assert games.delete(game_id) is False

"""Backups hold every game (issue 17, finding 1): `flask --app wsgi backup PATH` copies
the live database with SQLite's online backup API, and a brand new app on the copy
replays every game to the same state."""

from __future__ import annotations

import gc
import os
import random
import shutil
import signal
import sqlite3
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select
from sqlalchemy.engine import make_url

from companion import serve, services
from companion.db import db
from companion.db.backup import (
    BACKUPS_KEPT,
    BackupRefused,
    Copied,
    backup_to,
    checkpoint,
    rotating_backup,
    sqlite_file,
)
from companion.db.models import GameEvent
from companion.rules.state import GameState
from companion.web import forms
from tests.server.test_kill import free_port, start
from tests.web.conftest import SOLO_FORM, TWO_PLAYER_FORM, dispose, make_app
from tests.web.test_restart import Server


@pytest.fixture
def live(tmp_path) -> Iterator[Server]:
    """A server mid-evening: three games at different points, its connections open."""
    server = Server(tmp_path / "companion.sqlite")
    for seed, form, steps in ((1, SOLO_FORM, 25), (2, TWO_PLAYER_FORM, 40), (3, SOLO_FORM, 0)):
        game_id = server.create(form, seed)
        server.play(game_id, random.Random(seed), steps)
    yield server
    server.stop()


def events(server: Server) -> list[tuple[int, int, object, bool]]:
    with server.app.app_context():
        rows = db.session.scalars(select(GameEvent).order_by(GameEvent.game_id, GameEvent.seq))
        return [(row.game_id, row.seq, row.action, row.undone) for row in rows]


def games(server: Server) -> dict[int, tuple[int, str, GameState]]:
    """Every stored game by id: its version, title and the state its log replays to."""
    with server.app.app_context():
        ids = [summary.id for summary in services.list_games()]
    return {
        game_id: (view.version, view.title, view.state)
        for game_id in ids
        for view in [server.view(game_id)]
    }


def test_the_backup_command_copies_every_game_and_event_of_a_running_server(live, tmp_path):
    # The live app's connections are still open: the newest commits are in the WAL only.
    assert (tmp_path / "companion.sqlite-wal").stat().st_size > 0
    target = tmp_path / "saved" / "backup.sqlite"
    target.parent.mkdir()

    result = live.app.test_cli_runner().invoke(args=["backup", str(target)])

    assert result.exit_code == 0, result.output
    assert f"Backed up 3 games ({len(events(live))} events) to {target}" in result.output
    assert sorted(path.name for path in target.parent.iterdir()) == ["backup.sqlite"]
    copy = Server(target)
    try:
        assert len(games(copy)) == 3
        assert games(copy) == games(live)
        assert events(copy) == events(live)
    finally:
        copy.stop()


def test_restoring_as_the_readme_says_brings_back_the_games_of_the_backup(live, tmp_path):
    database = tmp_path / "companion.sqlite"
    target = tmp_path / "backup.sqlite"
    assert live.app.test_cli_runner().invoke(args=["backup", str(target)]).exit_code == 0
    at_backup = games(live)
    live.play(live.create(TWO_PLAYER_FORM, seed=9), random.Random(9), 10)  # played after
    live.stop()  # stop the server

    shutil.copyfile(target, database)
    for leftover in ("companion.sqlite-wal", "companion.sqlite-shm"):
        (tmp_path / leftover).unlink(missing_ok=True)
    restarted = Server(database)
    try:
        assert games(restarted) == at_backup
    finally:
        restarted.stop()


def test_a_backup_while_a_game_is_played_is_a_state_the_game_went_through(live, tmp_path):
    game_id = live.create(SOLO_FORM, seed=7)
    states: list[GameState] = [live.view(game_id).state]
    writer = threading.Thread(
        target=lambda: states.extend(live.play(game_id, random.Random(7), 60))
    )
    writer.start()
    copies: list[Copied] = []
    while writer.is_alive() or not copies:
        copies.append(backup_to(make_url(live.url), tmp_path / f"during-{len(copies)}.sqlite"))
    writer.join()

    assert all(copied.games == 4 for copied in copies)
    for copied in (copies[0], copies[-1]):
        copy = Server(copied.path)
        try:
            assert copy.view(game_id).state in states
        finally:
            copy.stop()


def test_the_backup_command_refuses_postgresql_and_names_pg_dump(tmp_path):
    url = make_url("postgresql+psycopg://table:secret@localhost/companion")
    with pytest.raises(BackupRefused, match="pg_dump"):
        backup_to(url, tmp_path / "backup.sqlite")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("url", "reason"),
    [("sqlite://", "in-memory SQLite"), ("mysql://localhost/companion", "own dump tool")],
)
def test_databases_without_a_file_to_copy_are_refused_with_a_reason(url, reason):
    with pytest.raises(BackupRefused, match=reason):
        sqlite_file(make_url(url))


def test_the_command_exits_non_zero_with_the_reason(live, tmp_path):
    runner = live.app.test_cli_runner()
    itself = runner.invoke(args=["backup", str(tmp_path / "companion.sqlite")])
    assert itself.exit_code != 0 and "is the database itself" in itself.output
    nowhere = runner.invoke(args=["backup", str(tmp_path / "no-such-folder" / "b.sqlite")])
    assert nowhere.exit_code != 0 and "no-such-folder does not exist" in nowhere.output

    in_memory = make_app(SQLALCHEMY_DATABASE_URI="sqlite://")
    try:
        result = in_memory.test_cli_runner().invoke(args=["backup", str(tmp_path / "x")])
    finally:
        dispose(in_memory)
    assert result.exit_code == 1
    assert "Error: The games are in an in-memory SQLite database" in result.output
    assert not (tmp_path / "x").exists()


# -- the checkpoint when the server stops ----------------------------------------------


def games_in_main_file_alone(database: Path, tmp_path: Path) -> int:
    """Copy the database file without its -wal, as `cp` does, and count the games in it."""
    alone = tmp_path / "copied-alone.sqlite"
    shutil.copyfile(database, alone)
    with closing(sqlite3.connect(alone)) as copy:
        try:
            return int(copy.execute("SELECT count(*) FROM game").fetchone()[0])
        except sqlite3.OperationalError:  # no such table: the schema is in the -wal too
            return 0


def test_after_the_checkpoint_the_main_file_alone_holds_every_game(live, tmp_path):
    database = tmp_path / "companion.sqlite"
    expected = games(live)
    assert games_in_main_file_alone(database, tmp_path) == 0  # the README's `cp` until now
    # Another connection (a second worker, a reader) stays open, so closing ours doesn't
    # checkpoint by itself: only the explicit checkpoint moves the log into the file.
    with closing(sqlite3.connect(database)) as other:
        other.execute("SELECT count(*) FROM game").fetchone()
        with live.app.app_context():
            assert checkpoint(db.engine)
        assert (tmp_path / "companion.sqlite-wal").stat().st_size == 0
        alone = tmp_path / "alone.sqlite"
        shutil.copyfile(database, alone)
    copy = Server(alone)
    try:
        assert games(copy) == expected
    finally:
        copy.stop()


def test_sigterm_stops_the_server_after_a_checkpoint(tmp_path, monkeypatch):
    database = tmp_path / "companion.sqlite"
    reader: list[sqlite3.Connection] = []
    fallback: list[int] = []

    def play_then_sigterm(app: Flask, **kwargs: object) -> None:
        reader.append(sqlite3.connect(database))  # keeps the -wal file from closing
        reader[0].execute("SELECT count(*) FROM game").fetchone()
        with app.app_context():
            services.create_game(forms.setup_from(SOLO_FORM, 5), app.extensions["catalog"])
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler interrupts this
        pytest.fail("SIGTERM did not stop the server")

    monkeypatch.setattr(serve, "serve", play_then_sigterm)
    monkeypatch.setenv("COMPANION_SQLALCHEMY_DATABASE_URI", f"sqlite:///{database}")
    monkeypatch.setenv("COMPANION_SECRET_KEY", "test")

    def record(signum: int, frame: object) -> None:
        fallback.append(signum)

    previous = signal.signal(signal.SIGTERM, record)
    try:
        assert serve.main(["--host", "127.0.0.1", "--port", "0"]) == 0
        assert signal.getsignal(signal.SIGTERM) is record  # the handler before is back
        assert not fallback
        assert (tmp_path / "companion.sqlite-wal").stat().st_size == 0
        assert games_in_main_file_alone(database, tmp_path) == 1
    finally:
        signal.signal(signal.SIGTERM, previous)
        gc.unfreeze()  # the other tests run with a normal heap
        for connection in reader:
            connection.close()


def test_the_real_server_checkpoints_when_it_gets_sigterm(tmp_path):
    database = tmp_path / "companion.sqlite"
    port = free_port()
    process = start(f"sqlite:///{database}", port, tmp_path)  # it runs the migrations
    try:
        other = Server(database)  # a second process adds games, then lets go
        for seed in (1, 2):
            other.play(other.create(SOLO_FORM, seed), random.Random(seed), 20)
        other.stop()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as home:
            assert home.read().decode().count("Memnon Thorvald (mentat)<") == 2  # it read them
        assert games_in_main_file_alone(database, tmp_path) == 0
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        process.kill()
        process.wait()
    assert games_in_main_file_alone(database, tmp_path) == 2


# -- the automatic backups at each start -----------------------------------------------


def test_the_automatic_backups_keep_the_last_ten_by_utc_time(live, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "before-the-trip.sqlite").write_text("the table's own copy")
    (folder / "companion-old.sqlite").write_text("not one of ours either")
    start_of_evening = datetime(2026, 11, 25, 19, 0, tzinfo=UTC)
    made = []
    for minutes in range(12):
        when = start_of_evening + timedelta(minutes=minutes)
        made.append(rotating_backup(make_url(live.url), now=when).path)
        live.play(live.create(SOLO_FORM, seed=minutes), random.Random(minutes), 3)

    assert made[0].name == "companion-20261125T190000Z.sqlite"
    kept = sorted(path.name for path in folder.iterdir())
    assert kept == sorted(
        [path.name for path in made[2:]] + ["before-the-trip.sqlite", "companion-old.sqlite"]
    )
    assert BACKUPS_KEPT == 10
    newest = Server(made[-1])
    try:
        assert len(games(newest)) == 3 + 11  # the games made before its start
        assert games(newest).items() <= games(live).items()
    finally:
        newest.stop()


def test_a_time_in_another_zone_is_named_in_utc(live, tmp_path):
    paris = timezone(timedelta(hours=1))
    copied = rotating_backup(make_url(live.url), now=datetime(2026, 11, 25, 20, 5, tzinfo=paris))
    assert copied.path == tmp_path / "backups" / "companion-20261125T190500Z.sqlite"
    assert copied.games == 3


def test_each_start_of_the_server_makes_one(tmp_path, monkeypatch, capsys):
    database = tmp_path / "companion.sqlite"
    monkeypatch.setattr(serve, "serve", lambda app, **kwargs: None)
    monkeypatch.setenv("COMPANION_SQLALCHEMY_DATABASE_URI", f"sqlite:///{database}")
    monkeypatch.setenv("COMPANION_SECRET_KEY", "test")
    try:
        for port in ("0", "0"):
            assert serve.main(["--host", "127.0.0.1", "--port", port]) == 0
    finally:
        gc.unfreeze()
    made = sorted((tmp_path / "backups").iterdir())
    assert 1 <= len(made) <= 2  # two starts in the same second share a name
    printed = capsys.readouterr().out
    assert f"Backed up 0 games to {made[-1]} (the last 10 are kept)" in printed
    assert f"Games are stored in {database} (backups: see README)" in printed

"""CSV and JSON export of all games, and the JSON import: into another server, without
duplicating the games already there, and all or nothing."""

from __future__ import annotations

import copy
import csv
import io
import json

import pytest
from flask import Flask

from companion import services
from companion.stats import store, transfer
from companion.stats.summary import VP_SOURCES, Record
from companion.web import games as games_module
from tests.stats.games import new_multiplayer, play_to_the_end
from tests.web.conftest import GameActions, _fixed_seeds, dispose, make_app


@pytest.fixture
def two_games(game):
    """A finished solo game and a finished two-player game, and one still in progress."""
    solo = game.new_solo(seed=5)
    play_to_the_end(game, solo, 5)
    duo = game.new_2p(seed=3)
    play_to_the_end(game, duo, 3)
    game.new_solo(seed=6)
    return solo, duo


@pytest.fixture
def table_games(game):
    """A finished three-player game (Rise of Ix) and a finished four-player game."""
    return new_multiplayer(game, "3p", 4, ("base", "ix")), new_multiplayer(game, "4p", 2)


@pytest.fixture
def other_app():
    app = make_app(SQLALCHEMY_DATABASE_URI="sqlite://")  # another server: its own database
    yield app
    dispose(app)


def _strip(records: list[Record]) -> list[Record]:
    """The records without their game ids, in a fixed order."""
    return sorted(
        ({k: v for k, v in r.items() if k != "game_id"} for r in records),
        key=lambda r: str(r["started_at"]) + str(r["mode"]),
    )


def _records(app: Flask) -> list[Record]:
    with app.app_context():
        return store.for_app().records()


def test_the_csv_has_one_row_per_game_and_house_and_reads_back_the_records(game, client, two_games):
    response = client.get("/export/games.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    records = _records(game.app)
    assert len(rows) == sum(len(r["houses"]) for r in records) == 6
    by_key = {(int(r["game_id"]), r["player"]): r for r in rows}
    for record in records:
        for house in record["houses"]:
            row = by_key[(record["game_id"], house["name"])]
            assert row["ended_at"] == record["ended_at"] and row["mode"] == record["mode"]
            assert row["difficulty"] == (record["difficulty"] or "")
            assert (int(row["rounds"]), int(row["minutes"])) == (
                record["rounds"],
                record["minutes"],
            )
            assert (row["kind"], row["leader"], int(row["vp"])) == (
                house["kind"],
                house["leader"],
                house["vp"],
            )
            assert row["rank"] == ("" if house["rank"] is None else str(house["rank"]))
            assert (bool(int(row["winner"])), bool(int(row["start_player"]))) == (
                house["winner"],
                house["start"],
            )
            assert {s: int(row[f"vp_{s}"]) for s in VP_SOURCES} == house["sources"]
            assert row["conflicts_won"].split() == house["conflicts"]


def test_a_json_export_imports_into_another_server_once(game, client, two_games, other_app):
    exported = client.get("/export/games.json")
    assert exported.status_code == 200 and exported.mimetype == "application/json"
    document = json.loads(exported.get_data())
    assert len(document["games"]) == 3
    with other_app.app_context():
        first = transfer.import_json(document, game.catalog)
        again = transfer.import_json(document, game.catalog)
        games = services.list_games()
    assert (first.added, first.skipped) == (3, 0)
    assert (again.added, again.skipped) == (0, 3)
    assert sorted(g.status for g in games) == ["active", "ended", "ended"]
    # The same summaries (under the new server's ids), and the same states by replay.
    assert _strip(_records(other_app)) == _strip(_records(game.app))
    with other_app.app_context():
        states = sorted(
            str(services.load(g.id, game.catalog).state.ledger) for g in services.list_games()
        )
    originals = sorted(str(game.state(g).ledger) for g in (*two_games, 3))
    assert states == originals


def test_three_and_four_player_games_export_to_csv_with_every_player(game, client, table_games):
    rows = list(csv.DictReader(io.StringIO(client.get("/export/games.csv").get_data(as_text=True))))
    by_game = {gid: [r for r in rows if int(r["game_id"]) == gid] for gid in table_games}
    three, four = (by_game[gid] for gid in table_games)
    assert [(r["mode"], r["expansion"], r["kind"]) for r in three] == [("3p", "ix", "human")] * 3
    assert [(r["mode"], r["player"]) for r in four] == [
        ("4p", "Ann"),
        ("4p", "Ben"),
        ("4p", "Cal"),
        ("4p", "Dee"),
    ]
    # Four players start on 1 VP [RB p.4, G2], three on 0: the column vp_start says so.
    assert [int(r["vp_start"]) for r in four] == [1, 1, 1, 1]
    assert [int(r["vp_start"]) for r in three] == [0, 0, 0]
    for game_rows in (three, four):
        assert sorted(int(r["rank"]) for r in game_rows)[0] == 1
        assert sum(int(r["start_player"]) for r in game_rows) == 1
        assert [int(r["winner"]) for r in game_rows] == [int(r["rank"] == "1") for r in game_rows]
        for row in game_rows:
            assert int(row["vp"]) == sum(int(row[f"vp_{s}"]) for s in VP_SOURCES)
    records = {r["game_id"]: r for r in _records(game.app)}
    for gid, game_rows in by_game.items():
        assert [(int(r["vp"]), int(r["rank"])) for r in game_rows] == [
            (h["vp"], h["rank"]) for h in records[gid]["houses"]
        ]


def test_three_and_four_player_games_go_to_another_server_and_back(
    game, client, table_games, other_app
):
    """JSON export, import elsewhere, export there and import here again: the same
    summaries and states, and nothing doubled."""
    document = json.loads(client.get("/export/games.json").get_data())
    assert [g["mode"] for g in document["games"]] == ["3p", "4p"]
    with other_app.app_context():
        assert transfer.import_json(document, game.catalog) == transfer.Imported(2, 0)
    assert _strip(_records(other_app)) == _strip(_records(game.app))
    back = json.loads(other_app.test_client().get("/export/games.json").get_data())
    with game.app.app_context():
        assert transfer.import_json(back, game.catalog) == transfer.Imported(0, 2)
    with other_app.app_context():
        states = [services.load(g.id, game.catalog).state for g in services.list_games()]
    originals = [game.state(g) for g in table_games]
    assert sorted(str(s.ledger) for s in states) == sorted(str(s.ledger) for s in originals)
    assert sorted(s.setup.mode for s in states) == ["3p", "4p"]


def test_an_export_made_before_the_start_source_still_imports(game, client, table_games, other_app):
    """Exports written before the VP source "start" and the player count existed have
    summaries without them: the import replays the games and writes the summaries anew."""
    document = json.loads(client.get("/export/games.json").get_data())
    for exported in document["games"]:
        summary = exported["summary"]
        del summary["players"]
        for house in summary["houses"]:
            del house["sources"]["start"], house["tiebreak"]
    with other_app.app_context():
        assert transfer.import_json(document, game.catalog) == transfer.Imported(2, 0)
    assert _strip(_records(other_app)) == _strip(_records(game.app))


def test_the_import_page_reports_what_it_added_and_skipped(client, two_games, other_app):
    body = client.get("/export/games.json").get_data()
    other = other_app.test_client()
    upload = {"file": (io.BytesIO(body), "games.json")}
    response = other.post("/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 200
    assert "Imported 3 games; 0 were already here." in response.get_data(as_text=True)
    upload = {"file": (io.BytesIO(body), "games.json")}
    again = other.post("/import", data=upload, content_type="multipart/form-data")
    assert "Imported 0 games; 3 were already here." in again.get_data(as_text=True)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe not text", "neither a games export"),
        (b"{not json", "neither a games export"),
        (b"[" * 100_000 + b"]" * 100_000, "levels deep"),
        (b'{"format": "something else", "games": []}', "not a games export of this app"),
        (
            b'{"format": "dune-imperium-companion/games", "version": 99, "games": []}',
            "another version",
        ),
    ],
)
def test_a_file_that_is_not_an_export_is_refused(client, content, message):
    upload = {"file": (io.BytesIO(content), "games.json")}
    response = client.post("/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


def test_no_file_is_refused(client):
    response = client.post("/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Choose a games export" in response.get_data(as_text=True)


def test_a_game_that_does_not_replay_imports_nothing(game, client, two_games, other_app):
    document = json.loads(client.get("/export/games.json").get_data())
    broken = copy.deepcopy(document)
    broken["games"][1]["events"][3]["action"] = {"type": "place_agent", "house": "p9", "space": "x"}
    with other_app.app_context():
        with pytest.raises(transfer.ImportRefused, match="Game 2 of the file"):
            transfer.import_json(broken, game.catalog)
        assert services.list_games() == []
    for bad in ("not a game", {"setup": 3}, {**document["games"][0], "events": [{"seq": "x"}]}):
        with other_app.app_context(), pytest.raises(transfer.ImportRefused, match="Game 1"):
            transfer.import_json({**document, "games": [bad]}, game.catalog)
    missing = copy.deepcopy(document)
    del missing["games"][0]["setup"]["humans"]
    with other_app.app_context(), pytest.raises(transfer.ImportRefused, match="Game 1"):
        transfer.import_json(missing, game.catalog)


def test_a_backup_file_imports_like_an_export(tmp_path, other_app, monkeypatch):
    app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'games.sqlite'}")
    try:
        actions = GameActions(app, app.test_client())
        monkeypatch.setattr(games_module, "secrets", _fixed_seeds(actions))
        finished = actions.new_solo(seed=5)
        play_to_the_end(actions, finished, 5)
        actions.new_2p(seed=3)
        backup = app.test_client().get("/export/backup.sqlite").get_data()
        same = app.test_client().post(
            "/import",
            data={"file": (io.BytesIO(backup), "backup.sqlite")},
            content_type="multipart/form-data",
        )
        assert "Imported 0 games; 2 were already here." in same.get_data(as_text=True)
    finally:
        dispose(app)
    response = other_app.test_client().post(
        "/import",
        data={"file": (io.BytesIO(backup), "backup.sqlite")},
        content_type="multipart/form-data",
    )
    assert "Imported 2 games; 0 were already here." in response.get_data(as_text=True)
    assert len(_records(other_app)) == 1


def test_a_broken_backup_file_is_refused(client):
    content = transfer.SQLITE_HEADER + b"\x00" * 200
    upload = {"file": (io.BytesIO(content), "backup.sqlite")}
    response = client.post("/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "not a backup of this app, or it is damaged" in response.get_data(as_text=True)

"""The history, summary and statistics pages, the exports' links and the backup download."""

from __future__ import annotations

import copy
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion import services
from companion.db import db
from companion.rules import codec
from companion.rules.scoring import final_ranking
from companion.stats import simulated, store
from companion.stats.models import GameRecord
from companion.stats.sample import store_games
from tests import database
from tests.stats.games import new_multiplayer, play_to_the_end, stored_four_player_game
from tests.web.conftest import dispose, make_app

CSRF_TOKEN = re.compile(r'(csrf-token" content="|"X-CSRFToken": ")[^"]*')

PAGES = ("/", "/history", "/stats")


@pytest.mark.parametrize("url", PAGES)
def test_the_pages_render_with_no_game(client, url):
    response = client.get(url)
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    if url == "/stats":
        assert "No finished game yet" in body
        assert "How hard is each difficulty (simulated)" in body


def test_the_pages_render_with_one_finished_game(game, client):
    game_id = game.new_solo(seed=5)
    final = play_to_the_end(game, game_id, 5)
    winner = final_ranking(final)[0]
    home = client.get("/").get_data(as_text=True)
    assert f'href="/games/{game_id}/summary"' in home
    history = client.get("/history").get_data(as_text=True)
    assert "1 finished game" in history and f'href="/games/{game_id}/summary"' in history
    summary = client.get(f"/games/{game_id}/summary")
    assert summary.status_code == 200
    body = summary.get_data(as_text=True)
    assert f"{winner.name} wins with {winner.vp} VP" in body
    assert body.count('<svg class="chart"') == 2 and "<polyline" in body
    assert "https://app.bgstatsapp.com/createPlay.html?data=" in body
    stats = client.get("/stats").get_data(as_text=True)
    assert "games played" in stats and "By difficulty" in stats
    ann = client.get("/stats?player=Ann")
    assert ann.status_code == 200 and "Statistics: Ann" in ann.get_data(as_text=True)
    # Ann's VP game by game: one game, one dot per line (hers and the best other house's).
    assert "Final VP, the last game" in ann.get_data(as_text=True)
    assert ann.get_data(as_text=True).count("<circle") == 2


def test_the_statistics_page_renders_with_500_games(app, client):
    with app.app_context():
        store_games(500, app.extensions["catalog"], datetime(2026, 1, 1, 18))
    body = client.get("/stats").get_data(as_text=True)
    assert "<div><strong>500</strong><span>games played</span></div>" in body
    for name in ("Ann", "Ben", "Chani", "Duncan", "Irulan"):
        assert f"/stats?player={name}" in body
    history = client.get("/history").get_data(as_text=True)
    assert "500 finished games" in history and "the 100 most recent are listed" in history


def test_the_history_filters_the_finished_games(game, client):
    solo = game.new_solo(seed=5)
    play_to_the_end(game, solo, 5)
    duo = game.new_2p(seed=3)
    play_to_the_end(game, duo, 3)
    solo_only = client.get("/history?mode=solo").get_data(as_text=True)
    assert f"/games/{solo}/summary" in solo_only and f"/games/{duo}/summary" not in solo_only
    assert "1 finished game<" in solo_only  # the count is of the filtered games too
    mentat = client.get("/history?difficulty=kwisatz").get_data(as_text=True)
    assert "No finished game matches." in mentat
    leader = game.state(duo).house("p2").leader
    by_leader = client.get(f"/history?leader={leader}").get_data(as_text=True)
    assert f"/games/{duo}/summary" in by_leader
    future = client.get("/history?from=2999-01-01").get_data(as_text=True)
    assert "No finished game matches." in future
    # A viewer 60 minutes ahead of UTC (JavaScript's getTimezoneOffset -60) asks up to their
    # own today, which is UTC's tomorrow from 23:00 UTC on: still the same two games.
    today = (datetime.now(UTC) + timedelta(minutes=60)).strftime("%Y-%m-%d")
    shifted = client.get(f"/history?from=2000-01-01&to={today}&tz=-60").get_data(as_text=True)
    assert "2 finished games" in shifted


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("mode=chess", "Unknown mode: chess"),
        ("difficulty=easy", "Unknown difficulty: easy"),
        ("leader=nobody", "Unknown leader: nobody"),
        ("from=yesterday", "Not a date: yesterday"),
        ("tz=abc&to=2026-13-40", "Not a date: 2026-13-40"),
        ("to=9999-12-31", "Not a date: 9999-12-31"),
        ("tz=--5&from=x", "Not a date: x"),
        ("from=0001-01-01&tz=-600", "Not a date: 0001-01-01"),
    ],
)
def test_a_bad_filter_is_named_and_ignored(client, query, message):
    response = client.get(f"/history?{query}")
    assert response.status_code == 200
    assert message in response.get_data(as_text=True)


def test_an_unknown_player_is_named(client):
    response = client.get("/stats?player=Nobody")
    assert response.status_code == 200
    assert "No finished game has a player named Nobody." in response.get_data(as_text=True)


def test_a_game_in_progress_has_no_summary_yet(game, client):
    game_id = game.new_solo(seed=5)
    response = client.get(f"/games/{game_id}/summary")
    assert response.status_code == 404
    assert "has not ended yet" in response.get_data(as_text=True)
    assert client.get("/games/999/summary").status_code == 404
    assert client.get(f"/games/{2**64}/summary").status_code == 404


def test_a_game_that_ended_before_the_summaries_is_summarized_by_replay(game, client):
    game_id = game.new_solo(seed=5)
    play_to_the_end(game, game_id, 5)
    with game.app.app_context():
        db.session.execute(db.text("DELETE FROM game_record"))
        db.session.commit()
    response = client.get(f"/games/{game_id}/summary")
    assert response.status_code == 200 and "wins with" in response.get_data(as_text=True)


def test_the_backup_needs_a_database_file(client):
    response = client.get("/export/backup.sqlite")
    assert response.status_code == 409
    reason = "pg_dump" if database.SERVER_URI else "in-memory SQLite database"
    assert reason in response.get_data(as_text=True)


def test_the_backup_download_is_a_copy_of_every_game(tmp_path: Path):
    app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'games.sqlite'}")
    try:
        with app.app_context():
            services.create_game(
                codec.decode_setup(  # a stored game to find in the copy
                    {
                        "mode": "2p",
                        "seed": 4,
                        "humans": [
                            {"name": "Ann", "leader": "paul_atreides", "color": "green"},
                            {"name": "Ben", "leader": "ilban_richese", "color": "blue"},
                        ],
                        "rivals": [{"name": "House Hagal", "leader": "", "color": "red"}],
                    }
                ),
                app.extensions["catalog"],
            )
        response = app.test_client().get("/export/backup.sqlite")
        assert response.status_code == 200
        assert "attachment" in response.headers["Content-Disposition"]
        copy = tmp_path / "copy.sqlite"
        copy.write_bytes(response.get_data())
        with sqlite3.connect(copy) as connection:
            assert connection.execute("SELECT count(*) FROM game").fetchone() == (1,)
    finally:
        dispose(app)


def test_the_simulated_table_has_every_difficulty_and_expansion():
    table = simulated.table()
    assert table is not None and table.games_per_row >= 100
    assert {(r.expansion, r.difficulty) for r in table.rows} == {
        (e, d) for e in ("base", "ix") for d in ("mercenary", "sardaukar", "mentat", "kwisatz")
    }
    assert all(0 <= r.rivals_reach_rate <= 1 and 0 <= r.human_win_rate <= 1 for r in table.rows)


def test_the_end_of_the_game_links_to_its_summary(game, client):
    game_id = game.new_solo(seed=5)
    play_to_the_end(game, game_id, 5)
    assert f'href="/games/{game_id}/summary"' in game.page(game_id)
    assert f'href="/games/{game_id}/summary"' in game.page(game_id, htmx=True)


@pytest.fixture
def table_games(game):
    """A stored four-player game built by hand (tests/stats/games.py: Ben 10, Dee 5 ahead
    of Cal 5 on water, Ann 1) and a three-player game played by the simulator."""
    return stored_four_player_game(game), new_multiplayer(game, "3p", 4)


def test_the_history_lists_and_filters_three_and_four_player_games(game, client, table_games):
    four, three = table_games
    history = client.get("/history").get_data(as_text=True)
    assert "2 finished games" in history
    assert '<option value="3p" >Three players</option>' in history
    assert '<option value="4p" >Four players</option>' in history
    only_four = client.get("/history?mode=4p").get_data(as_text=True)
    assert f"/games/{four}/summary" in only_four and f"/games/{three}/summary" not in only_four
    assert "Four players" in only_four and "Ben wins with 10 VP" in only_four
    only_three = client.get("/history?mode=3p").get_data(as_text=True)
    assert f"/games/{three}/summary" in only_three and f"/games/{four}/summary" not in only_three


def test_a_four_player_summary_shows_the_starting_vp_and_the_tie_break(game, client, table_games):
    four, _ = table_games
    body = client.get(f"/games/{four}/summary").get_data(as_text=True)
    assert "Ben wins with 10 VP" in body and "Four players" in body
    # Each Score marker starts on 1 with four players [RB p.4, G2].
    start = "<tr><td>Starting space (4 players)</td>" + "<td>1</td>" * 4 + "</tr>"
    assert start in body
    # Dee and Cal tie on 5 VP, spice and Solari; water decides [RB p.12 Endgame].
    assert "Dee is ahead of Cal on equal VP by water: 2 to 1." in body
    assert body.index("Ben</span>") < body.index("Dee</span>") < body.index("Cal</span>")
    assert body.count("(first player)") == 1


def test_statistics_per_player_count_and_for_one_player(game, client, table_games):
    stats = client.get("/stats").get_data(as_text=True)
    assert "By player" in stats and "Three players" in stats and "Four players" in stats
    assert "one of you wins every game" in stats
    assert 'href="/stats?mode=4p"' in stats
    four = client.get("/stats?mode=4p").get_data(as_text=True)
    assert "<div><strong>1</strong><span>games played</span></div>" in four
    assert "By player" in four and "Places in three- and four-player games" not in four
    assert "How hard is each difficulty (simulated)" not in four
    ann = client.get("/stats?player=Ann&mode=4p").get_data(as_text=True)
    assert "Statistics: Ann" in ann
    assert "<div><strong>0</strong><span>wins</span></div>" in ann
    assert "<div><strong>4.0</strong><span>average place in three- and four-player games" in ann
    assert "Places in three- and four-player games" in ann and "By player" not in ann
    assert "one of you wins every game" not in ann
    assert 'href="/stats?player=Ann&amp;mode=3p"' in ann


def test_the_players_listed_for_a_mode_are_those_who_played_it(game, client, table_games):
    four = client.get("/stats?mode=4p").get_data(as_text=True)
    assert "/stats?player=Dee&amp;mode=4p" in four
    three = client.get("/stats?mode=3p").get_data(as_text=True)
    assert "player=Dee" not in three  # Dee played only the four-player game
    none = client.get("/stats?player=Dee&mode=3p").get_data(as_text=True)
    assert "No finished game matches." in none and "No finished game yet" not in none


def test_a_bad_mode_for_the_statistics_is_named_and_ignored(client):
    response = client.get("/stats?mode=5p")
    assert response.status_code == 200
    assert "Unknown mode: 5p" in response.get_data(as_text=True)


def test_a_summary_stored_before_the_start_source_still_renders(game, client, table_games):
    """Rows written before "start", "players" and "tiebreak" existed lack those fields."""
    four, _ = table_games
    with game.app.app_context():
        row = db.session.get(GameRecord, four)
        assert row is not None
        old = copy.deepcopy(row.data)
        del old["players"]
        for house in old["houses"]:
            del house["sources"]["start"], house["tiebreak"]
        row.data = old
        db.session.commit()
    body = client.get(f"/games/{four}/summary").get_data(as_text=True)
    assert "Ben wins with 10 VP" in body and "Starting space (4 players)" not in body
    assert "Dee is ahead of Cal on equal VP" not in body  # no counts to say it with
    assert client.get("/stats").status_code == 200
    assert client.get("/export/games.csv").status_code == 200


def test_the_statistics_follow_every_change_of_the_rows(app, client):
    """The statistics are kept until a summary row changes; then only the changed rows
    are read again. After a new row, a rewritten row and a deleted row the page says what
    it says when computed from nothing."""
    catalog = app.extensions["catalog"]
    with app.app_context():
        store_games(12, catalog, datetime(2026, 1, 1, 18))
    client.get("/stats")  # cached

    def page() -> str:
        """The statistics page without its CSRF token (signed with the time: two requests
        in different seconds differ there)."""
        return CSRF_TOKEN.sub(r"\1", client.get("/stats").get_data(as_text=True))

    def fresh() -> str:
        app.extensions.pop("stats_seats", None)
        return page()

    with app.app_context():
        store_games(1, catalog, datetime(2026, 2, 1, 18))  # a new row
    assert "<div><strong>13</strong><span>games played</span></div>" in (kept := page())
    assert kept == fresh()
    with app.app_context():
        first = store.for_app().stamps()[0][0]  # the oldest game
        row = db.session.get(GameRecord, first)
        assert row is not None
        data = copy.deepcopy(row.data)
        data["houses"][0]["name"] = "Zed"  # rewritten, as when a tie-break is entered
        row.data = data
        row.written_at = datetime(2030, 1, 1)
        db.session.commit()
    kept = page()
    assert "/stats?player=Zed" in kept and kept == fresh()
    with app.app_context():
        db.session.execute(db.text(f"DELETE FROM game_record WHERE game_id = {first}"))
        db.session.commit()
    kept = page()
    assert "/stats?player=Zed" not in kept
    assert "<div><strong>12</strong><span>games played</span></div>" in kept
    assert kept == fresh()

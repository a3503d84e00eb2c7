"""Whose screen this is (issue 26: "A player can also open the table screen on a phone: it
shows whose turn it is, and on that player's own turn the board to tap"): a screen made one
player's taps for that player only, waits on the others' turns and questions, answers the
table's own questions, and follows the game as the table's screen does."""

from __future__ import annotations

from companion.rules.actions import PlaceAgent
from tests.web import pages
from tests.web.conftest import HX, GameActions
from tests.web.test_multiplayer_table import new_game, play


def sit(game: GameActions, game_id: int, house: str) -> None:
    response = game.client.get(f"/games/{game_id}/seat/{house}")
    assert response.status_code == 303, response.status_code
    assert response.headers["Location"].endswith(f"/games/{game_id}")


def places(body: str) -> list[pages.Form]:
    return pages.action_forms(body, action="place")


def test_the_whole_table_screen_taps_for_whoever_acts(game):
    game_id = new_game(game, 4)
    body = game.page(game_id)
    assert places(body) and {f.fields["house"] for f in places(body)} == {"p1"}
    assert "This screen: the whole table" in body
    assert 'id="waiting"' not in body


def test_a_players_screen_waits_on_the_others_turns_and_taps_on_its_own(game):
    game_id = new_game(game, 4)  # Ann (p1) is the First Player
    sit(game, game_id, "p2")
    body = game.page(game_id)
    assert "This screen: Ben" in body
    assert places(body) == []  # Ann's turn: Ben's phone has no space to tap
    assert not pages.action_forms(body, action="reveal")
    waiting = body.split('id="waiting"')[1].split("</section>")[0]
    assert "Waiting for Ann&#39;s turn." in waiting
    assert "it shows the board to tap on Ben&#39;s turn" in waiting
    assert "Tap the space" not in body.split('id="banner"')[1].split("</header>")[0]

    space = next(a.space for a in game.legal(game_id) if isinstance(a, PlaceAgent))
    game.act(game_id, action="place", house="p1", space=space)
    assert game.state(game_id).turn == "p2"
    body = game.page(game_id)
    assert 'id="waiting"' not in body
    assert places(body) and {f.fields["house"] for f in places(body)} == {"p2"}
    assert pages.action_forms(body, action="reveal", house="p2")


def test_another_players_question_is_shown_and_not_answered_here(game):
    """Combat asks each player's strength [RB p.12]: only the asked player's screen (or
    the table's) has the number pad; the others say whom the game waits for."""
    game_id = new_game(game, 4)
    play(game, game_id, lambda s: s.prompt is not None and s.prompt.kind == "strength")
    asked = game.state(game_id).prompt
    assert asked is not None
    other = next(h for h in ("p1", "p2", "p3", "p4") if h != asked.decider)
    sit(game, game_id, other)
    body = game.page(game_id)
    assert 'id="prompt"' not in body and not pages.action_forms(body, action="choose")
    waiting = body.split('id="waiting"')[1].split("</section>")[0]
    assert "answer." in waiting and "strength" in waiting
    sit(game, game_id, asked.decider)
    body = game.page(game_id)
    assert 'id="prompt"' in body and 'id="waiting"' not in body


def test_the_tables_own_questions_show_on_every_screen(game):
    """The End of Round chores are the whole table's: any screen starts the next round."""
    game_id = new_game(game, 3)
    play(game, game_id, lambda s: s.prompt is not None and s.prompt.kind == "round_end")
    asker = game.state(game_id).prompt
    assert asker is not None
    other = next(h for h in ("p1", "p2", "p3") if h != asker.decider)
    sit(game, game_id, other)
    body = game.page(game_id)
    assert 'id="waiting"' not in body
    assert pages.action_forms(body, action="choose", option="start")


def test_a_tap_of_a_players_screen_answers_with_its_own_view(game):
    """The answer to a tap (only the regions that changed) and a following screen's fetch
    are drawn for the screen's player: the board the tap leaves is untappable on Ben's
    screen once it is Cal's turn."""
    game_id = new_game(game, 4)
    play(game, game_id, lambda s: s.turn == "p2" and s.phase == "agents")
    sit(game, game_id, "p2")
    body = game.page(game_id)
    space = places(body)[0].fields["space"]
    answer = game.act(game_id, htmx=True, action="place", house="p2", space=space)
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    assert "Waiting for Cal&#39;s turn." in html
    assert places(html) == []
    follow = game.client.get(f"/games/{game_id}", headers=HX).get_data(as_text=True)
    assert "Waiting for Cal&#39;s turn." in follow and places(follow) == []
    sit(game, game_id, "table")
    follow = game.client.get(f"/games/{game_id}", headers=HX).get_data(as_text=True)
    assert 'id="waiting"' not in follow and places(follow)


def test_a_seat_of_another_game_or_no_player_is_refused_or_ignored(game):
    game_id = new_game(game, 3)
    assert game.client.get(f"/games/{game_id}/seat/p4").status_code == 404  # three players
    assert game.client.get(f"/games/{game_id}/seat/hagal").status_code == 404
    # A cookie left by another game that had this id: the screen is the table's.
    game.client.set_cookie(f"seat-{game_id}", "p2@2000-01-01T00:00:00")
    assert 'id="waiting"' not in game.page(game_id)
    solo = game.new_solo()
    assert game.client.get(f"/games/{solo}/seat").status_code == 404
    assert "This screen:" not in game.page(solo)


def test_the_chooser_lists_every_player_and_the_table(game):
    game_id = new_game(game, 4)
    sit(game, game_id, "p3")
    body = game.client.get(f"/games/{game_id}/seat").get_data(as_text=True)
    for house in ("p1", "p2", "p3", "p4", "table"):
        assert f"/games/{game_id}/seat/{house}" in body
    assert body.count('aria-current="true"') == 2  # the language menu's and Cal's
    assert f'href="/games/{game_id}/seat/p3" aria-current="true"' in body

"""Final standings lead with the winner and say how VP ties were broken.

Source: base rulebook (RB) p.12 Endgame: "whoever has the most Victory Points is declared
the winner. In the case of a tie, tiebreakers are, in order: amount of spice, Solari,
water, and garrisoned troops"; p.19: House Hagal scores no VP.
"""

from __future__ import annotations

from flask import Flask

from companion.rules.actions import Adjust, SetTiebreak
from companion.rules.engine import apply
from companion.rules.scoring import final_ranking
from companion.rules.state import GameState
from companion.web.present.standings import standings_lines
from tests.rules.helpers import house, solo, two_player
from tests.rules.test_endgame import end_now
from tests.web.test_routes import _played_to_the_end


def lines(app: Flask, s: GameState) -> list[str]:
    with app.test_request_context():
        return standings_lines(s, final_ranking(s))


def test_the_winner_comes_first(app):
    """RB p.12 Endgame; p.19: House Hagal is not ranked."""
    s = end_now(apply(two_player(), Adjust("p2", "vp", 3)))
    assert lines(app, s) == [f"{s.house('p2').name} wins with 3 VP."]


def test_a_tie_broken_by_solari_is_shown(app):
    """RB p.12 Endgame: equal spice, so Solari decides."""
    s = end_now(solo())
    s = house(s, "p1", vp=0)
    s = house(s, "r1", vp=11, spice=2, solari=0, water=0, garrison=0)
    s = house(s, "r2", vp=11, spice=2, solari=3, water=0, garrison=0)
    r1, r2 = s.house("r1").name, s.house("r2").name
    assert lines(app, s) == [
        f"{r2} wins with 11 VP.",
        f"{r2} is ahead of {r1} on equal VP by Solari: 3 to 0.",
    ]


def test_a_tie_with_a_players_counts_missing_asks_for_them(app):
    s = end_now(solo())
    s = house(house(house(s, "p1", vp=4), "r1", vp=4, spice=1), "r2", vp=1)
    first = lines(app, s)[0]
    assert first.startswith(f"{s.house('p1').name} and {s.house('r1').name} tie with 4 VP")
    s = apply(s, SetTiebreak("p1", 1, 0, 0, 3))  # equal spice and Solari, water: both 0
    s = house(s, "r1", solari=0, water=0, garrison=1)
    assert lines(app, s) == [
        f"{s.house('p1').name} wins with 4 VP.",
        f"{s.house('p1').name} is ahead of {s.house('r1').name} on equal VP by garrisoned "
        "troops: 3 to 1.",
    ]


def test_a_complete_tie_shares_the_victory(app):
    """RB p.12 Endgame: every tie-breaker equal, the houses stay tied."""
    s = end_now(solo())
    s = house(s, "p1", vp=3)
    s = house(s, "r1", vp=3, spice=1, solari=2, water=0, garrison=1)
    s = house(s, "r2", vp=0)
    s = apply(s, SetTiebreak("p1", 1, 2, 0, 1))
    names = f"{s.house('p1').name} and {s.house('r1').name}"
    assert lines(app, s) == [f"{names} share the victory with 3 VP: tied on every tie-breaker."]


def test_the_end_page_and_the_live_view_lead_with_the_winner_line(game, client):
    game_id = game.new_solo(seed=5)
    assert 'class="winner"' not in game.page(game_id)
    body = _played_to_the_end(game, game_id, 5)
    with game.app.test_request_context():
        expected = lines(game.app, game.state(game_id))[0]
    winner = body.split('class="winner"><strong>')[1].split("</strong>")[0]
    assert winner == expected.replace('"', "&#34;")
    live = client.get(f"/games/{game_id}/live").get_data(as_text=True)
    assert 'class="winner"' in live

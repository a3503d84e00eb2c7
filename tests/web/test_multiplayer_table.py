"""The table screen for three and four players (issue 26): no Rival anywhere, the
Conflict without the Rivals' columns, the third reward only with four players [RB p.12],
the four-player starting VP in the ledger [RB p.4 G2], Infiltrate on the occupied space
[IX p.7], and the end's entries for every player with Corner the Market asking the most
any one opponent holds [RB p.12]."""

from __future__ import annotations

import random

from companion import services
from companion.rules.state import SeatSetup, Setup
from companion.sim import choose_action
from tests.web import pages
from tests.web.conftest import GameActions

NAMES = ("Ann", "Ben", "Cal", "Dee")
LEADERS = ("paul_atreides", "glossu_rabban", "memnon_thorvald", "ilban_richese")
COLORS = ("green", "red", "yellow", "blue")


def new_game(game: GameActions, players: int, ix: bool = False) -> int:
    setup = Setup(
        mode="4p" if players == 4 else "3p",
        seed=3,
        humans=tuple(SeatSetup(NAMES[i], LEADERS[i], COLORS[i]) for i in range(players)),
        rivals=(),
        first_player=0,
        sets=("base", "ix") if ix else ("base",),
    )
    with game.app.app_context():
        return services.create_game(setup, game.catalog)


def play(game: GameActions, game_id: int, until, seed: int = 3) -> str:
    """The scripted players' actions (companion.sim) until `until(state)`; the page."""
    rng = random.Random(seed)
    with game.app.app_context():
        for _ in range(3000):
            view = services.load(game_id, game.catalog)
            if until(view.state) or view.state.phase == "ended":
                break
            services.act(game_id, choose_action(view.state, rng), view.version, game.catalog)
    return game.page(game_id)


def conflict_panel(body: str) -> str:
    return body.split('id="conflict"')[1].split("</section>")[0]


def test_a_four_player_table_has_no_rival_and_the_third_reward(game):
    body = game.page(new_game(game, 4))
    assert 'id="drawer-rivals"' not in body  # nobody to show there
    panel = conflict_panel(body)
    # Nothing counts a player's troops or swords: no columns for them.
    assert "Troops" not in panel and "Swords" not in panel
    assert "<strong>3rd</strong>" in panel  # "In a 4-player game (only)" [RB p.12]
    for name in NAMES:
        assert f'title="{name}"' in body  # every house in the score


def test_a_three_player_conflict_lists_two_rewards(game):
    panel = conflict_panel(game.page(new_game(game, 3)))
    assert "<strong>1st</strong>" in panel and "<strong>2nd</strong>" in panel
    assert "3rd" not in panel  # the third reward is for four players only [RB p.12]


def test_the_four_player_starting_vp_has_its_ledger_label(game):
    """Each Score marker starts on 1 in a four-player game [RB p.4, G2]."""
    body = game.page(new_game(game, 4))
    ledger = body.split('id="scoreboard"')[1]
    assert ledger.count("Starting space (4 players)") == 4
    assert "No VP yet." not in ledger


def test_the_strengths_entered_show_in_the_conflict_and_on_the_pad(game):
    """The Combat asks every player in turn; the pad lists the others' strengths."""
    game_id = new_game(game, 4)
    body = play(game, game_id, lambda s: s.prompt is not None and s.prompt.kind == "strength")
    first = game.state(game_id).prompt
    assert first is not None
    game.act(game_id, action="choose", option="6")
    body = game.page(game_id)
    prompt = body.split('id="prompt"')[1].split("</section>")[0]
    assert prompt.count('<li><span class="chip') == 3  # the three others
    assert "<strong>6</strong>" in prompt
    assert "<strong>6</strong>" in conflict_panel(body)


def test_an_infiltrable_space_is_a_button_on_the_space(game):
    """Rise of Ix p.7: the occupied space itself sends the Agent in with Infiltrate."""
    game_id = new_game(game, 4, ix=True)
    body = play(game, game_id, lambda s: s.phase == "agents" and len(s.occupants) >= 2)
    state = game.state(game_id)
    acting = state.turn
    taken = [space for space, who in state.occupants.items() if who != acting]
    forms = pages.action_forms(body, action="place", infiltrate="1")
    assert {f.fields["space"] for f in forms} >= set(taken)
    game.act(game_id, action="place", house=acting or "", space=taken[0], infiltrate="1")
    assert (taken[0], acting) in game.state(game_id).infiltrators


def test_the_end_asks_every_player_and_the_most_one_opponent_holds(game):
    """RB p.12 Corner the Market: more The Spice Must Flow than any opponent; with
    several opponents the form asks the most any one of them holds."""
    game_id = new_game(game, 4)
    body = play(game, game_id, lambda s: False)
    assert game.state(game_id).phase == "ended"
    assert 'id="end"' in body and 'id="end-entry"' in body
    assert 'class="board"' not in body  # the entries take the board's room
    for house in ("p1", "p2", "p3", "p4"):
        assert pages.action_forms(body, action="tiebreak", house=house)
        (corner,) = pages.action_forms(body, action="corner", house=house)
        assert "other" in corner.fields
    assert "The most any one opponent holds" in body and "Opponent's" not in body
    before = game.state(game_id).house("p3").vp
    game.act(game_id, action="corner", house="p3", own="2", other="1")
    after = game.state(game_id)
    assert after.house("p3").vp > before
    assert not pages.action_forms(game.page(game_id), action="corner")


def test_a_two_player_end_still_asks_the_opponents_count(game):
    body = play(game, game.new_2p(seed=3), lambda s: False)
    assert "Opponent's" in body and "The most any one opponent holds" not in body

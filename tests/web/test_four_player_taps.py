"""How many taps a four-player round takes at the table (issue 26, "Done when").

A whole four-player game is played through the table screen's forms, as the players
would tap them (htmx posts, as the tablet sends them), with no card effect entered: each
player places Agents on the board while they have any, then takes a Reveal turn; every
question the app asks is answered (a strength on the number pad, a Conflict reward's
choice, the round-end's "Start round"). Each round's POSTs are counted and compared with
what the round can't do without: one tap per placement, per Reveal turn and per strength.
(A Conflict card whose reward names two Factions, Machinations, asks two questions: such
a round takes one tap more than the issue's bound.)
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from companion import services
from companion.rules.actions import Action, Choose, PlaceAgent, Reveal
from companion.rules.engine import legal_actions
from companion.rules.state import GameState, SeatSetup, Setup
from tests.web import pages
from tests.web.conftest import GameActions

FOUR_PLAYERS = Setup(
    mode="4p",
    seed=7,
    humans=(
        SeatSetup("Ann", "paul_atreides", "green"),
        SeatSetup("Ben", "glossu_rabban", "red"),
        SeatSetup("Cal", "ilban_richese", "blue"),
        SeatSetup("Dee", "helena_richese", "yellow"),
    ),
    rivals=(),
    first_player=0,
)


@dataclass
class Round:
    """One round's taps, by what they answered."""

    number: int
    taps: Counter[str] = field(default_factory=Counter)

    @property
    def posts(self) -> int:
        return sum(self.taps.values())

    @property
    def needed(self) -> int:
        """The taps a round can't do without: placements, Reveal turns and strengths."""
        return self.taps["placement"] + self.taps["reveal"] + self.taps["strength"]


def _next_action(state: GameState, rng: random.Random) -> tuple[str, Action]:
    """What the table taps next, and which kind of tap it is."""
    prompt = state.prompt
    if prompt is not None:
        if prompt.number:
            return prompt.kind, Choose(str(rng.randint(prompt.minimum, min(prompt.maximum, 12))))
        return prompt.kind, Choose(rng.choice(prompt.options))
    places = [a for a in legal_actions(state) if isinstance(a, PlaceAgent)]
    if places:
        return "placement", rng.choice(places)
    assert state.turn is not None
    return "reveal", Reveal(state.turn)


def _tap(game: GameActions, fragment: str, action: Action) -> str:
    """Post the form of the current table fragment that sends `action` (a number pad's
    key or a choice's button fills in its `option`); the fragment with the answer swapped
    in."""
    wanted = pages.form_for(action)
    found = [
        form
        for form in pages.action_forms(fragment, action=wanted["action"])
        if all(form.fields.get(k, v) == v for k, v in wanted.items() if k != "option")
    ]
    assert found, f"no form on the table screen for {action!r}"
    shown = {"version": str(pages.version(fragment))}  # what static/app.js posts
    response = game.post(found[0].action, {**found[0].fields, **wanted, **shown}, htmx=True)
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    return pages.tapped(fragment, response.get_data(as_text=True))


def play_rounds(game: GameActions, count: int) -> list[Round]:
    """Play the first `count` rounds of the four-player game through the table screen;
    each round's taps."""
    with game.app.app_context():
        game_id = services.create_game(FOUR_PLAYERS, game.catalog)
    rng = random.Random(FOUR_PLAYERS.seed)
    fragment = game.page(game_id, htmx=True)
    rounds: list[Round] = []
    for _ in range(400):
        state = game.state(game_id)
        if state.round > count or state.phase == "ended":
            return rounds
        if not rounds or rounds[-1].number != state.round:
            rounds.append(Round(state.round))
        kind, action = _next_action(state, rng)
        fragment = _tap(game, fragment, action)
        rounds[-1].taps[kind] += 1
    raise AssertionError("the rounds did not end")


def test_a_four_player_round_takes_one_tap_per_placement_reveal_and_strength_and_two_more(
    game: GameActions,
) -> None:
    rounds = play_rounds(game, 3)
    assert [played.number for played in rounds] == [1, 2, 3]
    for played in rounds:
        # One "Start round N" tap ends each round; a Conflict reward's choice of Faction
        # (round 1's Skirmish here) is the only other question: at most
        # (placements + reveals + strengths + 2) taps.
        assert played.taps["round_end"] == 1, played
        assert played.posts <= played.needed + 2, played
    # The typical round the README states: 9 placements (two Agents each, and the third
    # Ann has had since the Swordmaster in round 1), 4 Reveal turns, 4 strengths and
    # "Start round 3".
    typical = rounds[1]
    assert typical.taps == Counter(placement=9, reveal=4, strength=4, round_end=1)
    assert typical.posts == 18 == typical.needed + 1

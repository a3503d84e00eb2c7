"""Everything a game page shows, computed from a GameView so that templates stay dumb."""

from __future__ import annotations

from companion.rules.scoring import final_ranking
from companion.services import GameView
from companion.web.present import panels
from companion.web.present.board import board, board_wide_problem
from companion.web.present.prompts import prompt_view
from companion.web.present.round_end import rounds_ended, waiting_round_end
from companion.web.present.seats import seats, waiting_for, waiting_lines
from companion.web.present.standings import standings_lines as standings_in_words
from companion.web.present.story import (
    banner,
    board_lines,
    newest_lines,
    phase_name,
    rival_turns,
    ruling_notes,
)
from companion.web.present.views import Chip, ConflictView, Page, SpaceView, chip

__all__ = ["Chip", "ConflictView", "Page", "SpaceView", "page"]

LOG_LINES = 60  # the table shows the newest lines; the whole log stays in the state


def page(view: GameView, log: bool = True, score: bool = True, seat: str | None = None) -> Page:
    """The table screen's content (the live view and the Fix page show parts of it);
    without `log` or `score`, the parts a tap's answer leaves out (None). `seat`: the
    player this screen is (web/seats.py), None for the whole table's screen."""
    state = view.state
    headline, detail, acting = banner(state)
    prompt = prompt_view(state)
    awaited = waiting_for(state, seat)
    mine = state.house(seat) if seat is not None else None
    waiting: tuple[str, ...] = ()
    if awaited is not None and mine is not None:  # another player's turn or question
        waiting = waiting_lines(state, awaited, mine, prompt.question if prompt else "")
        prompt = None
        detail = ""  # what to tap is for the other player's screen
    # The buttons of the player this screen taps for: the acting one, else its own.
    tapping = acting if awaited is None else mine
    turns, other = rival_turns(state)
    standings = final_ranking(state) if state.phase == "ended" else []
    changes = []
    if view.change and view.previous is not None:  # what Undo or Redo changed on the board
        changes = board_lines(view.previous, state)
    if view.change == "undo":
        turns, other = [], []  # what the undone intent did is not news
    round_end = waiting_round_end(state)
    if round_end is not None:
        other = []  # the card lists what the Combat tap did, in the order to do it
    columns = board(state, here=awaited is None)
    # The turn's buttons show only on an Agent turn with no question (games/_regions.html's
    # `actions`): the engine is asked why it refuses each one only then.
    turn = state.phase == "agents" and state.prompt is None
    return Page(
        view=view,
        state=state,
        banner=headline,
        banner_detail=detail,
        acting=acting,
        prompt=prompt,
        phase=phase_name(state.phase),
        board=columns,
        board_problem=board_wide_problem(columns),
        voice_spaces=tuple(
            (space.id, space.name)
            for column in columns
            for _area, _label, spaces in column
            for space in spaces
            if not space.occupant and not space.voice
        ),
        rival_turns=turns,
        just_now=other,
        log=newest_lines(state, LOG_LINES) if log else None,
        conflict=panels.conflict(state),
        standings=standings,
        standings_lines=standings_in_words(state, standings),
        score=panels.score(state) if score else None,
        rivals=panels.rivals(state),
        purchases=panels.purchases(state),
        tech=panels.tech(state, tapping),
        ix_turn=panels.ix_turn(state, tapping) if turn else None,
        card_effects=panels.card_effects(state, tapping) if turn else (),
        corner=panels.corner(state),
        rulings=ruling_notes(state),
        round_end=round_end,
        change=view.change,
        board_changes=changes,
        rounds_ended=rounds_ended(state) if log else (),
        seat=chip(mine) if mine is not None else None,
        seat_choice=bool(seats(state)),
        waiting=waiting,
    )

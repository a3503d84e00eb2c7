"""Issue 27's language sweep (tests/browser/sweep.py) of the golden solo Rise of Ix game
at Kwisatz Haderach (`ix_solo_kwisatz_epic_physical_tech`: the Expert deployment's
questions [RB p.20]): English, Japanese and Korean at every step, the table screen at
four sizes and the live view at three."""

from __future__ import annotations

from tests.browser import sweep
from tests.browser import test_play_in_browser as play

pytestmark = play.pytestmark
app = play.app
base_url = play.base_url


def test_ix_solo_kwisatz_epic_physical_tech_keeps_the_question_in_view_in_three_languages(
    app, base_url
):
    sweep.play_golden(
        app, base_url, "ix_solo_kwisatz_epic_physical_tech", ("en", "ja", "ko"), every=True
    )

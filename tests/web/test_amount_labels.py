"""An amount as a label and as the object of a verb: Polish writes them in two cases ("Koszt:
1 woda" on the board, "zapłać 1 wodę" in a sentence), so the board's amounts have catalog
entries of their own (context "amount label", companion/web/present/board.py)."""

from __future__ import annotations

import re
from html import unescape

from companion.rules.i18n import counted
from companion.rules.text import RESOURCE_AMOUNTS
from companion.web.language import npgettext, translated


def board_labels(game, game_id: int) -> tuple[list[str], list[str]]:
    """The cost and the control bonus shown on each space of the table screen."""
    body = unescape(game.page(game_id))
    board = body.split('id="board"')[1].split("</section>")[0]
    costs = re.findall(r'<span class="cost">([^<]*)</span>', board)
    controls = re.findall(r'<span class="control">[^(]*\(([^)]*)\)</span>', board)
    return costs, controls


def test_the_polish_board_labels_its_amounts_in_the_nominative(game):
    game_id = game.new_solo()
    game.client.set_cookie("lang", "pl")
    costs, controls = board_labels(game, game_id)
    # Hagga Basin and Hardy Warriors cost 1 water; Imperial Basin's control gives 1 spice.
    assert "1 woda" in costs and "1 wodę" not in costs
    assert "1 przyprawa" in controls and "1 przyprawę" not in controls
    assert "1 solaris" in controls  # Arrakeen and Carthag: the same word in both cases


def test_the_polish_sentence_keeps_the_accusative(app):
    with app.test_request_context(headers={"Cookie": "lang=pl"}):
        assert translated(counted(RESOURCE_AMOUNTS["water"], 1)) == "1 wodę"
        assert npgettext("amount label", "%(n)s water", "%(n)s water", 1, n=1) == "1 woda"
        assert npgettext("amount label", "%(n)s water", "%(n)s water", 5, n=5) == "5 wód"


def test_english_reads_the_same_either_way(game):
    costs, controls = board_labels(game, game.new_solo())
    assert "1 water" in costs and "1 spice" in controls and "1 Solari" in controls

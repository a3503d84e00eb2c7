"""The new-game form offers the typed names as First Player, not "Player 1/Player 2"."""

from __future__ import annotations

import re


def first_player_labels(body: str, mode: str = "2p") -> list[str]:
    """The names offered as First Player in one mode's choice (each mode has its own)."""
    section = re.search(
        rf'<fieldset class="choice-row" data-modes="{mode}">(.*?)</fieldset>', body, re.S
    )
    assert section is not None
    return re.findall(
        r'<span data-name-of="p\d_name" data-default="[^"]*">([^<]*)</span>', section.group(1)
    )


def test_the_blank_form_offers_player_1_and_player_2(client):
    body = client.get("/games/new").get_data(as_text=True)
    assert first_player_labels(body) == ["Player 1", "Player 2"]
    assert first_player_labels(body, "4p") == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert "/static/names.js" in body


def test_a_form_sent_back_with_an_error_offers_the_typed_names(client):
    form = {"mode": "2p", "p1_name": " Ann ", "p2_name": "Ben", "first_player": "1"}
    form["p1_leader"] = form["p2_leader"] = "paul_atreides"  # the same leader twice: refused
    answer = client.post("/games", data=form)
    assert answer.status_code == 422
    body = answer.get_data(as_text=True)
    assert first_player_labels(body) == ["Ann", "Ben"]
    assert re.search(r'name="first_player" value="1" checked', body)


def test_a_name_left_blank_falls_back_to_the_seat(client):
    form = {"mode": "2p", "p1_name": "", "p2_name": "Ben", "p1_leader": "x"}
    body = client.post("/games", data=form).get_data(as_text=True)
    assert first_player_labels(body) == ["Player 1", "Ben"]

"""The score's VP sources name what the VP came from, with proper names."""

from __future__ import annotations

from dataclasses import replace

from flask import Flask

from companion.rules.state import VpEntry
from companion.web.present.panels import score, vp_note
from tests.rules.helpers import solo


def test_vp_notes_are_proper_names(app: Flask):
    s = solo()
    with app.test_request_context():
        assert vp_note(s, "siege_of_carthag") == "Siege of Carthag"
        assert vp_note(s, "spacing_guild") == "Spacing Guild"
        assert vp_note(s, "chaumurky") == "Chaumurky"
        assert vp_note(s, "intrigue") == "Intrigue cards"
        assert vp_note(s, "corner_the_market") == "Corner the Market"


def test_the_ledger_shows_the_conflict_by_name(app: Flask):
    s = replace(solo(), ledger=(VpEntry("p1", 1, "conflict", 1, "siege_of_carthag"),))
    with app.test_request_context():
        first, *_ = score(s).rows
    assert first.ledger == ((1, "Conflict", "Siege of Carthag", "+1"),)

"""Numbers and shares on the statistics pages as each language writes them (issue 14:
"Dates and numbers through Babel's formatters")."""

from __future__ import annotations

import pytest
from flask import Flask

from companion.web.language import decimal, percent


@pytest.mark.parametrize(
    ("lang", "vp", "margin", "share"),
    [("en", "7.4", "+2.5", "62%"), ("pl", "7,4", "+2,5", "62%"), ("ja", "7.4", "+2.5", "62%")],
)
def test_decimals_and_shares_follow_the_readers_language(
    app: Flask, lang: str, vp: str, margin: str, share: str
) -> None:
    with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
        assert decimal(7.44) == vp
        assert decimal(2.5, sign=True) == margin
        assert decimal(-1.5, sign=True).startswith("-")
        assert decimal(41.6, 0) == "42"
        assert percent(0.62) == share

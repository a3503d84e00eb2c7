"""An Intrigue card's types in the reader's language are entries of their own (context
"Intrigue card type"): the Japanese rulebook names them 陰謀, 戦術 and 終盤
(seeds/004_0bbc76c9a0894518.txt:421-423), where "Combat" on a board space is 紛争, the
Conflict (004:551, the Combat phase). Every other language writes both alike, as its
rulebook does (zh-Hans 000:369 阴谋、战斗和终局; zh-Hant 001:378 陰謀、戰鬥以及終局; pl
002:461 spisek, walka, koniec gry)."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

# The Combat type's badge on an Intrigue card's page, and the Combat tag of a Combat space.
COMBAT = {
    "ja": ("戦術", "紛争"),
    "zh_Hans": ("战斗", "战斗"),
    "zh_Hant": ("戰鬥", "戰鬥"),
    "pl": ("Walka", "Walka"),
}


def _page(client: FlaskClient, language: str, path: str) -> str:
    client.set_cookie("lang", language)
    try:
        response = client.get(path)
    finally:
        client.delete_cookie("lang")
    assert response.status_code == 200
    return response.get_data(as_text=True)


@pytest.mark.parametrize("language", sorted(COMBAT))
def test_the_combat_intrigue_type_and_a_combat_space_in_the_rulebooks_words(
    client: FlaskClient, language: str
) -> None:
    intrigue, space = COMBAT[language]
    card = _page(client, language, "/cards/intrigue/allied_armada")
    badge = re.findall(r'<span class="rl-tag rl-type-combat">([^<]+)</span>', card)
    box = re.findall(r'<section class="rl-box rl-type-combat">\s*<h3>([^<]+)</h3>', card)
    assert badge == box == [intrigue], (badge, box)
    carthag = _page(client, language, "/cards/space/carthag")
    tags = re.findall(r'<span class="rl-tag rl-combat">([^<]+)</span>', carthag)
    assert tags == [f"⚔ {space}"], tags
    menu = _page(client, language, "/cards?kind=intrigue")
    assert re.search(rf'<option value="combat"[^>]*>{intrigue}</option>', menu)
    if intrigue != space:  # the Conflict's word is not the card type's
        assert not re.search(rf'<option value="combat"[^>]*>{space}</option>', menu)

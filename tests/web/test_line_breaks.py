"""Issue 27: where a Chinese or Japanese header or name in the score may break its line
(companion/web/line_breaks.py), and the score's HTML that carries those places. The
browser test tests/browser/test_score_words.py checks the lines themselves."""

from __future__ import annotations

import pytest

from companion.web.line_breaks import whole_words
from tests.web.conftest import GameActions


def w(*pieces: str) -> str:
    return "<wbr>".join(f'<span class="w">{piece}</span>' for piece in pieces)


@pytest.mark.parametrize(
    ("text", "html"),
    [
        # After the katakana middle dot, and where katakana meets kanji (the ja catalog's
        # Bene Gesserit, as the ja rulebook writes it [RB p.5, "派閥"]).
        ("ベネ・ゲセリット修道女会", w("ベネ・", "ゲセリット", "修道女会")),
        ("フレイメン", w("フレイメン")),  # one word: never "フレイメ|ン"
        ("勝利点", w("勝利点")),
        ("左のライバル", w("左の", "ライバル")),  # kana meets katakana
        ("公家ハイガル", w("公家", "ハイガル")),
        ("プレイヤー1", w("プレイヤー1")),  # a digit stays with its word
        # After the Chinese middle dot, which stays with the word before it.
        ("贝尼·杰瑟里特姐妹会", w("贝尼·", "杰瑟里特姐妹会")),
        ("貝尼·潔瑟睿德女修會", w("貝尼·", "潔瑟睿德女修會")),
        # After 的, which ends a phrase; not before it, nor after a closing one.
        ("左手边的对手", w("左手边的", "对手")),
        ("右邊的對手", w("右邊的", "對手")),
        ("的确", w("的确")),
        # Spaces break as ever, between pieces.
        ("渡辺 さくら子", w("渡辺") + " " + w("さくら子")),
    ],
)
def test_a_line_breaks_only_between_words(text: str, html: str) -> None:
    assert str(whole_words(text)) == html


@pytest.mark.parametrize(
    "text", ["Fremen", "Przemysław Szczęśniak", "프레멘", "우주 항행 길드", ""]
)
def test_other_scripts_come_back_as_they_were(text: str) -> None:
    assert str(whole_words(text)) == text


def test_the_text_is_escaped() -> None:
    assert str(whole_words("<b>&</b>")) == "&lt;b&gt;&amp;&lt;/b&gt;"
    assert str(whole_words("<b>フレイメン")) == w("&lt;b&gt;フレイメン")


def test_the_score_marks_its_headers_and_names(game: GameActions) -> None:
    game_id = game.new_solo()
    game.client.set_cookie("lang", "ja")
    html = game.client.get(f"/games/{game_id}/live").get_data(as_text=True)
    score = html[html.index('id="scoreboard"') :]
    for header in (w("勝利点"), w("フレイメン"), w("ベネ・", "ゲセリット", "修道女会")):
        assert header in score, header
    assert w("左の", "ライバル") in score  # the Left Rival's name

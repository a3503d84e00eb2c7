"""Whole words in Chinese and Japanese headers (issue 27).

A browser breaks a line of Chinese or Japanese between any two characters, so a narrow
column's header reads "フレイメ/ン" (Fremen) or "潔瑟睿/德" (a name cut in two), and
`word-break: keep-all` alone keeps "ベネ・ゲセリット修道女会" on one line, too wide for the
score, and puts the Chinese "·" on a line of its own. `whole_words` marks where a line may
break, and nowhere else: after the word separators these names already have (the katakana
middle dot ・, the Chinese middle dot ·, a space) and where katakana meets kanji or kana
("ゲセリット|修道女会", "左の|ライバル": a loanword beside the native words around it).
Each piece between two such places is a `<span class="w">` that static/app.css keeps on
one line; a digit or Latin letter stays with its neighbours ("プレイヤー1"). Text without
Chinese or Japanese letters (English, Polish, Korean, which breaks at its spaces) comes
back as it was, escaped.
"""

from __future__ import annotations

import re
from functools import lru_cache

from markupsafe import Markup, escape

KATAKANA = "\u30a0-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9f"  # without ・ (U+30FB)
# Kanji and hiragana (with 々 and 〆): the other letters of a Chinese or Japanese word.
HAN_KANA = "\u3005\u3006\u3040-\u309f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
SEPARATORS = "\u30fb\u00b7\uff65"  # ・ · ･
CJK = re.compile(f"[{KATAKANA}{HAN_KANA}]")
# Where a word without spaces may break: after its separators, between katakana and the
# other letters, and after the Chinese particle 的 that ends a phrase ("左手边的|对手", the
# Left Rival: "of the left hand | rival").
BREAK = re.compile(
    rf"(?<=[{SEPARATORS}])(?=[^{SEPARATORS}])"
    rf"|(?<=[{HAN_KANA}]的)(?=[{HAN_KANA}])"
    rf"|(?<=[{KATAKANA}])(?=[{HAN_KANA}])"
    rf"|(?<=[{HAN_KANA}])(?=[{KATAKANA}])"
)
SPACES = re.compile(r"(\s+)")


@lru_cache(maxsize=512)  # a few headers and names a language
def whole_words(text: str) -> Markup:
    """`text` as HTML whose lines break only between its words (see the module's doc)."""
    if not CJK.search(text):
        return escape(text)
    html = []
    for chunk in SPACES.split(text):
        if not chunk or chunk.isspace():
            html.append(str(escape(chunk)))
            continue
        pieces = (f'<span class="w">{escape(piece)}</span>' for piece in BREAK.split(chunk))
        html.append("<wbr>".join(pieces))
    return Markup("".join(html))

"""How a filled-in value sits in a sentence (companion/web/wording.py, issue 28): the
Korean particle after it, the seeds' marks around a name of card_db, no space around a
Chinese or Japanese name."""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import replace

import pytest
from flask import Flask
from flask_babel import get_translations

from companion.rules.engine import new_game
from companion.rules.i18n import Message, Name, listed
from companion.rules.state import Entry, GameState
from companion.sim import make_setup
from companion.web.language import gettext, ngettext, translated
from companion.web.present.story import sentence
from companion.web.wording import (
    PARTICLES,
    marked,
    particle,
    unmarked,
    unspaced,
    with_particles,
)
from tests.i18n.catalogs import GLOSSARIES, messages

RIVAL_NAMES = ("Left Rival", "Right Rival")  # the set-up form's default names


@pytest.mark.parametrize(
    ("noun", "fallback", "expected"),
    [
        ("스파이스", "을(를)", "를"),  # 2 스파이스를 (the seed's resource names)
        ("아라킨", "을(를)", "을"),
        ("책략 카드", "이(가)", "가"),
        ("승점", "은(는)", "은"),
        ("프레멘", "과(와)", "과"),
        ("황제", "와(과)", "와"),
        ("아라킨", "(으)로", "으로"),
        ("카르타그", "(으)로", "로"),
        ("물", "(으)로", "로"),  # after ㄹ: 로, not 으로
        ("제국 분지", "(으)로", "로"),
        ("지도자", "(이)", ""),  # 지도자라
        ("아라킨", "(이)", "이"),  # 아라킨이라
        ("1", "을(를)", "을"),  # 일
        ("2", "을(를)", "를"),  # 이
        ("3", "이(가)", "이"),  # 삼
        ("7", "(으)로", "로"),  # 칠: ㄹ
        ("10", "(으)로", "으로"),  # 십
        ("20", "은(는)", "은"),  # 이십
        ("100", "이(가)", "이"),  # 백
        ("1000", "을(를)", "을"),  # 천
        ("20000", "을(를)", "을"),  # 이만
        ("0", "이(가)", "이"),  # 영
        ("VP", "이(가)", "가"),  # 브이피
        ("L", "은(는)", "은"),  # 엘
        ("Alice", "이(가)", "가"),  # 앨리스
        ("Paul", "(으)로", "로"),  # 폴
        ("Dune", "을(를)", "을"),  # 듄
        ("〈아라킨〉", "을(를)", "을"),  # a closing mark is passed over
        ("“스파이스”", "와(과)", "와"),
        ("沙丘", "이(가)", "이(가)"),  # can't be told: the fallback stays
        ("", "을(를)", "을(를)"),
    ],
)
def test_a_korean_particle_fits_the_last_syllable(noun: str, fallback: str, expected: str) -> None:
    assert particle(noun, fallback) == expected


def _oracle(noun: str, fallback: str) -> str:
    """The particle told from the last Hangul syllable's jamo (Unicode's decomposition),
    independently of final_consonant's arithmetic."""
    jamo = unicodedata.normalize("NFD", noun.rstrip("…")[-1])
    final = jamo[2] if len(jamo) == 3 else None
    with_consonant, after_vowel = PARTICLES[fallback]
    if fallback == "(으)로" and final == "\u11af":  # ᆯ
        return after_vowel
    return with_consonant if final else after_vowel


def _korean_nouns() -> list[str]:
    """Every term of the Korean glossary and every name of card_db in Korean."""
    terms = tomllib.loads((GLOSSARIES / "glossary.ko.toml").read_text(encoding="utf-8"))
    nouns = [t["text"] for t in terms["term"]]
    names = [
        str(m.string)
        for m in messages("ko", "cards")
        if any(c.endswith(" name") for c in m.auto_comments) and isinstance(m.string, str)
    ]
    return sorted(set(nouns + names))


def test_every_korean_term_and_name_takes_the_particle_its_last_syllable_wants() -> None:
    nouns = _korean_nouns()
    assert len(nouns) > 250  # the glossary's 94 terms and the names of card_db
    wrong = []
    for noun in nouns:
        last = noun.rstrip("…")[-1]
        for fallback in PARTICLES:
            got = particle(noun, fallback)
            told = "\uac00" <= last <= "\ud7a3"
            want = _oracle(noun, fallback) if told else None
            if got == fallback or (want is not None and got != want):
                wrong.append((noun, fallback, got))
    assert wrong == []


def test_a_wording_gets_each_particle_for_its_own_value() -> None:
    wording = "%(house)s이(가) %(card)s을(를) 공개합니다: 에이전트를 %(space)s(으)로."
    shown = {"house": "왼쪽 라이벌", "card": "물", "space": "아라킨"}
    assert with_particles(wording, shown) == (
        "%(house)s이 %(card)s을 공개합니다: 에이전트를 %(space)s으로."
    )
    # '%(kind)s'(이)라, #%(copy)d은(는): past a quote, and a number's placeholder.
    assert with_particles("'%(kind)s'(이)라", {"kind": "카드"}) == "'%(kind)s'라"
    assert with_particles("#%(copy)d은(는)", {"copy": 3}) == "#%(copy)d은"
    # A fallback after a fixed word, or after a value not given, stays for the translator.
    assert with_particles("카드을(를) %(x)s이(가)", {}) == "카드을(를) %(x)s이(가)"


def test_marks_are_the_seeds_and_never_doubled() -> None:
    """ja 004: 〈声〉 (cards), 《カルタゴ》 (spaces); zh_Hans 000: 『折叠空间』 (199),
    “集结部队” (605); zh_Hant 001: 「鄧肯·艾德侯」 (534), 「合謀」 (470); ko 003: none."""
    assert marked("声", "ja", "card") == "〈声〉"
    assert marked("カルタゴ", "ja", "space") == "《カルタゴ》"
    assert marked("折叠空间", "zh_Hans", "card") == "『折叠空间』"
    assert marked("集结部队", "zh_Hans", "space") == "“集结部队”"
    assert marked("鄧肯·艾德侯", "zh_Hant", "card") == "「鄧肯·艾德侯」"
    assert marked("合謀", "zh_Hant", "space") == "「合謀」"
    assert marked("카르타그", "ko", "space") == "카르타그"
    assert marked("Carthag", "pl", "space") == "Carthag"
    assert marked("〈声〉", "ja", "card") == "〈声〉"
    space = {"space": Name("Carthag", "space")}
    assert unmarked("《%(space)s》に「%(space)s」", space) == "%(space)sに%(space)s"
    assert unmarked("《%(house)s》", space) == "《%(house)s》"  # not a name's placeholder


def test_no_space_between_cjk_text_and_a_cjk_value() -> None:
    wording = "%(house)s 支付 %(n)s 香料並銷毀 %(card)s\uff1a+1。"
    shown = {"house": "左方對手", "n": 3, "card": "「間諜衛星」"}
    assert unspaced(wording, shown) % shown == "左方對手支付 3 香料並銷毀「間諜衛星」\uff1a+1。"
    latin = {"house": "Alice", "n": 3, "card": "「間諜衛星」"}
    assert unspaced(wording, latin) % latin == "Alice 支付 3 香料並銷毀「間諜衛星」\uff1a+1。"


@pytest.fixture
def state(app: Flask) -> GameState:
    catalog = app.extensions["catalog"]
    setup = make_setup(catalog, "solo", "mentat", seed=1)
    rivals = tuple(
        replace(seat, name=name) for seat, name in zip(setup.rivals, RIVAL_NAMES, strict=True)
    )
    return new_game(replace(setup, rivals=rivals), catalog)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("ko", "{house}이 카르타그를 공개합니다: 에이전트를 카르타그로."),
        ("ja", "{house}は〈カルタゴ〉を公開\uff1a代行者を《カルタゴ》へ。"),
        ("zh-CN", "{house}展示『迦太格』\uff1a特使前往“迦太格”。"),
        ("zh-TW", "{house}揭示「迦太奇」\uff1a特使前往「迦太奇」。"),
        ("en", "{house} reveals Carthag: Agent to Carthag."),
    ],
)
def test_a_log_sentence_reads_as_the_seed_rulebooks_write(
    app: Flask, state: GameState, lang: str, expected: str
) -> None:
    """A House Hagal card and its space [HAGAL §3]: the card in the card's marks, the space
    in the space's (one pair, whether the catalog marks 《%(space)s》 itself or not), the
    particles of 왼쪽 라이벌 and 카르타그, no space around a Chinese name."""
    reveal = Entry(1, 1, "rival_agent", state.houses[1].id, {"card": "carthag", "space": "carthag"})
    with app.test_request_context("/", headers={"Accept-Language": lang}):
        house = gettext("Left Rival")  # the translators' words for the seat
        assert sentence(reveal, state, get_translations()) == expected.format(house=house)


def test_names_standing_alone_or_in_a_list_are_marked_as_in_running_text(app: Flask) -> None:
    spaces = listed([Name("Arrakeen", "space"), Name("Carthag", "space")])
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        alone = translated(Message("%(space)s", space=Name("Carthag", "space")))
        in_text = translated(Message("Phase 4: add 1 bonus spice to %(spaces)s.", spaces=spaces))
    assert alone == "カルタゴ"  # a fact's value in a table: no marks
    assert re.search("《アラキーン》.《カルタゴ》", in_text), in_text


def test_the_webs_gettext_fills_as_a_message_is_filled(app: Flask) -> None:
    """The web's own sentences (companion/web/language.py `gettext`, `ngettext`): the
    particle of a player's name, a card's marks, no space around a Chinese name."""
    recorded = "Recorded: %(card)s #%(copy)d now belongs to %(name)s."
    spice = Name("The Spice Must Flow")
    with app.test_request_context("/", headers={"Accept-Language": "ko"}):
        assert gettext("%(name)s wins with %(vp)d VP.", name="왼쪽 라이벌", vp=10) == (
            "왼쪽 라이벌이 승점 10점으로 승리합니다."
        )
        assert gettext("%(name)s wins with %(vp)d VP.", name="민준", vp=9).startswith("민준이 ")
        assert gettext("%(name)s wins with %(vp)d VP.", name="Alice", vp=9).startswith("Alice가 ")
    with app.test_request_context("/", headers={"Accept-Language": "zh-CN"}):
        shown = gettext(recorded, card=spice, copy=2, name="小明")
        assert shown.startswith("已记录\uff1a『香料永流传』 #2") and shown.endswith("属于小明。")
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert ngettext("%(num)d troop", "%(num)d troops", 3) == "3 troops"
        assert gettext(recorded, card=spice, copy=2, name="Al") == (
            "Recorded: The Spice Must Flow #2 now belongs to Al."
        )


def test_a_phrase_keeps_its_space_where_a_name_loses_it(app: Flask) -> None:
    """ "戦力 %(strengths)s": the space parts the label from the houses' list (a phrase of
    the engine), where "%(house)s 支付" loses it around a Chinese name."""
    strengths = Message("%(house)s %(strength)s", house="左のライバル", strength=7)
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        assert translated(Message("戦力 %(strengths)s。", strengths=strengths)) == (
            "戦力 左のライバル 7。"
        )
        assert translated(Message("戦力 %(house)s。", house="左のライバル")) == "戦力左のライバル。"

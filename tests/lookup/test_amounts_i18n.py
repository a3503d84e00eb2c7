"""Resource badges in every language: companion/lookup/amounts.py finds the amounts of the
translated rules texts ('2ソラリ', '剣+2', '솔라리 +2', '3 solarisy', '2 个部队') as it does the
English ('2 Solari'), so the rules lookup pages draw each with its resource's badge.

The texts are the real ones of the `cards` catalogs
(companion/translations/<locale>/LC_MESSAGES/cards.po), looked up by their msgid (the English,
quoted here); the words are those catalogs' and card_db/i18n/glossary.<lang>.toml's terms.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from companion.lookup.amounts import Amount, amounts
from tests.i18n.catalogs import LOCALES, catalog

# msgids of cards.po, and per language the amounts its translation writes: (resource, sign and
# number, what the amount writes before its sign, what after its number); the comments quote
# the translation (' … ' for its full-width punctuation)
EMPEROR_SPACE = "+1 Emperor Influence; gain 5 Solari, recruit 2 troops and draw 1 Intrigue card."
TRADE = "Choose one: pay 2 spice for +5 Solari, or pay 5 Solari for +4 spice."
SWORDS_THEN_SOLARI = "+2 Swords; if you win this Conflict, +2 Solari."
WATER_THEN_SPICE = "+1 water; if you hold the Spacing Guild Alliance, also +3 spice."
PERSUASION_OR_SWORDS = "Choose one: +2 Persuasion or +2 Swords."
Found = tuple[str, str, str, str]
EXPECTED: dict[str, dict[str, list[Found]]] = {
    "ja": {
        # 皇帝に対する影響力+1。5ソラリ獲得し、2部隊招集し、策謀カードを1枚引く。
        EMPEROR_SPACE: [
            ("solari", "5", "", "ソラリ"),
            ("troops", "2", "", "部隊"),
            ("intrigue", "1", "策謀カードを", "枚"),
        ],
        # 剣+2。この紛争に勝利したら、2ソラリ獲得。
        SWORDS_THEN_SOLARI: [("swords", "+2", "剣", ""), ("solari", "2", "", "ソラリ")],
        # 1水獲得。宇宙協会との同盟を持っていれば、さらに3香料獲得。
        WATER_THEN_SPICE: [("water", "1", "", "水"), ("spice", "3", "", "香料")],
        # 1つを選ぶ … 説得力+2、または剣+2。
        PERSUASION_OR_SWORDS: [("persuasion", "+2", "説得力", ""), ("swords", "+2", "剣", "")],
    },
    "ko": {
        # 황제 영향력 +1. 솔라리 5를 얻고, 병력 2를 소집하고, 책략 카드 1장을 뽑습니다.
        EMPEROR_SPACE: [
            ("solari", "5", "솔라리 ", ""),
            ("troops", "2", "병력 ", ""),
            ("intrigue", "1", "책략 카드 ", "장"),
        ],
        # 다음 중 하나를 선택합니다: 스파이스 2를 내고 솔라리 +5, 또는 솔라리 5를 내고 스파이스 +4.
        TRADE: [
            ("spice", "2", "스파이스 ", ""),
            ("solari", "+5", "솔라리 ", ""),
            ("solari", "5", "솔라리 ", ""),
            ("spice", "+4", "스파이스 ", ""),
        ],
        # 물 +1. 우주 항행 길드 동맹을 가지고 있다면 스파이스 +3도 얻습니다.
        WATER_THEN_SPICE: [("water", "+1", "물 ", ""), ("spice", "+3", "스파이스 ", "")],
        # 다음 중 하나를 선택합니다: 설득 +2 또는 검 +2.
        PERSUASION_OR_SWORDS: [("persuasion", "+2", "설득 ", ""), ("swords", "+2", "검 ", "")],
    },
    "pl": {
        # +1 wpływ u Imperatora; zdobądź 5 solarisów, rekrutuj 2 żołnierzy i dobierz 1 kartę
        # intrygi.
        EMPEROR_SPACE: [
            ("solari", "5", "", " solarisów"),
            ("troops", "2", "", " żołnierzy"),
            ("intrigue", "1", "", " kartę intrygi"),
        ],
        # Wybierz jedno: zapłać 2 przyprawy za +5 solarisów albo zapłać 5 solarisów za +4
        # przyprawy.
        TRADE: [
            ("spice", "2", "", " przyprawy"),
            ("solari", "+5", "", " solarisów"),
            ("solari", "5", "", " solarisów"),
            ("spice", "+4", "", " przyprawy"),
        ],
        # +2 miecze; jeśli wygrasz ten konflikt, +2 solarisy.
        SWORDS_THEN_SOLARI: [("swords", "+2", "", " miecze"), ("solari", "+2", "", " solarisy")],
        # Wybierz jedno: +2 perswazji albo +2 miecze.
        PERSUASION_OR_SWORDS: [
            ("persuasion", "+2", "", " perswazji"),
            ("swords", "+2", "", " miecze"),
        ],
    },
    "zh_Hans": {
        # +1点皇帝影响力 … 获得5索货币 … 招募2个部队并抽1张秘牌。
        EMPEROR_SPACE: [
            ("solari", "5", "", "索货币"),
            ("troops", "2", "", "个部队"),
            ("intrigue", "1", "", "张秘牌"),
        ],
        # +2武器 … 如果你赢得本次冲突 … +2索货币。(the seed's 武器 for Swords, 000:1010)
        SWORDS_THEN_SOLARI: [("swords", "+2", "", "武器"), ("solari", "+2", "", "索货币")],
        # +1水 … 如果你持有宇航公会同盟 … 再+3香料。
        WATER_THEN_SPICE: [("water", "+1", "", "水"), ("spice", "+3", "", "香料")],
        # 选择一项 … +2说服力或+2武器。
        PERSUASION_OR_SWORDS: [("persuasion", "+2", "", "说服力"), ("swords", "+2", "", "武器")],
    },
    "zh_Hant": {
        # +1皇帝影響力 … 獲得5太陽幣、徵兵2次並抽1張密謀牌。(the seed's 徵兵N次, 001:488)
        EMPEROR_SPACE: [
            ("solari", "5", "", "太陽幣"),
            ("troops", "2", "徵兵", "次"),
            ("intrigue", "1", "", "張密謀牌"),
        ],
        # 選擇一項 … 支付2香料換+5太陽幣 … 或支付5太陽幣換+4香料。
        TRADE: [
            ("spice", "2", "", "香料"),
            ("solari", "+5", "", "太陽幣"),
            ("solari", "5", "", "太陽幣"),
            ("spice", "+4", "", "香料"),
        ],
        # +2劍刃 … 若你贏得本次衝突 … +2太陽幣。(the seed's 劍刃, 001:937)
        SWORDS_THEN_SOLARI: [("swords", "+2", "", "劍刃"), ("solari", "+2", "", "太陽幣")],
        # 選擇一項 … +2招募點數或+2劍刃。
        PERSUASION_OR_SWORDS: [("persuasion", "+2", "", "招募點數"), ("swords", "+2", "", "劍刃")],
    },
}


def found(text: str, language: str) -> list[Amount]:
    return [amount for _before, amount in amounts(text, language) if amount]


def summary(text: str, language: str) -> list[Found]:
    return [(a.resource, a.sign + a.number + a.plus, a.lead, a.tail) for a in found(text, language)]


def translation(language: str, msgid: str) -> str:
    message = catalog(language, "cards").get(msgid)
    assert message is not None and message.string, f"{language} cards.po lacks {msgid!r}"
    return str(message.string)


@pytest.mark.parametrize(
    ("language", "msgid"),
    [(language, msgid) for language, texts in EXPECTED.items() for msgid in texts],
)
def test_a_translated_text_gets_the_english_texts_badges(language: str, msgid: str) -> None:
    text = translation(language, msgid)
    assert summary(text, language) == EXPECTED[language][msgid]
    # the same resources as the English, in the same order or not (Korean writes the word first)
    assert sorted(a.resource for a in found(text, language)) == sorted(
        a.resource for a in found(msgid, "en")
    )


def written(pieces: list[tuple[str, Amount | None]]) -> str:
    """The text again from its pieces, as the page writes it around the badges."""
    return "".join(
        before + (a.paren + a.lead + a.sign + a.number + a.plus + a.tail if a else "")
        for before, a in pieces
    )


@pytest.mark.parametrize("language", LOCALES)
def test_every_translated_text_is_shown_whole(language: str) -> None:
    """Cutting a text around its amounts keeps every character in order, for every text of
    the catalog, and its words are the resource's (no badge on a word it does not name)."""
    texts = [str(m.string) for m in catalog(language, "cards") if m.id and m.string]
    assert len(texts) > 500
    count = 0
    for text in texts:
        pieces = amounts(text, language)
        assert written(pieces) == text
        for _before, amount in pieces:
            if amount:
                count += 1
                assert amount.word in amount.lead + amount.tail
    assert count > 200  # each catalog writes hundreds of amounts (the English: 232)


NEAR_MISSES: tuple[tuple[str, str], ...] = (
    # a page of a rulebook, a round, a count of cards or of Influence, a card's name
    ("ja", "ルールブックp.10"),
    ("ja", "イクスの台頭ルールブックp.8、FAQ"),
    ("ja", "第10ラウンド"),
    ("ja", "〈香料こそ流るるべし〉を2枚以上所有していれば"),
    ("ja", "影響力が3以上なら"),
    ("ja", "説得力1.5"),
    ("ko", "익스의 부상 규칙서 8쪽, FAQ"),
    ("ko", "스파이스는 흘러야 한다 1장 이상"),
    ("ko", "영향력 4 보너스"),
    ("ko", "보물 2"),
    ("pl", "instrukcja Potęgi Ix, s. 10"),
    ("pl", "runda 10"),
    ("pl", "2+ karty „Przyprawa musi płynąć”"),
    ("pl", "3+ punkty wpływu"),
    ("pl", "2 punkty siły"),
    ("zh_Hans", "伊克斯崛起规则书第 8 页"),
    ("zh_Hans", "至少 1 张香料永流传"),
    ("zh_Hans", "3 点或以上影响力"),
    ("zh_Hans", "第 10 回合"),
    ("zh_Hant", "伊克斯崛起規則書第 8 頁、FAQ"),
    ("zh_Hant", "2 張或以上香料永流傳"),
    ("zh_Hant", "1 艘無畏艦"),
)


@pytest.mark.parametrize(("language", "text"), NEAR_MISSES)
def test_a_number_beside_no_resource_gets_no_badge(language: str, text: str) -> None:
    assert found(text, language) == []


@pytest.mark.parametrize("language", LOCALES)
def test_a_text_no_catalog_translates_keeps_its_english_badges(language: str) -> None:
    text = "Pay 2 Solari: +1 Influence; (2 water) or 3 Intrigue cards."
    assert amounts(text, language) == amounts(text, "en")
    assert [a.tail for a in found(text, language)] == [" Solari", " water", " Intrigue cards"]


def test_english_finds_only_english() -> None:
    """An English page looks for English words only: '2ソラリ' is not an English amount."""
    assert found("2ソラリ, 솔라리 +2, 2 solarisy, 2 索货币", "en") == []
    assert summary("(+2 Swords", "en") == [("swords", "+2", "", " Swords")]
    assert found("(+2 Swords", "en")[0].paren == "("


# The item page of Gurney Halleck (card_db/base/imperium.toml: agent "Recruit 2 troops and
# draw 1 card.", reveal "You may pay 3 Solari: recruit 2 troops; ...") in each language.
GURNEY_BADGES = {
    "en": (
        '<span class="rl-amount"><span class="rl-res rl-troops">2</span> troops</span>',
        '<span class="rl-amount"><span class="rl-res rl-solari">3</span> Solari</span>',
    ),
    "ja": (
        '<span class="rl-amount"><span class="rl-res rl-troops">2</span>部隊</span>',
        '<span class="rl-amount"><span class="rl-res rl-solari">3</span>ソラリ</span>',
    ),
    "ko": (
        '<span class="rl-amount">병력 <span class="rl-res rl-troops">2</span></span>',
        '<span class="rl-amount">솔라리 <span class="rl-res rl-solari">3</span></span>',
    ),
    "pl": (
        '<span class="rl-amount"><span class="rl-res rl-troops">2</span> żołnierzy</span>',
        '<span class="rl-amount"><span class="rl-res rl-solari">3</span> solarisy</span>',
    ),
    "zh_Hans": (
        '<span class="rl-amount"><span class="rl-res rl-troops">2</span>个部队</span>',
        '<span class="rl-amount"><span class="rl-res rl-solari">3</span>索货币</span>',
    ),
    "zh_Hant": (
        '<span class="rl-amount">徵兵<span class="rl-res rl-troops">2</span>次</span>',
        '<span class="rl-amount"><span class="rl-res rl-solari">3</span>太陽幣</span>',
    ),
}


@pytest.mark.parametrize("language", sorted(GURNEY_BADGES))
def test_an_item_page_draws_the_badges_in_its_language(client: FlaskClient, language: str) -> None:
    client.set_cookie("lang", language)
    try:
        response = client.get("/cards/imperium/gurney_halleck")
    finally:
        client.delete_cookie("lang")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for badge in GURNEY_BADGES[language]:
        assert badge in html

"""Every message translated in all five languages, in the glossary's terms."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.i18n.catalogs import (
    CATALOGS,
    LOCALES,
    PLACEHOLDER,
    ROOT,
    extracted_ids,
    forms,
    glossary,
    messages,
    singular,
)

SEEDS = ROOT.parent / "shared" / "reference"  # the rulebooks, beside the repository


@pytest.mark.parametrize(("locale", "domain"), CATALOGS)
def test_every_message_is_translated_and_none_is_fuzzy(locale: str, domain: str) -> None:
    untranslated = [singular(m) for m in messages(locale, domain) if not all(forms(m))]
    fuzzy = [singular(m) for m in messages(locale, domain) if m.fuzzy]
    assert untranslated == []
    assert fuzzy == []


@pytest.mark.parametrize("locale", LOCALES)
def test_the_catalog_holds_every_message_the_code_marks(locale: str) -> None:
    """After new strings: pybabel extract + update (README), then translate them."""
    in_catalog = {singular(m) for m in messages(locale) if all(forms(m))}
    assert sorted(extracted_ids() - in_catalog) == []


@pytest.mark.parametrize(("locale", "domain"), CATALOGS)
def test_translations_keep_the_placeholders(locale: str, domain: str) -> None:
    wrong = []
    for message in messages(locale, domain):
        ids = (message.id,) if isinstance(message.id, str) else message.id
        wanted = {frozenset(PLACEHOLDER.findall(i)) for i in ids}
        for text in forms(message):
            if frozenset(PLACEHOLDER.findall(text)) not in wanted:
                wrong.append((singular(message), text))
    assert wrong == []


@pytest.mark.parametrize(("locale", "domain"), CATALOGS)
def test_translations_use_the_glossary_terms(locale: str, domain: str) -> None:
    """Where a message says a game term in English, its translation says the glossary's."""
    missing = []
    for term in glossary(locale):
        if not term.check:
            continue
        for message in messages(locale, domain):
            if term.in_english(singular(message)) and not all(
                term.in_translation(text) for text in forms(message)
            ):
                missing.append((term.en, term.text, singular(message), forms(message)[0]))
    assert missing == []


@pytest.mark.parametrize(("locale", "domain"), CATALOGS)
def test_no_translation_uses_a_rendering_the_glossary_forbids(locale: str, domain: str) -> None:
    """A term's `wrong` renderings (a second word beside the seed's, or one the seed
    contradicts: zh-Hant 說服力 for the seed's 招募點數) appear in no translation."""
    found = [
        (wrong, term.text, singular(message))
        for term in glossary(locale)
        for wrong in term.wrong
        for message in messages(locale, domain)
        if any(wrong.lower() in text.lower() for text in forms(message))
    ]
    assert found == []


@pytest.mark.parametrize("locale", LOCALES)
def test_glossaries_name_a_source_for_every_term(locale: str) -> None:
    terms = glossary(locale)
    assert len({t.key for t in terms}) == len(terms)
    for term in terms:
        assert term.origin in {"seed", "web", "ours"}, term
        if term.origin == "seed":
            assert term.source.startswith("seeds/") and term.quote, term
        if term.origin == "web":
            assert term.source.startswith("https://"), term


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the localized rulebooks are not beside the repo")
@pytest.mark.parametrize("locale", LOCALES)
def test_seed_terms_appear_where_the_glossary_says(locale: str) -> None:
    for term in glossary(locale):
        if term.origin != "seed":
            continue
        name, line = term.source.rsplit(":", 1)
        lines = Path(SEEDS / name).read_text(encoding="utf-8", errors="replace").split("\n")
        assert term.quote in lines[int(line) - 1], term


def test_all_five_languages_share_one_list_of_terms() -> None:
    keys = {locale: [t.key for t in glossary(locale)] for locale in LOCALES}
    assert len({tuple(k) for k in keys.values()}) == 1

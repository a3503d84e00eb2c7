"""The request's translations are looked up once per request and forgotten at its end."""

from __future__ import annotations

from flask_babel import get_babel, get_locale, get_translations

from companion.web import i18n


def test_a_request_keeps_its_translations_until_it_ends(app):
    with app.test_request_context("/"):
        found = i18n.translations()
        assert found is get_translations()
        assert i18n.translations() is found
        assert i18n.gettext("Round %(n)s", n=3) == "Round 3"
    assert i18n._current.get() is None  # the next request on this thread looks again


def test_outside_a_request_nothing_is_kept(app):
    with app.app_context():
        assert i18n.translations() is get_translations()
        assert i18n._current.get() is None


def test_without_a_locale_selector_the_app_keeps_one_translations_object(app):
    with app.test_request_context("/"):
        first = i18n.translations()
    with app.test_request_context("/"):
        assert i18n.translations() is first is get_translations()


def test_with_a_locale_selector_each_request_gets_its_own_locales(app):
    babel = get_babel(app)
    with app.test_request_context("/"):
        english = i18n.translations()
    babel.locale_selector = lambda: "de"
    try:
        with app.test_request_context("/"):
            assert i18n.translations() is get_translations()
            assert str(get_locale()) == "de"
            assert i18n.translations() is not english
    finally:
        babel.locale_selector = None

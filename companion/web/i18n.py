"""Translations looked up once per request.

Flask-Babel resolves the translations on every gettext call; a table screen makes a few
hundred of them, so the request keeps the object it found. It keeps it in a context
variable, not in `flask.g`: reading `g` through its proxy took more than a microsecond,
and a tap reads the translations some hundred times (each kept part and piece is keyed
by the language).
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from flask import Flask, current_app, has_app_context, has_request_context
from flask_babel import get_babel, get_translations
from markupsafe import Markup

# The request's translations, from its first use to its end (`_forget`). Each thread of
# the server has its own.
_current: ContextVar[Any] = ContextVar("companion_translations", default=None)


def translations() -> Any:
    """The current request's translations (NullTranslations for English)."""
    found = _current.get()
    if found is None:
        found = _lookup()
        if has_request_context():
            _current.set(found)
    return found


def _lookup() -> Any:
    """Flask-Babel's translations for this request. With no locale selector every request
    has the app's default locale, so the app keeps them: Flask-Babel parses the locale
    again for each request, a look at the file system included (some 4% of a tap)."""
    if not has_app_context():
        return get_translations()
    babel = get_babel()
    if babel.locale_selector is not None:  # the locale may differ from one request to another
        return get_translations()
    key = (babel.default_locale, babel.default_domain, tuple(babel.translation_directories))
    kept = current_app.extensions.get("companion_translations")
    if kept is None or kept[0] != key:
        kept = current_app.extensions["companion_translations"] = (key, get_translations())
    return kept[1]


def _forget(_exc: BaseException | None = None) -> None:
    _current.set(None)


# Messages already translated, by translations object and message id: a tap words the
# same few dozen messages again (the translations objects live as long as the app).
_translated: dict[tuple[Any, str], str] = {}
TRANSLATED_KEPT = 10_000


def gettext(message: str, **values: object) -> str:
    """Flask-Babel's gettext on the request's translations (the pages' Python side)."""
    key = (translations(), message)
    translated = _translated.get(key)
    if translated is None:
        if len(_translated) >= TRANSLATED_KEPT:
            _translated.clear()
        translated = _translated[key] = str(key[0].ugettext(message))
    return translated % values if values else translated


def _gettext(message: str) -> str:
    return str(translations().gettext(message))


def _ngettext(singular: str, plural: str, n: int) -> str:
    return str(translations().ngettext(singular, plural, n))


def template_gettext(message: str, **values: object) -> Markup:
    """Templates' _() and gettext(): Jinja's newstyle gettext in one call.

    Jinja's own wrapper reaches the translations through two calls of the template
    context (5-6 µs each time, and a table screen makes dozens); this does what it does
    for HTML templates: the message is always a format string, and the values put in are
    escaped."""
    return Markup(translations().gettext(message)) % values


def install(app: Flask) -> None:
    """Templates' _() and ngettext() use the per-request translations (newstyle, so the
    values are escaped and put in as with Flask-Babel's own callables)."""
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        _gettext, _ngettext, newstyle=True
    )
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext)
    app.teardown_request(_forget)

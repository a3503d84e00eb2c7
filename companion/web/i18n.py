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

from flask import Flask, has_request_context
from flask_babel import get_translations
from markupsafe import Markup

# The request's translations, from its first use to its end (`_forget`). Each thread of
# the server has its own.
_current: ContextVar[Any] = ContextVar("companion_translations", default=None)


def translations() -> Any:
    """The current request's translations (NullTranslations for English)."""
    found = _current.get()
    if found is None:
        found = get_translations()
        if has_request_context():
            _current.set(found)
    return found


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

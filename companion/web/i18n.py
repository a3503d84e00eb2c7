"""Translations looked up once per request.

Flask-Babel resolves the translations on every gettext call; a table screen makes a few
hundred of them, so the request keeps the object it found.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, g, has_request_context
from flask_babel import get_translations


def translations() -> Any:
    """The current request's translations (NullTranslations for English)."""
    if not has_request_context():
        return get_translations()
    found = g.get("_companion_translations")
    if found is None:
        found = get_translations()
        g._companion_translations = found
    return found


def _gettext(message: str) -> str:
    return str(translations().gettext(message))


def _ngettext(singular: str, plural: str, n: int) -> str:
    return str(translations().ngettext(singular, plural, n))


def install(app: Flask) -> None:
    """Templates' _() and ngettext() use the per-request translations (newstyle, so the
    values are escaped and put in as with Flask-Babel's own callables)."""
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        _gettext, _ngettext, newstyle=True
    )

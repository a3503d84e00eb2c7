"""The languages of the app and the reader's choice among them: the menu's choice kept in
a cookie, else the browser's, else English; and their catalogs, compiled at start.

Catalogs live in companion/translations/<locale>/LC_MESSAGES/: messages.po holds the app's
own words, cards.po the words of card_db. `install` compiles any missing or stale .mo at
start, so a fresh clone needs no build step. The words themselves, in the language chosen
here, are companion/web/language.py's.
"""

from __future__ import annotations

import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Flask, Response, has_request_context, redirect, request
from flask.typing import ResponseReturnValue
from flask_babel import get_babel, get_locale
from flask_babel import gettext as _

from companion.cards import languages as card_languages
from companion.web.htmx import error_answer

TRANSLATIONS = card_languages.TRANSLATIONS  # the catalogs, of both domains
COOKIE = "lang"
COOKIE_MAX_AGE = 400 * 24 * 3600  # browsers keep a cookie at most 400 days
DEFAULT = "en"
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Language:
    """A language of the menu: its catalog's locale code, own name and HTML `lang`."""

    code: str
    name: str
    html_lang: str


LANGUAGES = (
    Language("en", "English", "en"),
    Language("zh_Hans", "简体中文", "zh-Hans"),
    Language("zh_Hant", "繁體中文", "zh-Hant"),
    Language("pl", "Polski", "pl"),
    Language("ja", "日本語", "ja"),
    Language("ko", "한국어", "ko"),
)
BY_CODE = {language.code: language for language in LANGUAGES}
# Chinese regions and scripts as browsers send them (lower case), and their catalog.
CHINESE = {
    "zh-cn": "zh_Hans",
    "zh-sg": "zh_Hans",
    "zh-my": "zh_Hans",
    "zh-hans": "zh_Hans",
    "zh": "zh_Hans",
    "zh-tw": "zh_Hant",
    "zh-hk": "zh_Hant",
    "zh-mo": "zh_Hant",
    "zh-hant": "zh_Hant",
}

bp = Blueprint("language", __name__)


def locale_for_tag(tag: str) -> str | None:
    """The catalog for a BCP 47 language tag such as `zh-TW` or `pl-PL`, or None."""
    parts = tag.strip().lower().replace("_", "-").split("-")
    if parts[0] == "zh":
        # zh-Hant-TW names its script first; zh-TW only its region.
        for length in (2, 1):
            found = CHINESE.get("-".join(parts[:length]))
            if found is not None:
                return found
        return None
    return parts[0] if parts[0] in BY_CODE else None


def select_locale() -> str:
    """The menu's choice (cookie), else the first language the browser accepts, else English
    (also outside a request: a command line, a test calling a use case directly)."""
    if not has_request_context():
        return DEFAULT
    chosen = request.cookies.get(COOKIE, "")
    if chosen in BY_CODE:
        return chosen
    for tag, _quality in request.accept_languages:  # best first
        found = locale_for_tag(tag)
        if found is not None:
            return found
    return DEFAULT


def current() -> Language:
    """The language this page is shown in."""
    return BY_CODE.get(str(get_locale()), BY_CODE[DEFAULT])


def _local_path(target: str | None) -> str:
    """`target` if it is a path on this server, else the home page (no open redirect)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


@bp.get("/language/<code>")
def choose(code: str) -> ResponseReturnValue:
    """Keep the chosen language in a cookie and go back to the page the menu was on."""
    if code not in BY_CODE:
        return error_answer(404, _("There is no such language in this app."))
    response = redirect(_local_path(request.args.get("next")), 303)
    response.set_cookie(
        COOKIE,
        code,
        max_age=COOKIE_MAX_AGE,
        samesite="Lax",
        httponly=True,
        secure=request.is_secure,  # an HTTPS page's cookie never goes over plain HTTP
    )
    return response


def compile_catalogs(root: Path = TRANSLATIONS) -> list[Path]:
    """Compile each catalog (.po) whose .mo is missing or older; the .mo files made."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    made = []
    for po_path in sorted(root.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file, locale=po_path.parent.parent.name)
        # Written aside, then renamed: two servers starting at once never read half a file.
        handle, temporary = tempfile.mkstemp(dir=mo_path.parent, suffix=".mo.tmp")
        with os.fdopen(handle, "wb") as mo_file:
            write_mo(mo_file, catalog)
        os.replace(temporary, mo_path)
        made.append(mo_path)
    return made


def install(app: Flask) -> None:
    """Compile the catalogs, choose each request's locale, give templates the menu."""
    try:
        compile_catalogs()
    except OSError as exc:  # a read-only install: the .mo files made at build time serve
        log.warning("could not compile the translations: %s", exc)
    get_babel(app).locale_selector = select_locale
    app.register_blueprint(bp)
    app.after_request(_vary_on_language)
    app.context_processor(lambda: {"languages": LANGUAGES, "language": current()})


def _vary_on_language(response: Response) -> Response:
    """A cache must not serve one reader's language to another."""
    response.vary.update(("Accept-Language", "Cookie"))
    return response

"""Blueprints, error pages and response headers."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from flask import Flask, Response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from companion import services
from companion.stats.store import stats_cli
from companion.web import (
    assets,
    cards,
    exports,  # noqa: F401  (adds its routes to history.bp)
    games,
    history,
    kept,
    language,
    line_breaks,
    locales,
    purchases,  # noqa: F401  (adds its routes to scan.bp)
    review,
    scan,
    seats,
)
from companion.web.hosts import RefuseBadHosts
from companion.web.htmx import add_vary, error_answer, is_htmx
from companion.web.present import titles


def register(app: Flask) -> None:
    """Attach the blueprints, error handlers and headers to the app."""
    app.wsgi_app = RefuseBadHosts(app.wsgi_app)  # type: ignore[method-assign]
    locales.install(app)  # compiles the catalogs the search index (games.install) reads
    language.install(app)
    app.register_blueprint(games.bp)
    app.register_blueprint(seats.bp)  # whose screen this is
    games.install(app)
    kept.install(app)  # the board's spaces and VP ledgers, drawn once per look
    app.register_blueprint(cards.bp)
    app.register_blueprint(scan.bp)  # with the routes of web.purchases
    app.register_blueprint(history.bp)  # with the routes of web.exports
    app.register_blueprint(review.bp)  # the translators' review page
    app.cli.add_command(stats_cli)
    app.add_template_filter(titles.game_title, "game_title")
    app.add_template_filter(line_breaks.whole_words, "whole_words")  # the score's headers
    app.after_request(add_vary)
    app.after_request(_security_headers)
    assets.install(app)  # compression, static URLs with versions, the manifest

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError) -> ResponseReturnValue:
        if "referrer" in (exc.description or "").lower():  # over HTTPS only
            message = _(
                "Over HTTPS each tap must say which page it comes from, and this browser "
                "sent no address (its Referer header): allow it in the browser's settings, "
                "then reload."
            )
        else:
            message = _(
                "This page expired (its security token is missing or old): reload it and try again."
            )
        return error_answer(400, message)

    @app.errorhandler(services.GameNotFound)
    def game_not_found(exc: services.GameNotFound) -> ResponseReturnValue:
        return error_answer(404, _("There is no such game. It may have been deleted."))

    @app.errorhandler(services.OtherGame)
    def other_game(exc: services.OtherGame) -> ResponseReturnValue:
        message = _(
            "This game no longer exists: it was deleted, and its address now shows "
            "another game. Nothing was changed."
        )
        if is_htmx():  # in place of the table: the way out with the message
            return render_template("games/_other_game.html", message=message), 409
        return error_answer(409, message)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> ResponseReturnValue:
        code = exc.code or 500
        messages = {
            404: _("There is nothing here. The game may have been deleted."),
            405: _("That page can't be used this way."),
            413: _("That upload is too large."),
        }
        return error_answer(
            code, messages.get(code) or exc.description or _("Something went wrong.")
        )


def _security_headers(response: Response) -> Response:
    # Everything is served from this server: no CDN, no other host, ever.
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    )
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if request.is_secure and _keeps_https(request.host):
        response.headers.setdefault("Strict-Transport-Security", f"max-age={HSTS_MAX_AGE}")
    return response


# HSTS binds a host name (every port of it) to HTTPS for this long. Short: the same
# laptop may serve plain HTTP next week (`python -m companion.serve` without --https),
# and its browsers would refuse it until then. Each page renews the hour during play.
HSTS_MAX_AGE = 3600


def _keeps_https(host: str) -> bool:
    """Whether HSTS is sent for this Host: a name, not an IP address (browsers ignore it
    there, RFC 6797 section 8.1.1) nor localhost, whose plain-HTTP servers (this one
    without --https, any other) it would break. Browsers also ignore it behind a
    certificate warning, so only a trusted certificate makes it count."""
    try:
        name = urlsplit("//" + host).hostname or ""  # lower case, no port, no brackets
    except ValueError:
        return False
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return bool(name) and name != "localhost" and not name.endswith(".localhost")
    return False

"""CSRF tokens: Flask-WTF's, signed once per browser session and known when they return.

Flask-WTF signs the session's secret anew for every page (with the time: some 70 µs a
tap) and verifies the signature of every token posted (some 8% of a tap). The time in a
token only matters against WTF_CSRF_TIME_LIMIT, which create_app sets to None (a game
night lasts longer than an hour): then a token signed once for a session is as valid as a
new one. So, without a time limit, each session's signed token is kept and sent again,
and a token posted back that is the very one kept for the session's secret is known to be
valid without verifying it again; any other token goes through Flask-WTF's own checks.
"""

from __future__ import annotations

import hmac

import flask_wtf.csrf
from flask import Flask, current_app, g, request, session
from flask_wtf.csrf import generate_csrf

# Signed tokens, by signing key and the session's secret.
_signed: dict[tuple[object, str], str] = {}
SIGNED_KEPT = 4096


def _key() -> tuple[object, str] | None:
    """The key of this session's signed token: None while tokens expire (a time limit) or
    the session has no secret yet."""
    config = current_app.config
    if config.get("WTF_CSRF_TIME_LIMIT", 3600) is not None:
        return None
    secret = session.get(config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))
    if not isinstance(secret, str):
        return None
    return (config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key, secret)


def csrf_token() -> str:
    """This browser session's CSRF token: signed once while tokens have no time limit,
    else Flask-WTF's newly signed one."""
    key = _key()
    token = _signed.get(key) if key is not None else None
    if token is None:
        token = str(generate_csrf())  # makes the session's secret if it had none
        key = _key()
        if key is not None:
            if len(_signed) >= SIGNED_KEPT:
                _signed.clear()
            _signed[key] = token
    return token


def _known(token: object) -> bool:
    """`token` is the one signed and kept for this session's secret."""
    if not isinstance(token, str) or not token.isascii():
        return False
    key = _key()
    kept = _signed.get(key) if key is not None else None
    return kept is not None and hmac.compare_digest(kept, token)


class CSRFProtect(flask_wtf.csrf.CSRFProtect):  # type: ignore[misc]
    """Flask-WTF's protection of every POST; a posted token that is this session's kept one
    passes without its signature verified again. Over HTTPS, where Flask-WTF also checks
    the referrer, every token goes through its checks. Templates' csrf_token() is
    `csrf_token`."""

    def init_app(self, app: Flask) -> None:
        super().init_app(app)
        # Instead of Flask-WTF's global and context processor (this one comes after).
        app.jinja_env.globals["csrf_token"] = csrf_token
        app.context_processor(lambda: {"csrf_token": csrf_token})

    def protect(self, apply_exemptions: bool = False) -> None:
        config = current_app.config
        checked = request.method in config["WTF_CSRF_METHODS"]
        secure = request.is_secure and config.get("WTF_CSRF_SSL_STRICT", True)
        if checked and not secure and _known(self._get_csrf_token()):
            g.csrf_valid = True  # as Flask-WTF marks a request that passed
            return
        super().protect(apply_exemptions)

"""Issue 17, finding 13: in HTTPS mode the cookies are Secure and host names get a short
HSTS; plain HTTP, IP addresses and localhost get none (browsers ignore HSTS on IP
addresses, RFC 6797 section 8.1.1, and on localhost it would break every plain-HTTP
server of the machine)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from companion.web import HSTS_MAX_AGE
from tests.web.conftest import dispose, make_app


@pytest.fixture
def https_app() -> Iterator[Flask]:
    app = make_app(SESSION_COOKIE_SECURE=True)  # as `companion.serve --https` sets it
    yield app
    dispose(app)


@pytest.mark.parametrize("host", ["companion.example", "laptop.local:5000", "TABLE:443"])
def test_https_on_a_host_name_sends_a_one_hour_hsts(https_app, host):
    response = https_app.test_client().get("/", base_url=f"https://{host}")
    assert response.status_code == 200
    assert response.headers["Strict-Transport-Security"] == f"max-age={HSTS_MAX_AGE}"
    assert HSTS_MAX_AGE == 3600  # short: the same laptop may serve plain HTTP next week
    assert "includeSubDomains" not in response.headers["Strict-Transport-Security"]


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1:5000", "192.168.1.20", "[::1]:5000", "localhost:5000", "tablet.localhost"],
)
def test_https_on_an_ip_address_or_localhost_sends_no_hsts(https_app, host):
    response = https_app.test_client().get("/", base_url=f"https://{host}")
    assert response.status_code == 200
    assert "Strict-Transport-Security" not in response.headers


def test_plain_http_sends_no_hsts_even_for_a_host_name(https_app):
    response = https_app.test_client().get("/", base_url="http://companion.example")
    assert "Strict-Transport-Security" not in response.headers


def test_the_session_cookie_is_secure_and_same_site_lax_in_https_mode(https_app):
    response = https_app.test_client().get("/games/new", base_url="https://companion.example")
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("session=")
    assert "; Secure" in cookie
    assert "SameSite=Lax" in cookie


def test_the_session_cookie_is_not_secure_in_http_mode():
    app = make_app()
    try:
        cookie = app.test_client().get("/games/new").headers["Set-Cookie"]
    finally:
        dispose(app)
    assert cookie.startswith("session=")
    assert "Secure" not in cookie
    assert "SameSite=Lax" in cookie


@pytest.mark.parametrize(("scheme", "secure"), [("https", True), ("http", False)])
def test_the_language_cookie_is_secure_over_https_only(https_app, scheme, secure):
    response = https_app.test_client().get(
        "/language/pl?next=/", base_url=f"{scheme}://companion.example"
    )
    assert response.status_code == 303
    cookie = response.headers["Set-Cookie"]
    assert ("; Secure" in cookie) is secure
    assert "SameSite=Lax" in cookie

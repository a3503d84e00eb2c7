"""The web layer's fixtures (`app`, `client`, `game`) for the tests of stored games."""

from tests.web.conftest import app, client, game  # noqa: F401

"""The web layer's fixtures (`app`, `client`, `game`) for the history and statistics tests."""

from tests.web.conftest import app, client, game  # noqa: F401

"""The migrations: the app migrates however it is started (issue 17, finding 7)."""

from __future__ import annotations

import runpy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion import services
from tests.web.conftest import dispose
from tests.web.test_restart import keep_logging  # noqa: F401  (a fixture)

ROOT = Path(__file__).resolve().parent.parent.parent
pytestmark = pytest.mark.usefixtures("keep_logging")


@pytest.fixture
def wsgi_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    """The app wsgi.py makes, on a fresh database: what `flask --app wsgi run` serves."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'fresh.sqlite'}")
    monkeypatch.setenv("COMPANION_SECRET_KEY", "test")
    module: dict[str, Any] = runpy.run_path(str(ROOT / "wsgi.py"))
    app: Flask = module["app"]
    with app.app_context():
        services.forget_cache()
    yield app
    dispose(app)


def test_the_wsgi_app_on_a_fresh_database_serves_the_home_page(wsgi_app: Flask) -> None:
    response = wsgi_app.test_client().get("/")
    assert response.status_code == 200


def test_the_wsgi_app_starts_again_on_its_migrated_database(wsgi_app: Flask) -> None:
    again: Flask = runpy.run_path(str(ROOT / "wsgi.py"))["app"]
    try:
        assert again.test_client().get("/").status_code == 200
    finally:
        dispose(again)

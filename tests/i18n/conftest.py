"""An app on in-memory SQLite for the language tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.db import db


@pytest.fixture
def app() -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
        }
    )
    with app.app_context():
        db.create_all()
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()

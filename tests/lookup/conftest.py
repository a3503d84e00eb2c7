"""Fixtures for the rules lookup pages (flaskr style): one app per module, since the pages
only read the card catalog, plus the full catalog's search index for parametrizing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.cards import default_root
from companion.cards.search import SearchIndex
from companion.db import db
from companion.lookup import load_lookup

CONFIG: dict[str, Any] = {
    "TESTING": True,
    "SQLALCHEMY_DATABASE_URI": "sqlite://",
    "SECRET_KEY": "t",
    "WTF_CSRF_ENABLED": False,
}
HX = {"HX-Request": "true"}


def full_index() -> SearchIndex:
    """The index the app builds, for parametrizing at collection time."""
    return load_lookup(default_root()).index


@pytest.fixture(scope="module")
def app() -> Iterator[Flask]:
    app = create_app(CONFIG)
    with app.app_context():
        db.create_all()  # the home page lists games
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="module")
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return full_index()

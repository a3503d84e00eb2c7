"""Giving a deleted game's id again, as a restored backup (or a PostgreSQL sequence
reset) can: what the forms' game stamp guards against."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import text

from companion.db import db


def give_id_again(app: Flask, game_id: int) -> None:
    """Make the next new game get `game_id` (SQLite's AUTOINCREMENT counter or
    PostgreSQL's sequence set back)."""
    with app.app_context():
        if db.engine.dialect.name == "postgresql":
            statement = "SELECT setval(pg_get_serial_sequence('game', 'id'), :id, false)"
            db.session.execute(text(statement), {"id": game_id})
        else:
            statement = "UPDATE sqlite_sequence SET seq = :id - 1 WHERE name = 'game'"
            db.session.execute(text(statement), {"id": game_id})
        db.session.commit()

"""Tables: games (setup, version) and their events (one row per user intent)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from companion.db import db


def utc_now() -> datetime:
    """The time as the tables store it: UTC, without a time zone."""
    return datetime.now(UTC).replace(tzinfo=None)


class Game(db.Model):  # type: ignore[name-defined,misc]
    """A game: its setup (with the seed) and a version bumped by every change.

    `ruleset` records the card_db version the game was created with. Nothing reads it
    yet: a game replays against the current card_db, and the column is there for the day
    a card_db change needs old logs told apart (a migration would read it).

    Ids are never reused, not even a deleted game's (SQLite's AUTOINCREMENT; PostgreSQL's
    sequences never go back): a page still showing a deleted game can't post into another.
    """

    __table_args__ = ({"sqlite_autoincrement": True},)

    id: Mapped[int] = mapped_column(primary_key=True)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(default=utc_now)
    mode: Mapped[str] = mapped_column(String(8))
    ruleset: Mapped[str] = mapped_column(String(40))
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    title: Mapped[str] = mapped_column(String(200), default="")
    status: Mapped[str] = mapped_column(String(10), default="active")
    round: Mapped[int] = mapped_column(default=0)
    version: Mapped[int] = mapped_column(default=0)


class GameEvent(db.Model):  # type: ignore[name-defined,misc]
    """One user intent, in order. Undone events stay (for redo) until a new intent."""

    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int]
    actor: Mapped[str] = mapped_column(String(10), default="player")
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    undone: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class StickerRead(db.Model):  # type: ignore[name-defined,misc]
    """When a card copy's sticker was last read in a game's purchase scanner: the same
    sticker read again within a few seconds is ignored, whichever server process reads
    it (one row per copy and game, so the table stays small)."""

    game_id: Mapped[int] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    card: Mapped[str] = mapped_column(String(80), primary_key=True)
    copy: Mapped[int] = mapped_column(primary_key=True)
    read_at: Mapped[datetime]

"""The derived summary table: one row per finished game, rebuilt from the event logs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from companion.db import db


class GameRecord(db.Model):  # type: ignore[name-defined,misc]
    """A finished game's summary (companion.stats.summary); the filter columns repeat
    the record's fields so the history can be filtered in SQL."""

    __tablename__ = "game_record"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    ended_at: Mapped[datetime] = mapped_column(index=True)
    mode: Mapped[str] = mapped_column(String(8))
    difficulty: Mapped[str | None] = mapped_column(String(12))
    ix: Mapped[bool]
    epic: Mapped[bool]
    data: Mapped[dict[str, Any]] = mapped_column(JSON)

"""The derived summary table: one row per finished game, rebuilt from the event logs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from companion.db import db
from companion.db.models import utc_now


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
    # When the row was written: with the count of rows, it tells whether the statistics
    # computed from the rows are still current.
    written_at: Mapped[datetime] = mapped_column(default=utc_now)

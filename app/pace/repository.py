"""The pace's SQL: the clock a table row holds (its ``clock`` column), read on the hot path when
this process's memory of the table misses (app/pace/book.py)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Table, bindparam, select

from app.db.models import GameTable

TABLE: Table = GameTable.__table__  # type: ignore[assignment]

CLOCK_OF = select(TABLE.c.clock).where(TABLE.c.id == bindparam("p_id"))


def clock_of(conn: Connection, table_id: str) -> Any:
    """The stored clock blob of a table (None: the table has no clock)."""
    return conn.scalar(CLOCK_OF, {"p_id": table_id})

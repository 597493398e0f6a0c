"""Records as other features read them (docs/architecture.md, "Data"): a record's table or
imported replay, for the analysis of a finished game."""

from __future__ import annotations

from app.records.repository import imported, table

__all__ = ["imported", "table"]

"""The typed answers of the analysis API (docs/analysis.md)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field

from app.records.schemas import ReplayLogEntry


class JobStatus(StrEnum):
    NONE = "none"  # nobody asked for this analysis yet
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class PositionEstimate(BaseModel):
    """Each player's expected final score at ``position`` (index = seat), as the bot sees it
    from the view of ``seat`` (the seat to act; null at the end, where the scores are final)."""

    position: int
    seat: int | None
    expected: list[float]


class PreferredMove(BaseModel):
    """The bot's preferred move there: the wire move, the events it would have made and the
    engine's words-ready summary of it (the shapes of a log entry's ``events`` and ``summary``)."""

    move: dict[str, Any]
    events: list[dict[str, Any]]
    summary: list[dict[str, Any]]


class SwingOut(BaseModel):
    """A move of the player that changed their own expected score by ``change`` (negative: it
    fell): the move played (the replay's log entry, leading to ``position``) and the bot's
    preferred move at the position before it."""

    position: int
    change: float
    played: ReplayLogEntry
    preferred: PreferredMove | None


class PlayerSwings(BaseModel):
    seat: int
    swings: list[SwingOut] = Field(description="at most three, the biggest first")


class AnalysisOut(BaseModel):
    """The analysis of a replay: how far it is (``done`` of ``total`` positions, for a progress
    bar), each analysed position's expected scores, and, once done, each player's swings."""

    replay_id: str
    status: JobStatus
    bot_version: str
    done: int
    total: int
    error: str | None = None
    positions: list[PositionEstimate]
    swings: list[PlayerSwings]

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
    """A move of the player that cost them ``cost`` points of expected final score against the
    bot's preferred move at the position before it (measured from their own view, with common
    random numbers; ``noise`` is the cost's standard error, and a swing is listed only well
    above it): the move played (the replay's log entry, leading to ``position``) and the bot's
    preferred move. ``change`` is ``-cost``."""

    position: int
    cost: float
    noise: float
    change: float
    played: ReplayLogEntry
    preferred: PreferredMove | None


class LuckOut(BaseModel):
    """A chance step (cards or favor tokens drawn, an event or advisor turned up) that changed
    the player's expected final score by ``change`` (negative: it fell), as the player saw it
    then; ``noise`` is its standard error. Nobody's choice: the move that led to ``position``
    (``played``, the replay's log entry) only set it off."""

    position: int
    change: float
    noise: float
    played: ReplayLogEntry


class PlayerSwings(BaseModel):
    seat: int
    swings: list[SwingOut] = Field(description="at most three, the costliest first")
    luck: list[LuckOut] = Field(default_factory=list, description="at most three, biggest first")
    luck_total: float = Field(
        0.0, description="the sum of all the luck steps that stood above their noise"
    )


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

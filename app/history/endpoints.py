"""A profile's history over HTTP: ``GET /api/profiles/me/history``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from app.history.schemas import HistoryOut
from app.history.service import HISTORY_MAX_PAGE, HISTORY_PAGE, HistoryService
from app.parts import provided
from app.profiles.deps import ProfileId

router = APIRouter(tags=["history"])


history_service = provided(HistoryService)


History = Annotated[HistoryService, Depends(history_service)]


@router.get("/api/profiles/me/history", response_model=HistoryOut)
async def my_history(
    profile_id: ProfileId,
    history: History,
    offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=HISTORY_MAX_PAGE)] = HISTORY_PAGE,
    with_bots: bool = False,
) -> HistoryOut:
    """My finished games, newest first, `limit` (20 by default, at most 100) from `offset`
    (`next_offset` continues; `null`: that was the last), each with its replay id, players and
    my score and rank; and over all of them: the average score by player count, the solo scores
    against Victoria by building start value, and every score in order for a chart. A game a
    bot played my seat in (for part or all of it) is marked `bot_played`; the figures leave
    such games out unless `with_bots=true`."""
    return await history.history(profile_id, offset, limit, with_bots)

"""Pace routes: the host pauses and resumes a turn-based table's clock (vacation)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from app.parts import provided
from app.profiles.deps import ProfileId
from app.tables.answers import LobbyAnswer
from app.tables.schemas import LobbyOut, TableIdPath
from app.tables.vacation import PaceService

router = APIRouter(prefix="/api/tables", tags=["pace"])


pace_service = provided(PaceService)


Pace = Annotated[PaceService, Depends(pace_service)]


@router.post("/{table_id}/clock/pause", response_model=LobbyOut)
async def pause(table_id: TableIdPath, profile_id: ProfileId, pace: Pace) -> LobbyAnswer:
    """Host only, turn-based tables: stop every seat's clock (paused time is not counted)."""
    return await pace.pause(profile_id, table_id)


@router.post("/{table_id}/clock/resume", response_model=LobbyOut)
async def resume(table_id: TableIdPath, profile_id: ProfileId, pace: Pace) -> LobbyAnswer:
    """Host only: the clock runs again from now."""
    return await pace.resume(profile_id, table_id)

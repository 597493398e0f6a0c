"""Solo play against Victoria: start a game, read the record sheet."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from app.parts import provided
from app.profiles.deps import ProfileId
from app.profiles.limit import limit
from app.ratelimit import LimitName
from app.solo.schemas import SoloIn, SoloSheetOut, SoloStartOut
from app.solo.service import SoloService

router = APIRouter(tags=["solo"])


solo_service = provided(SoloService)


Solo = Annotated[SoloService, Depends(solo_service)]


@router.post(
    "/api/solo",
    status_code=201,
    response_model=SoloStartOut,
    dependencies=[Depends(limit(LimitName.TABLE_CREATE))],
)
async def start_solo(body: SoloIn, profile_id: ProfileId, solo: Solo) -> SoloStartOut:
    """Create and start a solo table; an unfinished campaign game is resumed instead. A solo
    table is a table: it counts against the same creation limits as `POST /api/tables`."""
    return await solo.start(profile_id, body.mode, body.building_start)


@router.get("/api/profiles/me/solo", response_model=SoloSheetOut)
async def my_solo(profile_id: ProfileId, solo: Solo) -> SoloSheetOut:
    """The record sheet: campaign (next start, result, games in order), best score per start
    value, every solo result (newest first) and the unfinished solo games."""
    return await solo.sheet(profile_id)

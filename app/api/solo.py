"""Solo play against Victoria: start a game, read the record sheet."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Request
from pydantic import BaseModel, ConfigDict

from app.api.deps import ProfileId
from app.solo.service import SoloRecorder, SoloService

router = APIRouter(tags=["solo"])


class SoloIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    mode: Literal["campaign", "high_score"]
    # High score: any value the engine accepts (15 hard … 40 easy suggested); empty = the top
    # event card's value. Campaign: must be empty, the campaign decides.
    building_start: int | None = None


def solo_service(request: Request) -> SoloService:
    return request.app.state.solo  # type: ignore[no-any-return]


Solo = Annotated[SoloService, Depends(solo_service)]


@router.post("/api/solo", status_code=201)
async def start_solo(body: SoloIn, profile_id: ProfileId, solo: Solo) -> dict[str, Any]:
    """Create and start a solo table; an unfinished campaign game is resumed instead."""
    return await solo.start(profile_id, body.mode, body.building_start)


@router.get("/api/profiles/me/solo")
async def my_solo(profile_id: ProfileId, solo: Solo) -> dict[str, Any]:
    """The record sheet: campaign (next start, result, games in order), best score per start
    value, every solo result (newest first) and the unfinished solo games."""
    return await solo.sheet(profile_id)


def install(app: FastAPI) -> None:
    """Wire solo play into an app built by ``create_app``: service, recorder, routes."""
    solo = SoloService(app.state.db, app.state.service)
    app.state.solo = solo
    app.state.hub.relays.append(SoloRecorder(solo))
    app.include_router(router)

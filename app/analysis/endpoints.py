"""Analysis after the game over HTTP (docs/analysis.md). Thin: parse, call the service."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from app.analysis.schemas import AnalysisOut
from app.analysis.service import AnalysisService
from app.parts import provided
from app.profiles.deps import MaybeProfileId
from app.profiles.limit import limit
from app.ratelimit import LimitName
from app.ratelimit.deps import client_keys
from app.records.endpoints import ReplayIdPath, may_see_replay

router = APIRouter(tags=["analysis"])


analysis_service = provided(AnalysisService)


Analysis = Annotated[AnalysisService, Depends(analysis_service)]


@router.post(
    "/api/replays/{replay_id}/analysis",
    response_model=AnalysisOut,
    dependencies=[
        Depends(limit(LimitName.INVITE, exempt=may_see_replay)),
        Depends(limit(LimitName.ANALYSIS_REQUEST)),
    ],
)
async def request_analysis(
    request: Request, replay_id: ReplayIdPath, profile_id: MaybeProfileId, analysis: Analysis
) -> AnalysisOut:
    """Ask for the bot's analysis of a finished game (idempotent: an analysis asked for before,
    or done already, is the one answered). Whoever may see the replay may ask; a game not over
    has none (`409 not_finished`); a game longer than the analysis covers is
    `422 analysis_too_long`. A profile or client address with as many analyses waiting as one
    may gets `429 analysis_queue_full` (nothing queued); the queue serves requesters in turn."""
    address = client_keys(request, None)[0]
    return await analysis.request(profile_id, replay_id, address)


@router.get(
    "/api/replays/{replay_id}/analysis",
    response_model=AnalysisOut,
    dependencies=[Depends(limit(LimitName.INVITE, exempt=may_see_replay))],
)
async def read_analysis(
    replay_id: ReplayIdPath, profile_id: MaybeProfileId, analysis: Analysis
) -> AnalysisOut:
    """How far the analysis is (`done` of `total` positions), every analysed position's expected
    final scores, and, once done, each player's three biggest swings in words-ready form."""
    return await analysis.read(profile_id, replay_id)

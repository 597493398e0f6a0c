"""Since-you-looked routes: a seat's person marks the version they saw and asks what changed
after it (app/seen/service.py)."""

from __future__ import annotations

from fastapi import APIRouter

from app.seen.schemas import SeenIn, SeenOut, SinceOut
from app.seen.service import Seen
from app.seen.shapes import SinceDoc
from app.tables.deps import SeatViewer, Service

router = APIRouter(prefix="/api/tables", tags=["tables"])


@router.post("/{table_id}/seen", response_model=SeenOut)
async def seen(body: SeenIn, viewer: SeatViewer, svc: Service) -> SeenOut:
    """Record that the caller has seen version `version` of the game at their own seat. The mark
    only moves forward; a version the table has not reached is `409 stale_version`."""
    return await Seen(svc.db).mark(viewer, body.version)


@router.get("/{table_id}/since", response_model=SinceOut)
async def since(viewer: SeatViewer, svc: Service) -> SinceDoc:
    """What changed for the caller's seat since the version it last saw: the changed board
    elements, a summary per other player, and the versions of the new log entries."""
    return await Seen(svc.db).since(viewer)

"""Since-you-looked routes: a seat's person marks the version they saw and asks what changed
after it (app/seen/service.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.profiles.deps import ProfileId
from app.seen.schemas import SeenIn, SeenOut, SinceOut
from app.seen.service import Seen
from app.tables.deps import Service
from app.tables.schemas import TableIdPath

router = APIRouter(prefix="/api/tables", tags=["tables"])


@router.post("/{table_id}/seen", response_model=SeenOut)
async def seen(
    table_id: TableIdPath, body: SeenIn, profile_id: ProfileId, svc: Service
) -> dict[str, Any]:
    """Record that the caller has seen version `version` of the game at their own seat. The mark
    only moves forward; a version the table has not reached is `409 stale_version`."""
    viewer = await svc.viewer(profile_id, table_id, None)
    return await Seen(svc.db).mark(viewer, body.version)


@router.get("/{table_id}/since", response_model=SinceOut)
async def since(table_id: TableIdPath, profile_id: ProfileId, svc: Service) -> dict[str, Any]:
    """What changed for the caller's seat since the version it last saw: the changed board
    elements, a summary per other player, and the versions of the new log entries."""
    viewer = await svc.viewer(profile_id, table_id, None)
    return await Seen(svc.db).since(viewer)

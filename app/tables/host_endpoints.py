"""The host's acts on the people at their table: remove a person from the lobby, hand the host
role to another seat (app/tables/host.py). Both answer the lobby."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from pydantic import Field

from app.profiles.deps import ProfileId
from app.profiles.limit import limit
from app.ratelimit import LimitName
from app.strict import Strict
from app.tables.answers import LobbyAnswer
from app.tables.deps import Service
from app.tables.schemas import LobbyOut, SeatPath, TableIdPath

router = APIRouter(prefix="/api/tables", tags=["tables"])
HOST_LIMIT = [Depends(limit(LimitName.HOST_ACTS))]


class HostIn(Strict):
    """The seat of the person who becomes the host."""

    seat: int = Field(ge=0, le=3)


@router.post("/{table_id}/seats/{seat}/remove", response_model=LobbyOut, dependencies=HOST_LIMIT)
async def remove(
    table_id: TableIdPath, seat: SeatPath, profile_id: ProfileId, svc: Service
) -> LobbyAnswer:
    """Host only, before the start: the person at this seat leaves the table and cannot join it
    again with its link (nor look at it) unless the host invites them again."""
    return await svc.remove_person(profile_id, table_id, int(seat))


@router.post("/{table_id}/host", response_model=LobbyOut, dependencies=HOST_LIMIT)
async def hand_host(
    table_id: TableIdPath, body: HostIn, profile_id: ProfileId, svc: Service
) -> LobbyAnswer:
    """Host only, in the lobby or during the game: the person at `seat` becomes the host."""
    return await svc.hand_host(profile_id, table_id, body.seat)

"""The table service as a FastAPI dependency (the one ``create_app`` built), who needs no
invite code at a table, the two limits of a table's routes — every invite code is read
through the guessing limit (``Invite``), and moves over HTTP have a rate per profile
(``MOVE_RATE``) — and the caller as a table-scoped route sees them (``TableViewer``,
``SeatViewer``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Query, Request

from app.parts import provided
from app.profiles.deps import MaybeProfileId, ProfileId
from app.profiles.limit import limit
from app.ratelimit import LimitName
from app.ratelimit.deps import limiter_of
from app.tables.schemas import TableIdPath
from app.tables.service import TableService
from app.tables.types import Viewer

table_service = provided(TableService)
Service = Annotated[TableService, Depends(table_service)]


async def seated_at_table(request: Request, profile_id: str | None) -> bool:
    """The caller holds a seat at the table of the path (``{table_id}``): its look needs no
    invite code, so no guessing limit applies to it (app/ratelimit/deps.py ``exempt``)."""
    table_id = request.path_params.get("table_id")
    if profile_id is None or not isinstance(table_id, str):
        return False
    service = await table_service(request)
    return await service.holds_seat(profile_id, table_id)


# The guessing limit of a table's routes: refused look-ups (no such table, wrong invite code)
# count per address, profile and table; a player at their own table is never refused. One
# dependency object, so a route that names it twice is counted once.
invite_guess = limit(LimitName.INVITE, exempt=seated_at_table)
INVITE_GUESS = Depends(invite_guess)


async def invite_code(
    _: Annotated[None, INVITE_GUESS],
    invite: Annotated[
        str | None, Query(max_length=64, description="the table's invite code")
    ] = None,
) -> str | None:
    """The ``?invite=`` code of the request, read only through the guessing limit."""
    return invite


# A route's invite code: the only way a route reads ``?invite=`` (checked, counted when wrong).
Invite = Annotated[str | None, Depends(invite_code)]


async def table_viewer(
    table_id: TableIdPath, profile_id: MaybeProfileId, svc: Service, invite: Invite
) -> Viewer:
    """The caller at the table of the path, judged at this request: their seat, or a spectator
    by the invite code (read through the guessing limit), or 404 for anyone else."""
    return await svc.viewer(profile_id, table_id, invite)


async def seat_viewer(table_id: TableIdPath, profile_id: ProfileId, svc: Service) -> Viewer:
    """The signed-in caller at the table of the path, by their own seat alone (no invite)."""
    return await svc.viewer(profile_id, table_id, None)


# The one way a table-scoped route learns who is asking: the session, the table, the invite
# code and its limit in one dependency, checked at the moment of the request.
TableViewer = Annotated[Viewer, Depends(table_viewer)]
SeatViewer = Annotated[Viewer, Depends(seat_viewer)]


async def move_rate(request: Request, profile_id: ProfileId) -> None:
    """Moves over HTTP per profile (``EMARA_RATE_HTTP_MOVES``): the socket's token bucket in
    spirit, so that a flood of moves costs the same by either way in."""
    await limiter_of(request).check(LimitName.MOVE, [f"profile:{profile_id}"])


marked: Any = move_rate
marked.rate_limit_name = LimitName.MOVE.value  # the OpenAPI document lists a 429 for the route
MOVE_RATE = Depends(move_rate)

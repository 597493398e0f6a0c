"""Protect yourself at a table: report a chat message or a name to the operator, block the
person behind a message or a seat. Whoever may look at the table (its seats; spectators with
the invite code where the table allows them)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Response

from app.blocks.schemas import BlockOut
from app.parts import provided
from app.profiles.deps import ProfileId
from app.profiles.limit import limit
from app.ratelimit import LimitName
from app.safety.schemas import ReportIn, ReportOut, SubjectIn
from app.safety.service import Safety
from app.tables.deps import Invite
from app.tables.schemas import TableIdPath

router = APIRouter(prefix="/api/tables", tags=["protect yourself"])


safety = provided(Safety)


Service = Annotated[Safety, Depends(safety)]


@router.post(
    "/{table_id}/reports",
    response_model=ReportOut,
    status_code=201,
    dependencies=[Depends(limit(LimitName.REPORT))],
)
async def report(
    table_id: TableIdPath, body: ReportIn, profile_id: ProfileId, svc: Service, invite: Invite
) -> ReportOut:
    """Report a chat message (`message_id`) or the name of the person at `seat` to the operator,
    with a `reason` and optional words (`note`). The report keeps the message and the name as
    they are now. Nobody but the operator learns who reported."""
    return await svc.report(profile_id, table_id, invite, body)


@router.post(
    "/{table_id}/blocks",
    response_model=BlockOut,
    status_code=201,
    dependencies=[Depends(limit(LimitName.BLOCK))],
)
async def block(
    table_id: TableIdPath,
    body: SubjectIn,
    profile_id: ProfileId,
    svc: Service,
    invite: Invite,
    response: Response,
) -> BlockOut:
    """Block the writer of a chat message (`message_id`) or the person at `seat`, as `POST
    /api/me/blocks` does: `201`, or `200` when already blocked."""
    out = await svc.block(profile_id, table_id, invite, body)
    if not out.created:
        response.status_code = 200
    return out.out()

"""Play-again routes: people I play with, a rematch, invitations to a table, and my answers."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Response

from app.invitations.schemas import (
    BlockedOut,
    InvitationIdPath,
    InviteIn,
    MyInvitationsOut,
    PeopleOut,
    ProfileIdPath,
    RematchOut,
    TableInvitationsOut,
)
from app.invitations.service import Invitations
from app.parts import provided
from app.profiles.deps import ProfileId
from app.profiles.limit import limit
from app.ratelimit import LimitName
from app.tables.answers import LobbyAnswer
from app.tables.schemas import LobbyOut, TableIdPath

router = APIRouter(tags=["play again"])


invitations = provided(Invitations)


Service = Annotated[Invitations, Depends(invitations)]
HOST_LIMIT = [Depends(limit(LimitName.HOST_ACTS))]
# Answering costs nothing; guessing another person's invitation ids (404s) does.
GUESS_LIMIT = [Depends(limit(LimitName.INVITE))]


@router.get("/api/me/people", response_model=PeopleOut)
async def people(profile_id: ProfileId, svc: Service, response: Response) -> PeopleOut:
    """The people I have sat at a table with, latest first (at most 50): the only people I can
    invite without a link. Nobody else can be found here."""
    response.headers["Cache-Control"] = "private, no-store"
    return PeopleOut(people=await svc.people(profile_id))


@router.get("/api/me/invitations", response_model=MyInvitationsOut)
async def my_invitations(
    profile_id: ProfileId, svc: Service, response: Response
) -> MyInvitationsOut:
    """Invitations waiting for my answer (rematches and hosts' invitations), newest first."""
    response.headers["Cache-Control"] = "private, no-store"
    return MyInvitationsOut(invitations=await svc.mine(profile_id))


@router.post(
    "/api/tables/{table_id}/rematch",
    response_model=RematchOut,
    dependencies=HOST_LIMIT,
)
async def rematch(table_id: TableIdPath, profile_id: ProfileId, svc: Service) -> RematchOut:
    """A player of a finished game asks to play again: a new table with the same options and
    name, the asker as its host, the table's bots in their seats, and every other player invited
    to their old seat. Asked again (by anyone): the same rematch table."""
    return await svc.rematch(profile_id, table_id)


@router.get(
    "/api/tables/{table_id}/invitations",
    response_model=TableInvitationsOut,
    dependencies=GUESS_LIMIT,
)
async def table_invitations(
    table_id: TableIdPath, profile_id: ProfileId, svc: Service
) -> TableInvitationsOut:
    """Who was invited to this table and how they answered (its seats and invitees only)."""
    return TableInvitationsOut(
        table_id=table_id, invitations=await svc.of_table(profile_id, table_id)
    )


@router.post(
    "/api/tables/{table_id}/invitations",
    response_model=TableInvitationsOut,
    status_code=201,
    dependencies=HOST_LIMIT,
)
async def invite(
    table_id: TableIdPath, body: InviteIn, profile_id: ProfileId, svc: Service
) -> TableInvitationsOut:
    """Host only, before the start: invite someone from my people to a free seat (kept for
    them until they answer). A stranger's id is `404`, as if nobody had it."""
    return TableInvitationsOut(
        table_id=table_id, invitations=await svc.invite(profile_id, table_id, body.profile_id)
    )


@router.delete(
    "/api/tables/{table_id}/invitations/{invitation_id}",
    response_model=TableInvitationsOut,
    dependencies=HOST_LIMIT,
)
async def withdraw(
    table_id: TableIdPath, invitation_id: InvitationIdPath, profile_id: ProfileId, svc: Service
) -> TableInvitationsOut:
    """Host only: take back an invitation nobody answered yet (its seat is free again)."""
    out = await svc.withdraw(profile_id, table_id, invitation_id)
    return TableInvitationsOut(table_id=table_id, invitations=out)


@router.post(
    "/api/invitations/{invitation_id}/accept", response_model=LobbyOut, dependencies=GUESS_LIMIT
)
async def accept(
    invitation_id: InvitationIdPath, profile_id: ProfileId, svc: Service
) -> LobbyAnswer:
    """The invited person takes their seat (another free one if theirs was filled meanwhile)."""
    return await svc.accept(profile_id, invitation_id)


@router.post("/api/invitations/{invitation_id}/decline", status_code=204, dependencies=GUESS_LIMIT)
async def decline(invitation_id: InvitationIdPath, profile_id: ProfileId, svc: Service) -> Response:
    """The invited person says no: their seat is free for a link or a bot."""
    await svc.decline(profile_id, invitation_id)
    return Response(status_code=204)


@router.post("/api/invitations/{invitation_id}/block", status_code=204, dependencies=GUESS_LIMIT)
async def block(invitation_id: InvitationIdPath, profile_id: ProfileId, svc: Service) -> Response:
    """The invited person takes no more invitations from whoever sent this one: it and every
    other one of theirs still waiting is declined; that person's later invitations (and
    rematches) are refused with `invitation_not_wanted`, the answer a recent "no" gets too."""
    await svc.block(profile_id, invitation_id)
    return Response(status_code=204)


@router.get("/api/me/invitation-blocks", response_model=BlockedOut)
async def blocked(profile_id: ProfileId, svc: Service, response: Response) -> BlockedOut:
    """The people I take no invitations from, latest first (at most 200)."""
    response.headers["Cache-Control"] = "private, no-store"
    return BlockedOut(blocked=await svc.blocks(profile_id))


@router.delete("/api/me/invitation-blocks/{other_id}", status_code=204)
async def unblock(other_id: ProfileIdPath, profile_id: ProfileId, svc: Service) -> Response:
    """Invitations from this person are welcome again (204 whether or not they were blocked)."""
    await svc.unblock(profile_id, other_id)
    return Response(status_code=204)

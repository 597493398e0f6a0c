"""Tables: create, look, join, leave, start, list; the game: state and moves.

Thin: parse, authorise (the caller's profile), call the service, render the response model.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from app.profiles.deps import MaybeProfileId, ProfileId
from app.profiles.limit import limit
from app.ratelimit import LimitName
from app.tables.answers import GameAnswer, LobbyAnswer, LogPage, MoveAnswer
from app.tables.deps import INVITE_GUESS, MOVE_RATE, Invite, Service, TableViewer
from app.tables.explain import ExplainAnswer
from app.tables.explain_schemas import ExplainOut
from app.tables.preview_schemas import TablePreviewOut
from app.tables.schemas import (
    GameOut,
    JoinIn,
    LobbyOut,
    LogPageOut,
    MoveIn,
    MoveOut,
    NameIn,
    TableIdPath,
    TableIn,
    TablesOut,
)

router = APIRouter(prefix="/api/tables", tags=["tables"])

LOG_PAGE = 50  # log lines of GET …/log by default
LOG_MAX_PAGE = 200  # the most one GET …/log (or ``log_tail`` of GET …/game) hands back


@router.post(
    "",
    status_code=201,
    response_model=LobbyOut,
    dependencies=[Depends(limit(LimitName.TABLE_CREATE))],
)
async def create_table(body: TableIn, profile_id: ProfileId, svc: Service) -> LobbyAnswer:
    """Open a private table with the caller seated as host. One seat: a solo game, started."""
    return await svc.create_table(profile_id, body.seats, body.options.doc())


@router.get("", response_model=TablesOut)
async def my_tables(profile_id: ProfileId, svc: Service) -> TablesOut:
    """The caller's open and finished tables, newest first."""
    return TablesOut(tables=await svc.my_tables(profile_id))


@router.get(
    "/{table_id}",
    response_model=LobbyOut,
)
async def table(
    table_id: TableIdPath, profile_id: MaybeProfileId, svc: Service, invite: Invite
) -> LobbyAnswer:
    """The lobby. Visible to its seats, and to anyone holding the invite code (`?invite=`)."""
    return await svc.lobby(profile_id, table_id, invite)


@router.post(
    "/{table_id}/join",
    response_model=LobbyOut,
    dependencies=[INVITE_GUESS],
)
async def join(
    table_id: TableIdPath, body: JoinIn, profile_id: ProfileId, svc: Service
) -> LobbyAnswer:
    return await svc.join(profile_id, table_id, body.invite_code, body.another_person)


@router.get("/{table_id}/preview", response_model=TablePreviewOut)
async def preview(
    table_id: TableIdPath, profile_id: MaybeProfileId, svc: Service, invite: Invite
) -> TablePreviewOut:
    """The table before a name is picked: its name, host, free seats and what a newcomer can
    do there (`door`). For its seats, anyone holding the invite code, or a finished game with a
    public replay; never an invite code or a profile id."""
    return await svc.preview(profile_id, table_id, invite)


@router.post("/{table_id}/leave", response_model=LobbyOut)
async def leave(table_id: TableIdPath, profile_id: ProfileId, svc: Service) -> LobbyAnswer:
    return await svc.leave(profile_id, table_id)


@router.post("/{table_id}/start", response_model=LobbyOut)
async def start(table_id: TableIdPath, profile_id: ProfileId, svc: Service) -> LobbyAnswer:
    """Host only, every seat taken. Deals the game from a server-side secret seed."""
    return await svc.start(profile_id, table_id)


@router.put(
    "/{table_id}/name",
    response_model=LobbyOut,
    dependencies=[Depends(limit(LimitName.HOST_ACTS))],
)
async def rename(
    table_id: TableIdPath, body: NameIn, profile_id: ProfileId, svc: Service
) -> LobbyAnswer:
    """Host only: name the table (shown in the lobby, My games and the page title); `null` or
    an empty name removes it."""
    return await svc.rename(profile_id, table_id, body.name)


@router.get(
    "/{table_id}/game",
    response_model=GameOut,
)
async def game(
    viewer: TableViewer,
    svc: Service,
    log_tail: Annotated[int | None, Query(ge=1, le=LOG_MAX_PAGE)] = None,
) -> GameAnswer:
    """`{version, view, legal_moves, log}` for the caller's seat; spectators get the public view.
    With `log_tail`, the log holds only its newest `log_tail` lines and `log_more` says whether
    older ones remain (`GET …/log` pages them)."""
    return await svc.game(viewer, log_tail)


@router.get(
    "/{table_id}/log",
    response_model=LogPageOut,
)
async def log_page(
    viewer: TableViewer,
    svc: Service,
    before: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None,
    limit: Annotated[int, Query(ge=1, le=LOG_MAX_PAGE)] = LOG_PAGE,
) -> LogPage:
    """The newest `limit` log lines (50 by default, at most 200) below version `before` when
    given, oldest first, redacted for the caller's seat; `more`: older lines remain."""
    return await svc.log_page(viewer, before, limit)


@router.get(
    "/{table_id}/explain",
    response_model=ExplainOut,
)
async def explain(viewer: TableViewer, svc: Service) -> ExplainAnswer:
    """Every piece on the board explained for the caller's seat: per board element a catalogue
    key and its values, and per legal move of the caller what it would change for them now.
    Spectators get the public notes and no moves. Computed once per table version."""
    return await svc.explain(viewer)


@router.post("/{table_id}/moves", response_model=MoveOut, dependencies=[MOVE_RATE])
async def move(
    body: MoveIn, _signed_in: ProfileId, viewer: TableViewer, svc: Service
) -> MoveAnswer:
    """Play one move. A repeated `move_id` (for the same seat) returns the first result and
    changes nothing."""
    return await svc.submit_move(viewer, body.move, body.expected_version, body.move_id)

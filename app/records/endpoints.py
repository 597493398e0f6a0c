"""Game records and replays over HTTP (docs/records.md, docs/protocol.md "Records and replays").

Thin: parse, authorise (the caller's profile), call the record service, render the response.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response

from app.parts import provided
from app.profiles.deps import MaybeProfileId, ProfileId
from app.profiles.limit import limit
from app.ratelimit import LimitName
from app.ratelimit.deps import spent_address
from app.records.bounds import MAX_RECORD_MOVES
from app.records.schemas import (
    GameRecord,
    ImportedOut,
    PositionOut,
    PublicReplayIn,
    ReplayOut,
)
from app.records.service import RecordService
from app.records.shapes import RecordDoc
from app.tables.deps import seated_at_table
from app.tables.schemas import TableIdPath

router = APIRouter(tags=["records"])

# A replay id: a finished table's id (12 characters), or an imported replay's (24).
REPLAY_ID_PATTERN = r"^[A-Za-z0-9_-]{12}(?:[A-Za-z0-9_-]{12})?$"
ReplayIdPath = Annotated[
    str, Path(pattern=REPLAY_ID_PATTERN, description="a table id, or an imported replay's id")
]
Eyes = Annotated[
    str,
    Query(
        pattern=r"^(?:all|[0-3])$",
        description="`all` (every hand open) or a seat number: whose eyes to see the game with",
    ),
]


record_service = provided(RecordService)


Records = Annotated[RecordService, Depends(record_service)]


async def may_see_replay(request: Request, profile_id: str | None) -> bool:
    """The caller sits at the table of the replay, or imported it: they guess nothing."""
    replay_id = request.path_params.get("replay_id")
    if profile_id is None or not isinstance(replay_id, str):
        return False
    service = await record_service(request)
    return await service.may_see(profile_id, replay_id)


@router.get(
    "/api/tables/{table_id}/record",
    response_model=GameRecord,
    dependencies=[Depends(limit(LimitName.INVITE, exempt=seated_at_table))],
)
async def export_record(
    table_id: TableIdPath, profile_id: MaybeProfileId, records: Records, response: Response
) -> RecordDoc:
    """The game record of a finished table (docs/records.md): to its seated players, and to
    anyone once the host made the replay public. A game that is not finished has none
    (`409 not_finished`); nobody else learns that the table exists (`404`)."""
    out = await records.export(profile_id, table_id)
    response.headers["Content-Disposition"] = f'attachment; filename="emara-{table_id}.json"'
    return out


@router.put(
    "/api/tables/{table_id}/public_replay",
    response_model=PublicReplayIn,
    dependencies=[Depends(limit(LimitName.HOST_ACTS))],
)
async def set_public_replay(
    table_id: TableIdPath, body: PublicReplayIn, profile_id: ProfileId, records: Records
) -> PublicReplayIn:
    """Host only: let anyone (`true`) or only the table's players (`false`, the default) see
    the finished game's record and replay. The table option `public_replay` holds it."""
    public = await records.set_public(profile_id, table_id, body.public_replay)
    return PublicReplayIn(public_replay=public)


@router.post(
    "/api/records",
    status_code=201,
    response_model=ImportedOut,
    dependencies=[Depends(limit(LimitName.RECORD_IMPORT))],
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/GameRecord"}}
            },
        }
    },
)
async def import_record(
    request: Request, profile_id: ProfileId, records: Records, response: Response
) -> ImportedOut:
    """Import a game record: it is replayed through the rules engine and stored as a replay the
    caller owns only when every move replays exactly and its outcome is the replayed one. A
    game the caller imported before is that replay again (`200` instead of `201`).
    Refusals change nothing: `unsupported_format`, `malformed`, `rules_mismatch`, `bad_record`,
    `record_too_long` (with `limit`), `bad_move` (with `move_index` and `reason`;
    `undo_in_record` for an `undo`), `record_unfinished`, `outcome_mismatch`."""
    out, new = await records.import_body(profile_id, await request.body())
    if not new:
        response.status_code = 200
    return out


# A replay read: misses (no such replay, not yours) count as guesses; every read counts too.
# An address past its reads is refused first, before its session is even read.
REPLAY_LIMITS = [
    Depends(spent_address(LimitName.REPLAY_READ)),
    Depends(limit(LimitName.INVITE, exempt=may_see_replay)),
    Depends(limit(LimitName.REPLAY_READ)),
]


def _json(body: bytes) -> Response:
    """Bytes encoded (and checked against the route's model) once, in a worker thread."""
    return Response(content=body, media_type="application/json")


@router.get("/api/replays/{replay_id}", response_model=ReplayOut, dependencies=REPLAY_LIMITS)
async def replay(
    replay_id: ReplayIdPath,
    profile_id: MaybeProfileId,
    records: Records,
    eyes: Eyes = "all",
    offset: Annotated[
        int, Query(ge=0, le=MAX_RECORD_MOVES, description="the page's first position")
    ] = 0,
    page_limit: Annotated[
        int | None,
        Query(
            alias="limit",
            ge=1,
            le=MAX_RECORD_MOVES + 1,
            description="positions in the page (at most EMARA_REPLAY_PAGE_MAX, the default)",
        ),
    ] = None,
) -> Response:
    """A replay's players, options and outcome, the number of positions, and one page of
    positions from `offset`: the log entry of each (events seen with `eyes`, the move with
    the engine's summary) and both score tracks of every player there. `next_offset`
    continues (`null`: the last page)."""
    return _json(await records.replay_page(profile_id, replay_id, eyes, offset, page_limit))


@router.get(
    "/api/replays/{replay_id}/positions/{n}",
    response_model=PositionOut,
    dependencies=REPLAY_LIMITS,
)
async def position(
    replay_id: ReplayIdPath,
    n: Annotated[int, Path(ge=0, le=MAX_RECORD_MOVES, description="0: the deal; n: after move n")],
    profile_id: MaybeProfileId,
    records: Records,
    eyes: Eyes = "all",
) -> Response:
    """The game at position `n` through one seat's eyes (that seat's own view then), or
    everyone's (`all`: the public view with every hand open in `hands`)."""
    return _json(await records.position(profile_id, replay_id, n, eyes))

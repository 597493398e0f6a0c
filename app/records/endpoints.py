"""Game records and replays over HTTP (docs/records.md, docs/protocol.md "Records and replays").

Thin: parse, authorise (the caller's profile), call the record service, render the response.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, Response

from app.errors import Malformed
from app.profiles.deps import MaybeProfileId, ProfileId
from app.profiles.limit import limit
from app.ratelimit import LimitName
from app.records.schemas import (
    MAX_MOVES,
    GameRecord,
    ImportedOut,
    PositionOut,
    PublicReplayIn,
    ReplayOut,
)
from app.records.service import RecordService
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


async def record_service(request: Request) -> RecordService:
    service: RecordService = request.app.state.records
    return service


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
) -> dict[str, Any]:
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
) -> dict[str, Any]:
    """Host only: let anyone (`true`) or only the table's players (`false`, the default) see
    the finished game's record and replay. The table option `public_replay` holds it."""
    public = await records.set_public(profile_id, table_id, body.public_replay)
    return {"public_replay": public}


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
    request: Request, profile_id: ProfileId, records: Records
) -> dict[str, Any]:
    """Import a game record: it is replayed through the rules engine and stored as a replay the
    caller owns only when every move replays exactly and its outcome is the replayed one.
    Refusals change nothing: `unsupported_format`, `malformed`, `rules_mismatch`, `bad_record`,
    `bad_move` (with `move_index` and `reason`), `record_unfinished`, `outcome_mismatch`."""
    try:
        body = json.loads(await request.body())
    except ValueError as exc:  # not JSON, or not UTF-8
        raise Malformed("the body is not JSON") from exc
    if not isinstance(body, dict):
        raise Malformed("a record is a JSON object")
    return await records.import_record(profile_id, body)


@router.get(
    "/api/replays/{replay_id}",
    response_model=ReplayOut,
    dependencies=[Depends(limit(LimitName.INVITE, exempt=may_see_replay))],
)
async def replay(
    replay_id: ReplayIdPath, profile_id: MaybeProfileId, records: Records, eyes: Eyes = "all"
) -> dict[str, Any]:
    """A replay's players, options and outcome, the number of positions, the whole log (events
    seen with `eyes`, each move with the engine's summary) and both score tracks of every
    player at every position."""
    return await records.replay(profile_id, replay_id, eyes)


@router.get(
    "/api/replays/{replay_id}/positions/{n}",
    response_model=PositionOut,
    dependencies=[Depends(limit(LimitName.INVITE, exempt=may_see_replay))],
)
async def position(
    replay_id: ReplayIdPath,
    n: Annotated[int, Path(ge=0, le=MAX_MOVES, description="0: the deal; n: after move n")],
    profile_id: MaybeProfileId,
    records: Records,
    eyes: Eyes = "all",
) -> dict[str, Any]:
    """The game at position `n` through one seat's eyes (that seat's own view then), or
    everyone's (`all`: the public view with every hand open in `hands`)."""
    return await records.position(profile_id, replay_id, n, eyes)

"""My games: ``GET /api/me/tables`` (ETag / If-None-Match) and ``GET /api/me/events`` (SSE)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response, StreamingResponse
from pydantic import TypeAdapter

from app.errors import AppError
from app.mygames.events import MeFeed
from app.mygames.schemas import MyFinishedOut, MyTablesOut
from app.mygames.service import FINISHED_MAX_PAGE, FINISHED_PAGE, MyGames
from app.parts import provided
from app.profiles.deps import ProfileId, SessionId

router = APIRouter(prefix="/api/me", tags=["my games"])


class NotAcceptable(AppError):
    status = 406
    code = "not_acceptable"


my_games = provided(MyGames)


me_feed = provided(MeFeed)


Games = Annotated[MyGames, Depends(my_games)]
Feed = Annotated[MeFeed, Depends(me_feed)]
# ``GET /tables`` answers with a Response of its own (for the ETag): its body is checked here.
TABLES: TypeAdapter[MyTablesOut] = TypeAdapter(MyTablesOut)


@router.get("/tables", response_model=MyTablesOut, responses={304: {"description": "unchanged"}})
async def my_tables(request: Request, profile_id: ProfileId, games: Games) -> Any:
    """The tables I sit at: my turn first (soonest deadline first), then the others in play,
    lobbies (the 200 most recently changed open tables), and the 20 latest finished games (with
    my place; `finished_next` continues them). ``waiting``: tables waiting for me."""
    out = await games.tables(profile_id)
    etag = f'"{out["etag"]}"'
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers={"ETag": etag})
    body = TABLES.dump_json(TABLES.validate_python(out))
    return Response(
        body,
        media_type="application/json",
        headers={"ETag": etag, "Cache-Control": "private, no-cache"},
    )


@router.get("/tables/finished", response_model=MyFinishedOut)
async def my_finished_tables(
    profile_id: ProfileId,
    games: Games,
    after: Annotated[str, Query(min_length=1, max_length=64)],
    limit: Annotated[int, Query(ge=1, le=FINISHED_MAX_PAGE)] = FINISHED_PAGE,
) -> MyFinishedOut:
    """More of my finished tables: the `limit` (20 by default, at most 100) that follow table
    `after` in the list (`finished_next` of `GET /api/me/tables`, or `next` of the page before);
    `next` continues, `null` when that was the last."""
    return await games.finished_page(profile_id, after, limit)


@router.get("/events", response_class=StreamingResponse)
async def my_events(
    request: Request, profile_id: ProfileId, session_id: SessionId, feed: Feed
) -> StreamingResponse:
    """Server-sent events: ``tables`` when something changed at one of my tables. Only for a
    client that asks for them (``Accept: text/event-stream``, as EventSource does): anything
    else gets 406 rather than a response that never ends."""
    if "text/event-stream" not in request.headers.get("accept", ""):
        raise NotAcceptable("this is an event stream: send Accept: text/event-stream")
    q = feed.open(profile_id, session_id)
    return StreamingResponse(
        feed.stream(profile_id, q, session_id),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )

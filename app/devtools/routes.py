"""A route for the test suite's servers in processes of their own, mounted only when the setting
``EMARA_DEVTOOLS_ROUTES`` is on (never on a public server) and answered to loopback clients only.

``POST /api/devtools/tables/{table_id}/play_out`` plays the started game of the table to its end
(or ``stop_after`` moves) with the engine, in the server's own process, and stores it as the
server would (app/devtools/finished.py): the browser tests that need a finished game ask for one
in a single request instead of playing some 600 requests over HTTP. The server's memory of the
table and its sockets hear of it as after a move.
"""

from __future__ import annotations

from functools import partial

from anyio import from_thread, to_thread
from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.devtools.finished import NotStarted, play_out
from app.errors import NotFound, WrongStatus
from app.metrics.access import loopback
from app.parts import Parts
from app.strict import Strict
from app.tables.schemas import TableIdPath
from app.tables.service import TableService

router = APIRouter(include_in_schema=False)


class PlayOutIn(Strict):
    seed: int = Field(default=0, ge=0, le=2**31)
    stop_after: int | None = Field(default=None, ge=1, le=10_000)


class PlayOutOut(BaseModel):
    version: int


@router.post("/api/devtools/tables/{table_id}/play_out", response_model=PlayOutOut)
async def play_out_route(request: Request, table_id: TableIdPath, body: PlayOutIn) -> PlayOutOut:
    if not loopback(request):
        raise NotFound("not found")
    service = Parts.of(request.app).get(TableService)
    work = partial(
        play_out, service, table_id, body.seed, body.stop_after, on_loop=from_thread.run_sync
    )
    try:
        version = await to_thread.run_sync(work)
    except NotStarted as exc:
        raise WrongStatus(str(exc)) from exc
    return PlayOutOut(version=version)

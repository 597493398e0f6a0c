"""``GET /metrics`` (Prometheus text; loopback or the operator's token, app/metrics/access.py)
and ``GET /api/ready`` (the database answers: this instance can serve)."""

from __future__ import annotations

from anyio import to_thread
from fastapi import APIRouter, Request, Response

from app.errors import Unavailable
from app.metrics import access, readings
from app.metrics.exposition import CONTENT_TYPE, Scrape, text_of
from app.tables.schemas import HealthOut

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    state = request.app.state
    access.allow(request, state.settings.metrics_token)
    loop = readings.on_loop(state)
    rows = await to_thread.run_sync(readings.count_rows, state.db)
    scrape = Scrape(state.move_tally, state.limit_tally, loop, rows)
    body = text_of(scrape)  # on the loop, where the tallies change: a consistent read
    return Response(body, media_type=CONTENT_TYPE, headers={"Cache-Control": "no-store"})


@router.get(
    "/api/ready",
    tags=["health"],
    response_model=HealthOut,
)
async def ready(request: Request) -> HealthOut:
    """Ready to serve: the database answers a query (``/api/health`` only says the process
    runs)."""
    db = request.app.state.db
    try:
        await to_thread.run_sync(db.ping)
    except Exception as exc:
        raise Unavailable("the database does not answer") from exc
    return HealthOut(status="ok", database=db.engine.dialect.name)

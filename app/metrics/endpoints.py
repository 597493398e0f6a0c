"""``GET /metrics`` (Prometheus text; loopback or the operator's token, app/metrics/access.py)
and ``GET /api/ready`` (the database answers: this instance can serve)."""

from __future__ import annotations

from typing import Annotated

from anyio import to_thread
from fastapi import APIRouter, Depends, Request, Response

from app.db.session import Database
from app.errors import Unavailable
from app.metrics import access, readings
from app.metrics.exposition import CONTENT_TYPE, Scrape, text_of
from app.parts import Parts, provided
from app.ratelimit import RateLimiter
from app.tables.schemas import HealthOut
from app.tables.service import TableService

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    parts = Parts.of(request.app)
    access.allow(request, parts.settings.metrics_token)
    loop = readings.on_loop(parts)
    rows = await to_thread.run_sync(readings.count_rows, parts.get(Database))
    moves, limits = parts.get(TableService).play.tally, parts.get(RateLimiter).tally
    scrape = Scrape(moves, limits, loop, rows)
    body = text_of(scrape)  # on the loop, where the tallies change: a consistent read
    return Response(body, media_type=CONTENT_TYPE, headers={"Cache-Control": "no-store"})


@router.get(
    "/api/ready",
    tags=["health"],
    response_model=HealthOut,
)
async def ready(db: Annotated[Database, Depends(provided(Database))]) -> HealthOut:
    """Ready to serve: the database answers a query (``/api/health`` only says the process
    runs)."""
    try:
        await to_thread.run_sync(db.ping)
    except Exception as exc:
        raise Unavailable("the database does not answer") from exc
    return HealthOut(status="ok", database=db.engine.dialect.name)


@router.get("/api/health", tags=["health"], response_model=HealthOut)
async def health(db: Annotated[Database, Depends(provided(Database))]) -> HealthOut:
    """Liveness: the process answers (the database is not asked: /api/ready does)."""
    return HealthOut(status="ok", database=db.engine.dialect.name)

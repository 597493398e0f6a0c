"""Solo games plugged in: a solo game's result is recorded in the transaction of the move that
ends it."""

from __future__ import annotations

from app.parts import Parts
from app.plug import Core, Feature
from app.solo import endpoints
from app.solo.service import SoloService
from app.tables.service import TableService


def plug(core: Core, parts: Parts) -> Feature:
    service = parts.get(TableService)
    solo = SoloService(core.db, service)
    service.play.finish_hooks.append(solo.record_in)
    return Feature("solo", parts={"solo": solo}, routers=[endpoints.router])

"""A profile's finished games plugged in."""

from __future__ import annotations

from app.history import endpoints
from app.history.service import HistoryService
from app.parts import Parts
from app.plug import Core, Feature


def plug(core: Core, parts: Parts) -> Feature:
    history = HistoryService(core.db)
    return Feature("history", parts={"history": history}, routers=[endpoints.router])

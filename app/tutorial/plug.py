"""The guided first game plugged in."""

from __future__ import annotations

from app.bots.runner import BotRunner
from app.bots.service import BotSeats
from app.parts import Parts
from app.plug import Core, Feature
from app.tables.service import TableService
from app.tutorial import endpoints
from app.tutorial.service import Tutorial


def plug(core: Core, parts: Parts) -> Feature:
    tutorial = Tutorial(core.db, parts.get(TableService), parts.get(BotSeats), parts.get(BotRunner))
    return Feature("tutorial", parts={"tutorial": tutorial}, routers=[endpoints.router])

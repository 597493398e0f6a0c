"""Bots plugged in: bot seats (a reclaim restarts the move's clock) and the runner that plays
them (games bots play alone share a CPU budget per process, app/bots/runner.py)."""

from __future__ import annotations

from app.bots import endpoints
from app.bots.runner import BotRunner
from app.bots.service import BotSeats
from app.parts import Parts
from app.plug import Core, Feature, Work
from app.tables.service import TableService
from app.tables.vacation import PaceService


def plug(core: Core, parts: Parts) -> Feature:
    s = core.settings
    service = parts.get(TableService)
    seats = BotSeats(core.db, core.hub, service.locks, core.clock, s.bot_unattended_per_profile)
    seats.reclaim_hooks.append(parts.get(PaceService).on_reclaim)
    runner = BotRunner(
        service,
        unattended_slots=s.bot_unattended_slots,
        unattended_interval=s.bot_unattended_move_seconds,
    )
    return Feature(
        "bots",
        parts={"bot_seats": seats, "bots": runner},
        routers=[endpoints.router],
        work=[Work("bots", runner.start, runner.stop)],
    )

"""The tables plugged in: the table service (lobby, the move), the move's clock and vacation,
the deadline sweeper, and the tables as the table socket sees them."""

from __future__ import annotations

from app.parts import Parts
from app.plug import Core, Feature, Work
from app.profiles.service import ProfileService
from app.tables import endpoints, host_endpoints, vacation_endpoints
from app.tables.access import TableAccess
from app.tables.service import TableService
from app.tables.sweeper import Sweeper
from app.tables.vacation import PaceService


def plug(core: Core, parts: Parts) -> Feature:
    s, db, hub, clock = core.settings, core.db, core.hub, core.clock
    service = TableService(db, hub, s.notify_channel)
    service.table_create_limit = (s.table_create_limit, s.table_create_window_seconds)
    service.pace.clock = clock
    pace = PaceService(db, hub, service.locks, clock)
    sweeper = Sweeper(db, hub, clock, interval=s.deadline_sweep_seconds)

    async def stop_store() -> None:
        await service.play.store.close()  # what is queued is written first

    work = [Work("moves", stop=stop_store)]
    if s.deadline_sweep_seconds > 0:
        work.append(Work("deadlines", sweeper.start, sweeper.stop))
    return Feature(
        "tables",
        parts={
            "service": service,
            "pace": pace,
            "sweeper": sweeper,
            "move_tally": service.play.tally,
        },
        routers=[endpoints.router, host_endpoints.router, vacation_endpoints.router],
        work=work,
        socket_access=TableAccess(service, parts.get(ProfileService), core.limiter),
    )

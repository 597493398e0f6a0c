"""Protecting oneself plugged in: reports and blocks at a table, and the sweep of old reports."""

from __future__ import annotations

from app.blocks.service import Blocks
from app.parts import Parts
from app.plug import Core, Feature, Work
from app.safety import endpoints
from app.safety.service import Safety
from app.safety.sweeper import ReportSweeper
from app.tables.service import TableService


def plug(core: Core, parts: Parts) -> Feature:
    s, db, clock = core.settings, core.db, core.clock
    safety = Safety(
        db, parts.get(TableService), parts.get(Blocks), clock, s.reports_open_per_reporter
    )
    sweeper = ReportSweeper(db, clock, s.report_keep_days, s.report_sweep_seconds)
    return Feature(
        "safety",
        parts={"safety": safety, "report_sweeper": sweeper},
        routers=[endpoints.router],
        work=[Work("report sweeper", sweeper.start, sweeper.stop)],
    )

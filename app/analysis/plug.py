"""Analysis after the game plugged in: a queue in the database, one worker per instance. The
bot's playouts run in a child process (app/analysis/child.py), off the interpreter lock the
requests share; in the worker's thread only where a setting says so."""

from __future__ import annotations

from anyio import to_thread

from app.analysis import endpoints
from app.analysis.bot import StrongBot
from app.analysis.child import ChildProcessBot
from app.analysis.service import AnalysisService
from app.analysis.worker import AnalysisWorker
from app.parts import Parts
from app.plug import Core, Feature, Work
from app.records.service import RecordService


def plug(core: Core, parts: Parts) -> Feature:
    s, db, clock = core.settings, core.db, core.clock
    bot: StrongBot | ChildProcessBot = (
        ChildProcessBot(
            s.analysis_playouts,
            processes=s.analysis_jobs_per_process,
            samples=s.analysis_measure_samples,
            budget=s.analysis_measure_budget,
        )
        if s.analysis_child_process
        else StrongBot(
            s.analysis_playouts,
            samples=s.analysis_measure_samples,
            budget=s.analysis_measure_budget,
        )
    )
    analysis = AnalysisService(
        db,
        clock,
        parts.get(RecordService),
        bot.version,
        s.analysis_max_positions,
        max_pending_per_profile=s.analysis_max_pending_per_profile,
        max_pending_per_address=s.analysis_max_pending_per_address,
    )
    worker = AnalysisWorker(
        db,
        clock,
        bot,
        jobs=s.analysis_jobs_per_process,
        lease_seconds=s.analysis_lease_seconds,
        poll_seconds=s.analysis_poll_seconds,
    )
    analysis.queued_hooks.append(worker.wake)

    async def stop() -> None:
        await worker.stop()
        if isinstance(bot, ChildProcessBot):
            await to_thread.run_sync(bot.close)

    return Feature(
        "analysis",
        parts={"analysis": analysis, "analysis_worker": worker},
        routers=[endpoints.router],
        work=[Work("analysis", worker.start, stop)],
    )

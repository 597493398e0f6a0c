"""Analysis after the game: ask for the analysis of a replay, and read how far it is.

Who may see a replay may ask for its analysis and read it: access (and that the game is over)
is checked by the records service on every call, exactly as for the replay itself. An analysis
is stored per (game key, bot version): asking again, or for another replay of the same game,
reuses it, and nothing is computed twice. Each requester (a profile, or the address of someone
not signed in) may have only so many analyses waiting, per profile and per address; the queue
serves requesters in turn (app/analysis/repository.py ``claim``). The work itself is the
worker's (app/analysis/worker.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import cast

from anyio import to_thread
from sqlalchemy.orm import Session

from app.analysis import repository as repo
from app.analysis import requests
from app.analysis.compute import luck, swings
from app.analysis.errors import AnalysisQueueFull, AnalysisTooLong
from app.analysis.key import game_key
from app.analysis.measure import LUCK_PER_PLAYER
from app.analysis.requests import Requester
from app.analysis.schemas import (
    AnalysisOut,
    JobStatus,
    LuckOut,
    PlayerSwings,
    PositionEstimate,
    SwingOut,
)
from app.analysis.shapes import Measured, Preferred
from app.analysis.source import load_record
from app.clock import Clock
from app.db.models import AnalysisJob, AnalysisPosition
from app.db.session import Database
from app.errors import NotFound
from app.records.service import RecordService
from app.records.shapes import ReplayDoc


class AnalysisService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        records: RecordService,
        bot_version: str,
        max_positions: int,
        *,
        max_pending_per_profile: int = 3,
        max_pending_per_address: int = 6,
    ) -> None:
        self.db = db
        self.clock = clock
        self.records = records
        self.bot_version = bot_version
        self.max_positions = max_positions
        self.max_pending_per_profile = max_pending_per_profile
        self.max_pending_per_address = max_pending_per_address
        self.postgres = db.engine.dialect.name == "postgresql"
        self.queued_hooks: list[
            Callable[[], None]
        ] = []  # called after a job is (re)queued: the worker wakes
        self._keys: dict[str, str] = {}  # replay id → game key (a finished game never changes)
        self._keys_lock = threading.Lock()

    def _key(self, replay_id: str) -> str:
        with self._keys_lock:
            key = self._keys.get(replay_id)
        if key is None:
            record = load_record(self.db, replay_id)
            if record is None:  # the records service let it through a moment ago
                raise NotFound("no such replay")
            key = game_key(record)
            with self._keys_lock:
                if len(self._keys) > 10_000:
                    self._keys.clear()
                self._keys[replay_id] = key
        return key

    async def request(self, profile_id: str | None, replay_id: str, address: str) -> AnalysisOut:
        """Queue the analysis of a replay for the requester (``address``: the client's address
        key), or attach the request to the same game's analysis queued, running or done."""
        replay = await self.records.replay(profile_id, replay_id, "all")
        who = Requester(profile_id, address)
        out, queued = await to_thread.run_sync(self._request, replay_id, replay, who)
        if queued:
            for hook in self.queued_hooks:
                hook()
        return out

    def _request(
        self, replay_id: str, replay: ReplayDoc, who: Requester
    ) -> tuple[AnalysisOut, bool]:
        total = int(replay["positions"])
        if total > self.max_positions:
            raise AnalysisTooLong(
                f"an analysis covers games of at most {self.max_positions} positions",
                limit=self.max_positions,
            )
        key = self._key(replay_id)
        with self.db.session() as s:
            requests.lock(s, who, self.postgres)
            job = repo.job(s, key, self.bot_version)
            if job is not None and (
                job.status == JobStatus.DONE
                or (
                    job.status != JobStatus.FAILED
                    and requests.request_of(s, job.id, who) is not None
                )
            ):
                return self._render(s, replay_id, replay, job), False  # done, or asked already
            self._check_caps(s, who)
            now = self.clock.utcnow()
            if job is None:
                job, _ = repo.add_job(s, key, self.bot_version, replay_id, total, now)
            if job.status == JobStatus.FAILED:  # asked again: another try, from where it was
                job.status = JobStatus.QUEUED
                job.error = None
            requests.add_request(s, job.id, who, now)
            s.flush()
            return self._render(s, replay_id, replay, job), True

    def _check_caps(self, s: Session, who: Requester) -> None:
        """Refuse (nothing queued) a requester with as many analyses waiting as one may."""
        profile = who.profile_id
        if profile is not None and (
            requests.waiting_of_profile(s, profile) >= self.max_pending_per_profile
        ):
            raise AnalysisQueueFull(
                f"at most {self.max_pending_per_profile} analyses may wait per profile; "
                "ask again once one is done",
                limit=self.max_pending_per_profile,
                scope="profile",
            )
        if requests.waiting_of_address(s, who.address) >= self.max_pending_per_address:
            raise AnalysisQueueFull(
                f"at most {self.max_pending_per_address} analyses may wait per address; "
                "ask again once one is done",
                limit=self.max_pending_per_address,
                scope="address",
            )

    async def read(self, profile_id: str | None, replay_id: str) -> AnalysisOut:
        replay = await self.records.replay(profile_id, replay_id, "all")
        return await to_thread.run_sync(self._read, replay_id, replay)

    def _read(self, replay_id: str, replay: ReplayDoc) -> AnalysisOut:
        key = self._key(replay_id)
        with self.db.session() as s:
            return self._render(s, replay_id, replay, repo.job(s, key, self.bot_version))

    def _render(
        self, s: Session, replay_id: str, replay: ReplayDoc, job: AnalysisJob | None
    ) -> AnalysisOut:
        if job is None:
            return AnalysisOut(
                replay_id=replay_id,
                status=JobStatus.NONE,
                bot_version=self.bot_version,
                done=0,
                total=int(replay["positions"]),
                positions=[],
                swings=[],
            )
        rows = repo.positions(s, job.id)
        status = JobStatus(job.status)
        return AnalysisOut(
            replay_id=replay_id,
            status=status,
            bot_version=job.bot_version,
            done=len(rows),
            total=job.total,
            error=job.error,
            positions=[
                PositionEstimate(position=r.position, seat=r.seat, expected=list(r.expected))
                for r in rows
            ],
            swings=_swings(rows, replay) if status == JobStatus.DONE else [],
        )


def _swings(rows: list[AnalysisPosition], replay: ReplayDoc) -> list[PlayerSwings]:
    log = replay["log"]
    # The stored measures are the worker's own (``measure_step``'s shapes).
    measured = {r.position: cast(Measured, r.measured) for r in rows if r.measured is not None}
    preferred = {r.position: cast(Preferred | None, r.preferred) for r in rows}
    players = len(replay["players"])
    found = swings(measured, [int(e["seat"]) for e in log], players)
    lucky = luck(measured, players)
    return [
        PlayerSwings(
            seat=seat,
            swings=[
                SwingOut(
                    position=sw.position,
                    cost=round(sw.cost, 2),
                    noise=round(sw.noise, 2),
                    change=round(-sw.cost, 2),
                    played=log[sw.position - 1],
                    preferred=preferred.get(sw.position - 1),
                )
                for sw in found[seat]
            ],
            luck=[
                LuckOut(
                    position=lk.position,
                    change=round(lk.change, 2),
                    noise=round(lk.noise, 2),
                    played=log[lk.position - 1],
                )
                for lk in lucky[seat][:LUCK_PER_PLAYER]
            ],
            luck_total=round(sum(lk.change for lk in lucky[seat]), 2),
        )
        for seat in range(players)
    ]

"""Bot seats: put a bot in a seat, hand a seat to a bot, take it back; and the bot runner.

Endpoints:
- `POST /api/tables/{id}/seats/{seat}/bot {"level"}` — before the start, the host puts a bot in an
  empty seat (or changes a bot's level). In a running game the seat's own player may hand it to a
  bot at any time (leaving), and the host may once the player has not moved for the table's
  `idle_seconds` while it was their turn.
- `DELETE /api/tables/{id}/seats/{seat}/bot` — before the start, the host frees a bot's seat.
- `POST /api/tables/{id}/seats/{seat}/reclaim` — the seat's player takes it back from the bot.

The runner plays bot seats through `TableService.submit_move`, the same call people's moves go
through. It listens to the hub like a relay: after any committed change of a table it looks
whether a bot is to act there; if so it works out the move in a worker thread (the bot sees only
`view_for` of its own seat and that seat's legal moves) and submits it. One task per table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any, Literal

from anyio import to_thread
from fastapi import APIRouter, FastAPI, Request
from sqlalchemy import select

from app import rules
from app.api.deps import ProfileId, Service
from app.api.schemas import Strict
from app.bots import choose_move
from app.bots.policy import DEFAULT_BUDGET, TurnTimer
from app.db.models import GameTable, Seat, utcnow
from app.errors import (
    AppError,
    IllegalMove,
    NoBotSeat,
    NotFound,
    NotHost,
    NotYourSeat,
    StaleVersion,
    WrongStatus,
)
from app.realtime.hub import Notice
from app.tables.service import TableService

log = logging.getLogger("emara.bots")

DEFAULT_IDLE_SECONDS = 120
# A bot runner that could not look at a table (or whose moves kept being refused) looks again
# after this pause, doubled on each failure in a row up to the maximum.
RETRY_FIRST_SECONDS = 0.5
RETRY_MAX_SECONDS = 60.0


class SeatTaken(AppError):
    status = 409
    code = "seat_taken"


class SeatActive(AppError):
    status = 409
    code = "seat_active"


class NotABot(AppError):
    status = 409
    code = "not_a_bot"


class BotIn(Strict):
    level: Literal["random", "greedy", "strong"]


router = APIRouter(prefix="/api/tables", tags=["bots"])


def _runner(request: Request) -> BotRunner:
    return request.app.state.bots  # type: ignore[no-any-return]


@router.post("/{table_id}/seats/{seat}/bot")
async def put_bot(
    table_id: str, seat: int, body: BotIn, profile_id: ProfileId, svc: Service, request: Request
) -> dict[str, Any]:
    """A bot of the chosen level takes the seat (see the module notes for who may do this when)."""
    runner = _runner(request)
    async with svc._locks[table_id]:
        out = await to_thread.run_sync(
            _put_bot, svc, profile_id, table_id, seat, body.level, runner.now()
        )
    await svc.hub.publish(Notice(table_id, "lobby"))
    runner.kick(table_id)
    return out


@router.delete("/{table_id}/seats/{seat}/bot")
async def remove_bot(
    table_id: str, seat: int, profile_id: ProfileId, svc: Service
) -> dict[str, Any]:
    """Before the start: the host frees a seat a bot holds."""
    async with svc._locks[table_id]:
        out = await to_thread.run_sync(_remove_bot, svc, profile_id, table_id, seat)
    await svc.hub.publish(Notice(table_id, "lobby"))
    return out


@router.post("/{table_id}/seats/{seat}/reclaim")
async def reclaim(table_id: str, seat: int, profile_id: ProfileId, svc: Service) -> dict[str, Any]:
    """The seat's player takes the seat back from the bot playing it."""
    async with svc._locks[table_id]:
        out = await to_thread.run_sync(_reclaim, svc, profile_id, table_id, seat)
    await svc.hub.publish(Notice(table_id, "lobby"))
    return out


def _load(
    svc: TableService, s: Any, profile_id: str, table_id: str
) -> tuple[GameTable, list[Seat]]:
    t, seats = svc._visible(s, profile_id, table_id, None)
    return t, seats


def _check_seat(t: GameTable, seat: int) -> None:
    if not 0 <= seat < t.seat_count:
        raise NotFound(f"no seat {seat} at this table")


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _put_bot(
    svc: TableService, profile_id: str, table_id: str, seat: int, level: str, now: datetime
) -> dict[str, Any]:
    with svc.db.session() as s:
        t, seats = _load(svc, s, profile_id, table_id)
        _check_seat(t, seat)
        row = next((x for x in seats if x.seat == seat), None)
        is_host = t.host_profile_id == profile_id
        if t.status == "lobby":
            if not is_host:
                raise NotHost("only the host seats bots before the start")
            if row is None:
                row = Seat(table_id=t.id, seat=seat, profile_id=None, bot_level=level)
                s.add(row)
            elif row.profile_id is not None:
                raise SeatTaken("a player sits in this seat")
            else:
                row.bot_level = level
        elif t.status == "playing":
            if row is None:  # pragma: no cover - a started table has every seat
                raise NotFound(f"no seat {seat} at this table")
            own = row.profile_id is not None and row.profile_id == profile_id
            if not own:
                if not is_host:
                    raise NotHost("only the host or the seat's player can hand a seat to a bot")
                if row.bot_level is None and not _idle(t, seat, now):
                    raise SeatActive(
                        "the player is still playing: a seat is handed over when its player "
                        "leaves it, or has not moved for the table's idle time"
                    )
            row.bot_level = level
        else:
            raise WrongStatus("the game is over")
        s.flush()
        seats = list(s.scalars(select(Seat).where(Seat.table_id == t.id).order_by(Seat.seat)))
        return svc._lobby_dict(s, t, seats, profile_id)


def _idle(t: GameTable, seat: int, now: datetime) -> bool:
    """The seat is to act and nothing has happened at the table for its idle time."""
    if t.state is None:
        return False
    if seat not in rules.to_act(rules.decode_state(t.state)):
        return False
    limit = int((t.options or {}).get("idle_seconds", DEFAULT_IDLE_SECONDS))
    return (now - _aware(t.updated_at)).total_seconds() >= limit


def _remove_bot(svc: TableService, profile_id: str, table_id: str, seat: int) -> dict[str, Any]:
    with svc.db.session() as s:
        t, seats = _load(svc, s, profile_id, table_id)
        _check_seat(t, seat)
        if t.host_profile_id != profile_id:
            raise NotHost("only the host removes bots")
        if t.status != "lobby":
            raise WrongStatus("bots leave only before the start; in play a player can reclaim")
        row = next((x for x in seats if x.seat == seat), None)
        if row is None or row.profile_id is not None or row.bot_level is None:
            raise NotABot("no bot sits in this seat")
        s.delete(row)
        s.flush()
        rest = [x for x in seats if x is not row]
        return svc._lobby_dict(s, t, rest, profile_id)


def _reclaim(svc: TableService, profile_id: str, table_id: str, seat: int) -> dict[str, Any]:
    with svc.db.session() as s:
        t, seats = _load(svc, s, profile_id, table_id)
        _check_seat(t, seat)
        row = next((x for x in seats if x.seat == seat), None)
        if row is None or row.profile_id != profile_id:
            raise NotYourSeat("only the seat's own player can reclaim it")
        if row.bot_level is None:
            raise NotABot("no bot plays this seat")
        if t.status not in ("lobby", "playing"):
            raise WrongStatus("the game is over")
        row.bot_level = None
        s.flush()
        return svc._lobby_dict(s, t, seats, profile_id)


# ---------------------------------------------------------------------------------------------
# The runner.


class BotRunner:
    """Plays the bot seats of every table of this process; one asyncio task per table."""

    def __init__(self, svc: TableService, budget: float = DEFAULT_BUDGET) -> None:
        self.svc = svc
        self.budget = budget
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.again: set[str] = set()
        self.timers: dict[tuple[str, int], TurnTimer] = {}
        self.max_failures = 5
        # Tables whose look failed, with how many times in a row (see ``_later``).
        self.retries: dict[str, int] = {}
        self.stopped = False
        # Tables known to hold no bot seat: their moves need no look. Seats change only through
        # the lobby (every change publishes a lobby notice, also from other processes), so a
        # lobby notice forgets what was known of that table.
        self.botless: OrderedDict[str, None] = OrderedDict()
        self.botless_max = 10_000

    @staticmethod
    def now() -> datetime:
        return utcnow()

    # The hub calls this for every notice published in this process.
    async def send(self, notice: Notice) -> None:
        if notice.kind == "lobby":
            self.botless.pop(notice.table_id, None)
            task = self.tasks.get(notice.table_id)
            if task is not None and not task.done():
                self.again.add(notice.table_id)  # it may be judging the seats as they were
        elif notice.table_id not in self.botless:
            self.kick(notice.table_id)

    def _mark_botless(self, table_id: str) -> None:
        self.botless[table_id] = None
        self.botless.move_to_end(table_id)
        while len(self.botless) > self.botless_max:
            self.botless.popitem(last=False)

    def kick(self, table_id: str) -> None:
        """Look at the table soon; a bot to act there will move."""
        if self.stopped:
            return
        task = self.tasks.get(table_id)
        if task is not None and not task.done():
            self.again.add(table_id)
            return
        self.tasks[table_id] = asyncio.get_running_loop().create_task(self._run(table_id))

    async def idle(self) -> None:
        """Wait until no bot task is running (tests, shutdown)."""
        while any(not t.done() for t in self.tasks.values()):
            await asyncio.sleep(0.01)

    async def resume(self) -> None:
        """Wake every table of this database where a bot holds a seat in a running game."""
        for table_id in await to_thread.run_sync(self._bot_tables):
            self.kick(table_id)

    def _bot_tables(self) -> list[str]:
        with self.svc.db.session() as s:
            q = (
                select(GameTable.id)
                .join(Seat, Seat.table_id == GameTable.id)
                .where(GameTable.status == "playing", Seat.bot_level.is_not(None))
                .distinct()
            )
            return list(s.scalars(q))

    async def stop(self) -> None:
        self.stopped = True
        for task in self.tasks.values():
            task.cancel()
        for task in self.tasks.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _run(self, table_id: str) -> None:
        failures = 0
        while True:
            self.again.discard(table_id)
            try:
                job = await to_thread.run_sync(self._job, table_id)
            except Exception as exc:
                self._failed(table_id, "cannot load the table", exc)
                return
            if job == "botless":
                self._mark_botless(table_id)
                job = None
            if job is None:
                if table_id in self.again:
                    continue
                return
            assert not isinstance(job, str)
            self.botless.pop(table_id, None)
            seat, level, version, view, legal = job
            timer = self.timers.setdefault((table_id, seat), TurnTimer(per_move=self.budget))
            try:
                move = await asyncio.to_thread(
                    choose_move, view, legal, level, secrets.randbits(32), timer.budget(view)
                )
            except Exception:
                log.exception(
                    "bot at table %s seat %s failed; it plays any legal move", table_id, seat
                )
                move = legal[secrets.randbelow(len(legal))]
            try:
                # The seat is checked again in the move's own transaction: a bot never moves for
                # a seat taken back while it was thinking.
                await self.svc.submit_move(
                    self.svc.seat_viewer(table_id, seat), move, version, f"bot:{seat}:{version}"
                )
                failures = 0
                self.retries.pop(table_id, None)
            except (StaleVersion, IllegalMove, WrongStatus, NoBotSeat) as exc:
                # Someone moved first, or the seat was taken back: look again.
                failures += 1
                log.info("bot move at %s v%s not taken: %s", table_id, version, exc.code)
                if failures >= self.max_failures:
                    self._later(table_id)
                    return
            except Exception as exc:
                self._failed(table_id, "the move failed", exc)
                return

    def _failed(self, table_id: str, what: str, exc: Exception) -> None:
        """Say so (a typed error, the database away, in a line; anything else with its trace)
        and look at the table again later."""
        if isinstance(exc, AppError):
            log.warning("bot runner at table %s: %s (%s)", table_id, what, exc.code)
        else:
            log.error("bot runner at table %s: %s", table_id, what, exc_info=exc)
        self._later(table_id)

    def _later(self, table_id: str) -> None:
        """Look at the table again after a pause (doubling, up to a minute, while it keeps
        failing): a failure never leaves a table waiting on its bot for good."""
        if self.stopped:
            return
        n = self.retries.get(table_id, 0)
        self.retries[table_id] = n + 1
        delay = min(RETRY_MAX_SECONDS, RETRY_FIRST_SECONDS * 2**n)
        asyncio.get_running_loop().call_later(delay, self.kick, table_id)

    def _job(
        self, table_id: str
    ) -> tuple[int, str, int, dict[str, Any], list[dict[str, Any]]] | Literal["botless"] | None:
        """The bot seat to act now, its level, the version, its own view and its legal moves.

        "botless" when the table holds no bot seat (so its moves need no further look), None
        when no bot is to act now.
        """
        with self.svc.db.session() as s:
            bots = {
                seat: level
                for seat, level in s.execute(
                    select(Seat.seat, Seat.bot_level).where(
                        Seat.table_id == table_id, Seat.bot_level.is_not(None)
                    )
                )
            }
            if not bots:
                return "botless"
            t = s.get(GameTable, table_id)
            if t is None or t.status != "playing" or t.state is None:
                return None
            state = rules.decode_state(t.state)
            for seat in rules.to_act(state):
                level = bots.get(seat)
                if level is None:
                    continue
                view = rules.view_for(state, seat)
                legal = [rules.encode_move(m) for m in rules.legal_moves(state, seat)]
                if legal:
                    return seat, level, t.version, view, legal
            return None


def install(app: FastAPI) -> BotRunner:
    """Add the endpoints and start listening for changes that may wake a bot; at start-up, wake
    the bots whose turn it already is (a restart must not leave a table waiting on a bot)."""
    svc: TableService = app.state.service
    runner = BotRunner(svc)
    app.state.bots = runner
    svc.hub.relays.append(runner)
    app.include_router(router)
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        async with inner(a) as value:
            await runner.resume()
            try:
                yield value
            finally:
                await runner.stop()

    app.router.lifespan_context = lifespan
    return runner

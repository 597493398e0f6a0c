"""The server-side bot runner: plays the bot seats of every table of this process.

It hears every notice of the hub through its own queue (a background subscriber: the mover never
waits for it). After any committed change of a table it looks whether a bot is to act there; if
so it works out the move in a worker thread (the bot sees only ``view_for`` of its own seat and
that seat's legal moves) and submits it through ``TableService.submit_move``, the same call
people's moves go through. One task per table.

A game where bots play every seat ("unattended": nobody waits for its moves) costs CPU for as
long as it lasts, so such games share a budget per process: at most ``unattended_slots`` of
their moves are worked out at a time, their tables queue for a slot in turn (first come, first
served: one move each, then to the back of the queue), and a slot serves at most one move per
``unattended_interval`` seconds. With the defaults (one slot, half a second), all the games
bots play alone in a process cost at most one bot's thinking (0.12 s) per half second, however
many there are. A game with a person at it never waits for that queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from typing import Literal

from anyio import to_thread

from app import rules
from app.bots import choose_move
from app.bots.onestep import wire_moves
from app.bots.policy import DEFAULT_BUDGET, TurnTimer, position_seed
from app.errors import AppError, IllegalMove, NoBotSeat, StaleVersion, WrongStatus
from app.realtime.hub import Notice, NoticeKind, NoticeQueue
from app.tables import published
from app.tables.service import TableService
from app.tables.status import TableStatus

log = logging.getLogger("emara.bots")

# A bot runner that could not look at a table (or whose moves kept being refused) looks again
# after this pause, doubled on each failure in a row up to the maximum.
RETRY_FIRST_SECONDS = 0.5
RETRY_MAX_SECONDS = 60.0

# (seat, level, version, the seat's view, its legal moves, bots play every seat)
Job = tuple[int, str, int, rules.View, list[rules.EncodedMove], bool]
# Runs a callback after a delay in seconds (the event loop's timer; tests hand in their own).
Schedule = Callable[[float, Callable[[], None]], None]


def loop_timer(delay: float, callback: Callable[[], None]) -> None:
    asyncio.get_running_loop().call_later(delay, callback)


class BotRunner:
    """Plays the bot seats of every table of this process; one asyncio task per table."""

    def __init__(
        self,
        svc: TableService,
        budget: float = DEFAULT_BUDGET,
        schedule: Schedule = loop_timer,
        unattended_slots: int = 1,
        unattended_interval: float = 0.5,
    ) -> None:
        self.svc = svc
        self.budget = budget
        self.schedule = schedule
        # The games bots play alone share these slots (asyncio's semaphore wakes in FIFO order).
        self.unattended_slots = unattended_slots
        self.unattended = asyncio.Semaphore(unattended_slots)
        self.unattended_interval = unattended_interval
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.again: set[str] = set()
        # Tables whose seats changed (a lobby notice) while they were being looked at.
        self.reseated: set[str] = set()
        self.timers: dict[tuple[str, int], TurnTimer] = {}
        self.max_failures = 5
        # Tables whose look failed, with how many times in a row (see ``_later``).
        self.retries: dict[str, int] = {}
        self.stopped = False
        # Tables known to hold no bot seat: their moves need no look. Every seat change
        # publishes a lobby notice (also from other processes), which forgets the table here.
        self.botless: OrderedDict[str, None] = OrderedDict()
        self.botless_max = 10_000
        self.inbox = NoticeQueue("emara-bot-runner", self.send)

    # ------------------------------------------------------------------ lifecycle
    def offer(self, notice: Notice) -> None:
        """The hub hands over a notice (queued; handled by the runner's own task). Only seat and
        game changes can make a bot's turn; chat and presence cannot."""
        if notice.kind in (NoticeKind.LOBBY, NoticeKind.GAME):
            self.inbox.offer(notice)

    async def start(self) -> None:
        """Listen to the hub, and wake the bots whose turn it already is (a restart must not
        leave a table waiting on a bot)."""
        self.stopped = False
        self.unattended = asyncio.Semaphore(self.unattended_slots)  # on this start's loop
        if self not in self.svc.hub.background:
            self.svc.hub.background.append(self)
        self.inbox.start()
        await self.resume()

    async def stop(self) -> None:
        self.stopped = True
        if self in self.svc.hub.background:
            self.svc.hub.background.remove(self)
        await self.inbox.stop()
        for task in self.tasks.values():
            task.cancel()
        for task in self.tasks.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def idle(self) -> None:
        """Wait until every notice is handled and no bot task is running (tests, shutdown)."""
        while True:
            await self.inbox.drained()
            pending = [t for t in self.tasks.values() if not t.done()]
            if not pending and self.inbox.queue.empty():
                return
            await asyncio.gather(*pending, return_exceptions=True)

    async def resume(self) -> None:
        """Wake every table of this database where a bot holds a seat in a running game."""
        for table_id in await to_thread.run_sync(self._bot_tables):
            self.kick(table_id)

    def _bot_tables(self) -> list[str]:
        with self.svc.db.session() as s:
            return published.tables_with_bots(s)

    # ------------------------------------------------------------------ notices
    async def send(self, notice: Notice) -> None:
        if notice.kind == NoticeKind.LOBBY:
            self.botless.pop(notice.table_id, None)
            task = self.tasks.get(notice.table_id)
            if task is not None and not task.done():
                self.again.add(notice.table_id)  # it may be judging the seats as they were
                self.reseated.add(notice.table_id)
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

    # ------------------------------------------------------------------ playing
    async def _run(self, table_id: str) -> None:
        failures = 0
        while True:
            self.again.discard(table_id)
            self.reseated.discard(table_id)
            try:
                job = await to_thread.run_sync(self._job, table_id)
            except Exception as exc:
                self._failed(table_id, "cannot load the table", exc)
                return
            if job == "botless":
                if table_id not in self.reseated:
                    # moves made meanwhile cannot seat a bot: only a seat change needs a look
                    self.again.discard(table_id)
                    self._mark_botless(table_id)
                job = None
            if job is None:
                if table_id in self.again:
                    continue
                self.tasks.pop(table_id, None)
                return
            self.botless.pop(table_id, None)
            seat, level, version, view, legal, unattended = job
            if unattended:
                async with self.unattended:  # the games bots play alone take turns
                    started = asyncio.get_running_loop().time()
                    move = await self._think(table_id, seat, level, view, legal)
                    rest = self.unattended_interval - (asyncio.get_running_loop().time() - started)
                    if rest > 0:
                        await asyncio.sleep(rest)  # the slot serves one move per interval
            else:
                move = await self._think(table_id, seat, level, view, legal)
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

    async def _think(
        self,
        table_id: str,
        seat: int,
        level: str,
        view: rules.View,
        legal: list[rules.EncodedMove],
    ) -> rules.EncodedMove:
        timer = self.timers.setdefault((table_id, seat), TurnTimer(per_move=self.budget))
        try:
            return await asyncio.to_thread(
                choose_move, view, legal, level, position_seed(view), timer.budget(view)
            )
        except Exception:
            log.exception("bot at table %s seat %s failed; it plays any legal move", table_id, seat)
            return legal[secrets.randbelow(len(legal))]

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
        self.schedule(delay, lambda: self.kick(table_id))

    def _job(self, table_id: str) -> Job | Literal["botless"] | None:
        """The bot seat to act now, its level, the version, its own view and its legal moves.

        "botless" when the table holds no bot seat (so its moves need no further look), None
        when no bot is to act now.
        """
        with self.svc.db.session() as s:
            bots = published.bot_seats(s, table_id)
            if not bots:
                return "botless"
            t = published.table(s, table_id)
            if t is None or t.status != TableStatus.PLAYING or t.state is None:
                return None
            state = rules.decode_state(t.state)
            unattended = len(bots) >= t.seat_count
            for seat in rules.to_act(state):
                level = bots.get(seat)
                if level is None:
                    continue
                view = rules.view_for(state, seat)
                legal = wire_moves(state, seat)
                if legal:
                    return seat, level, t.version, view, legal, unattended
            return None

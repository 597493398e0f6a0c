"""Decides what to tell whom by push, after the commit, off the mover's path.

A background subscriber of the hub (its own queue and task): a game notice published in this
process (never one relayed from another instance, so one message per change) is looked at in a
worker thread: whose turn it became, or who finished where; the deadline sweeper hands over its
timed-out seats directly. Each message goes to every subscription of the profile through
``Delivery`` (app/push/delivery.py: a bounded queue, its own workers and thread pool, one
deadline per message, the endpoint judged again before each send).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, TypedDict

import orjson
from anyio import to_thread
from py_vapid import Vapid02

from app import rules
from app.clock import Clock
from app.db.session import Database
from app.push import wire
from app.push.delivery import Delivery, Job, Outcome, PushLimits
from app.push.endpoint import PushPolicy, Resolver, system_resolver
from app.push.store import PushStore, listening_at
from app.push.texts import words
from app.realtime.hub import Hub, Notice, NoticeKind, NoticeQueue
from app.tables import published
from app.tables.status import TableStatus
from app.tables.sweeper import TimedOut

log = logging.getLogger("emara.push")

REMEMBERED = 10_000
# How long "nobody at this table has a push subscription" is believed before it is looked up
# again: a move at such a table costs no worker thread and no database read (a device that
# subscribes meanwhile hears of that table's changes at most this much later).
QUIET_TABLE_SECONDS = 60.0


class PushParams(TypedDict, total=False):
    """What a message says besides its kind, for a client to word it itself."""

    table_id: str
    host: str | None  # the table host's name
    seat: int  # seat_timed_out: the seat whose time ran out
    place: int  # game_over: the reader's place
    of: int  # game_over: places in all


class PushPayload(TypedDict):
    """The JSON a push carries (``PushMessageOut``)."""

    title: str
    body: str
    url: str
    tag: str
    kind: str
    params: PushParams


@dataclass(frozen=True)
class Message:
    profile_id: str
    table_id: str
    kind: str  # your_turn | seat_timed_out | game_over
    params: PushParams = field(default_factory=lambda: PushParams())


def payload_for(m: Message, lang: str) -> PushPayload:
    title, body = words(m.kind, m.params, lang)
    return {
        "title": title,
        "body": body,
        "url": f"/t/{m.table_id}",
        "tag": f"emara-{m.table_id}",
        "kind": m.kind,
        "params": {"table_id": m.table_id, **m.params},
    }


class PushSender:
    def __init__(
        self,
        db: Database,
        hub: Hub,
        vapid: Vapid02,
        subject: str,
        clock: Clock,
        policy: PushPolicy | None = None,
        limits: PushLimits | None = None,
        subscriptions_per_profile: int = 10,
        resolve: Resolver = system_resolver,
        connect: wire.Connector = wire.open_stream,
    ) -> None:
        self.db = db
        self.hub = hub
        self.clock = clock
        self.delivery = Delivery(
            lambda target_id: self.store.remove(target_id),
            vapid,
            subject,
            clock,
            policy or PushPolicy(),
            limits or PushLimits(),
            resolve,
            connect,
        )
        # Subscriptions: a new endpoint is judged by the delivery's own checks before it is kept.
        self.store = PushStore(db, subscriptions_per_profile, self.delivery.admit)
        self.inbox = NoticeQueue("emara-push", self._on_notice)
        self.tasks: set[asyncio.Task[None]] = set()
        self.seen: OrderedDict[tuple[str, int | None], None] = OrderedDict()
        self.quiet: OrderedDict[str, float] = OrderedDict()  # table -> when it was found quiet
        self.running = False

    @property
    def sent(self) -> list[tuple[str, Outcome]]:
        """(endpoint, outcome) of the recent messages."""
        return self.delivery.sent

    # ------------------------------------------------------------------ lifecycle
    def offer(self, notice: Notice) -> None:
        if notice.kind == NoticeKind.GAME:
            self.inbox.offer(notice)

    def start(self) -> None:
        self.running = True
        if self not in self.hub.background:
            self.hub.background.append(self)
        self.inbox.start()
        self.delivery.start()

    async def stop(self) -> None:
        self.running = False
        if self in self.hub.background:
            self.hub.background.remove(self)
        await self.inbox.stop()
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.delivery.stop()

    async def idle(self) -> None:
        """Wait until every queued notice is handled and every message sent (tests)."""
        while True:
            await self.inbox.drained()
            if self.tasks:
                await asyncio.gather(*list(self.tasks), return_exceptions=True)
            await self.delivery.idle()
            if not self.tasks and self.inbox.queue.empty() and not self.delivery.waiting:
                return

    def _spawn(self, coro: Any) -> None:
        if not self.running:
            coro.close()
            return
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # ------------------------------------------------------------------ what to say
    def timed_out(self, d: TimedOut) -> None:
        """A sweeper listener (after its commit, on the loop)."""
        self._spawn(self._timed_out(d))

    async def _timed_out(self, d: TimedOut) -> None:
        host = await to_thread.run_sync(self._host_name, d.table_id)
        await self._deliver(
            Message(d.profile_id, d.table_id, "seat_timed_out", {"host": host, "seat": d.seat})
        )

    def _host_name(self, table_id: str) -> str | None:
        with self.db.session() as s:
            return published.host_name(s, table_id)

    async def _on_notice(self, notice: Notice) -> None:
        key = (notice.table_id, notice.version)
        if key in self.seen:
            return  # a duplicate move's notice, or the sweeper's
        self.seen[key] = None
        while len(self.seen) > REMEMBERED:
            self.seen.popitem(last=False)
        quiet_since = self.quiet.get(notice.table_id)
        if quiet_since is not None and self.clock.now() - quiet_since < QUIET_TABLE_SECONDS:
            return
        messages = await to_thread.run_sync(self.messages_for, notice.table_id, notice.version)
        if messages is None:
            self._quiet(notice.table_id)
            return
        self.quiet.pop(notice.table_id, None)
        for m in messages:
            await self._deliver(m)

    def messages_for(self, table_id: str, version: int | None) -> list[Message] | None:
        """Who to tell what about the table at ``version`` (nothing if it moved on since: the
        later notice speaks for it); None when nobody at the table has a subscription."""
        with self.db.session() as s:
            if not listening_at(s, table_id):
                return None
            t = published.table(s, table_id)
            if t is None or t.state is None or (version is not None and t.version != version):
                return []
            seats = published.seat_holders(s, table_id)
            mover = published.mover_at(s, table_id, t.version)
            status, state_blob = t.status, t.state
            host_id = t.host_profile_id
        host = next((x.name for x in seats if x.profile_id == host_id), None)
        state = rules.decode_state(state_blob)
        out: list[Message] = []
        if status == TableStatus.FINISHED:
            result = rules.outcome(state)
            places = {p["seat"]: p["rank"] for p in result["players"]} if result else {}
            # solo: the place beside Victoria's, as the engine ranked them
            of = len(places) + (1 if result and result["victoria"] is not None else 0)
            for x in seats:
                if x.profile_id and x.seat in places:
                    params: PushParams = {"host": host, "place": places[x.seat], "of": of}
                    out.append(Message(x.profile_id, table_id, "game_over", params))
        elif status == TableStatus.PLAYING:
            acting = set(rules.to_act(state))
            for y in seats:
                if y.seat in acting and y.profile_id and not y.bot_level and y.seat != mover:
                    out.append(Message(y.profile_id, table_id, "your_turn", {"host": host}))
        return out

    def _quiet(self, table_id: str) -> None:
        self.quiet[table_id] = self.clock.now()
        self.quiet.move_to_end(table_id)
        while len(self.quiet) > REMEMBERED:
            self.quiet.popitem(last=False)

    # ------------------------------------------------------------------ sending
    async def _deliver(self, m: Message) -> None:
        """Queue the message for every subscription of its profile, in each one's language."""
        targets = await to_thread.run_sync(self.store.targets, m.profile_id)  # database work
        for target in targets:
            data = orjson.dumps(payload_for(m, target.lang)).decode()
            self.delivery.offer(Job(target, data))

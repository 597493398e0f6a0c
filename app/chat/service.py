"""Table chat: post (exactly once per client ``msg_id``, rate limited per profile), read the
history, mute a seat for oneself.

Who may read: whoever may look at the table (its seats, spectators with the invite when the
table allows spectators). Who may write: its seats, and spectators when the host set
``spectator_chat``. A stored message is announced by a ``chat`` notice (table id only): every
socket, on this instance or another through the relay, reads the new messages from the database.
Mutes are stored per profile and handed to the client as a ``muted`` list; the client hides the
muted seats' messages (filtered client-side). The people a viewer blocked (app/blocks) are
filtered here, server-side: their messages never reach the viewer, at any table.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass

from anyio import to_thread
from sqlalchemy.exc import IntegrityError

from app.chat import repository as repo
from app.chat.errors import ChatNotAllowed, ChatRateLimited
from app.chat.shapes import ChatLine, ChatPage
from app.chat.text import clean
from app.clock import Clock
from app.db.session import Database
from app.errors import NotFound
from app.realtime.hub import Hub, Notice, NoticeKind
from app.realtime.limits import Bucket
from app.tables import published
from app.tables.types import Viewer

LOOKBACK = 50  # newest messages each socket looks at again on a chat notice (see ``recent``)


@dataclass(frozen=True)
class Posted:
    message: ChatLine
    duplicate: bool


class ChatService:
    def __init__(
        self,
        db: Database,
        hub: Hub,
        clock: Clock,
        rate_per_second: float = 0.5,
        burst: int = 10,
        max_profiles: int = 10_000,
    ) -> None:
        self.db, self.hub, self.clock = db, hub, clock
        self.rate, self.burst, self.max_profiles = rate_per_second, burst, max_profiles
        self.buckets: OrderedDict[str, Bucket] = OrderedDict()

    # ------------------------------------------------------------------ write
    async def post(self, viewer: Viewer, text: str, msg_id: str) -> Posted:
        if viewer.profile_id is None:
            raise ChatNotAllowed("only people write at the table")
        body = clean(text)
        posted = await to_thread.run_sync(self._post, viewer, body, msg_id)
        if not posted.duplicate:
            self.hub.publish(Notice(viewer.table_id, NoticeKind.CHAT))
        return posted

    def _post(self, viewer: Viewer, body: str, msg_id: str) -> Posted:
        assert viewer.profile_id is not None
        try:
            with self.db.session() as s:
                t = published.table(s, viewer.table_id)
                if t is None:
                    raise NotFound("no such table")
                # Judged now, not when the socket opened: the seat the profile holds at this
                # moment writes, whatever seat the viewer held before.
                seat = published.seat_held(s, t.id, viewer.profile_id)
                if seat is None and not t.options.get("spectator_chat", False):
                    raise ChatNotAllowed("spectators do not write at this table")
                old = repo.find(s, t.id, viewer.profile_id, msg_id)
                if old is not None:  # a retry: the first result, never a copy
                    return Posted(repo.as_dict(old), True)
                self._take(viewer.profile_id)
                at = self.clock.utcnow()
                m = repo.add(s, t.id, viewer.profile_id, seat, body, msg_id, at)
                return Posted(repo.as_dict(m), False)
        except IntegrityError:  # the same msg_id raced in from another socket
            with self.db.session() as s:
                old = repo.find(s, viewer.table_id, viewer.profile_id, msg_id)
                if old is None:
                    raise
                return Posted(repo.as_dict(old), True)

    def _take(self, profile_id: str) -> None:
        bucket = self.buckets.get(profile_id)
        if bucket is None:
            bucket = self.buckets[profile_id] = Bucket(self.rate, self.burst, self.clock)
            while len(self.buckets) > self.max_profiles:
                self.buckets.popitem(last=False)
        self.buckets.move_to_end(profile_id)
        if not bucket.take():
            wait = max(1, math.ceil((1 - bucket.tokens) / self.rate))
            raise ChatRateLimited("too many messages, slow down", retry_after=wait)

    # ------------------------------------------------------------------ read
    async def history(
        self, viewer: Viewer, before: int | None = None, limit: int = repo.PAGE
    ) -> ChatPage:
        """A page of messages, oldest first: the newest ``limit`` (at most ``MAX_PAGE``) older
        than message ``before`` (the newest of all without it); ``more``: older ones remain.
        And the seats this viewer muted."""
        limit = max(1, min(limit, repo.MAX_PAGE))
        return await to_thread.run_sync(self._history, viewer, before, limit)

    def _history(self, viewer: Viewer, before: int | None, limit: int) -> ChatPage:
        with self.db.read() as conn:
            rows, more = repo.page(conn, viewer.table_id, before, limit, viewer.profile_id)
            muted = (
                repo.muted(conn, viewer.table_id, viewer.profile_id) if viewer.profile_id else []
            )
            return {"messages": [repo.as_dict(m) for m in rows], "muted": muted, "more": more}

    async def recent(
        self, table_id: str, after_id: int, viewer_id: str | None = None
    ) -> list[ChatLine]:
        """The messages after ``after_id`` and the newest ``LOOKBACK`` (oldest first): ids come
        from one sequence, and a message may commit after one with a higher id, so a reader
        that only asked for ids above the last it saw could miss it; the caller drops the ones
        it has sent already. None of a writer ``viewer_id`` blocked."""

        def work() -> list[ChatLine]:
            with self.db.read_session() as s:
                newest = repo.after(s, table_id, None, LOOKBACK, viewer_id)
                rows = {m.id: m for m in newest}
                later = repo.after(s, table_id, after_id, repo.MAX_PAGE, viewer_id)
                rows.update((m.id, m) for m in later)
                return [repo.as_dict(rows[i]) for i in sorted(rows)]

        return await to_thread.run_sync(work)

    # ------------------------------------------------------------------ mutes
    async def set_mute(self, viewer: Viewer, seat: int, on: bool) -> list[int]:
        """Mute (or unmute) ``seat`` for this viewer; the seats muted now."""

        def work() -> list[int]:
            assert viewer.profile_id is not None
            with self.db.session() as s:
                t = published.table(s, viewer.table_id)
                if t is None or not 0 <= seat < t.seat_count:
                    raise NotFound("no such seat")
                if on:
                    repo.mute(s, t.id, viewer.profile_id, seat)
                else:
                    repo.unmute(s, t.id, viewer.profile_id, seat)
                s.flush()
                return repo.muted(s, t.id, viewer.profile_id)

        return await to_thread.run_sync(work)

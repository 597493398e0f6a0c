"""Chat and presence on the table socket: a companion (app/realtime/ports.py ``Companion``) that
``create_app`` registers with the socket.

``Companions`` (one per process: the chat and presence services) names the notice kinds it hears
(presence, chat) and the client frame it answers (``chat``), and gives each socket a ``Feed``. The
socket routes those notices to the feed; the game's and the lobby's never pass here. The feed's
own task turns them into frames, re-reading the database (the notice carries the table id only,
from this process or another through the relay):

- after each ``hello``: ``chat_history`` (the newest 50, whether older ones remain, the viewer's
  mutes; the client reads older pages over HTTP);
- a chat notice: every message this socket was not sent yet, each as one ``chat`` frame (the feed
  remembers the ids it sent, so a message reaches a socket exactly once however many notices
  announce it, and one that committed late, after a higher id, still arrives) — but none of a
  person the socket's profile blocked (app/blocks: judged in the read, so a block made on any
  instance holds for the next message);
- a presence notice: one ``presence`` frame.

Notices coalesce (a flag each), so a burst costs one read per socket.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from app.chat.frames import ChatAccepted, ChatHistory, ChatMessage, PresenceFrame
from app.chat.service import ChatService
from app.errors import AppError
from app.presence.service import PresenceService
from app.realtime.frames import Chat, Sent, error_frame, trusted, trusted_wire
from app.realtime.hub import Notice, NoticeKind
from app.tables.types import Viewer

RETRY_SECONDS = 0.5
SENT_KEPT = 400  # ids a socket remembers sending (a history page + far more than LOOKBACK)


class Feed:
    def __init__(
        self,
        companions: Companions,
        table_id: str,
        viewer: Callable[[], Viewer | None],
        put_text: Callable[[str], bool],
    ) -> None:
        self.companions, self.table_id = companions, table_id
        self.viewer, self.put_text = viewer, put_text
        self.last_chat: int | None = None  # newest message id sent (None: no history yet)
        self.sent: OrderedDict[int, None] = OrderedDict()  # the ids sent lately, oldest first
        self._history = self._chat = self._presence = False
        self._wake = asyncio.Event()

    # ------------------------------------------------------------------ hub side
    def put_nowait(self, notice: object) -> None:
        if not isinstance(notice, Notice):
            return
        if notice.kind == NoticeKind.CHAT:
            self._chat = True
        elif notice.kind == NoticeKind.PRESENCE:
            self._presence = True
        self._wake.set()

    def hello(self) -> None:
        self._history = True
        self._wake.set()

    # ------------------------------------------------------------------ the task
    async def run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self.step()
            except AppError:  # the database is away: look again shortly
                await asyncio.sleep(RETRY_SECONDS)
                self._chat = self._presence = True
                self._wake.set()

    async def step(self) -> None:
        viewer = self.viewer()
        if viewer is None:
            return
        chat = self.companions.chat
        if self._history:
            self._history = self._chat = False
            history = await chat.history(viewer)
            messages = history["messages"]
            self.last_chat = max([self.last_chat or 0, *(m["id"] for m in messages)])
            for m in messages:
                self._mark(m["id"])
            self.put_text(trusted_wire(ChatHistory, history))
        if self._chat:
            self._chat = False
            if self.last_chat is not None:  # before the history, the history brings them
                for m in await chat.recent(self.table_id, self.last_chat, viewer.profile_id):
                    if m["id"] in self.sent:
                        continue
                    self.last_chat = max(self.last_chat, m["id"])
                    self._mark(m["id"])
                    self.put_text(trusted_wire(ChatMessage, m))
        if self._presence:
            self._presence = False
            seats = await self.companions.presence.seats(self.table_id)
            self.put_text(trusted_wire(PresenceFrame, {"seats": seats}))

    def _mark(self, message_id: int) -> None:
        self.sent[message_id] = None
        while len(self.sent) > SENT_KEPT:
            self.sent.popitem(last=False)


class Companions:
    """The chat and presence services as the table socket uses them."""

    notice_kinds = frozenset({NoticeKind.PRESENCE.value, NoticeKind.CHAT.value})
    frame_kinds = frozenset({"chat"})

    def __init__(self, chat: ChatService, presence: PresenceService) -> None:
        self.chat, self.presence = chat, presence

    def feed(
        self, table_id: str, viewer: Callable[[], Any], put_text: Callable[[str], bool]
    ) -> Feed:
        """``viewer``: the socket's viewer now (the one the tables' access judged), or None."""
        return Feed(self, table_id, lambda: _viewer(viewer()), put_text)

    async def opened(self, table_id: str, profile_id: str) -> None:
        await self.presence.opened(table_id, profile_id)

    async def closed(self, table_id: str, profile_id: str) -> None:
        with contextlib.suppress(Exception):  # never keeps a socket from closing
            await self.presence.closed(table_id, profile_id)

    async def answer(self, viewer: Any, frame: Any) -> Sent:
        """Store a ``chat`` frame's message: the direct answer to send (``chat_accepted``, or the
        error, naming the msg_id), echoing the frame's ref."""
        me = _viewer(viewer)
        if not isinstance(frame, Chat) or me is None:
            return error_frame("unknown_frame", "not a chat frame", getattr(frame, "ref", None))
        try:
            posted = await self.chat.post(me, frame.text, frame.msg_id)
        except AppError as exc:
            return error_frame(**exc.to_dict(), msg_id=frame.msg_id, ref=frame.ref)
        answer = {"msg_id": frame.msg_id, "id": posted.message["id"], "duplicate": posted.duplicate}
        if frame.ref is not None:
            answer["ref"] = frame.ref
        return trusted(ChatAccepted, answer)


def _viewer(viewer: object) -> Viewer | None:
    """The socket's viewer as the tables feature made it (app/tables/types.py)."""
    return viewer if isinstance(viewer, Viewer) else None

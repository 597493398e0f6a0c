"""Since you looked on the table socket: a page that holds the socket marks what it has seen with
a ``seen`` frame instead of a request of its own (``POST …/seen``) after every move.

The companion sends nothing unasked (no notices, nothing after a hello); it answers each ``seen``
frame with ``seen_marked`` or an ``error``. The seat is the one the profile holds when the frame
arrives (``Seen.mark_held``); the socket's own limits (size, rate) were applied before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.errors import AppError
from app.realtime.frames import MarkSeen, Sent, error_frame
from app.realtime.hub import Notice
from app.seen.frames import SeenMarked
from app.seen.service import Seen
from app.tables.types import Viewer


class Quiet:
    """A socket's share of the companion: it hears no notices and sends nothing by itself."""

    def put_nowait(self, notice: Notice) -> None:
        return None

    def hello(self) -> None:
        return None

    async def run(self) -> None:
        return None


class SeenMarks:
    """The ``seen`` frame's answerer, registered with the table socket (app/seen/plug.py)."""

    notice_kinds: frozenset[str] = frozenset()
    frame_kinds = frozenset({"seen"})

    def __init__(self, seen: Seen) -> None:
        self.seen = seen

    def feed(
        self, table_id: str, viewer: Callable[[], Any], put_text: Callable[[str], bool]
    ) -> Quiet:
        return Quiet()

    async def opened(self, table_id: str, profile_id: str) -> None:
        return None

    async def closed(self, table_id: str, profile_id: str) -> None:
        return None

    async def answer(self, viewer: Any, frame: Any) -> Sent:
        """Move the mark of the seat the viewer's profile holds now to the frame's version."""
        ref = getattr(frame, "ref", None)
        if not isinstance(frame, MarkSeen):
            return error_frame("unknown_frame", "not a seen frame", ref)
        if not isinstance(viewer, Viewer) or viewer.profile_id is None:
            return error_frame("not_your_seat", "you do not hold a seat at this table", ref)
        try:
            out = await self.seen.mark_held(viewer.table_id, viewer.profile_id, frame.version)
        except AppError as exc:
            return error_frame(**exc.to_dict(), ref=ref)
        if ref is None:
            return SeenMarked(last_seen_version=out.last_seen_version)
        return SeenMarked(last_seen_version=out.last_seen_version, ref=ref)

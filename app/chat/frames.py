"""The frames chat and presence send on the table socket (app/chat/feed.py sends them; the
transport's envelope is app/realtime/frames.py; docs/frames.schema.json lists them all)."""

from __future__ import annotations

from typing import Literal

from app.realtime.frames import Frame, Ref, Sent


class SeatPresence(Frame):
    seat: int
    present: bool
    last_seen: str | None  # ISO 8601 UTC, when away and ever seen


class PresenceFrame(Sent):
    """Whether each person's seat has a socket open now (on any instance), else when last seen."""

    type: Literal["presence"] = "presence"
    seats: list[SeatPresence]


class ChatEntry(Frame):
    """A stored message. ``seat`` None: a spectator. ``text`` is plain text (show it as text,
    never markup)."""

    id: int
    seat: int | None
    name: str
    text: str
    at: str | None
    msg_id: str


class ChatMessage(ChatEntry, Sent):
    """A stored message (``ChatEntry``) as a frame, sent once to every socket of the table."""

    type: Literal["chat"] = "chat"


class ChatHistory(Sent):
    """After each hello: the newest 50 messages, oldest first, and the seats this viewer muted.
    ``more``: older messages remain (``GET /api/tables/{id}/chat?before=`` reads them)."""

    type: Literal["chat_history"] = "chat_history"
    messages: list[ChatEntry]
    muted: list[int]
    more: bool = False


class ChatAccepted(Sent):
    """The direct answer to a ``chat`` frame: the stored message's ``id`` (``duplicate``: this
    ``msg_id`` had been sent already; the first result)."""

    type: Literal["chat_accepted"] = "chat_accepted"
    msg_id: str
    id: int
    duplicate: bool
    ref: Ref | None = None

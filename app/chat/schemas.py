"""The HTTP contracts of the table chat (the socket frames are in app/realtime/frames.py)."""

from __future__ import annotations

from pydantic import BaseModel


class ChatMessageOut(BaseModel):
    """One message. ``seat`` None: a spectator wrote it. ``text`` is plain text: show it as text,
    never as markup. ``msg_id`` is the writer's own id for it (retries carry the same)."""

    id: int
    seat: int | None
    name: str
    text: str
    at: str | None
    msg_id: str


class ChatOut(BaseModel):
    """A page of messages, oldest first, and the seats the caller muted (the client hides their
    messages). ``more``: older messages remain (ask again with ``before`` = the first id here)."""

    messages: list[ChatMessageOut]
    muted: list[int]
    more: bool


class MutesOut(BaseModel):
    """The seats the caller muted at this table, after the change."""

    muted: list[int]

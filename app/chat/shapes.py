"""The chat's messages as the service hands them on: to a route (``ChatOut``) and to a table's
sockets (the ``chat`` and ``chat_history`` frames), the shapes of app/chat/schemas.py."""

from __future__ import annotations

from typing import TypedDict


class ChatLine(TypedDict):
    """One message (``ChatMessageOut``)."""

    id: int
    seat: int | None
    name: str
    text: str
    at: str | None
    msg_id: str


class ChatPage(TypedDict):
    """A page of messages, oldest first, and the seats the reader muted (``ChatOut``)."""

    messages: list[ChatLine]
    muted: list[int]
    more: bool

"""The "since you looked" answer as the service builds it (``SinceOut``'s shape)."""

from __future__ import annotations

from typing import TypedDict

from app import rules
from app.chat.shapes import ChatLine


class SinceDoc(TypedDict):
    from_version: int
    to_version: int
    last_seen_version: int
    truncated: bool
    changes: list[rules.Change]
    summary: list[rules.PlayerSummary]
    new_log_versions: list[int]
    chat_count: int
    chat: list[ChatLine]

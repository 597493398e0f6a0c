"""The HTTP contracts of "since you looked": the strict ``/seen`` body and both answers.

The changes and the summaries are the engine's own structures (``rules.Change`` and
``rules.PlayerSummary``, docs/view.md "Since you looked"), kept ``dict``-shaped here.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.chat.schemas import ChatMessageOut
from app.strict import Strict


class SeenIn(Strict):
    """The version the caller has seen (rendered, with the page visible)."""

    version: int = Field(ge=0)


class SeenOut(BaseModel):
    """The seat's mark after the call: never lower than before."""

    last_seen_version: int


class SinceOut(BaseModel):
    """What changed for the caller's seat between ``from_version`` and ``to_version``.

    ``changes``: ``rules.changes_between`` of the seat's views at the two versions (empty when
    ``truncated``); ``summary``: ``rules.summarize`` over the log entries in between, as the
    seat received them; ``new_log_versions``: the versions of those entries. ``truncated``: the
    seat was more than ``SINCE_WINDOW`` versions behind, so the summary covers only the last
    ones (from ``from_version``) and no changes are listed. ``chat_count``: the chat messages
    other people wrote after the seat's person last looked (not counting muted seats); ``chat``:
    the newest ``SINCE_CHAT`` of them, oldest first.
    """

    from_version: int
    to_version: int
    last_seen_version: int
    truncated: bool
    changes: list[dict[str, Any]]
    summary: list[dict[str, Any]]
    new_log_versions: list[int]
    chat_count: int
    chat: list[ChatMessageOut]

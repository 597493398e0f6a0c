"""Table chat as other features read it (docs/architecture.md, "Data"): the messages a person
has not read yet (since you looked), one message by its id (a report names it)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.chat.repository import as_dict, unread
from app.db.models import ChatMessage

__all__ = ["as_dict", "message", "unread"]


def message(s: Session, table_id: str, message_id: int) -> ChatMessage | None:
    """The message ``message_id`` of the table (None: no such message there)."""
    m = s.get(ChatMessage, message_id)
    return m if m is not None and m.table_id == table_id else None

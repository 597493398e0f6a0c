"""All SQL of the table chat: messages (exactly once per client msg_id) and per-viewer mutes.

What a viewer reads leaves out the messages of the people they blocked (app/blocks), at every
table, judged in the query: the history, each new message a socket is sent, the unread count.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, Table, bindparam, delete, func, select
from sqlalchemy.orm import Session

from app.blocks.checks import hidden_from
from app.chat.shapes import ChatLine
from app.db.models import ChatMessage, ChatMute, Profile
from app.isotime import iso

PAGE = 50  # messages a (re)connecting socket gets, and GET /chat's page by default
MAX_PAGE = 200  # the most one GET /chat hands back


MESSAGE: Table = ChatMessage.__table__  # type: ignore[assignment]
MUTE: Table = ChatMute.__table__  # type: ignore[assignment]
# What a page shows of a message (``as_dict``), newest first: statements built once.
_SHOWN = (
    MESSAGE.c.id,
    MESSAGE.c.seat,
    MESSAGE.c.name,
    MESSAGE.c.text,
    MESSAGE.c.created_at,
    MESSAGE.c.msg_id,
)
# The writers the viewer (``p_viewer``: a profile id, "" for nobody signed in) blocked.
SHOWN_TO_VIEWER = MESSAGE.c.profile_id.not_in(hidden_from(bindparam("p_viewer")))
NEWEST = (
    select(*_SHOWN)
    .where(MESSAGE.c.table_id == bindparam("p_id"), SHOWN_TO_VIEWER)
    .order_by(MESSAGE.c.id.desc())
    .limit(bindparam("p_limit"))
)
NEWEST_BEFORE = (
    select(*_SHOWN)
    .where(
        MESSAGE.c.table_id == bindparam("p_id"),
        MESSAGE.c.id < bindparam("p_before"),
        SHOWN_TO_VIEWER,
    )
    .order_by(MESSAGE.c.id.desc())
    .limit(bindparam("p_limit"))
)
MUTED = (
    select(MUTE.c.seat)
    .where(MUTE.c.table_id == bindparam("p_id"), MUTE.c.profile_id == bindparam("p_profile"))
    .order_by(MUTE.c.seat)
)


def as_dict(m: ChatMessage | Row[Any]) -> ChatLine:
    return {
        "id": m.id,
        "seat": m.seat,
        "name": m.name,
        "text": m.text,
        "at": iso(m.created_at),
        "msg_id": m.msg_id,
    }


def find(s: Session, table_id: str, profile_id: str, msg_id: str) -> ChatMessage | None:
    return s.scalars(
        select(ChatMessage).where(
            ChatMessage.table_id == table_id,
            ChatMessage.profile_id == profile_id,
            ChatMessage.msg_id == msg_id,
        )
    ).first()


def add(
    s: Session,
    table_id: str,
    profile_id: str,
    seat: int | None,
    text: str,
    msg_id: str,
    at: datetime,
) -> ChatMessage:
    profile = s.get(Profile, profile_id)
    name = profile.name if profile is not None else "?"
    m = ChatMessage(
        table_id=table_id,
        profile_id=profile_id,
        seat=seat,
        name=name,
        text=text,
        msg_id=msg_id,
        created_at=at,
    )
    s.add(m)
    s.flush()
    return m


def page(
    s: Session | Connection,
    table_id: str,
    before_id: int | None,
    limit: int,
    viewer_id: str | None = None,
) -> tuple[list[Any], bool]:
    """The newest ``limit`` messages older than ``before_id`` (all when None), oldest first, and
    whether older ones remain (rows of what ``as_dict`` shows); none of a writer ``viewer_id``
    blocked."""
    params: dict[str, str | int] = {
        "p_id": table_id,
        "p_limit": limit + 1,
        "p_viewer": viewer_id or "",
    }
    if before_id is not None:
        params["p_before"] = before_id
    rows = list(s.execute(NEWEST if before_id is None else NEWEST_BEFORE, params))
    more = len(rows) > limit
    rows = rows[:limit]
    rows.reverse()
    return rows, more


def after(
    s: Session,
    table_id: str,
    after_id: int | None,
    limit: int = MAX_PAGE,
    viewer_id: str | None = None,
) -> list[ChatMessage]:
    """The newest ``limit`` messages (after ``after_id`` when given), oldest first; none of a
    writer ``viewer_id`` blocked."""
    q = select(ChatMessage).where(ChatMessage.table_id == table_id)
    if viewer_id:
        q = q.where(ChatMessage.profile_id.not_in(hidden_from(viewer_id)))
    if after_id is not None:
        q = q.where(ChatMessage.id > after_id)
    rows = list(s.scalars(q.order_by(ChatMessage.id.desc()).limit(limit)))
    rows.reverse()
    return rows


def muted(s: Session | Connection, table_id: str, profile_id: str) -> list[int]:
    return list(s.scalars(MUTED, {"p_id": table_id, "p_profile": profile_id}))


def mute(s: Session, table_id: str, profile_id: str, seat: int) -> None:
    if s.get(ChatMute, (table_id, profile_id, seat)) is None:
        s.add(ChatMute(table_id=table_id, profile_id=profile_id, seat=seat))


def unmute(s: Session, table_id: str, profile_id: str, seat: int) -> None:
    s.execute(
        delete(ChatMute).where(
            ChatMute.table_id == table_id,
            ChatMute.profile_id == profile_id,
            ChatMute.seat == seat,
        )
    )


def unread(
    s: Session, table_id: str, profile_id: str, after: datetime | None, limit: int
) -> tuple[int, list[ChatMessage]]:
    """The messages others wrote after ``after`` (all when None), leaving out the seats the
    profile muted and the people it blocked: how many, and the newest ``limit`` of them, oldest
    first."""
    q = select(ChatMessage).where(
        ChatMessage.table_id == table_id,
        ChatMessage.profile_id != profile_id,
        ChatMessage.profile_id.not_in(hidden_from(profile_id)),
    )
    if after is not None:
        q = q.where(ChatMessage.created_at > after)
    hidden = muted(s, table_id, profile_id)
    if hidden:
        q = q.where((ChatMessage.seat.is_(None)) | (ChatMessage.seat.not_in(hidden)))
    count = int(s.scalar(select(func.count()).select_from(q.subquery())) or 0)
    rows = list(s.scalars(q.order_by(ChatMessage.id.desc()).limit(limit)))
    rows.reverse()
    return count, rows

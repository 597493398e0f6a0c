"""Table chat over HTTP: read the messages page by page, mute and unmute a seat.

Messages are written over the table socket (``chat`` frame, docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from app.chat.repository import MAX_PAGE, PAGE
from app.chat.schemas import ChatOut, MutesOut
from app.chat.service import ChatService
from app.chat.shapes import ChatPage
from app.parts import provided
from app.profiles.deps import ProfileId
from app.tables.deps import TableViewer
from app.tables.schemas import SeatPath

router = APIRouter(prefix="/api/tables", tags=["chat"])


chat_service = provided(ChatService)


Chat = Annotated[ChatService, Depends(chat_service)]


@router.get(
    "/{table_id}/chat",
    response_model=ChatOut,
)
async def chat(
    viewer: TableViewer,
    chat: Chat,
    before: Annotated[int | None, Query(ge=1, le=2**62)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = PAGE,
) -> ChatPage:
    """The newest `limit` messages (50 by default, at most 200), oldest first, older than the
    message `before` when given; `more`: older ones remain. And the seats the caller muted."""
    return await chat.history(viewer, before, limit)


@router.post(
    "/{table_id}/mutes/{seat}",
    response_model=MutesOut,
)
async def mute(seat: SeatPath, _signed_in: ProfileId, viewer: TableViewer, chat: Chat) -> MutesOut:
    """Hide this seat's messages from the caller, on every device (undo with DELETE)."""
    return MutesOut(muted=await chat.set_mute(viewer, int(seat), True))


@router.delete(
    "/{table_id}/mutes/{seat}",
    response_model=MutesOut,
)
async def unmute(
    seat: SeatPath, _signed_in: ProfileId, viewer: TableViewer, chat: Chat
) -> MutesOut:
    """Show this seat's messages to the caller again."""
    return MutesOut(muted=await chat.set_mute(viewer, int(seat), False))

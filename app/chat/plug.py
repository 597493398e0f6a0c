"""Table chat plugged in, with presence: the companion that sends both on the table socket."""

from __future__ import annotations

from app.chat import endpoints
from app.chat.feed import Companions
from app.chat.service import ChatService
from app.parts import Parts
from app.plug import Core, Feature
from app.presence.service import PresenceService


def plug(core: Core, parts: Parts) -> Feature:
    s = core.settings
    chat = ChatService(core.db, core.hub, core.clock, s.chat_rate_per_second, s.chat_rate_burst)
    companions = Companions(chat, parts.get(PresenceService))
    return Feature(
        "chat",
        parts={"chat": chat, "companions": companions},
        routers=[endpoints.router],
        companions=[companions],
    )

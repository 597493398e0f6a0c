"""Presence plugged in: who is at a table, refreshed by this instance's loop."""

from __future__ import annotations

from app.parts import Parts
from app.plug import Core, Feature, Work
from app.presence.service import PresenceService
from app.realtime.notify import INSTANCE_ID


def plug(core: Core, parts: Parts) -> Feature:
    s = core.settings
    presence = PresenceService(
        core.db,
        core.hub,
        core.clock,
        INSTANCE_ID,
        s.presence_ttl_seconds,
        s.presence_refresh_seconds,
    )
    # stopped: this instance's people leave now
    work = Work("presence", presence.start, presence.stop)
    return Feature("presence", parts={"presence": presence}, work=[work])

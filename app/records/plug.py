"""Game records plugged in: export, import checked by replaying, the replay API."""

from __future__ import annotations

from app.parts import Parts
from app.plug import Core, Feature
from app.records import endpoints
from app.records.service import RecordService


def plug(core: Core, parts: Parts) -> Feature:
    s = core.settings
    records = RecordService(
        core.db,
        core.clock,
        id_key=s.effective_secret_key,
        cache_bytes=s.replay_cache_bytes,
        page_max=s.replay_page_max,
    )
    return Feature("records", parts={"records": records}, routers=[endpoints.router])

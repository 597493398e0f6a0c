"""Since you looked: its routes (they ask the table service: app/seen/endpoints.py) and the
table socket's ``seen`` frame (app/seen/feed.py)."""

from __future__ import annotations

from app.parts import Parts
from app.plug import Core, Feature
from app.seen import endpoints
from app.seen.feed import SeenMarks
from app.seen.service import Seen


def plug(core: Core, parts: Parts) -> Feature:
    return Feature("seen", routers=[endpoints.router], companions=[SeenMarks(Seen(core.db))])

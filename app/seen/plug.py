"""Since you looked: its routes (they ask the table service: app/seen/endpoints.py)."""

from __future__ import annotations

from app.parts import Parts
from app.plug import Core, Feature
from app.seen import endpoints


def plug(core: Core, parts: Parts) -> Feature:
    return Feature("seen", routers=[endpoints.router])

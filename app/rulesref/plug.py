"""The rules reference's data."""

from __future__ import annotations

from app.parts import Parts
from app.plug import Core, Feature
from app.rulesref import endpoints


def plug(core: Core, parts: Parts) -> Feature:
    return Feature("rulesref", routers=[endpoints.router])

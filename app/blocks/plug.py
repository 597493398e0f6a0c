"""Blocks plugged in: who blocked whom (invitations keep them apart: app/invitations/plug.py)."""

from __future__ import annotations

from app.blocks import endpoints
from app.blocks.service import Blocks
from app.parts import Parts
from app.plug import Core, Feature


def plug(core: Core, parts: Parts) -> Feature:
    blocks = Blocks(core.db, core.clock)
    return Feature("blocks", parts={"blocks": blocks}, routers=[endpoints.router])

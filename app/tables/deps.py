"""The table service as a FastAPI dependency (the one ``create_app`` built), and who needs no
invite code at a table."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.tables.service import TableService


async def table_service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


Service = Annotated[TableService, Depends(table_service)]


async def seated_at_table(request: Request, profile_id: str | None) -> bool:
    """The caller holds a seat at the table of the path (``{table_id}``): its look needs no
    invite code, so no guessing limit applies to it (app/ratelimit/deps.py ``exempt``)."""
    table_id = request.path_params.get("table_id")
    if profile_id is None or not isinstance(table_id, str):
        return False
    service = await table_service(request)
    return await service.holds_seat(profile_id, table_id)

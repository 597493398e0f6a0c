"""The table service as a FastAPI dependency (the one ``create_app`` built)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.tables.service import TableService


def table_service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


Service = Annotated[TableService, Depends(table_service)]

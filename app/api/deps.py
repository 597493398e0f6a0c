"""Request-scoped helpers: the table service and settings; the caller's profile comes from the
profiles feature (``app.profiles.deps``), re-exported here for the routers that import it."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.config import Settings
from app.profiles.deps import (
    MaybeProfileId,
    ProfileId,
    current_profile,
    optional_profile,
    token_from,
)
from app.tables.service import TableService

__all__ = [
    "MaybeProfileId",
    "ProfileId",
    "Service",
    "current_profile",
    "optional_profile",
    "service",
    "settings",
    "token_from",
]


def service(request: Request) -> TableService:
    return request.app.state.service  # type: ignore[no-any-return]


def settings(request: Request) -> Settings:
    return request.app.state.settings  # type: ignore[no-any-return]


Service = Annotated[TableService, Depends(service)]

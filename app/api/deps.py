"""Request-scoped helpers: the service and the caller's profile."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.config import Settings
from app.errors import Unauthenticated
from app.tables.service import TableService


def service(request: Request) -> TableService:
    return request.app.state.service  # type: ignore[no-any-return]


def settings(request: Request) -> Settings:
    return request.app.state.settings  # type: ignore[no-any-return]


def token_from(authorization: str | None, cookie: str | None) -> str | None:
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    return cookie or None


async def optional_profile(request: Request) -> str | None:
    svc = service(request)
    cfg = settings(request)
    token = token_from(request.headers.get("authorization"), request.cookies.get(cfg.cookie_name))
    profile_id = svc.signer.profile_id(token)
    if profile_id is None:
        return None
    if await svc.profile(profile_id) is None:
        return None
    return profile_id


async def current_profile(
    profile_id: Annotated[str | None, Depends(optional_profile)],
) -> str:
    if profile_id is None:
        raise Unauthenticated("a profile token is needed (cookie or Authorization: Bearer)")
    return profile_id


Service = Annotated[TableService, Depends(service)]
ProfileId = Annotated[str, Depends(current_profile)]
MaybeProfileId = Annotated[str | None, Depends(optional_profile)]

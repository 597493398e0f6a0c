"""Players: create a profile, who am I, continue on another device."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from app.api.deps import ProfileId, Service, settings
from app.api.schemas import ProfileIn, RecoverIn
from app.errors import NotFound

router = APIRouter(prefix="/api/profiles", tags=["profiles"])


def _set_cookie(request: Request, response: Response, token: str) -> None:
    cfg = settings(request)
    response.set_cookie(
        cfg.cookie_name,
        token,
        max_age=400 * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=cfg.cookie_secure,
        path="/",
    )


@router.post("", status_code=201)
async def create_profile(
    body: ProfileIn, request: Request, response: Response, svc: Service
) -> dict[str, Any]:
    """Create a player. The `recovery_code` is shown only here: keep it to continue elsewhere."""
    out = await svc.create_profile(body.name)
    _set_cookie(request, response, out["token"])
    return out


@router.get("/me")
async def me(profile_id: ProfileId, svc: Service) -> dict[str, Any]:
    p = await svc.profile(profile_id)
    if p is None:
        raise NotFound("no such profile")
    return p


@router.post("/recover")
async def recover(
    body: RecoverIn, request: Request, response: Response, svc: Service
) -> dict[str, Any]:
    """Exchange a recovery code for a fresh token on this device."""
    out = await svc.recover(body.code)
    _set_cookie(request, response, out["token"])
    return out

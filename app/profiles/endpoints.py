"""Routes under ``/api/profiles``: parse, call the service, render. Every response that carries
a token or a recovery code is ``Cache-Control: no-store``, and so is ``/me`` (whose answer
depends on who asks)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response

from app.db.guide_status import GuideStatus
from app.profiles.deps import (
    NO_STORE,
    RENEWED_TOKEN_HEADER,
    MaybeProfileId,
    ProfileId,
    Profiles,
    SessionId,
    clear_session_cookie,
    set_session_cookie,
)
from app.profiles.device_name import device_name
from app.profiles.handover import sign_in_here
from app.profiles.limit import limit
from app.profiles.schemas import (
    CredentialsOut,
    NoticeOut,
    ProfileIn,
    ProfileOut,
    RecoveredOut,
    RecoverIn,
    SignedOutEverywhereOut,
    SignOutEverywhereIn,
)
from app.profiles.service import IssuedWithCode
from app.ratelimit import LimitName

router = APIRouter(prefix="/api/profiles", tags=["profiles"])


def _credentials(out: IssuedWithCode) -> CredentialsOut:
    return CredentialsOut(
        id=out.id, name=out.name, token=out.token, recovery_code=out.recovery_code
    )


@router.post("", status_code=201, dependencies=[Depends(limit(LimitName.PROFILE_CREATE))])
async def create_profile(
    body: ProfileIn, request: Request, response: Response, svc: Profiles
) -> CredentialsOut:
    """Create a player: a token (also set as the HttpOnly cookie) and the recovery code, shown
    only here: keep it to continue on another device."""
    out = await svc.create(body.name, device_name(request.headers.get("user-agent")))
    set_session_cookie(request, response, out.token)
    return _credentials(out)


@router.get("/me")
async def me(
    profile_id: ProfileId, session_id: SessionId, response: Response, svc: Profiles
) -> ProfileOut:
    """Who this device is signed in as; ``recovered_elsewhere`` when another device used the
    recovery code since this one began, and ``notices`` of passkeys added and address changes
    made on other devices ("not you? sign out everywhere")."""
    row = await svc.me(profile_id)
    response.headers["Cache-Control"] = NO_STORE
    other = await svc.recovered_elsewhere(session_id)
    recovered = None if other is None else RecoveredOut(device=other.device, at=other.created_at)
    guide = GuideStatus(row.guide) if row.guide else None
    notices = [
        NoticeOut(id=n.id, kind=n.kind, detail=n.detail, device=n.device, at=n.at)
        for n in await svc.notices(session_id)
    ]
    return ProfileOut(
        id=row.id, name=row.name, recovered_elsewhere=recovered, guide=guide, notices=notices
    )


@router.post("/recover", dependencies=[Depends(limit(LimitName.RECOVER))])
async def recover(
    body: RecoverIn,
    request: Request,
    response: Response,
    svc: Profiles,
    current: MaybeProfileId,
) -> CredentialsOut:
    """Spend a recovery code on this device: a session of its own, and a NEW recovery code (the
    one used no longer works). The profile's other devices stay signed in and are told
    (``recovered_elsewhere`` in their ``/me``). Where another profile is signed in on this
    device: `409 signed_in_as_other` (both names; the code is not spent) unless `switch` is
    true."""
    device = device_name(request.headers.get("user-agent"))
    out = await svc.recover(body.code, device, current, body.switch)
    sign_in_here(request, response, out.token)
    return _credentials(out)


@router.post("/signout", status_code=204)
async def sign_out(request: Request) -> Response:
    """Forget the session on this device (clears the cookie). The token itself stays good
    until it expires: to cut every token off, sign out everywhere."""
    response = Response(status_code=204)
    clear_session_cookie(request, response)
    return response


@router.post("/signout-everywhere")
async def sign_out_everywhere(
    profile_id: ProfileId,
    session_id: SessionId,
    request: Request,
    response: Response,
    svc: Profiles,
    body: SignOutEverywhereIn | None = None,
) -> SignedOutEverywhereOut:
    """Cut off every token of this profile, on every device and instance, and every e-mail link
    still open; this device gets a fresh token (so the person who asked stays signed in here).
    With ``remove_added_since``, the passkeys and the address added since then are removed in
    the same step (this needs a recent proof: `403 recent_proof_required`, nothing done)."""
    since = None if body is None else body.remove_added_since
    out, removed = await svc.sign_out_everywhere(
        profile_id, device_name(request.headers.get("user-agent")), session_id, since
    )
    set_session_cookie(request, response, out.token)
    if RENEWED_TOKEN_HEADER in response.headers:  # renewed before the cut: already stale
        del response.headers[RENEWED_TOKEN_HEADER]
    return SignedOutEverywhereOut(
        id=out.id,
        name=out.name,
        token=out.token,
        removed_passkeys=removed.passkeys,
        removed_address=removed.address,
    )

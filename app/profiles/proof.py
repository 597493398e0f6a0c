"""Routes of "confirm it's you" and of what a device is told about changes to the ways in: prove
this device again with the recovery code (a passkey proves it under ``/api/passkeys/confirm``),
dismiss the security notices shown here, and list the passkeys and address with when each was
added (what "sign out everywhere" may remove)."""

from __future__ import annotations

from datetime import timedelta

from fastapi import APIRouter, Depends, Response

from app.profiles.deps import NO_STORE, ProfileId, Profiles, SessionId
from app.profiles.limit import limit
from app.profiles.schemas import (
    AddressAddedOut,
    ConfirmCodeIn,
    DismissIn,
    PasskeyAddedOut,
    ProvedOut,
    WaysInOut,
)
from app.ratelimit import LimitName

router = APIRouter(prefix="/api/profiles", tags=["profiles"])


@router.post("/me/confirm", dependencies=[Depends(limit(LimitName.RECOVER))])
async def confirm_with_code(
    body: ConfirmCodeIn, profile_id: ProfileId, session_id: SessionId, svc: Profiles
) -> ProvedOut:
    """Confirm it's you with the profile's recovery code (it is not used up): for
    ``recent_proof_seconds`` this device may add or remove a passkey or the address. A wrong
    code: `404 bad_recovery_code` (counted toward the 429, like a recovery)."""
    at = await svc.prove_with_code(profile_id, session_id, body.code)
    return ProvedOut(proved_at=at, until=at + timedelta(seconds=svc.proof_seconds))


@router.post("/me/notices/dismiss", status_code=204)
async def dismiss_notices(body: DismissIn, session_id: SessionId, svc: Profiles) -> Response:
    """This device has seen the security notices up to ``through`` (the others still see them)."""
    await svc.dismiss_notices(session_id, body.through)
    return Response(status_code=204)


@router.get("/me/ways-in")
async def ways_in(profile_id: ProfileId, response: Response, svc: Profiles) -> WaysInOut:
    """The passkeys and the address of this profile with when each was added, and the default
    time "sign out everywhere" removes those added since (the newest device's sign-in)."""
    response.headers["Cache-Control"] = NO_STORE
    found = await svc.ways_in(profile_id)
    return WaysInOut(
        passkeys=[
            PasskeyAddedOut(id=p.id, name=p.name, added_at=p.added_at) for p in found.passkeys
        ],
        address=None
        if found.address is None
        else AddressAddedOut(address=found.address.address, added_at=found.address.added_at),
        default_since=found.newest_session_at,
    )

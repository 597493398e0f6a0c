"""Routes under ``/api/passkeys``: add a passkey to my profile, list and remove mine, and sign in
with one on any device (``signin/options`` and ``signin`` need no profile and are rate-limited
per client address).

The relying party is the site: the host of ``EMARA_PUBLIC_URL`` when set, else the host this
request was made to; the ceremony's origin must be that URL's origin (or the request's). An IP
address is never a relying party (browsers refuse it): every route refuses with
``passkeys_need_host_name`` there, naming the same address on ``localhost`` for a loopback one.
"""

from __future__ import annotations

import ipaddress
from datetime import timedelta
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Request, Response

from app.parts import provided
from app.passkeys.errors import PasskeysNeedHostName
from app.passkeys.schemas import (
    ConfirmedOut,
    ConfirmIn,
    CreationOptionsOut,
    PasskeyOut,
    PasskeysOut,
    RegisterIn,
    RequestOptionsOut,
    SignedInOut,
    SignInIn,
)
from app.passkeys.service import PasskeyService, Site, as_utc
from app.profiles.deps import (
    NO_STORE,
    ProfileId,
    ProvenSession,
    SessionId,
    set_session_cookie,
    settings_of,
)
from app.profiles.device_name import device_name
from app.profiles.limit import limit
from app.ratelimit import LimitName

router = APIRouter(prefix="/api/passkeys", tags=["passkeys"])
SIGNIN_LIMIT = [Depends(limit(LimitName.PASSKEY_SIGNIN))]


passkey_service = provided(PasskeyService)


Passkeys = Annotated[PasskeyService, Depends(passkey_service)]


def site_of(request: Request) -> Site:
    """The relying party and the origin a browser on this site has; refused on an IP address."""
    public = settings_of(request).public_url.strip()
    if public:
        parts = urlsplit(public)
        if parts.scheme and parts.hostname:
            return _named(Site(parts.hostname, (f"{parts.scheme}://{parts.netloc}",)), public)
    url = request.url
    origin = f"{url.scheme}://{url.netloc}"
    return _named(Site(url.hostname or "localhost", (origin,)), str(url))


def _named(site: Site, page: str) -> Site:
    try:
        address = ipaddress.ip_address(site.rp_id)
    except ValueError:
        return site  # a host name
    extra: dict[str, str] = {}
    if address.is_loopback:
        parts = urlsplit(page)
        port = f":{parts.port}" if parts.port else ""
        extra["open"] = f"{parts.scheme}://localhost{port}/"
    raise PasskeysNeedHostName(
        f"passkeys work on a host name, not on the IP address {site.rp_id}"
        + (f": open {extra['open']}" if extra else ""),
        **extra,
    )


def no_store(response: Response) -> None:
    response.headers["Cache-Control"] = NO_STORE


def _out(row: Any) -> PasskeyOut:
    return PasskeyOut(
        id=row.id,
        name=row.name,
        created_at=as_utc(row.created_at),
        last_used_at=as_utc(row.last_used_at),
    )


@router.post("/register/options", response_model=CreationOptionsOut)
async def registration_options(
    request: Request,
    profile_id: ProfileId,
    proven: ProvenSession,
    svc: Passkeys,
    response: Response,
) -> CreationOptionsOut:
    """Options for `navigator.credentials.create()`: a fresh challenge (single use, good for 5
    minutes, bound to my profile), my existing passkeys excluded. Needs a recent proof on this
    device (`403 recent_proof_required`: confirm it's you first)."""
    no_store(response)
    return await svc.registration_options(profile_id, site_of(request))


@router.post("/register", response_model=PasskeyOut, status_code=201)
async def register(
    body: RegisterIn,
    request: Request,
    profile_id: ProfileId,
    proven: ProvenSession,
    svc: Passkeys,
    response: Response,
) -> PasskeyOut:
    """Keep the passkey the browser made: refused with `recent_proof_required` (no recent proof
    on this device), `bad_passkey_challenge` (unknown, used or expired challenge),
    `passkey_refused` (wrong origin, relying party or answer) or `passkey_taken`. The profile's
    other devices are told ("a passkey was added — not you?")."""
    no_store(response)
    site = site_of(request)
    return _out(await svc.register(profile_id, site, body.credential, body.name, proven))


@router.get("", response_model=PasskeysOut)
async def my_passkeys(profile_id: ProfileId, svc: Passkeys, response: Response) -> PasskeysOut:
    """My passkeys: name, when added, when last used (never a key)."""
    no_store(response)
    return PasskeysOut(passkeys=[_out(p) for p in await svc.mine(profile_id)])


@router.delete("/{passkey_id}", status_code=204)
async def remove_passkey(
    passkey_id: str, profile_id: ProfileId, proven: ProvenSession, svc: Passkeys
) -> Response:
    """Forget one of my passkeys: it signs nobody in any more. Needs a recent proof on this
    device (`403 recent_proof_required`)."""
    await svc.remove(profile_id, passkey_id[:64])
    return Response(status_code=204)


@router.post("/signin/options", response_model=RequestOptionsOut, dependencies=SIGNIN_LIMIT)
async def signin_options(request: Request, svc: Passkeys, response: Response) -> RequestOptionsOut:
    """Options for `navigator.credentials.get()`: a fresh challenge (single use, 5 minutes),
    no credential named (the authenticator offers the passkeys it holds for this site)."""
    no_store(response)
    return await svc.signin_options(site_of(request))


@router.post("/signin", response_model=SignedInOut, dependencies=SIGNIN_LIMIT)
async def sign_in(
    body: SignInIn, request: Request, response: Response, svc: Passkeys
) -> SignedInOut:
    """Sign this device in with a passkey: its own session (the cookie); the profile's other
    devices stay signed in. Refused: `bad_passkey_challenge`, `unknown_passkey` (removed or
    never added), `passkey_refused` (origin, signature, or a sign count that went back)."""
    device = body.device or device_name(request.headers.get("user-agent"))
    issued = await svc.sign_in(site_of(request), body.credential, device)
    set_session_cookie(request, response, issued.token)
    return SignedInOut(id=issued.id, name=issued.name)


@router.post("/confirm/options", response_model=RequestOptionsOut, dependencies=SIGNIN_LIMIT)
async def confirm_options(
    request: Request, profile_id: ProfileId, svc: Passkeys, response: Response
) -> RequestOptionsOut:
    """Confirm it's you with a passkey: options for `navigator.credentials.get()` naming my
    passkeys, a challenge bound to my profile (single use, 5 minutes). No passkey:
    `404 unknown_passkey`."""
    no_store(response)
    return await svc.confirm_options(profile_id, site_of(request))


@router.post("/confirm", response_model=ConfirmedOut, dependencies=SIGNIN_LIMIT)
async def confirm(
    body: ConfirmIn,
    request: Request,
    profile_id: ProfileId,
    session_id: SessionId,
    svc: Passkeys,
    response: Response,
) -> ConfirmedOut:
    """One of my passkeys answered: this device may add or remove a passkey or the address for
    `recent_proof_seconds`. Refused like a sign-in (`bad_passkey_challenge`, `unknown_passkey`
    for a passkey of another profile, `passkey_refused`)."""
    no_store(response)
    at = await svc.confirm(profile_id, session_id, site_of(request), body.credential)
    until = at + timedelta(seconds=svc.profiles.proof_seconds)
    return ConfirmedOut(proved_at=at, until=until)

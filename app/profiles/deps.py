"""Who is calling: the token of a request, the session it opens, and the FastAPI dependencies
``ProfileId`` (a session is required) and ``MaybeProfileId`` (optional) every feature uses.

Which credential counts: an ``Authorization: Bearer`` header, when sent, is the only one looked
at (scripts say exactly who they are); otherwise the ``emara_token`` cookie. A bad header is a
401 even next to a good cookie: the request never acts as someone it did not name.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Response

from app.bearer import token_from
from app.config import Settings
from app.errors import Unauthenticated
from app.parts import Parts, provided
from app.profiles.service import ProfileService

# A response carrying a renewed token names it in this header (and sets the cookie).
RENEWED_TOKEN_HEADER = "Emara-Renewed-Token"
NO_STORE = "no-store"


profile_service = provided(ProfileService)


def settings_of(request: Request) -> Settings:
    return Parts.of(request.app).settings


def request_token(request: Request) -> str | None:
    cookie = request.cookies.get(settings_of(request).cookie_name)
    return token_from(request.headers.get("authorization"), cookie)


def cookie_secure(request: Request) -> bool:
    """The session cookie is ``Secure`` when the settings say the site is served over HTTPS,
    and whenever this request came over HTTPS (behind a proxy: uvicorn's ``--proxy-headers``
    with ``--forwarded-allow-ips`` makes its scheme the one the browser used)."""
    return settings_of(request).cookie_secure or request.url.scheme == "https"


def set_session_cookie(request: Request, response: Response, token: str) -> None:
    settings = settings_of(request)
    response.set_cookie(
        settings.cookie_name,
        token,
        max_age=int(settings.session_days * 86400),
        httponly=True,
        samesite="lax",
        secure=cookie_secure(request),
        path="/",
    )
    response.headers["Cache-Control"] = NO_STORE


def clear_session_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(
        settings_of(request).cookie_name,
        httponly=True,
        samesite="lax",
        secure=cookie_secure(request),
        path="/",
    )
    response.headers["Cache-Control"] = NO_STORE


async def optional_profile(request: Request, response: Response) -> str | None:
    """The caller's profile id, or None. A session due for renewal gets a fresh token on this
    response: the cookie, and the ``Emara-Renewed-Token`` header for clients holding it."""
    token = request_token(request)
    if token is None:
        return None
    profiles = await profile_service(request)
    info = await profiles.session(token)
    if info is None:
        return None
    request.state.emara_session = info.session_id  # this device's session (My devices)
    request.state.emara_proved_at = info.proved_at  # its last proof (recent_proof)
    if info.renewed_token is not None:
        set_session_cookie(request, response, info.renewed_token)
        response.headers[RENEWED_TOKEN_HEADER] = info.renewed_token
    return info.profile_id


async def current_profile(
    profile_id: Annotated[str | None, Depends(optional_profile)],
) -> str:
    if profile_id is None:
        raise Unauthenticated("a valid profile token is needed (cookie or Authorization: Bearer)")
    return profile_id


ProfileId = Annotated[str, Depends(current_profile)]
MaybeProfileId = Annotated[str | None, Depends(optional_profile)]
Profiles = Annotated[ProfileService, Depends(profile_service)]


async def current_session(request: Request, profile_id: ProfileId) -> str:
    """This device's session id (My devices); the caller is signed in."""
    return str(getattr(request.state, "emara_session", ""))


SessionId = Annotated[str, Depends(current_session)]


async def recent_proof(request: Request, session_id: SessionId, svc: Profiles) -> str:
    """This device's session id, when it proved recently that it is its person (its sign-in, a
    re-entered recovery code or passkey); else ``403 recent_proof_required`` before anything is
    done. For the changes to the ways in: adding or removing a passkey or the e-mail address."""
    svc.check_proof(getattr(request.state, "emara_proved_at", None))
    return session_id


ProvenSession = Annotated[str, Depends(recent_proof)]

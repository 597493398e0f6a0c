"""E-mail routes under ``/api/email``: my address, the links' landing calls, unsubscribe.

Every mail a person asks for counts against ``email_send`` per client address, profile and
mailbox; a wrong, used or expired link against ``email_link``. Tokens arrive in POST bodies (the
pages read them from the URL fragment), except the RFC 8058 one-click URL's ``token=`` query,
which the log filter hides.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from app.errors import Malformed
from app.mail.address import normalise
from app.mail.schemas import (
    DoneOut,
    EmailIn,
    EmailOut,
    EmailSettingsIn,
    SignedInOut,
    SignInIn,
    TokenIn,
)
from app.mail.service import MailService
from app.mail.tokens import address_digest
from app.parts import provided
from app.profiles.deps import NO_STORE, MaybeProfileId, ProfileId, ProvenSession
from app.profiles.handover import sign_in_here
from app.profiles.limit import limit
from app.ratelimit import LimitName
from app.ratelimit.deps import client_keys, limiter_of

router = APIRouter(prefix="/api/email", tags=["e-mail"])
LINK_LIMIT = [Depends(limit(LimitName.EMAIL_LINK))]
ONE_CLICK = b"List-Unsubscribe=One-Click"


mail_service = provided(MailService)


Mail = Annotated[MailService, Depends(mail_service)]


async def count_send(request: Request, profile_id: str | None, raw: str) -> None:
    """One mail asked for: counted per client address, profile and (a hash of the) mailbox."""
    limiter = limiter_of(request)
    keys = [*client_keys(request, profile_id), f"mailbox:{address_digest(normalise(raw))}"]
    await limiter.check(LimitName.EMAIL_SEND, keys)


def no_store(response: Response) -> None:
    response.headers["Cache-Control"] = NO_STORE


@router.get("", response_model=EmailOut)
async def my_email(profile_id: ProfileId, svc: Mail, response: Response) -> EmailOut:
    """My address (only I see it), whether game notifications go to it, and whether this server
    sends e-mail at all."""
    no_store(response)
    return svc.describe(await svc.status(profile_id))


@router.post("", response_model=EmailOut, status_code=202)
async def add_email(
    body: EmailIn,
    request: Request,
    profile_id: ProfileId,
    proven: ProvenSession,
    svc: Mail,
    response: Response,
) -> EmailOut:
    """Add (or change to) an address: a confirmation link goes to it, good once for a short
    while; the address counts from its confirmation (the profile's other devices are told, and
    a change is mailed to the old address). Refused: no recent proof on this device
    (`recent_proof_required`), anything but one plain address (`bad_email_address` with a
    `reason`), or no SMTP server (`email_unavailable`)."""
    no_store(response)
    await count_send(request, profile_id, body.address)
    return svc.describe(await svc.add(profile_id, body.address, body.lang, proven))


@router.patch("", response_model=EmailOut)
async def email_settings(
    body: EmailSettingsIn, profile_id: ProfileId, svc: Mail, response: Response
) -> EmailOut:
    """Game notifications on or off, and the language of the e-mails."""
    no_store(response)
    return svc.describe(await svc.update(profile_id, body.notify, body.lang))


@router.delete("", response_model=EmailOut)
async def remove_email(
    profile_id: ProfileId, proven: ProvenSession, svc: Mail, response: Response
) -> EmailOut:
    """Forget my address (and every link sent to it). Needs a recent proof on this device
    (`recent_proof_required`)."""
    no_store(response)
    return svc.describe(await svc.remove(profile_id))


@router.post("/confirm", response_model=DoneOut, dependencies=LINK_LIMIT)
async def confirm(body: TokenIn, svc: Mail, response: Response) -> DoneOut:
    """Spend a confirmation link's token (from any device): the address becomes the profile's."""
    no_store(response)
    await svc.confirm(body.token)
    return DoneOut(done=True)


@router.post("/unsubscribe", response_model=DoneOut, dependencies=LINK_LIMIT)
async def unsubscribe(body: TokenIn, svc: Mail, response: Response) -> DoneOut:
    """The unsubscribe page's call: no more game notifications to that address."""
    no_store(response)
    await svc.unsubscribe(body.token)
    return DoneOut(done=True)


@router.post("/unsubscribe/one-click", response_model=DoneOut, dependencies=LINK_LIMIT)
async def one_click(request: Request, svc: Mail, response: Response, token: str = "") -> DoneOut:
    """RFC 8058: the mail client POSTs `List-Unsubscribe=One-Click` to the `List-Unsubscribe`
    URL; no cookie, no page, no confirmation."""
    no_store(response)
    if ONE_CLICK not in (await request.body()):
        raise Malformed("a one-click unsubscribe posts List-Unsubscribe=One-Click")
    await svc.unsubscribe(token[:200])
    return DoneOut(done=True)


async def count_sign_in(
    request: Request, profile_id: str | None, raw: str, svc: MailService
) -> None:
    """One sign-in link asked for. With a session of the address's own profile: the owner's
    budget (``email_send``, as every mail the owner asks for). Anyone else (signed out, or
    another profile): the strangers' budget (``email_signin_strangers``), counted apart per
    client address and mailbox, so strangers using theirs up never refuse the owner."""
    if profile_id is not None and await svc.owner_id(raw) == profile_id:
        await count_send(request, profile_id, raw)
        return
    limiter = limiter_of(request)
    keys = [*client_keys(request, None), f"mailbox:{address_digest(normalise(raw))}"]
    await limiter.check(LimitName.EMAIL_SIGNIN_STRANGERS, keys)


@router.post("/signin-link", response_model=DoneOut, status_code=202)
async def sign_in_link(
    body: EmailIn, request: Request, svc: Mail, profile_id: MaybeProfileId
) -> DoneOut:
    """A sign-in link for this device, to the address if a profile confirmed it. The answer is
    the same whether or not one did. Asked with a session of the address's profile it counts
    against the owner's budget, otherwise against the smaller strangers' one."""
    await count_sign_in(request, profile_id, body.address, svc)
    await svc.send_sign_in(body.address, body.lang)
    return DoneOut(done=True)


@router.post("/signin", response_model=SignedInOut, dependencies=LINK_LIMIT)
async def sign_in(
    body: SignInIn, request: Request, response: Response, svc: Mail, current: MaybeProfileId
) -> SignedInOut:
    """Spend a sign-in link's token: this device gets its own session (the cookie); the
    profile's other devices stay signed in. Where another profile is signed in on this device:
    `409 signed_in_as_other` (both names; the link is not spent) unless `switch` is true."""
    issued = await svc.sign_in(body.token, current, body.switch)
    sign_in_here(request, response, issued.token)
    return SignedInOut(id=issued.id, name=issued.name)

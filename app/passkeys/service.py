"""Passkeys: registration and sign-in ceremonies (checked by py_webauthn), the profile's list.

A challenge is 32 random bytes kept server-side only as a hash, bound to its ceremony and (for a
registration) to its profile; it is spent (deleted) before the answer is checked, so it works
once whatever the outcome, and runs out after ``challenge_seconds``. Adding a passkey is told to
the profile's other devices (a security notice); a passkey of the profile also proves a signed-in
device again ("confirm it's you": ``confirm_options`` and ``confirm``). The profile's WebAuthn user
handle is random (``passkey_user``), never its profile id. Nothing here logs a challenge, a
credential or a key.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from anyio import to_thread
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AttestationConveyancePreference,
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.clock import Clock
from app.db.session import Database
from app.errors import NotFound
from app.passkeys import repository as repo
from app.passkeys.errors import BadPasskeyChallenge, PasskeyRefused, PasskeyTaken, UnknownPasskey
from app.passkeys.schemas import (
    AuthenticationCredentialIn,
    CreationOptionsOut,
    RegistrationCredentialIn,
    RequestOptionsOut,
)
from app.profiles import notices
from app.profiles.service import Issued, ProfileService

T = TypeVar("T")

REGISTER = "register"
SIGNIN = "signin"
CONFIRM = "confirm"  # a signed-in device proves itself again with one of its profile's passkeys
KNOWN_TRANSPORTS = frozenset(t.value for t in AuthenticatorTransport)
MAX_PER_PROFILE = 20


@dataclass(frozen=True)
class Site:
    """Who the browser must have talked to: the relying party id (a host name) and the
    origin(s) a ceremony's client data may name."""

    rp_id: str
    origins: tuple[str, ...]


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def digest(challenge: bytes) -> str:
    return hashlib.sha256(challenge).hexdigest()


# What the browser answered: to ``navigator.credentials.create()`` or to ``.get()``.
Answer = RegistrationCredentialIn | AuthenticationCredentialIn


def challenge_of(credential: Answer) -> bytes:
    """The challenge an answer's client data says it signed (checked again by py_webauthn)."""
    try:
        data = json.loads(unb64url(credential.response.clientDataJSON))
        challenge = data["challenge"]
        if not isinstance(challenge, str) or not challenge:
            raise ValueError
        return unb64url(challenge)
    except (KeyError, TypeError, ValueError, binascii.Error):
        raise BadPasskeyChallenge("the answer names no challenge of ours") from None


class PasskeyService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        profiles: ProfileService,
        rp_name: str,
        challenge_seconds: float = 300.0,
    ) -> None:
        self.db = db
        self.clock = clock
        self.profiles = profiles
        self.rp_name = rp_name
        self.challenge_seconds = challenge_seconds

    async def _run(self, work: Callable[[Session], T]) -> T:
        def in_session() -> T:
            with self.db.session() as s:
                return work(s)

        return await to_thread.run_sync(in_session)

    def _new_challenge(self, s: Session, purpose: str, profile_id: str | None) -> bytes:
        now = self.clock.now()
        challenge = secrets.token_bytes(32)
        repo.prune_challenges(s, now)
        repo.add_challenge(s, digest(challenge), purpose, profile_id, now + self.challenge_seconds)
        return challenge

    async def _spend(self, credential: Answer, purpose: str, profile_id: str | None) -> bytes:
        challenge = challenge_of(credential)
        now = self.clock.now()
        if not await self._run(
            lambda s: repo.spend_challenge(s, digest(challenge), purpose, profile_id, now)
        ):
            raise BadPasskeyChallenge("this challenge is unknown, used or expired: start again")
        return challenge

    @property
    def _timeout_ms(self) -> int:
        return int(self.challenge_seconds * 1000)

    # ------------------------------------------------------------------ registration
    async def registration_options(self, profile_id: str, site: Site) -> CreationOptionsOut:
        """Options for ``navigator.credentials.create``: the profile's existing passkeys are
        excluded; a discoverable credential and user verification preferred."""

        def work(s: Session) -> tuple[str, str, list[repo.PasskeyRow], bytes]:
            name = repo.profile_name(s, profile_id)
            if name is None:
                raise NotFound("no such profile")
            handle = repo.ensure_handle(s, profile_id, b64url(secrets.token_bytes(32)))
            return (
                name,
                handle,
                repo.of_profile(s, profile_id),
                self._new_challenge(s, REGISTER, profile_id),
            )

        name, handle, existing, challenge = await self._run(work)
        options = generate_registration_options(
            rp_id=site.rp_id,
            rp_name=self.rp_name,
            user_name=name,
            user_id=unb64url(handle),
            user_display_name=name,
            challenge=challenge,
            timeout=self._timeout_ms,
            attestation=AttestationConveyancePreference.NONE,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.PREFERRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(
                    id=unb64url(p.credential_id),
                    transports=[AuthenticatorTransport(t) for t in p.transports],
                )
                for p in existing
            ],
        )
        return CreationOptionsOut.model_validate_json(options_to_json(options))

    async def register(
        self,
        profile_id: str,
        site: Site,
        credential: RegistrationCredentialIn,
        name: str | None,
        session_id: str | None = None,
    ) -> repo.PasskeyRow:
        """Check the answer to this profile's registration challenge and keep the passkey; the
        profile's other devices are told (a notice; not ``session_id``, the device that added
        it)."""
        challenge = await self._spend(credential, REGISTER, profile_id)
        try:
            verified = verify_registration_response(
                credential=credential.model_dump(exclude_none=True),
                expected_challenge=challenge,
                expected_rp_id=site.rp_id,
                expected_origin=list(site.origins),
            )
        except (WebAuthnException, KeyError, TypeError, ValueError):
            raise PasskeyRefused("the authenticator's answer does not check out") from None
        transports = [t for t in credential.response.transports if t in KNOWN_TRANSPORTS]
        now = self.clock.utcnow()
        wanted = (name or "").strip()

        def work(s: Session) -> repo.PasskeyRow:
            count = repo.count_of(s, profile_id)
            if count >= MAX_PER_PROFILE:
                raise PasskeyTaken(f"at most {MAX_PER_PROFILE} passkeys per profile")
            row = repo.insert(
                s,
                profile_id,
                b64url(verified.credential_id),
                verified.credential_public_key,
                verified.sign_count,
                transports,
                wanted or f"Passkey {count + 1}",
                now,
            )
            kind = notices.NoticeKind.PASSKEY_ADDED
            kept = self.profiles.notices_kept
            notices.record(s, profile_id, session_id, kind, row.name, now, kept)
            return row

        try:
            return await self._run(work)
        except IntegrityError:
            raise PasskeyTaken("this passkey is registered already") from None

    # ------------------------------------------------------------------ my passkeys
    async def mine(self, profile_id: str) -> list[repo.PasskeyRow]:
        return await self._run(lambda s: repo.of_profile(s, profile_id))

    async def remove(self, profile_id: str, passkey_id: str) -> None:
        if not await self._run(lambda s: repo.remove(s, profile_id, passkey_id)):
            raise NotFound("no such passkey of yours")

    # ------------------------------------------------------------------ sign-in
    async def signin_options(self, site: Site) -> RequestOptionsOut:
        """Options for ``navigator.credentials.get``: any passkey of this site (discoverable)."""
        challenge = await self._run(lambda s: self._new_challenge(s, SIGNIN, None))
        return self._request_options(site, challenge, [])

    def _request_options(
        self, site: Site, challenge: bytes, allowed: list[repo.PasskeyRow]
    ) -> RequestOptionsOut:
        options = generate_authentication_options(
            rp_id=site.rp_id,
            challenge=challenge,
            timeout=self._timeout_ms,
            allow_credentials=[
                PublicKeyCredentialDescriptor(
                    id=unb64url(p.credential_id),
                    transports=[AuthenticatorTransport(t) for t in p.transports],
                )
                for p in allowed
            ],
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        return RequestOptionsOut.model_validate_json(options_to_json(options))

    async def sign_in(
        self, site: Site, credential: AuthenticationCredentialIn, device: str | None
    ) -> Issued:
        """Check the answer to a sign-in challenge; a new session for the passkey's profile on
        this device (its other devices stay signed in)."""
        challenge = await self._spend(credential, SIGNIN, None)
        row = await self._check(site, credential, challenge)
        return await self.profiles.open_session(row.profile_id, device, how="passkey")

    # ------------------------------------------------------------------ confirm it's you
    async def confirm_options(self, profile_id: str, site: Site) -> RequestOptionsOut:
        """Options for ``navigator.credentials.get`` naming the profile's passkeys: a challenge
        bound to the profile. No passkey: ``404 unknown_passkey``."""

        def work(s: Session) -> tuple[list[repo.PasskeyRow], bytes]:
            mine = repo.of_profile(s, profile_id)
            if not mine:
                raise UnknownPasskey("this profile has no passkey")
            return mine, self._new_challenge(s, CONFIRM, profile_id)

        mine, challenge = await self._run(work)
        return self._request_options(site, challenge, mine)

    async def confirm(
        self, profile_id: str, session_id: str, site: Site, credential: AuthenticationCredentialIn
    ) -> datetime:
        """A passkey of this profile answered the profile's confirm challenge: this device has
        proved it is its person now. Another profile's passkey: ``unknown_passkey``."""
        challenge = await self._spend(credential, CONFIRM, profile_id)
        row = await self._check(site, credential, challenge, profile_id)
        return await self.profiles.prove(row.profile_id, session_id)

    async def _check(
        self,
        site: Site,
        credential: AuthenticationCredentialIn,
        challenge: bytes,
        profile_id: str | None = None,
    ) -> repo.PasskeyRow:
        """The passkey that signed ``challenge`` (of ``profile_id`` when given), its use
        recorded; refused when the answer does not check out."""
        raw_id = credential.rawId.rstrip("=")

        def look(s: Session) -> tuple[repo.PasskeyRow | None, str | None]:
            row = repo.by_credential(s, raw_id)
            return row, None if row is None else repo.handle_of(s, row.profile_id)

        row, handle = await self._run(look)
        if row is None or (profile_id is not None and row.profile_id != profile_id):
            raise UnknownPasskey("no passkey here has this credential")
        user_handle = credential.response.userHandle
        if user_handle and (handle is None or user_handle.rstrip("=") != handle):
            raise PasskeyRefused("the authenticator's answer does not check out")
        try:
            verified = verify_authentication_response(
                credential=credential.model_dump(exclude_none=True),
                expected_challenge=challenge,
                expected_rp_id=site.rp_id,
                expected_origin=list(site.origins),
                credential_public_key=row.public_key,
                credential_current_sign_count=row.sign_count,
            )
        except (WebAuthnException, KeyError, TypeError, ValueError):
            raise PasskeyRefused("the authenticator's answer does not check out") from None
        now = self.clock.utcnow()
        if not await self._run(
            lambda s: repo.record_use(s, row.id, row.sign_count, verified.new_sign_count, now)
        ):
            raise PasskeyRefused("the passkey was used at the same time elsewhere")
        return row


def as_utc(value: Any) -> Any:
    """SQLite hands back naive datetimes: they are UTC."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value

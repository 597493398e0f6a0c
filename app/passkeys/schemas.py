"""The passkey routes' bodies and answers. Credentials and options travel in WebAuthn's own JSON
form (``PublicKeyCredential.toJSON()``, ``PublicKeyCredentialCreationOptionsJSON``): camelCase
names, binary values as base64url without padding."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.strict import NulFree

B64 = r"^[A-Za-z0-9_-]*={0,2}$"
# A credential id is at most 1023 bytes (WebAuthn): 1364 base64url characters.
CredentialId = Field(min_length=1, max_length=1400, pattern=B64)


class _Wire(NulFree):
    model_config = ConfigDict(extra="ignore")


# ------------------------------------------------------------------------------ in
class AttestationResponseIn(_Wire):
    clientDataJSON: str = Field(max_length=4096, pattern=B64)
    attestationObject: str = Field(max_length=32768, pattern=B64)
    transports: list[str] = Field(default_factory=list, max_length=10)


class RegistrationCredentialIn(_Wire):
    """What ``navigator.credentials.create()`` answered, as JSON."""

    id: str = CredentialId
    rawId: str = CredentialId
    type: Literal["public-key"]
    response: AttestationResponseIn
    authenticatorAttachment: str | None = Field(default=None, max_length=32)
    clientExtensionResults: dict[str, Any] = Field(default_factory=dict)


class RegisterIn(NulFree):
    credential: RegistrationCredentialIn
    # Shown in my list; empty: "Passkey N".
    name: str | None = Field(default=None, max_length=60)


class AssertionResponseIn(_Wire):
    clientDataJSON: str = Field(max_length=4096, pattern=B64)
    authenticatorData: str = Field(max_length=4096, pattern=B64)
    signature: str = Field(max_length=2048, pattern=B64)
    userHandle: str | None = Field(default=None, max_length=128, pattern=B64)


class AuthenticationCredentialIn(_Wire):
    """What ``navigator.credentials.get()`` answered, as JSON."""

    id: str = CredentialId
    rawId: str = CredentialId
    type: Literal["public-key"]
    response: AssertionResponseIn
    authenticatorAttachment: str | None = Field(default=None, max_length=32)
    clientExtensionResults: dict[str, Any] = Field(default_factory=dict)


class SignInIn(NulFree):
    credential: AuthenticationCredentialIn
    # A name for this device (e.g. the browser's), for the profile's list of devices.
    device: str | None = Field(default=None, max_length=60)


# ------------------------------------------------------------------------------ out
class RelyingPartyOut(BaseModel):
    id: str
    name: str


class UserOut(BaseModel):
    """``id``: the profile's opaque user handle (random; not its profile id)."""

    id: str
    name: str
    displayName: str


class CredentialParamOut(BaseModel):
    type: Literal["public-key"]
    alg: int


class DescriptorOut(BaseModel):
    id: str
    type: Literal["public-key"]
    transports: list[str] | None = None


class SelectionOut(BaseModel):
    residentKey: str
    requireResidentKey: bool
    userVerification: str
    authenticatorAttachment: str | None = None


class CreationOptionsOut(BaseModel):
    """``PublicKeyCredentialCreationOptions`` as JSON: decode ``challenge``, ``user.id`` and each
    ``excludeCredentials[].id`` from base64url and pass them to ``navigator.credentials.create``."""

    rp: RelyingPartyOut
    user: UserOut
    challenge: str
    pubKeyCredParams: list[CredentialParamOut]
    timeout: int
    excludeCredentials: list[DescriptorOut]
    authenticatorSelection: SelectionOut
    attestation: str


class RequestOptionsOut(BaseModel):
    """``PublicKeyCredentialRequestOptions`` as JSON (discoverable: ``allowCredentials`` is
    empty, the authenticator offers the passkeys it holds for ``rpId``)."""

    challenge: str
    timeout: int
    rpId: str
    allowCredentials: list[DescriptorOut]
    userVerification: str


class PasskeyOut(BaseModel):
    """One of my passkeys (never its key)."""

    id: str
    name: str
    created_at: datetime
    last_used_at: datetime | None


class PasskeysOut(BaseModel):
    passkeys: list[PasskeyOut]


class SignedInOut(BaseModel):
    """Signed in on this device (the session is the HttpOnly cookie)."""

    id: str
    name: str


class ConfirmIn(BaseModel):
    """Confirm it's you: what ``navigator.credentials.get()`` answered to the confirm options."""

    credential: AuthenticationCredentialIn


class ConfirmedOut(BaseModel):
    """This device proved it is its person at ``proved_at``; changes to the ways in are allowed
    until ``until``."""

    proved_at: datetime
    until: datetime

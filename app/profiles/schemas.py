"""The profiles feature's bodies: requests strict (a number for a name is a 422), responses
allow-lists (a profile never carries another person's data, and secrets only its own)."""

from __future__ import annotations

from datetime import datetime

from pydantic import AwareDatetime, BaseModel, Field, field_validator

from app.db.guide_status import GuideStatus
from app.profiles.notices import NoticeKind
from app.strict import Strict


class ProfileIn(Strict):
    name: str = Field(min_length=1, max_length=40)

    @field_validator("name")
    @classmethod
    def _clean(cls, v: str) -> str:
        v = " ".join(v.split())
        if not v or any(not ch.isprintable() for ch in v):
            raise ValueError("name must be printable and not blank")
        return v


class RecoverIn(Strict):
    code: str = Field(min_length=4, max_length=64)
    # Sign in as the code's profile even where another profile is signed in on this browser
    # (without it: ``409 signed_in_as_other``, app/profiles/switch.py).
    switch: bool = False


class RecoveredOut(BaseModel):
    """Another device signed in with the recovery code since this one began."""

    device: str
    at: datetime


class ProfileBase(BaseModel):
    id: str
    name: str


class NoticeOut(BaseModel):
    """A change to the ways in made on another device since this one signed in: "not you?"."""

    id: int
    kind: NoticeKind
    detail: str  # the passkey's name, or the new address
    device: str | None  # the device that made it ("Firefox on Android"), when still known
    at: datetime


class ProfileOut(ProfileBase):
    # Set when another device used the recovery code since this device began (and this device
    # did not say "that was me"): "not you? sign out everywhere".
    recovered_elsewhere: RecoveredOut | None = None
    # The guided first game: finished or dismissed (null: not yet) — app/tutorial.
    guide: GuideStatus | None = None
    # Passkeys added and address changes made on other devices since this one signed in and
    # last dismissed them, newest first: "not you? sign out everywhere".
    notices: list[NoticeOut] = []


class SessionOut(ProfileBase):
    """A fresh token for this device (also set as the HttpOnly cookie)."""

    token: str


class CredentialsOut(SessionOut):
    """The token, plus the recovery code to show the person once: it opens the profile on
    another device, works one time, and is replaced by a new one when used."""

    recovery_code: str


class DeviceOut(BaseModel):
    id: str
    device: str  # a name from the browser: "Firefox on Android"
    how: str  # created | recovery | added | email | passkey | earlier
    name: str | None = None  # the person's own name for it (None: not named)
    created_at: datetime
    last_used_at: datetime
    current: bool  # this device


class DeviceNameIn(Strict):
    """A person's name for one of their devices: up to 40 printable characters, spaces folded;
    empty or null forgets it (My devices shows the browser's name again)."""

    name: str | None = Field(default=None, max_length=40)

    @field_validator("name")
    @classmethod
    def _clean(cls, v: str | None) -> str | None:
        if v is None:
            return None
        v = " ".join(v.split())
        if any(not ch.isprintable() for ch in v):
            raise ValueError("a device name must be printable")
        return v or None


class DevicesOut(BaseModel):
    devices: list[DeviceOut]


class DeviceCodeOut(BaseModel):
    """Shown on the signed-in device: typed (``code``), opened (``link``) or scanned (``qr_svg``,
    a data: URL of an SVG image of the link) on the new one. Works once, until ``expires_at``."""

    code: str
    link: str
    qr_svg: str
    expires_at: datetime


class DeviceCodeIn(Strict):
    code: str = Field(min_length=4, max_length=32)
    # As ``RecoverIn.switch``: replace another profile's session on this browser.
    switch: bool = False


class ConfirmCodeIn(Strict):
    """Confirm it's you: the profile's recovery code, re-entered (it stays the same)."""

    code: str = Field(min_length=4, max_length=64)


class ProvedOut(BaseModel):
    """This device proved it is its person at ``proved_at``: changes to the ways in are allowed
    until ``until``."""

    proved_at: datetime
    until: datetime


class DismissIn(Strict):
    """This device has seen the notices up to this one (the newest shown)."""

    through: int = Field(ge=0)


class PasskeyAddedOut(BaseModel):
    id: str
    name: str
    added_at: datetime


class AddressAddedOut(BaseModel):
    address: str
    added_at: datetime


class WaysInOut(BaseModel):
    """What "sign out everywhere" can remove: every passkey and the address, with when each was
    added; ``default_since``, when the newest signed-in device began (those added since are
    offered for removal)."""

    passkeys: list[PasskeyAddedOut]
    address: AddressAddedOut | None
    default_since: datetime | None


class SignOutEverywhereIn(Strict):
    """Also remove the passkeys and the address added at or after this time (needs a recent
    proof: ``403 recent_proof_required`` otherwise, and nothing is done)."""

    # An ISO 8601 time with its zone, as JSON has it (a string: parsed, unlike other fields).
    remove_added_since: AwareDatetime | None = Field(default=None, strict=False)

    @field_validator("remove_added_since", mode="before")
    @classmethod
    def _a_string(cls, v: object) -> object:
        if v is not None and not isinstance(v, str):
            raise ValueError("an ISO 8601 time with its zone, as a string")
        return v


class SignedOutEverywhereOut(SessionOut):
    """The fresh session of this device, and what was removed."""

    removed_passkeys: int = 0
    removed_address: bool = False

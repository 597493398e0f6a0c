"""The profiles feature's bodies: requests strict (a number for a name is a 422), responses
allow-lists (a profile never carries another person's data, and secrets only its own)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field, field_validator

from app.db.guide_status import GuideStatus
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


class ProfileOut(ProfileBase):
    # Set when another device used the recovery code since this device began (and this device
    # did not say "that was me"): "not you? sign out everywhere".
    recovered_elsewhere: RecoveredOut | None = None
    # The guided first game: finished or dismissed (null: not yet) — app/tutorial.
    guide: GuideStatus | None = None


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
    created_at: datetime
    last_used_at: datetime
    current: bool  # this device


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

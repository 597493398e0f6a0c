"""The profiles feature's bodies: requests strict (a number for a name is a 422), responses
allow-lists (a profile never carries another person's data, and secrets only its own)."""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

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


class ProfileOut(BaseModel):
    id: str
    name: str


class SessionOut(ProfileOut):
    """A fresh token for this device (also set as the HttpOnly cookie)."""

    token: str


class CredentialsOut(SessionOut):
    """The token, plus the recovery code to show the person once: it opens the profile on
    another device, works one time, and is replaced by a new one when used."""

    recovery_code: str

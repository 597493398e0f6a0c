"""The contracts of e-mail: requests strict; an address is answered only to its own profile."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.strict import Strict

Language = Literal["cs", "de", "en"]


class EmailIn(Strict):
    # Bounded here; judged (one plain address, no control characters) by the service, which
    # answers a typed ``bad_email_address`` with its reason.
    address: str = Field(min_length=1, max_length=1000)
    lang: Language = "en"


class EmailSettingsIn(Strict):
    notify: bool | None = None
    lang: Language | None = None


class TokenIn(Strict):
    token: str = Field(min_length=16, max_length=200)


class SignInIn(TokenIn):
    # Sign in as the link's profile even where another profile is signed in on this browser
    # (without it: ``409 signed_in_as_other``, app/profiles/switch.py).
    switch: bool = False


class EmailOut(BaseModel):
    """My e-mail: ``enabled`` false when the server sends no e-mail at all; ``address`` the
    confirmed one; ``pending`` an address waiting for its confirmation link."""

    enabled: bool
    address: str | None
    pending: str | None
    notify: bool
    lang: str


class DoneOut(BaseModel):
    done: bool


class SignedInOut(BaseModel):
    """Signed in on this device (the session is the HttpOnly cookie set with this answer)."""

    id: str
    name: str

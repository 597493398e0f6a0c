"""Passkeys plugged in: WebAuthn credentials; a sign-in opens a session like an e-mail link."""

from __future__ import annotations

from app.parts import Parts
from app.passkeys import endpoints
from app.passkeys.service import PasskeyService
from app.plug import Core, Feature
from app.profiles.service import ProfileService


def plug(core: Core, parts: Parts) -> Feature:
    s = core.settings
    passkeys = PasskeyService(
        core.db,
        core.clock,
        parts.get(ProfileService),
        s.passkey_rp_name,
        s.passkey_challenge_seconds,
    )
    return Feature("passkeys", parts={"passkeys": passkeys}, routers=[endpoints.router])

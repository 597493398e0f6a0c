"""The profiles feature plugged in: sessions, devices, confirming it's you."""

from __future__ import annotations

from app.parts import Parts
from app.plug import Core, Feature
from app.profiles import devices, endpoints, proof
from app.profiles.service import ProfileService


def plug(core: Core, parts: Parts) -> Feature:
    s = core.settings
    profiles = ProfileService(
        core.db,
        core.signer,
        core.clock,
        s.session_days * 86400,
        s.session_renew_hours * 3600,
        s.recent_proof_seconds,
        s.security_notices_kept,
    )
    # Sign out everywhere and a recovery end the profile's sockets and streams on every instance.
    profiles.cut_off_hooks.append(core.hub.signed_out)
    return Feature(
        "profiles",
        parts={"profiles": profiles},
        routers=[endpoints.router, devices.router, proof.router],
    )

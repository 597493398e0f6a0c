"""The one door from an e-mail sign-in link to a session: the profiles service opens it."""

from __future__ import annotations

from app.profiles.service import Issued, ProfileService


async def open_session(
    profiles: ProfileService, profile_id: str, device: str | None = None
) -> Issued:
    """A new session for ``profile_id`` on this device; the profile's other devices keep theirs
    (nothing is cut off, unlike a recovery)."""
    return await profiles.open_session(profile_id, device, how="email")

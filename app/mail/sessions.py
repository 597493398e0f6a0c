"""The one door from an e-mail sign-in link to a session: the profiles service opens it."""

from __future__ import annotations

from app.profiles.service import Issued, ProfileService


async def open_session(profiles: ProfileService, profile_id: str) -> Issued:
    """A new session for ``profile_id`` on this device; the profile's other devices keep theirs
    (nothing is cut off, unlike a recovery)."""
    row = await profiles.me(profile_id)
    return Issued(row.id, row.name, profiles._issue(row, row.generation))

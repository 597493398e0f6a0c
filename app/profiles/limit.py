"""``Depends(limit("invite"))``: a route's rate limit, counted per client address and per the
caller's profile (the limiter itself knows no feature: app/ratelimit/deps.py ``limiting``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

from app.profiles.deps import optional_profile
from app.ratelimit.deps import Exempt, limiting
from app.ratelimit.limiter import LimitName


def limit(
    name: LimitName | str, exempt: Exempt | None = None
) -> Callable[..., AsyncIterator[None]]:
    """The dependency for limit ``name`` (see ``limiting``)."""
    return limiting(optional_profile, name, exempt)

"""``Depends(limit("invite"))``: the rate limit of one route, per client address and profile.

The limiter knows no feature: who the caller is comes from the profile resolver the profiles
feature hands to ``limiting`` (app/profiles/limit.py builds the ``limit`` every route uses).

The client address is ``request.client.host`` as app/ratelimit/address.py counts it (an IPv6
address as its /64): behind a reverse proxy, run uvicorn with ``--forwarded-allow-ips`` naming
the proxy so that this is the address the proxy saw (never trust ``X-Forwarded-For`` from anyone
else; docs/operations.md "Limits").
"""

# No ``from __future__ import annotations``: the dependency's signature names the injected
# resolver, which FastAPI must read as an object.
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from app.errors import AppError, RateLimited
from app.ratelimit.address import client_address
from app.ratelimit.limiter import Counts, LimitName, RateLimiter

# Whether a request guesses nothing (it is not counted against, nor refused by, a misses limit).
Exempt = Callable[[Request, str | None], Awaitable[bool]]
# What a guess that missed looks like: no such table / invite code / recovery code, or not
# allowed to look.
MISS_STATUSES = frozenset({403, 404})
# The caller's profile id or None: a FastAPI dependency (``optional_profile`` of the profiles).
ProfileResolver = Callable[..., Awaitable[str | None]]


def limiter_of(request: Request) -> RateLimiter:
    limiter: RateLimiter = request.app.state.limiter
    return limiter


def client_keys(connection: HTTPConnection, profile_id: str | None) -> list[str]:
    """The keys a caller is counted under: its address, and its profile when it has one. Takes
    a request or a WebSocket (the handshake counts invite misses under the same keys)."""
    keys = [f"ip:{client_address(connection)}"]
    if profile_id is not None:
        keys.append(f"profile:{profile_id}")
    return keys


def limiting(
    who: ProfileResolver, name: LimitName | str, exempt: Exempt | None = None
) -> Callable[..., AsyncIterator[None]]:
    """The dependency for limit ``name``, the caller's profile given by ``who``: attempts count
    before the route runs; misses count when the route refuses a guess (403/404), and a caller
    out of misses is refused first — unless ``exempt`` says this request guesses nothing (a
    player looking at a table where they sit needs no invite code): a shared address used up by
    someone else's guesses never locks people out of their own tables. ``exempt`` is asked
    only once the limit is used up."""
    limit_name = LimitName(name)

    async def dependency(
        request: Request, profile_id: Annotated[str | None, Depends(who)]
    ) -> AsyncIterator[None]:
        limiter = limiter_of(request)
        keys = client_keys(request, profile_id)
        if limiter.rules[limit_name].counts is Counts.ATTEMPTS:
            await limiter.check(limit_name, keys)
            yield
            return
        try:
            await limiter.ensure_open(limit_name, keys)
        except RateLimited:
            if exempt is None or not await exempt(request, profile_id):
                raise
        try:
            yield
        except AppError as exc:
            if exc.status in MISS_STATUSES:
                await limiter.miss(limit_name, keys)
            raise

    marked: Any = dependency
    marked.rate_limit_name = limit_name.value  # the OpenAPI document lists a 429 for the route
    return dependency

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
from app.parts import Parts
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
    return Parts.of(request.app).get(RateLimiter)


def client_keys(connection: HTTPConnection, profile_id: str | None) -> list[str]:
    """The keys a caller is counted under: its address, and its profile when it has one. Takes
    a request or a WebSocket (the handshake counts invite misses under the same keys)."""
    keys = [f"ip:{client_address(connection)}"]
    if profile_id is not None:
        keys.append(f"profile:{profile_id}")
    return keys


def guess_target(connection: HTTPConnection) -> str:
    """What a guess tries to open: the ids of its path (a table's), or "all" where the code
    alone names what it opens (a recovery or add-a-device code)."""
    ids = [str(v) for v in connection.path_params.values()]
    return ":".join(ids) if ids else "all"


def limiting(
    who: ProfileResolver, name: LimitName | str, exempt: Exempt | None = None
) -> Callable[..., AsyncIterator[None]]:
    """The dependency for limit ``name``, the caller's profile given by ``who``. Attempts count
    before the route runs. Misses count when the route refuses a guess (403/404), under the
    caller's keys and the guess's target (``guess_target``); a caller out of misses of its own
    is still let through while the target's misses last (``RateLimiter.guess_open``): a right
    code gets in, a wrong one is answered 429. Refused before the route runs only when both are
    used up — and never when ``exempt`` says this request guesses nothing (a player looking at
    a table where they sit needs no invite code). ``exempt`` is asked only once the caller is
    out of misses."""
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
            guess = await limiter.guess_open(limit_name, keys, guess_target(request))
        except RateLimited:
            if exempt is None or not await exempt(request, profile_id):
                raise
            yield
            return
        if guess.over is not None and exempt is not None and await exempt(request, profile_id):
            yield
            return
        try:
            yield
        except AppError as exc:
            if exc.status in MISS_STATUSES:
                refused = await limiter.guess_missed(guess)
                if refused is not None:
                    raise refused from exc
            raise

    marked: Any = dependency
    marked.rate_limit_name = limit_name.value  # the OpenAPI document lists a 429 for the route
    return dependency


def spent_address(name: LimitName | str) -> Callable[..., Awaitable[None]]:
    """A dependency placed before ``limiting``'s on a route that costs work: refuses at once,
    before the caller's session is read or anything else runs, when the caller's address has
    already used up limit ``name`` in its window, after the limiter's refusal delay
    (``RateLimiter.hold``). It counts nothing (``limiting`` counts), so a caller within the
    limit pays one counter read more; a flood past it is answered for the price of that read,
    one request a connection per delay. A limit of N a second is served evenly: the address's
    requests are spaced 1/N seconds apart (app/ratelimit/spacing.py)."""
    limit_name = LimitName(name)

    async def dependency(request: Request) -> None:
        limiter = limiter_of(request)
        who = f"ip:{client_address(request)}"
        try:
            await limiter.ensure_open(limit_name, [who])
        except RateLimited:
            await limiter.hold()
            raise
        await limiter.space(limit_name, who)  # N a second come evenly, not as one burst

    return dependency

"""How a feature plugs itself into the application: one ``plug(core, parts) -> Feature`` per
feature (``app/<feature>/plug.py``), listed once in ``app/main.py``.

A plug builds the feature's services from the ``Core`` (settings, clock, database, hub, signer,
limiter) and from the parts of the features plugged before it (``parts.get(SomeService)``),
registers its hooks and hub watchers on them, and returns the ``Feature`` record: its named parts
(kept on ``app.state``, app/parts.py), its routers, its background work in start order, and what
it serves on the table socket. ``create_app`` starts every feature's work in the order of the
list and stops it in the reverse order.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from fastapi import APIRouter

from app import keycheck
from app.auth import TokenSigner
from app.clock import Clock
from app.collector import FreezePolicy, collector_loop
from app.config import Settings
from app.db.session import Database
from app.parts import Parts
from app.ratelimit import RateLimiter
from app.ratelimit.configured import limiter_for
from app.realtime import endpoints as socket_endpoints
from app.realtime.hub import Hub
from app.realtime.limits import SocketLimits, SocketRegistry
from app.realtime.notify import relay_for
from app.realtime.ports import Access, Companion

Step = Callable[[], Awaitable[None] | None]


def _nothing() -> None:
    return None


@dataclass(frozen=True)
class Work:
    """One background part: started at start-up, stopped at shut-down (either may be a no-op)."""

    name: str
    start: Step = _nothing
    stop: Step = _nothing


@dataclass(frozen=True)
class Core:
    """What every feature is given."""

    settings: Settings
    clock: Clock
    db: Database
    hub: Hub
    signer: TokenSigner
    limiter: RateLimiter

    @classmethod
    def build(cls, settings: Settings, clock: Clock) -> Core:
        # A published or short signing key would let anyone forge tokens: refuse to start.
        keycheck.refuse_unsafe([settings.effective_secret_key, *settings.previous_secret_keys])
        return cls(
            settings,
            clock,
            Database(
                settings.effective_database_url, settings.db_pool_size, settings.db_max_overflow
            ),
            Hub(),
            TokenSigner(settings.effective_secret_key, settings.previous_secret_keys),
            limiter_for(settings, clock),
        )


@dataclass(frozen=True)
class Feature:
    """What one feature provides."""

    name: str
    parts: dict[str, object] = field(default_factory=dict)  # on app.state, by name and class
    routers: Sequence[APIRouter] = ()
    work: Sequence[Work] = ()  # started in this order, after the features before it
    socket_access: Access | None = None  # the tables as the table socket sees them
    companions: Sequence[Companion] = ()  # features sending frames of their own on it


Plug = Callable[[Core, Parts], Feature]


def transport(core: Core, parts: Parts) -> Feature:
    """The core's own parts: the database (closed last), the hub and its relay to the other
    instances (LISTEN/NOTIFY on one Postgres), the table socket's route, registry and limits."""
    s, db = core.settings, core.db
    relay = relay_for(core.hub, s.effective_database_url, s.notify_channel)

    async def close() -> None:
        if db.direct is not None:
            await db.direct.close()
        db.dispose()

    work = [Work("database", stop=close)]
    if relay is not None:
        work.append(Work("relay", relay.start, relay.stop))
    return Feature(
        "transport",
        parts={
            "settings": s,
            "clock": core.clock,
            "db": db,
            "hub": core.hub,
            "limiter": core.limiter,
            "limit_tally": core.limiter.tally,
            "socket_registry": SocketRegistry(),
            "socket_limits": SocketLimits.from_settings(s),
        },
        routers=[socket_endpoints.router],
        work=work,
    )


def collector(core: Core, parts: Parts) -> Feature:
    """Full collections walk only what was made since the last second (app/collector.py)."""
    policy = FreezePolicy(
        core.clock, core.settings.gc_freeze_seconds, core.settings.gc_full_seconds
    )
    loop = collector_loop(policy)
    work = [Work("collector", loop.start, loop.stop)] if policy.enabled else []
    return Feature("collector", work=work)


async def _run(step: Step) -> None:
    done = step()
    if inspect.isawaitable(done):
        await done


async def start(features: Sequence[Feature]) -> None:
    for feature in features:
        for work in feature.work:
            await _run(work.start)


async def stop(features: Sequence[Feature]) -> None:
    for feature in reversed(features):
        for work in reversed(feature.work):
            await _run(work.stop)

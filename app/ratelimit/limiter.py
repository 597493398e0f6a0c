"""Rate limits over the ``limits`` package's counters, in fixed windows of the injected clock.

Each named limit is one or more ``limits`` items ("20/minute;200/hour"). A caller is counted
under several keys at once (its address, its profile); it is refused while any of them has used
up any item in the current window. Windows are numbered from the injected clock (window index =
now // length), so a test moves time forward without waiting; the storage (memory, or Redis
for several instances) only holds the counters and drops them after the window.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage, Storage

from app.clock import Clock
from app.errors import RateLimited
from app.ratelimit.spacing import Spacer
from app.tally import RefusalTally

log = logging.getLogger("emara.ratelimit")


class Counts(StrEnum):
    ATTEMPTS = "attempts"  # every request counts (creating profiles, tables)
    MISSES = "misses"  # only refused guesses count (wrong invite or recovery codes)


class LimitName(StrEnum):
    PROFILE_CREATE = "profile_create"
    TABLE_CREATE = "table_create"
    INVITE = "invite"
    RECOVER = "recover"
    # Play again and e-mail
    HOST_ACTS = "host_acts"  # naming a table, inviting people, asking for a rematch
    EMAIL_SEND = "email_send"  # mails a person asks for (confirmation, sign-in link)
    EMAIL_LINK = "email_link"  # wrong or spent confirmation, sign-in and unsubscribe links
    PASSKEY_SIGNIN = "passkey_signin"  # passkey sign-in options and answers, per client address
    RECORD_IMPORT = "record_import"  # game records imported (each one replayed to be checked)
    ANALYSIS_REQUEST = "analysis_request"  # analyses of a replay asked for (docs/analysis.md)
    REPLAY_READ = "replay_read"  # replays and their positions read (docs/records.md)
    DEVICE_CODE = "device_code"  # wrong add-a-device codes (a bucket apart from recovery codes)
    # Misses against one target, from callers out of misses of their own (``TARGETS``)
    INVITE_TARGET = "invite_target"  # per table (or other id of the path)
    RECOVER_TARGET = "recover_target"  # every recovery code together
    DEVICE_CODE_TARGET = "device_code_target"  # every add-a-device code together
    MOVE = "move"  # moves over HTTP, per profile (the socket has its own token bucket)
    EMAIL_SIGNIN_STRANGERS = "email_signin_strangers"  # sign-in links asked for without a session
    REPORT = "report"  # reports of a chat message or a name (docs/privacy.md)
    BLOCK = "block"  # people blocked


COUNTS: Mapping[LimitName, Counts] = {
    LimitName.PROFILE_CREATE: Counts.ATTEMPTS,
    LimitName.TABLE_CREATE: Counts.ATTEMPTS,
    LimitName.INVITE: Counts.MISSES,
    LimitName.RECOVER: Counts.MISSES,
    LimitName.HOST_ACTS: Counts.ATTEMPTS,
    LimitName.EMAIL_SEND: Counts.ATTEMPTS,
    LimitName.EMAIL_LINK: Counts.MISSES,
    LimitName.PASSKEY_SIGNIN: Counts.ATTEMPTS,
    LimitName.RECORD_IMPORT: Counts.ATTEMPTS,
    LimitName.ANALYSIS_REQUEST: Counts.ATTEMPTS,
    LimitName.REPLAY_READ: Counts.ATTEMPTS,
    LimitName.DEVICE_CODE: Counts.MISSES,
    LimitName.INVITE_TARGET: Counts.MISSES,
    LimitName.RECOVER_TARGET: Counts.MISSES,
    LimitName.DEVICE_CODE_TARGET: Counts.MISSES,
    LimitName.MOVE: Counts.ATTEMPTS,
    LimitName.EMAIL_SIGNIN_STRANGERS: Counts.ATTEMPTS,
    LimitName.REPORT: Counts.ATTEMPTS,
    LimitName.BLOCK: Counts.ATTEMPTS,
}

# A guessing limit whose callers, once out of misses of their own, may still try a code while
# the target's own misses last (docs/operations.md "Guessing"): someone behind an address a
# guesser used up still gets in with the right code, and the misses against one target stay
# bounded whoever sends them.
TARGETS: Mapping[LimitName, LimitName] = {
    LimitName.INVITE: LimitName.INVITE_TARGET,
    LimitName.RECOVER: LimitName.RECOVER_TARGET,
    LimitName.DEVICE_CODE: LimitName.DEVICE_CODE_TARGET,
}


@dataclass(frozen=True)
class Rule:
    name: LimitName
    counts: Counts
    items: tuple[RateLimitItem, ...]


def parse_rule(name: LimitName, text: str) -> Rule:
    """``"20/minute;200/hour"`` → a rule; ``""`` or ``"off"`` → a rule that never refuses."""
    text = text.strip()
    items = () if text in ("", "off") else tuple(parse_many(text))
    return Rule(name, COUNTS[name], items)


def storage_for(uri: str) -> Storage:
    if uri.startswith(("redis://", "rediss://")):
        return RedisStorage(f"async+{uri}", implementation="redispy")
    if uri.startswith("memory://"):
        return MemoryStorage()
    raise ValueError(f"unknown rate-limit storage {uri!r}: use memory:// or redis://…")


# Refusals held back at once, at most (``RateLimiter.hold``): past it, a refusal is answered
# at once, so that holding never keeps more than this many requests waiting.
MAX_HELD = 256


class RateLimiter:
    def __init__(
        self,
        storage: Storage,
        clock: Clock,
        rules: Sequence[Rule],
        prefix: str = "emara",
        *,
        refusal_delay: float = 0.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        spread: Callable[[], float] = random.random,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.rules = {r.name: r for r in rules}
        self.prefix = prefix
        self.refusal_delay = refusal_delay
        self._sleep = sleep
        self._spread = spread  # 0 ≤ x < 1: where in the half-delay after it a hold ends
        self._held = 0
        self.spacer = Spacer(clock, sleep)
        self.tally = RefusalTally()  # read by /metrics

    async def hold(self) -> None:
        """Wait ``refusal_delay`` seconds before a refusal is answered to a caller already past
        its limit. A client that loops without reading ``Retry-After`` then sends one request a
        connection per delay instead of as many as the server can refuse; a person who waits
        as told never meets it. At most ``MAX_HELD`` wait at once. Each hold ends somewhere in
        the half-delay after it, so that the clients held together are not let go together
        (their next requests would arrive as one burst)."""
        if self.refusal_delay <= 0 or self._held >= MAX_HELD:
            return
        self._held += 1
        try:
            await self._sleep(self.refusal_delay * (1 + self._spread() / 2))
        finally:
            self._held -= 1

    def _window(self, item: RateLimitItem, now: float) -> tuple[int, float]:
        """The current window's number and the seconds until it ends."""
        length = item.get_expiry()
        index = int(now // length)
        return index, (index + 1) * length - now

    def _key(self, rule: Rule, item: RateLimitItem, who: str, index: int) -> str:
        return f"{self.prefix}:rl:{rule.name}:{item.amount}/{item.get_expiry()}:{who}:{index}"

    async def _over(self, rule: Rule, keys: Sequence[str], hit: bool) -> float | None:
        """Count one (if ``hit``) under every key; the longest wait if some window is used up.
        The counters unreachable (Redis down): a warning, and the request is served — the game
        stays playable while the limits are blind."""
        try:
            return await self._count(rule, keys, hit)
        except Exception as exc:
            log.warning("rate-limit storage unreachable, %s not enforced: %r", rule.name, exc)
            return None

    async def _count(self, rule: Rule, keys: Sequence[str], hit: bool) -> float | None:
        now = self.clock.now()
        wait: float | None = None
        for item in rule.items:
            index, left = self._window(item, now)
            for who in keys:
                key = self._key(rule, item, who, index)
                if hit:
                    used = await self.storage.incr(key, item.get_expiry() + 1)
                    over = used > item.amount
                else:
                    over = await self.storage.get(key) >= item.amount
                if over:
                    wait = max(wait or 0.0, left)
        return wait

    def _refuse(self, rule: Rule, wait: float) -> RateLimited:
        self.tally.refuse(rule.name)
        seconds = max(1, math.ceil(wait))
        return RateLimited(f"too many requests ({rule.name}), try again later", retry_after=seconds)

    async def check(self, name: LimitName | str, keys: Sequence[str]) -> None:
        """Count one attempt under ``keys``; RateLimited (with ``retry_after``) past the limit.
        For callers outside HTTP too, e.g. the socket handshake checking an invite code."""
        rule = self.rules[LimitName(name)]
        wait = await self._over(rule, keys, hit=True)
        if wait is not None:
            raise self._refuse(rule, wait)

    async def ensure_open(self, name: LimitName | str, keys: Sequence[str]) -> None:
        """RateLimited if ``keys`` have used up the limit; counts nothing."""
        rule = self.rules[LimitName(name)]
        wait = await self._over(rule, keys, hit=False)
        if wait is not None:
            raise self._refuse(rule, wait)

    async def space(self, name: LimitName | str, who: str) -> None:
        """Hold ``who``'s request until 1/N seconds after its previous one, where limit
        ``name`` allows N a second (a limit without a per-second part holds nothing)."""
        rule = self.rules[LimitName(name)]
        per_second = [item.amount for item in rule.items if item.get_expiry() == 1]
        if per_second:
            await self.spacer.wait(who, 1 / min(per_second))

    async def miss(self, name: LimitName | str, keys: Sequence[str]) -> None:
        """Count one refused guess under ``keys``."""
        await self._over(self.rules[LimitName(name)], keys, hit=True)

    def _target(self, name: LimitName) -> Rule | None:
        target = TARGETS.get(name)
        return None if target is None else self.rules.get(target)

    async def guess_open(self, name: LimitName | str, keys: Sequence[str], target: str) -> Guess:
        """Before a guess of ``target`` (a table id; "all" where the code alone names what it
        opens): a caller with misses left guesses freely; one out of misses still may while
        the target's misses last (``TARGETS``), else RateLimited. Counts nothing."""
        rule = self.rules[LimitName(name)]
        wait = await self._over(rule, keys, hit=False)
        if wait is None:
            return Guess(LimitName(name), tuple(keys), target, None)
        target_rule = self._target(rule.name)
        if target_rule is None:
            raise self._refuse(rule, wait)
        target_wait = await self._over(target_rule, [f"target:{target}"], hit=False)
        if target_wait is not None:
            raise self._refuse(rule, max(wait, target_wait))
        return Guess(rule.name, tuple(keys), target, wait)

    async def guess_missed(self, guess: Guess) -> RateLimited | None:
        """The guess missed: counted under the caller's keys and its target. What the caller is
        then told instead of the miss when it was out of misses already (RateLimited)."""
        rule = self.rules[guess.name]
        await self._over(rule, guess.keys, hit=True)
        target_rule = self._target(rule.name)
        if target_rule is not None:
            await self._over(target_rule, [f"target:{guess.target}"], hit=True)
        return None if guess.over is None else self._refuse(rule, guess.over)


@dataclass(frozen=True)
class Guess:
    """A guess let through: whose (``keys``), of what (``target``), and ``over``: the wait of
    the caller's own limit when it was out of misses already (None: it was not)."""

    name: LimitName
    keys: tuple[str, ...]
    target: str
    over: float | None

"""The socket's limits: the numbers (from settings), a token bucket on the injected clock, and the
per-process count of open sockets (per profile, per client address, per table, in all)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from app.clock import Clock
from app.config import Settings
from app.realtime.heartbeat import Heartbeat


@dataclass(frozen=True)
class SocketLimits:
    max_frame_bytes: int = 16_384
    first_frame_bytes: int = 2048  # the first frame of a socket not yet authenticated
    max_depth: int = 32
    rate_per_second: float = 20.0
    rate_burst: int = 40
    heartbeat_seconds: float = 20.0
    idle_timeout_seconds: float = 60.0
    send_timeout_seconds: float = 10.0
    auth_timeout_seconds: float = 10.0
    outbox_frames: int = 256
    outbox_bytes: int = 1 << 20
    catch_up_token_bytes: int = 8192
    per_profile: int = 16
    per_address: int = 64
    per_table: int = 64
    per_process: int = 5000

    @classmethod
    def from_settings(cls, s: Settings) -> SocketLimits:
        return cls(
            max_frame_bytes=s.ws_max_frame_bytes,
            first_frame_bytes=s.ws_first_frame_bytes,
            max_depth=s.ws_max_depth,
            rate_per_second=s.ws_rate_per_second,
            rate_burst=s.ws_rate_burst,
            heartbeat_seconds=s.ws_heartbeat_seconds,
            idle_timeout_seconds=s.ws_idle_timeout_seconds,
            send_timeout_seconds=s.ws_send_timeout_seconds,
            auth_timeout_seconds=s.ws_auth_timeout_seconds,
            outbox_frames=s.ws_outbox_frames,
            outbox_bytes=s.ws_outbox_bytes,
            catch_up_token_bytes=s.ws_catch_up_token_bytes,
            per_profile=s.ws_max_per_profile,
            per_address=s.ws_max_per_address,
            per_table=s.ws_max_per_table,
            per_process=s.ws_max_per_process,
        )


class Bucket:
    """Token bucket: ``rate`` tokens per second, bursts of ``burst``. A frame takes one token; a
    large answer (a catch-up) is charged after the fact and may leave the bucket in debt."""

    def __init__(self, rate: float, burst: int, clock: Clock) -> None:
        self.rate, self.burst, self.clock = rate, float(burst), clock
        self.tokens, self.at = float(burst), clock.monotonic()
        self.refused = 0  # refusals in a row

    def _refill(self) -> None:
        now = self.clock.monotonic()
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.at) * self.rate)
        self.at = now

    def take(self) -> bool:
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False

    def charge(self, tokens: float) -> None:
        self._refill()
        self.tokens -= tokens


@dataclass(frozen=True)
class Slot:
    profile_id: str
    address: str
    table_id: str


class SocketRegistry:
    """How many sockets this process holds open, by profile, client address and table."""

    def __init__(self) -> None:
        self.heartbeat = Heartbeat()  # ticks every open socket of the process
        self.by_profile: Counter[str] = Counter()
        self.by_address: Counter[str] = Counter()
        self.by_table: Counter[str] = Counter()
        self.total = 0
        self.frames_refused = 0  # frames refused by a socket's rate limit (the event loop's)

    def claim(self, slot: Slot, limits: SocketLimits) -> str | None:
        """Count the socket in, or name the limit it would break (and count nothing)."""
        if self.total >= limits.per_process:
            return "process"
        if self.by_profile[slot.profile_id] >= limits.per_profile:
            return "profile"
        if self.by_address[slot.address] >= limits.per_address:
            return "address"
        if self.by_table[slot.table_id] >= limits.per_table:
            return "table"
        self.by_profile[slot.profile_id] += 1
        self.by_address[slot.address] += 1
        self.by_table[slot.table_id] += 1
        self.total += 1
        return None

    def release(self, slot: Slot) -> None:
        for counter, key in (
            (self.by_profile, slot.profile_id),
            (self.by_address, slot.address),
            (self.by_table, slot.table_id),
        ):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]
        self.total -= 1

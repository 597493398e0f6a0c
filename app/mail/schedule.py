"""The messages waiting for a sender: each with its next attempt's time (the injected clock's
monotonic seconds), handed out earliest first, never more than ``per_domain`` at once to one
recipient domain, so one slow domain never holds every sender.

Bounded: at most ``size`` messages wait or are being sent; picking one is a linear look over
them (a thousand at most by default), done only when a sender is free.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field

from app.mail.compose import Outgoing


def domain_of(address: str) -> str:
    return address.rpartition("@")[2].lower()


@dataclass
class Letter:
    """A message on its way: how many attempts it had and when the next one may start."""

    message: Outgoing
    next_attempt_at: float
    attempts: int = 0
    seq: int = 0
    domain: str = field(init=False)

    def __post_init__(self) -> None:
        self.domain = domain_of(self.message.to)


class Schedule:
    def __init__(self, size: int, per_domain: int) -> None:
        self.size = size
        self.per_domain = per_domain
        self.waiting: list[Letter] = []
        self.sending: Counter[str] = Counter()  # domain -> messages being sent now
        self._seq = itertools.count()

    def __len__(self) -> int:
        return len(self.waiting) + sum(self.sending.values())

    @property
    def busy(self) -> int:
        return sum(self.sending.values())

    def put(self, letter: Letter) -> bool:
        """Wait for a sender; False when ``size`` messages wait or are being sent already."""
        if len(self) >= self.size:
            return False
        letter.seq = next(self._seq)
        self.waiting.append(letter)
        return True

    def again(self, letter: Letter, at: float) -> None:
        """A message whose attempt ended is due again at ``at`` (its place is still its own)."""
        self.sending[letter.domain] -= 1
        letter.next_attempt_at = at
        self.waiting.append(letter)

    def done(self, letter: Letter) -> None:
        self.sending[letter.domain] -= 1

    def take(self, now: float) -> Letter | None:
        """The earliest message due by ``now`` whose domain has a sender to spare, marked as
        being sent; None when there is none."""
        best: Letter | None = None
        for x in self.waiting:
            if x.next_attempt_at > now or self.sending[x.domain] >= self.per_domain:
                continue
            if best is None or (x.next_attempt_at, x.seq) < (best.next_attempt_at, best.seq):
                best = x
        if best is not None:
            self.waiting.remove(best)
            self.sending[best.domain] += 1
        return best

    def next_due(self) -> float | None:
        """When the earliest message a sender could take becomes due (None: none could)."""
        due = [x.next_attempt_at for x in self.waiting if self.sending[x.domain] < self.per_domain]
        return min(due, default=None)

    def due_now(self, now: float) -> bool:
        """A message is being sent, or one waits that is due by ``now``."""
        return self.busy > 0 or any(x.next_attempt_at <= now for x in self.waiting)

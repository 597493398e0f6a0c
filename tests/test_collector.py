"""The collector's policy (app/collector.py): every step freezes what is alive; once per
``full_seconds`` a step first unfreezes and collects everything, so a reference cycle that became
garbage after it was frozen is freed by the next full pass and not kept for ever."""

from __future__ import annotations

import gc
import weakref

from app.clock import ManualClock
from app.collector import FreezePolicy


class Recording:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def freeze(self) -> None:
        self.calls.append("freeze")

    def unfreeze(self) -> None:
        self.calls.append("unfreeze")

    def collect(self) -> int:
        self.calls.append("collect")
        return 0


def test_each_step_freezes_and_a_full_pass_comes_once_per_period() -> None:
    clock = ManualClock()
    gcs = Recording()
    policy = FreezePolicy(clock, freeze_seconds=1.0, full_seconds=600.0, collector=gcs)
    for _ in range(3):
        clock.advance(1.0)
        policy.step()
    assert gcs.calls == ["freeze"] * 3 and policy.full_passes == 0
    clock.advance(597.0)  # 600 s since the policy began
    policy.step()
    assert gcs.calls[3:] == ["unfreeze", "collect", "freeze"] and policy.full_passes == 1
    clock.advance(599.0)
    policy.step()
    assert gcs.calls[6:] == ["freeze"]
    clock.advance(1.0)
    policy.step()
    assert gcs.calls[7:] == ["unfreeze", "collect", "freeze"] and policy.full_passes == 2


def test_policy_off_starts_nothing() -> None:
    assert not FreezePolicy(ManualClock(), freeze_seconds=0.0, full_seconds=600.0).enabled


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_a_cycle_frozen_alive_and_dropped_is_freed_by_the_next_full_pass() -> None:
    clock = ManualClock()
    policy = FreezePolicy(clock, freeze_seconds=1.0, full_seconds=600.0)
    a, b = Node(), Node()
    a.other, b.other = b, a  # a reference cycle: only the collector frees it
    gone = weakref.ref(a)
    try:
        clock.advance(1.0)
        policy.step()  # frozen while alive
        assert gc.get_freeze_count() > 0
        del a, b
        gc.collect()
        assert gone() is not None  # frozen: out of the ordinary collections' walk
        frozen = gc.get_freeze_count()
        clock.advance(599.0)
        policy.step()  # the full pass
        assert gone() is None and policy.full_passes == 1
        assert gc.get_freeze_count() > 0  # what is alive is frozen again
        assert policy.last_pause > 0 and frozen > 0
    finally:
        gc.unfreeze()

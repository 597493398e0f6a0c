"""The writer gate of a SQLite file (app/db/gate.py): transactions in turn, first come first
served, the moves' writer ahead of the rest."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable

import pytest

from app.db.gate import FIRSTS_IN_A_ROW, WriterGate


def queued(gate: WriterGate, n: int) -> None:
    """Yield the processor until ``n`` threads wait at the gate."""
    for _ in range(1_000_000):
        if gate.waiting == n:
            return
        os.sched_yield()
    raise AssertionError(f"{gate.waiting} threads wait, not {n}")


# A thread's way through the gate: its name and whether it goes first; it notes its name in the
# list while it holds the gate.
Through = Callable[[str, bool, list[str]], None]


def plain(gate: WriterGate) -> Through:
    def through(name: str, first: bool, order: list[str]) -> None:
        gate.enter(first)
        order.append(name)
        gate.leave()

    return through


def in_turn(gate: WriterGate, arrivals: list[tuple[str, bool]], through: Through) -> list[str]:
    """The caller holds ``gate``: each arrival queues in a thread of its own, in that order;
    then the caller leaves the gate. The order in which they got through."""
    order: list[str] = []
    threads = []
    for n, (name, first) in enumerate(arrivals):
        t = threading.Thread(target=through, args=(name, first, order))
        t.start()
        threads.append(t)
        queued(gate, n + 1)
    gate.leave()
    for t in threads:
        t.join(10)
    return order


def test_threads_go_through_in_the_order_they_came_the_moves_writer_first() -> None:
    gate = WriterGate()
    assert gate.enter() is True
    arrivals = [("a", False), ("b", False), ("moves", True), ("c", False), ("move", True)]
    order = in_turn(gate, arrivals, plain(gate))
    assert order == ["moves", "move", "a", "b", "c"]  # those that go first, in turn
    assert gate.waiting == 0 and gate.enter() is True  # left open
    gate.leave()


def test_those_that_go_first_cannot_keep_the_others_out() -> None:
    """After FIRSTS_IN_A_ROW transactions that went first while another waited, that one goes."""
    gate = WriterGate()
    assert gate.enter() is True
    names = [("lobby", False)] + [(f"move{i}", True) for i in range(FIRSTS_IN_A_ROW + 2)]
    order = in_turn(gate, names, plain(gate))
    moves = [f"move{i}" for i in range(FIRSTS_IN_A_ROW + 2)]
    assert order == [*moves[:FIRSTS_IN_A_ROW], "lobby", *moves[FIRSTS_IN_A_ROW:]]


def test_a_thread_that_holds_the_gate_does_not_wait_on_itself() -> None:
    gate = WriterGate()
    assert gate.enter() is True
    assert gate.enter(first=True) is False  # nothing taken: its transaction begins deferred
    gate.leave()
    assert gate.enter() is True
    gate.leave()


def test_a_wait_that_runs_out_fails_and_leaves_the_queue() -> None:
    gate = WriterGate(wait_seconds=0.01)
    failed: list[BaseException] = []
    gate.enter()

    def late() -> None:
        try:
            gate.enter(first=True)
        except sqlite3.OperationalError as exc:
            failed.append(exc)

    t = threading.Thread(target=late)
    t.start()
    t.join(10)
    assert len(failed) == 1 and "locked" in str(failed[0])
    assert gate.waiting == 0
    gate.wait_seconds = 30.0
    # (nobody is handed a gate it would never give back)
    assert in_turn(gate, [("a", False), ("m", True)], plain(gate)) == [
        "m",
        "a",
    ]  # the one that left the queue is not counted among the firsts


@pytest.mark.parametrize("first", [False, True])
def test_many_threads_each_get_through_once(first: bool) -> None:
    gate = WriterGate()
    inside: list[int] = []
    overlaps: list[int] = []
    done: list[int] = []

    def work(i: int) -> None:
        for _ in range(50):
            gate.enter(first and i == 0)
            if inside:  # another thread is through the gate too
                overlaps.append(i)
            inside.append(i)
            os.sched_yield()
            inside.remove(i)
            done.append(i)
            gate.leave()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert overlaps == []
    assert sorted(done) == sorted(list(range(8)) * 50)

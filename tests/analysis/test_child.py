"""The strong bot in a child process (the server's analysis worker): the same numbers as in the
worker's own thread, the work done outside the server's process, a dead child replaced, and
nothing left running after ``close``."""

from __future__ import annotations

import os
import signal
from typing import Any, cast

import pytest

from app import rules
from app.analysis.bot import StrongBot
from app.analysis.child import ChildProcessBot
from app.analysis.compute import estimate_position, measure_step, preferred_at
from app.analysis.key import game_key
from app.analysis.measure import Step
from app.analysis.source import replay_of


def _child_pids(bot: ChildProcessBot) -> list[int]:
    pool = bot._pool
    assert pool is not None
    return list(pool._processes)  # type: ignore[attr-defined]


def test_a_child_gives_the_numbers_of_the_thread(example: dict[str, Any]) -> None:
    done = replay_of(example)
    key = game_key(example)
    n = done.positions - 3  # near the end: the playouts are short
    child = ChildProcessBot(1, advice_playouts=4)
    try:
        assert child.version == StrongBot(1, advice_playouts=4).version
        assert not child.running  # nothing starts before the first call
        here = estimate_position(done, n, StrongBot(1, advice_playouts=4), key)
        there = estimate_position(done, n, child, key)
        assert there == here
        assert child.running
        (pid,) = _child_pids(child)
        assert pid != os.getpid()
        seat = here.seat
        assert seat is not None
        assert preferred_at(done, n, seat, child, key) == preferred_at(
            done, n, seat, StrongBot(1, advice_playouts=4), key
        )
        # a swing's and luck's measure too (the samples and budget travel to the child)
        small = ChildProcessBot(1, advice_playouts=4, samples=3, budget=50)
        try:
            step = Step(n, swing=True, luck=(seat,))
            bot = StrongBot(1, advice_playouts=4, samples=3, budget=50)
            assert small.version == bot.version != child.version
            assert measure_step(done, step, small, key) == measure_step(done, step, bot, key)
        finally:
            small.close()
    finally:
        child.close()
    assert not child.running


def test_a_dead_child_fails_one_call_and_is_replaced(example: dict[str, Any]) -> None:
    done = replay_of(example)
    state = done.state_at(done.positions - 3)
    seat = rules.to_act(state)[0]
    view = cast(dict[str, Any], rules.view_for(state, seat))
    legal = [rules.encode_move(m) for m in rules.legal_moves(state, seat)]
    child = ChildProcessBot(1, advice_playouts=4)
    try:
        first = child.expected(view, legal, seat, 7)
        (pid,) = _child_pids(child)
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(Exception):  # noqa: B017 - the pool's own error for a dead child
            child.expected(view, legal, seat, 7)
        assert child.expected(view, legal, seat, 7) == first
        assert _child_pids(child) != [pid]
    finally:
        child.close()

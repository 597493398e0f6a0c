"""Where the suite's CPU goes, test by test: a pytest plugin that reads the whole machine's busy
CPU (``/proc/stat``) before and after each test and prints the tests that cost the most.

    .venv/bin/python -m pytest -p bench.cpu_by_test tests/browser -q -p no:randomly
    .venv/bin/python -m pytest -p bench.cpu_by_test tests -q -n 0 --test-cpu-top 40

Run it on one worker (``-n 0``) with the machine otherwise idle: each test's figure is then the
CPU of everything it made run (Chromium, the server subprocess, pytest, Playwright's driver).
The suite on this 2-core machine is CPU-bound, so CPU, not wall time, says what a change saves.
Linux only (it reads /proc). The table is also written to ``--test-cpu-out`` if given.
"""

from __future__ import annotations

import os
import time
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path

import pytest

TICKS = os.sysconf("SC_CLK_TCK")


def busy_seconds() -> float:
    """CPU-seconds the machine has spent busy since boot (user, nice, system, irq, softirq)."""
    with open("/proc/stat") as f:
        fields = f.readline().split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq = (int(x) for x in fields[:7])
    return (user + nice + system + irq + softirq) / TICKS


@dataclass(frozen=True)
class Cost:
    cpu: float
    wall: float
    nodeid: str


COSTS: list[Cost] = []


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("test-cpu")
    group.addoption("--test-cpu-top", type=int, default=25, help="how many tests to print")
    group.addoption("--test-cpu-out", default="", help="a file for the whole table")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    cpu, wall = busy_seconds(), time.monotonic()
    yield
    COSTS.append(Cost(busy_seconds() - cpu, time.monotonic() - wall, item.nodeid))


def table(costs: list[Cost], top: int) -> list[str]:
    ranked = sorted(costs, key=lambda c: c.cpu, reverse=True)
    total_cpu = sum(c.cpu for c in costs)
    total_wall = sum(c.wall for c in costs)
    lines = [
        f"{len(costs)} tests: {total_cpu:.1f} CPU-s busy in {total_wall:.1f} s of wall time",
        f"{'CPU-s':>8} {'wall s':>7} {'cores':>5}  test",
    ]
    for c in ranked[:top]:
        lines.append(f"{c.cpu:8.1f} {c.wall:7.1f} {c.cpu / max(c.wall, 1e-9):5.2f}  {c.nodeid}")
    by_module: dict[str, float] = {}
    for c in costs:
        module = c.nodeid.split("::", 1)[0]
        by_module[module] = by_module.get(module, 0.0) + c.cpu
    lines.append("by module:")
    for module, cpu in sorted(by_module.items(), key=lambda kv: kv[1], reverse=True)[:top]:
        lines.append(f"{cpu:8.1f}  {module}")
    return lines


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    if not COSTS:
        return
    lines = table(COSTS, config.getoption("--test-cpu-top"))
    terminalreporter.section("CPU by test (the whole machine, busy CPU-s)")
    for line in lines:
        terminalreporter.write_line(line)
    out = config.getoption("--test-cpu-out")
    if out:
        Path(out).write_text("\n".join(table(COSTS, len(COSTS))) + "\n")

"""A bystander's ``/api/health`` latencies, measured from a process of its own.

A bench that loads the server from its own event loop cannot time a bystander's request on the
same loop: the client's own busy loop would be counted as the server's latency. ``HealthProbe``
runs this module as a child process that asks ``GET /api/health`` every ``interval`` seconds on
one kept-alive connection until its standard input closes, then prints the latencies (ms) as a
JSON list.

    with HealthProbe(base_url) as probe:
        ...                      # the load
    samples = probe.samples      # every latency, ms

    .venv/bin/python -m bench.probe http://127.0.0.1:8000 0.02   # until Ctrl-D
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from types import TracebackType

import httpx


def percentile(samples: list[float], q: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


class HealthProbe:
    def __init__(self, base_url: str, interval: float = 0.02) -> None:
        self.base_url = base_url
        self.interval = interval
        self.samples: list[float] = []
        self._proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> HealthProbe:
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "bench.probe", self.base_url, str(self.interval)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        proc, self._proc = self._proc, None
        assert proc is not None
        out, _ = proc.communicate(b"", timeout=60)  # its input closes: it stops and prints
        self.samples = json.loads(out) if proc.returncode == 0 else []

    def figures(self, prefix: str) -> dict[str, float]:
        return {
            f"{prefix}_p50_ms": percentile(self.samples, 0.5),
            f"{prefix}_p99_ms": percentile(self.samples, 0.99),
            f"{prefix}_samples": float(len(self.samples)),
        }


def _run(base_url: str, interval: float) -> list[float]:
    stop = threading.Event()

    def wait_for_eof() -> None:
        sys.stdin.buffer.read()
        stop.set()

    threading.Thread(target=wait_for_eof, daemon=True).start()
    out: list[float] = []
    with httpx.Client(base_url=base_url, trust_env=False, timeout=60) as c:
        c.get("/api/ready").raise_for_status()  # the connection is open before timing starts
        while not stop.is_set():
            began = time.perf_counter()
            c.get("/api/ready").raise_for_status()
            out.append(round((time.perf_counter() - began) * 1000, 3))
            stop.wait(interval)
    return out


if __name__ == "__main__":
    print(json.dumps(_run(sys.argv[1], float(sys.argv[2]))))

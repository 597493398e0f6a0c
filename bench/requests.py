"""What one signed-in request costs the server: the same light requests, one after another.

    .venv/bin/python bench/requests.py                 # Postgres
    .venv/bin/python bench/requests.py --sqlite --requests 2000

Starts one server on a fresh database (as bench/load.py does), makes a profile and a table in
its lobby, then sends ``--requests`` of each kind one at a time — ``GET /api/profiles/me`` (the
token's check and the profile), ``GET /api/tables/{id}`` (the check, then the lobby: the table,
its seats, their names and presence) and ``GET /api/me/tables`` (My games) — and prints, per
kind, the server's CPU time per request and the median and 99th percentile of its latency. Every
signed-in request pays the token's check first, so its cost is in every figure. ``--kind`` measures
one kind only; ``--profile`` samples the server with py-spy meanwhile and prints where its CPU
goes, as bench/profile.py does (``--save FILE`` keeps the samples).

    .venv/bin/python bench/requests.py --kind me --profile
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import httpx  # noqa: E402
from load import cpu_seconds  # noqa: E402
from one_server import one_server  # noqa: E402
from samples import py_spy, report_samples  # noqa: E402

WARM_UP = 50  # requests of each kind before the measure (statements compiled, caches filled)


KINDS = {
    "me": "GET /api/profiles/me",
    "lobby": "GET /api/tables/{id}",
    "games": "GET /api/me/tables",
}


async def measure(
    base: str, pid: int, requests: int, kinds_wanted: list[str], spy_out: str | None, rate: int
) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30.0) as client:
        r = await client.post("/api/profiles", json={"name": "bench"})
        r.raise_for_status()
        headers = {"Authorization": f"Bearer {r.json()['token']}"}
        r = await client.post("/api/tables", json={"seats": 4, "options": {}}, headers=headers)
        r.raise_for_status()
        table_id = r.json()["id"]
        paths = {
            "me": "/api/profiles/me",
            "lobby": f"/api/tables/{table_id}",
            "games": "/api/me/tables",
        }
        for kind in kinds_wanted:
            name, path = KINDS[kind], paths[kind]
            for _ in range(WARM_UP):
                (await client.get(path, headers=headers)).raise_for_status()
            spy = None
            if spy_out is not None:
                spy = subprocess.Popen(
                    py_spy(pid, rate, spy_out),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                await asyncio.sleep(1.0)  # py-spy attaches
            took: list[float] = []
            cpu0, kernel0 = cpu_seconds(pid), cpu_seconds(pid, kernel_only=True)
            for _ in range(requests):
                t0 = time.perf_counter()
                r = await client.get(path, headers=headers)
                took.append(time.perf_counter() - t0)
                r.raise_for_status()
            cpu = (cpu_seconds(pid) - cpu0) / requests
            kernel = (cpu_seconds(pid, kernel_only=True) - kernel0) / requests
            if spy is not None:
                spy.send_signal(signal.SIGINT)
                spy.wait(60)
            took.sort()
            p99 = took[min(len(took) - 1, int(len(took) * 0.99))]
            print(
                f"{name:22s} server CPU {cpu * 1e3:6.2f} ms/request (kernel {kernel * 1e3:.2f}), "
                f"latency p50 "
                f"{statistics.median(took) * 1e3:6.2f} ms, p99 {p99 * 1e3:6.2f} ms"
            )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--sqlite", action="store_true", help="an embedded SQLite file, not Postgres")
    ap.add_argument("--kind", choices=sorted(KINDS), action="append", help="(default: all)")
    ap.add_argument("--profile", action="store_true", help="sample the server with py-spy")
    ap.add_argument("--rate", type=int, default=400, help="py-spy: samples a second")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--save", help="keep the py-spy samples here")
    args = ap.parse_args()
    kinds = args.kind or list(KINDS)
    if args.profile and len(kinds) != 1:
        ap.error("--profile samples one --kind")
    work = Path(tempfile.mkdtemp(prefix="emara-requests-"))
    spy_out = (args.save or str(work / "server.samples")) if args.profile else None
    with one_server(work, args.sqlite, "emara_requests") as (base, pid):
        asyncio.run(measure(base, pid, args.requests, kinds, spy_out, args.rate))
    if spy_out is not None:
        report_samples(spy_out, args.requests, args.rate, args.top, unit="request")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

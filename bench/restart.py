"""What a table's start costs the server: the steps a group takes for a new game, repeated.

    .venv/bin/python bench/restart.py                 # 40 tables, Postgres
    .venv/bin/python bench/restart.py --sqlite --tables 40
    .venv/bin/python bench/restart.py --profile       # and where the CPU goes (py-spy)

Starts one server on a fresh database (as bench/load.py does), makes four players, then for each
table: creates it, three players join, the host starts it, the four open their sockets and wait
for the first snapshot, and close them again — what bench/load.py's clients do when a game ends.
Prints the server's CPU time per table and the wall time per table (one table at a time, so the
wall time is the steps' latency end to end). With ``--profile`` the server is sampled by py-spy
during the measured tables and the functions that cost most are printed, as bench/profile.py
does (``--save FILE`` keeps the samples).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import httpx  # noqa: E402
from load import cpu_seconds, make_table  # noqa: E402
from one_server import one_server  # noqa: E402
from samples import py_spy, report_samples  # noqa: E402

from app.devtools.players import SeatSocket  # noqa: E402

WARM_UP = 3  # tables before the measure (the first requests compile statements, fill caches)


async def one_table(client: httpx.AsyncClient, base: str, tokens: list[str]) -> None:
    table_id, _ = await make_table(client, len(tokens), tokens)
    socks = [
        SeatSocket(base.replace("http://", "ws://"), table_id, tok, keep=4, deltas=True)
        for tok in tokens
    ]
    for s in socks:
        await s.connect(since=0)
    await asyncio.gather(*(s.wait_version(0, 30.0) for s in socks))
    await asyncio.gather(*(s.close() for s in socks))


async def measure(base: str, pid: int, tables: int, spy_out: str | None, rate: int) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30.0) as client:
        _, tokens = await make_table(client, 4)
        for _ in range(WARM_UP):
            await one_table(client, base, tokens)
        spy = None
        if spy_out is not None:
            spy = subprocess.Popen(
                py_spy(pid, rate, spy_out), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            await asyncio.sleep(1.0)  # py-spy attaches
        cpu0, t0 = cpu_seconds(pid), time.perf_counter()
        for _ in range(tables):
            await one_table(client, base, tokens)
        await asyncio.sleep(0.5)  # the last closes are handled (presence, last seen)
        cpu1, t1 = cpu_seconds(pid), time.perf_counter()
        if spy is not None:
            spy.send_signal(signal.SIGINT)
            spy.wait(60)
    print(
        f"{tables} tables started and left: server CPU {(cpu1 - cpu0) / tables * 1e3:.1f} ms "
        f"per table, wall {(t1 - t0 - 0.5) / tables * 1e3:.1f} ms per table"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, default=40)
    ap.add_argument("--sqlite", action="store_true", help="an embedded SQLite file, not Postgres")
    ap.add_argument("--profile", action="store_true", help="sample the server with py-spy")
    ap.add_argument("--rate", type=int, default=200, help="py-spy: samples a second")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--save", help="keep the py-spy samples here")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="emara-restart-"))
    spy_out = (args.save or str(work / "server.samples")) if args.profile else None
    with one_server(work, args.sqlite, "emara_restart") as (base, pid):
        asyncio.run(measure(base, pid, args.tables, spy_out, args.rate))
    if spy_out is not None:
        report_samples(spy_out, args.tables, args.rate, args.top, unit="table")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

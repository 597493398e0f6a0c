"""Socket abuse figures (not a test): what hostile or slow clients cost the server, on loopback.

    .venv/bin/python bench/abuse.py                 # all three phases, 30 s of abuse
    .venv/bin/python bench/abuse.py --seconds 10 --idle 100 --burst 50
    .venv/bin/python -m bench.abuse --work          # the costly inputs: records, analysis, mail

Starts its own Postgres database and one uvicorn process (app/devtools/stack.py), with the socket
caps raised so that every bench socket (all from 127.0.0.1) is let in, then measures:

1. idle: server RSS per open socket (N sockets, each welcomed and caught up, then silent);
2. abuse: server RSS growth over ``--seconds`` under 10 sockets that never read while sending
   pings with 15 kB refs and ``hello since=0`` (within the rate limit) and 10 that send frames
   with numbers no encoder can write (ref 10^30, -2^64, a list nested 300 deep); how many the
   server closed, and codes;
3. burst: M sockets each sending 40 ``hello since=0`` at once: bytes the server sent, its CPU
   seconds, and the /api/health median latency meanwhile.

``--work`` runs instead the inputs that make the server work hardest, each against a server
of its own with the default limits, and says for each whether ``/api/health``'s p99 while it
runs stays within twice its idle p99:

- a padded record and eight clients looping on a replay (bench/abuse_records.py);
- one profile queuing every analysis it may, and a newcomer's first (bench/abuse_analysis.py);
- a stranger's messages held by a slow SMTP server, and someone's sign-in link behind them
  (bench/abuse_mail.py).

Also how many of 300 sockets of one profile the default caps let in (a second server), and
(``--inspect-only`` runs just this, in process, no server) the CPU microseconds that checking one
inbound frame costs (``frames.parse_client``: size, nesting scan, JSON, numbers, model) for the
worst shapes of text we know, at the socket's frame limit (16 KiB) and at 64 KiB: long runs of
quotes, backslashes, brackets, quote-backslash pairs and strings nested in objects.
Run it from another checkout to measure that checkout's server (the harness starts the server
from the checkout the script sits in).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from app.devtools.hostile_text import worst_shapes
from app.devtools.players import Player, get_game, http_move, seat_table
from app.devtools.stack import ServerProcess, TempDatabase

ROOT = Path(__file__).resolve().parents[1]

OPEN = {
    "EMARA_WS_MAX_PER_PROFILE": "100000",
    "EMARA_WS_MAX_PER_ADDRESS": "100000",
    "EMARA_WS_MAX_PER_TABLE": "100000",
    "EMARA_WS_RATE_PER_SECOND": "20",
    "EMARA_WS_RATE_BURST": "40",
}
HOSTILE = [
    '{"type": "ping", "ref": ' + str(10**30) + "}",
    '{"type": "ping", "ref": ' + str(-(2**64)) + "}",
    '{"type": "ping", "ref": ' + "[" * 300 + "]" * 300 + "}",
]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def open_socket(server: ServerProcess, table: str, player: Player, **kw: Any) -> Any:
    return await connect(
        f"{server.ws_base}/ws/tables/{table}",
        additional_headers=player.headers,
        proxy=None,
        open_timeout=30,
        max_size=1 << 22,
        **kw,
    )


async def caught_up(ws: ClientConnection) -> None:
    """Welcome, then hello → lobby + snapshot."""
    json.loads(await asyncio.wait_for(ws.recv(), 30))
    await ws.send(json.dumps({"type": "hello", "since": None}))
    while json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] != "snapshot":
        pass


async def phase_idle(server: ServerProcess, pid: int, table: Any, n: int) -> dict[str, Any]:
    before = rss_kib(pid)
    socks = []
    for i in range(n):
        ws = await open_socket(server, table.id, table.players[i % len(table.players)])
        await caught_up(ws)
        socks.append(ws)
    await asyncio.sleep(1.0)
    after = rss_kib(pid)
    for ws in socks:
        await ws.close()
    return {
        "sockets": n,
        "rss_kib_before": before,
        "rss_kib_after": after,
        "kib_per_socket": round((after - before) / n, 1),
    }


async def phase_abuse(
    server: ServerProcess, pid: int, table: Any, seconds: float
) -> dict[str, Any]:
    socks: list[tuple[str, ClientConnection]] = []
    for i in range(10):
        ws = await open_socket(server, table.id, table.players[i % 4], max_queue=1)
        await caught_up(ws)
        socks.append(("nonreading", ws))
    for i in range(10):
        ws = await open_socket(server, table.id, table.players[i % 4])
        await caught_up(ws)
        socks.append(("hostile", ws))
    start_rss = rss_kib(pid)
    closed: dict[str, list[Any]] = {"nonreading": [], "hostile": []}
    big = json.dumps({"type": "ping", "ref": "x" * 15_000})
    answers = {"hostile": 0}

    async def drive(kind: str, ws: ClientConnection) -> None:
        end = time.monotonic() + seconds
        i = 0
        try:
            while time.monotonic() < end:
                if kind == "nonreading":  # 15 kB refs, and catch-ups of several kB
                    await ws.send(big if i % 2 else '{"type": "hello", "since": 0}')
                else:
                    await ws.send(HOSTILE[i % 3])
                i += 1
                if kind == "hostile":
                    with contextlib.suppress(TimeoutError):
                        while True:
                            await asyncio.wait_for(ws.recv(), 0.001)
                            answers["hostile"] += 1
                await asyncio.sleep(1 / 15)
        except Exception:
            closed[kind].append(ws.close_code or 1006)  # 1006: the connection went away
        else:
            closed[kind].append(ws.close_code)

    samples: list[int] = []

    async def sample() -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            samples.append(rss_kib(pid))
            await asyncio.sleep(1.0)

    await asyncio.gather(sample(), *(drive(k, w) for k, w in socks))
    end_rss = rss_kib(pid)
    for _, ws in socks:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 5)
    return {
        "seconds": seconds,
        "rss_kib_start": start_rss,
        "rss_kib_end": end_rss,
        "rss_kib_max": max([*samples, end_rss]),
        "growth_kib": end_rss - start_rss,
        "hostile_answers_received": answers["hostile"],
        "closed_by_server": {k: [c for c in v if c is not None] for k, v in closed.items()},
    }


async def phase_burst(server: ServerProcess, pid: int, table: Any, n: int) -> dict[str, Any]:
    socks = []
    for i in range(n):
        ws = await open_socket(server, table.id, table.players[i % 4])
        await caught_up(ws)
        socks.append(ws)
    received = [0]
    lat: list[float] = []
    done = asyncio.Event()

    async def health() -> None:
        async with httpx.AsyncClient(base_url=server.base, trust_env=False) as c:
            while not done.is_set():
                t0 = time.perf_counter()
                await c.get("/api/ready")
                lat.append((time.perf_counter() - t0) * 1000)
                await asyncio.sleep(0.05)

    async def one(ws: ClientConnection) -> None:
        for _ in range(40):
            await ws.send('{"type": "hello", "since": 0}')
        with contextlib.suppress(TimeoutError):
            while True:
                raw = await asyncio.wait_for(ws.recv(), 3.0)
                received[0] += len(raw)

    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    h = asyncio.create_task(health())
    await asyncio.gather(*(one(ws) for ws in socks))
    wall = time.monotonic() - t0 - 3.0
    done.set()
    await h
    cpu = cpu_seconds(pid) - cpu0
    for ws in socks:
        await ws.close()
    return {
        "sockets": n,
        "hellos": 40 * n,
        "bytes_received_mb": round(received[0] / 1e6, 1),
        "server_cpu_s": round(cpu, 2),
        "burst_wall_s": round(wall, 2),
        "health_median_ms": round(statistics.median(lat), 1) if lat else None,
        "health_samples": len(lat),
    }


async def phase_caps(server: ServerProcess, table: Any) -> dict[str, Any]:
    accepted = 0
    codes: dict[str, int] = {}
    socks = []
    for _ in range(300):
        ws = await open_socket(server, table.id, table.players[0])
        first = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if first["type"] == "welcome":
            accepted += 1
            socks.append(ws)
        else:
            codes[first.get("code", "?")] = codes.get(first.get("code", "?"), 0) + 1
            await ws.close()
    for ws in socks:
        await ws.close()
    return {"tried": 300, "accepted": accepted, "refused": codes}


def play_some(server: ServerProcess, table: Any, moves: int) -> None:
    with httpx.Client(base_url=server.base, trust_env=False, timeout=30) as c:
        for _ in range(moves):
            game = get_game(c, table.id, table.players[0])
            seat = game["view"]["to_act"][0]
            view = get_game(c, table.id, table.players[seat])
            legal = view["legal_moves"]
            move = next((m for m in legal if m["kind"] == "end_turn"), legal[0])
            http_move(c, table.id, table.players[seat], move, view["version"]).raise_for_status()


def phase_inspect(runs: int = 5) -> dict[str, Any]:
    """CPU microseconds per ``parse_client`` call on each worst shape (median of ``runs``)."""
    from app.realtime.frames import parse_client

    out: dict[str, Any] = {}
    for size in (16_384, 65_536):
        row: dict[str, float] = {}
        for name, text in worst_shapes(size).items():
            calls = max(1, 200_000 // size)
            times = []
            for _ in range(runs):
                began = time.process_time()
                for _ in range(calls):
                    parse_client(text, 1 << 20, 32)
                times.append((time.process_time() - began) / calls * 1e6)
            row[name] = round(statistics.median(times), 1)
        out[f"{size}_bytes_us_per_frame"] = row
    return out


def within_twice(figures: dict[str, float], idle: str, loaded: str) -> dict[str, float]:
    """The figures, with the ratio of the loaded p99 to the idle p99 and whether it is ≤ 2."""
    ratio = figures[loaded] / max(figures[idle], 0.001)
    return {**figures, "health_p99_ratio": round(ratio, 2), "within_2x": float(ratio <= 2.0)}


async def phase_work() -> dict[str, Any]:
    from bench.abuse_analysis import BENCH_ENV, analysis_flood
    from bench.abuse_mail import slow_smtp
    from bench.abuse_records import padded_record

    out: dict[str, Any] = {"checkout": str(ROOT)}
    with TempDatabase("emara_work") as db, tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(db.url, Path(tmp) / "records.log").start()
        try:
            records = await padded_record(server.base, seconds=10.0, clients=8)
        finally:
            server.stop()
    out["padded_record"] = within_twice(records, "health_idle_p99_ms", "health_load_p99_ms")
    with TempDatabase("emara_work") as db, tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(db.url, Path(tmp) / "analysis.log", env=BENCH_ENV).start()
        try:
            flood = await analysis_flood(server.base, flood=50)
        finally:
            server.stop()
    out["analysis_flood"] = within_twice(flood, "health_idle_p99_ms", "health_load_p99_ms")
    mail = await slow_smtp(stall=30.0, load=50)
    out["slow_smtp"] = within_twice(mail, "health_idle_p99_ms", "health_loaded_p99_ms")
    return out


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--idle", type=int, default=200)
    ap.add_argument("--burst", type=int, default=100)
    ap.add_argument("--inspect-only", action="store_true")
    ap.add_argument("--work", action="store_true", help="the costly inputs (see the docstring)")
    args = ap.parse_args()
    if args.work:
        print(json.dumps(await phase_work(), indent=2))
        return
    out: dict[str, Any] = {"checkout": str(ROOT), "inspect": phase_inspect()}
    if args.inspect_only:
        print(json.dumps(out, indent=2))
        return
    with TempDatabase("emara_abuse") as db, tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(db.url, Path(tmp) / "server.log", env=OPEN).start()
        try:
            assert server.proc is not None
            pid = server.proc.pid
            with httpx.Client(base_url=server.base, trust_env=False, timeout=30) as c:
                tables = [seat_table(c, 4) for _ in range(3)]
            play_some(server, tables[2], 20)
            out["idle"] = await phase_idle(server, pid, tables[0], args.idle)
            out["abuse"] = await phase_abuse(server, pid, tables[1], args.seconds)
            out["burst"] = await phase_burst(server, pid, tables[2], args.burst)
        finally:
            server.stop()
        capped = ServerProcess(db.url, Path(tmp) / "capped.log").start()
        try:
            with httpx.Client(base_url=capped.base, trust_env=False, timeout=30) as c:
                table = seat_table(c, 4)
            out["caps_one_profile"] = await phase_caps(capped, table)
        finally:
            capped.stop()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    asyncio.run(main())

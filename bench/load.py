"""Load: N tables of 4 WebSocket seats against uvicorn + Postgres, on loopback.

    .venv/bin/python bench/load.py --tables 100 --seconds 30                 # 1 move/s per table
    .venv/bin/python bench/load.py --tables 30 --seconds 20 --rate 0         # saturation
    .venv/bin/python bench/load.py --tables 30 --seconds 20 --rate 0 --instances 2
    .venv/bin/python bench/load.py --tables 20 --seconds 10 --instances 2 --spread

Each table has four real WebSocket clients; the seat to act picks uniformly among the legal moves
the server sent it, and a game that ends is followed by a new table of the same players, so the
load stays on for the whole run. A move's round trip is measured twice: sent → acknowledged (the
mover's own reply) and sent → every seat updated (all four sockets saw the new version). Without
``--url`` the script makes a fresh Postgres database, migrates it, starts ``--instances`` uvicorn
processes (tables spread over them; all seats of a table on one instance, as a load balancer that
routes by table places them, or with ``--spread`` each seat of a table on another instance), and
drops everything at the end. It prints the CPU time the server processes, the client (this
script) and Postgres spent per move, since all three share the machine. Then it measures the
ceiling: a bare Postgres transaction of the same shape (read the snapshot, conditional update of
snapshot + version, insert into the move log, notify, commit) with the same snapshot size, so the
ratio is visible.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from app.devtools.players import SeatSocket
from app.devtools.stack import PG_ADMIN_URL, ServerProcess, TempDatabase, server_errors

ROOT = Path(__file__).resolve().parents[1]


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def fmt_ms(values: list[float]) -> str:
    if not values:
        return "n/a"
    return (
        f"p50 {pct(values, 50) * 1e3:6.1f} ms  p95 {pct(values, 95) * 1e3:6.1f} ms  "
        f"p99 {pct(values, 99) * 1e3:6.1f} ms  max {max(values) * 1e3:6.1f} ms"
    )


def cpu_seconds(pid: int, children: bool = False) -> float:
    """User + system CPU time of a process so far (Linux /proc), 0.0 where unreadable; with
    ``children``, also that of its children that have exited."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # After the command name: state is field 3, utime 14, stime 15, cutime 16 and cstime 17
    # (1-based, man 5 proc).
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds() -> float:
    """CPU time of every process named postgres so far, including backends that have exited
    (they count in their parent's children time)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    total += cpu_seconds(int(entry.name), children=True)
            except OSError:
                continue
    return total


def cpu_snapshot(server_pids: list[int]) -> dict[str, float]:
    return {
        "server": sum(cpu_seconds(p) for p in server_pids),
        "client": cpu_seconds(os.getpid()),
        "postgres": postgres_cpu_seconds(),
    }


@dataclass
class Stats:
    ack: list[float] = field(default_factory=list)
    all_seats: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    finished_tables: int = 0
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds spent during the run

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


async def make_table(
    client: httpx.AsyncClient,
    seats: int,
    tokens: list[str] | None = None,
    options: dict[str, Any] | None = None,
) -> tuple[str, list[str]]:
    """A started table of ``seats`` players: new profiles, or those of ``tokens``."""
    if tokens is None:
        tokens = []
        for i in range(seats):
            r = await client.post("/api/profiles", json={"name": f"load{i}"})
            r.raise_for_status()
            tokens.append(r.json()["token"])
    h0 = {"Authorization": f"Bearer {tokens[0]}"}
    r = await client.post(
        "/api/tables", json={"seats": seats, "options": options or {}}, headers=h0
    )
    r.raise_for_status()
    t = r.json()
    for tok in tokens[1:]:
        r = await client.post(
            f"/api/tables/{t['id']}/join",
            json={"invite_code": t["invite_code"]},
            headers={"Authorization": f"Bearer {tok}"},
        )
        r.raise_for_status()
    r = await client.post(f"/api/tables/{t['id']}/start", headers=h0)
    r.raise_for_status()
    return str(t["id"]), tokens


async def drive_table(
    sockets: list[SeatSocket],
    reopen: Callable[[list[SeatSocket]], Awaitable[list[SeatSocket]]],
    rate: float,
    deadline: float,
    stats: Stats,
    rng: random.Random,
    timeout: float,
) -> None:
    """Play one table till the deadline; a finished game is followed by a new one at a new table
    (same players), so that the load stays on for the whole run."""
    interval = 1.0 / rate if rate > 0 else 0.0
    # Spread the tables' ticks over the first interval.
    next_tick = time.perf_counter() + rng.random() * interval
    while True:
        if interval:
            delay = next_tick - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            next_tick += interval
        if time.perf_counter() >= deadline:
            break
        version = max(s.version for s in sockets)
        actor = next(
            (s for s in sockets if s.version == version and s.legal_moves),
            None,
        )
        if actor is None:
            if any(((s.view or {}).get("phase") == "finished") for s in sockets):
                stats.finished_tables += 1
                try:
                    sockets = await reopen(sockets)
                except (httpx.HTTPError, OSError, TimeoutError) as exc:
                    stats.error(f"new_table:{type(exc).__name__}")
                    return
                continue
            # Not every seat has caught up yet: wait briefly for the latest state.
            try:
                await asyncio.gather(*(s.wait_version(version, timeout) for s in sockets))
            except (TimeoutError, ConnectionError):
                stats.error("stalled")
                break
            continue
        move = rng.choice(actor.legal_moves)
        mark = actor.received
        t0 = time.perf_counter()
        move_id = await actor.send_move(move, expected_version=version)
        try:
            reply = await actor.wait_for(
                lambda f, mid=move_id: (
                    f.get("move_id") == mid
                    or (f.get("type") == "error" and (f.get("move_id") in (None, mid)))
                ),
                timeout,
                start=mark,
            )
        except (TimeoutError, ConnectionError):
            stats.error("ack_timeout")
            break
        t_ack = time.perf_counter()
        if reply.get("type") == "error":
            stats.error(str((reply.get("error") or {}).get("code") or reply.get("code")))
            await asyncio.sleep(0.05)
            continue
        new_version = int(reply.get("version") or version + 1)
        try:
            await asyncio.gather(*(s.wait_version(new_version, timeout) for s in sockets))
        except (TimeoutError, ConnectionError):
            stats.error("update_timeout")
            break
        t_all = time.perf_counter()
        stats.ack.append(t_ack - t0)
        stats.all_seats.append(t_all - t0)
    await asyncio.gather(*(s.close() for s in sockets))


async def run_load(
    bases: list[str],
    tables: int,
    seconds: float,
    rate: float,
    seats: int,
    timeout: float,
    server_pids: list[int] | None = None,
    spread: bool = False,
    options: dict[str, Any] | None = None,
) -> Stats:
    stats = Stats()
    rng = random.Random(1)
    limits = httpx.Limits(max_connections=20)
    clients = [httpx.AsyncClient(base_url=b, timeout=30.0, limits=limits) for b in bases]
    sem = asyncio.Semaphore(8)

    async def setup(i: int, tokens: list[str] | None = None) -> list[SeatSocket]:
        """Table ``i``: all its seats on one instance (as a load balancer that routes by table
        would place them), or with ``spread`` each seat on the next instance."""
        async with sem:
            table_id, tokens = await make_table(clients[i % len(clients)], seats, tokens, options)
            socks = []
            for seat, tok in enumerate(tokens):
                base = bases[(i + seat) % len(bases)] if spread else bases[i % len(bases)]
                s = SeatSocket(base.replace("http://", "ws://"), table_id, tok, keep=16)
                await s.connect(since=0)
                socks.append(s)
            await asyncio.gather(
                *(s.wait_version(0, timeout) for s in socks), return_exceptions=True
            )
            return socks

    def reopener(i: int) -> Callable[[list[SeatSocket]], Awaitable[list[SeatSocket]]]:
        async def reopen(old: list[SeatSocket]) -> list[SeatSocket]:
            await asyncio.gather(*(s.close() for s in old))
            return await setup(i, [s.token for s in old])

        return reopen

    t_setup = time.perf_counter()
    all_socks = await asyncio.gather(*(setup(i) for i in range(tables)))
    took = time.perf_counter() - t_setup
    print(f"set-up: {tables} tables, {tables * seats} sockets in {took:.1f}s", flush=True)
    # The client shares the machine with the server it measures: what is alive now lives to the
    # end, and the run makes no garbage cycles worth collecting, so the collector stays off.
    gc.collect()
    gc.freeze()
    gc.disable()
    cpu_before = cpu_snapshot(server_pids or [])
    start = time.perf_counter()
    deadline = start + seconds
    await asyncio.gather(
        *(
            drive_table(
                socks, reopener(i), rate, deadline, stats, random.Random(rng.random()), timeout
            )
            for i, socks in enumerate(all_socks)
        )
    )
    elapsed = time.perf_counter() - start
    cpu_after = cpu_snapshot(server_pids or [])
    gc.enable()
    stats.cpu = {k: cpu_after[k] - cpu_before[k] for k in cpu_after}
    stats.elapsed = elapsed  # type: ignore[attr-defined]
    for c in clients:
        await c.aclose()
    return stats


# -- the ceiling: a bare Postgres transaction of the same shape ------------------------------------


async def ceiling(
    libpq_url: str, snapshot: dict[str, Any], seconds: float, concurrency: int
) -> tuple[float, list[float]]:
    import psycopg

    async with await psycopg.AsyncConnection.connect(libpq_url, autocommit=True) as admin:
        await admin.execute(
            "CREATE TABLE IF NOT EXISTS bench_table (id text primary key, state jsonb, "
            "version int not null)"
        )
        await admin.execute(
            "CREATE TABLE IF NOT EXISTS bench_move (id bigserial primary key, table_id text, "
            "version int, seat int, move jsonb, events jsonb, move_id text, "
            "created_at timestamptz default now(), unique (table_id, version), "
            "unique (table_id, move_id))"
        )
        for i in range(concurrency):
            await admin.execute(
                "INSERT INTO bench_table VALUES (%s, %s, 0) ON CONFLICT DO NOTHING",
                (f"t{i}", json.dumps(snapshot)),
            )
    lat: list[float] = []
    deadline = time.perf_counter() + seconds
    blob = json.dumps(snapshot)
    move = json.dumps({"kind": "end_turn"})

    async def worker(i: int) -> None:
        async with await psycopg.AsyncConnection.connect(libpq_url) as conn:
            tid = f"t{i}"
            while time.perf_counter() < deadline:
                t0 = time.perf_counter()
                async with conn.transaction():
                    row = await (
                        await conn.execute(
                            "SELECT state, version FROM bench_table WHERE id=%s", (tid,)
                        )
                    ).fetchone()
                    assert row is not None
                    v = row[1]
                    await conn.execute(
                        "UPDATE bench_table SET state=%s, version=%s WHERE id=%s AND version=%s",
                        (blob, v + 1, tid, v),
                    )
                    await conn.execute(
                        "INSERT INTO bench_move (table_id, version, seat, move, events, move_id) "
                        "VALUES (%s, %s, 0, %s, '[]', %s)",
                        (tid, v + 1, move, uuid.uuid4().hex),
                    )
                    await conn.execute("SELECT pg_notify('bench', %s)", (f"{tid}:{v + 1}",))
                lat.append(time.perf_counter() - t0)

    start = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(concurrency)))
    return len(lat) / (time.perf_counter() - start), lat


def report(stats: Stats, seats: int) -> None:
    n = len(stats.ack)
    elapsed = getattr(stats, "elapsed", 1.0)
    print(f"moves: {n} in {elapsed:.1f}s = {n / elapsed:.1f} moves/s")
    print(f"round trip sent→ack:          {fmt_ms(stats.ack)}")
    print(f"round trip sent→all {seats} seats:  {fmt_ms(stats.all_seats)}")
    total_err = sum(stats.errors.values())
    print(f"errors: {total_err} {json.dumps(stats.errors, sort_keys=True) if total_err else ''}")
    if stats.finished_tables:
        print(f"games played to the end (each followed by a new table): {stats.finished_tables}")
    if n and stats.cpu:
        # Where the machine's time went: CPU per acknowledged move, and share of the cores.
        parts = [
            f"{who} {secs / n * 1e3:.2f} ms/move ({secs / elapsed * 100:.0f}% of a core)"
            for who, secs in stats.cpu.items()
            if secs or who != "server"
        ]
        print("cpu: " + ", ".join(parts))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--rate", type=float, default=1.0, help="moves/s per table; 0 = flat out")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--instances", type=int, default=1, help="uvicorn processes (own stack only)")
    ap.add_argument(
        "--spread",
        action="store_true",
        help="seats of one table on different instances (default: a table's seats on one)",
    )
    ap.add_argument("--url", action="append", help="use running server(s) instead of own stack")
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--ceiling-concurrency", type=int, default=4)
    ap.add_argument("--no-ceiling", action="store_true")
    ap.add_argument("--server-arg", action="append", default=[], help="extra uvicorn argument")
    ap.add_argument(
        "--clock",
        choices=["none", "10+20", "20+30"],
        default="none",
        help="open every table with a running live clock (pace option)",
    )
    args = ap.parse_args()

    print(
        f"load: {args.tables} tables × {args.seats} seats, "
        f"{'flat out' if args.rate <= 0 else f'{args.rate:g} move/s per table'}, "
        f"{args.seconds:g}s, clock {args.clock}, cpus={os.cpu_count()}",
        flush=True,
    )
    db: TempDatabase | None = None
    servers: list[ServerProcess] = []
    logdir = Path(tempfile.mkdtemp(prefix="emara-load-"))
    try:
        if args.url:
            bases = args.url
        else:
            db = TempDatabase(prefix="emara_load").__enter__()
            for i in range(args.instances):
                servers.append(
                    ServerProcess(
                        db.url,
                        logdir / f"server{i}.log",
                        env={
                            "EMARA_LOG_LEVEL": "warning",
                            # every simulated player connects from 127.0.0.1: lift the
                            # per-address socket cap and the per-address creation limits
                            "EMARA_WS_MAX_PER_ADDRESS": "100000",
                            "EMARA_RATE_PROFILE_CREATE": "100000/hour",
                            "EMARA_RATE_TABLE_CREATE": "100000/hour",
                        },
                        extra_args=["--log-level", "warning", "--no-access-log", *args.server_arg],
                    ).start()
                )
            bases = [s.base for s in servers]
        pids = [s.proc.pid for s in servers if s.proc is not None]
        stats = asyncio.run(
            run_load(
                bases,
                args.tables,
                args.seconds,
                args.rate,
                args.seats,
                args.timeout,
                pids,
                args.spread,
                {"pace": {"mode": "live", "clock": args.clock}},
            )
        )
        report(stats, args.seats)
        for s in servers:
            errs = server_errors(s.log_text())
            print(f"server {s.port}: {len(errs)} error lines in its log ({s.log_path})")
        if db is not None and not args.no_ceiling:
            rows = db.query("SELECT state FROM game_table WHERE state IS NOT NULL LIMIT 1")
            snapshot = rows[0][0] if rows else {"pad": "x" * 8000}
            if isinstance(snapshot, str):
                snapshot = json.loads(snapshot)
            size = len(json.dumps(snapshot))
            tps, lat = asyncio.run(
                ceiling(db.libpq_url, snapshot, min(args.seconds, 10.0), args.ceiling_concurrency)
            )
            print(
                f"ceiling: bare Postgres transaction (read snapshot, update snapshot+version, "
                f"insert move, notify; {size} B snapshot, {args.ceiling_concurrency} connections): "
                f"{tps:.0f} tx/s  {fmt_ms(lat)}"
            )
            n = len(stats.ack)
            elapsed = getattr(stats, "elapsed", 1.0)
            if tps:
                print(f"ratio: server moves/s ÷ ceiling tx/s = {n / elapsed / tps:.3f}")
    finally:
        for s in servers:
            s.stop()
        if db is not None:
            db.drop()
    _ = PG_ADMIN_URL
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())

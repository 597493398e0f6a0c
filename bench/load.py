"""Load: N tables of 4 WebSocket seats against uvicorn + Postgres (or SQLite), on loopback.

    .venv/bin/python bench/load.py --tables 100 --seconds 30                 # 1 move/s per table
    .venv/bin/python bench/load.py --tables 30 --seconds 20 --rate 0         # saturation
    .venv/bin/python bench/load.py --tables 30 --seconds 20 --rate 0 --instances 2
    .venv/bin/python bench/load.py --tables 20 --seconds 10 --instances 2 --spread
    .venv/bin/python bench/load.py --tables 1000 --seconds 60 --rate 0.1     # many quiet tables
    .venv/bin/python bench/load.py --sqlite --tables 30 --seconds 20 --rate 0  # embedded SQLite

Each table has four real WebSocket clients; the seat to act picks uniformly among the legal moves
the server sent it, and a game that ends is followed by a new table of the same players, so the
load stays on for the whole run. A move's round trip is measured twice: sent → acknowledged (the
mover's own reply) and sent → every seat updated (all four sockets saw the new version). Without
``--url`` the script makes a fresh Postgres database, migrates it, starts ``--instances`` uvicorn
processes (tables spread over them; all seats of a table on one instance, as a load balancer that
routes by table places them, or with ``--spread`` each seat of a table on another instance), and
drops everything at the end. With ``--sqlite`` the servers run on a fresh embedded SQLite file
(the default store of ``make run``), migrated the same way; the Postgres figures are then n/a.
Every player connects from 127.0.0.1, so the script raises the server's per-address and
per-process socket caps and its creation limits (it prints which). Set-up opens
``--setup-concurrency`` tables at a time; the clients answer the server's heartbeat ``ping`` and
send one of their own every 15 s, as the page does, so a long set-up is not cut by the idle
timeout (4408); a socket the server closes during the run counts as an error (``closed_<code>``).

It prints the bytes the clients received per acknowledged move (every frame to every socket
during the run, UTF-8, by frame type) and the mean size of an ``update`` frame, and the CPU time
the server processes (and of it, their kernel time: sockets, polling), the client (this script)
and Postgres spent per move, since all three share the machine. Then it measures the ceiling: a
bare Postgres transaction of the same shape (read the snapshot, conditional update of snapshot +
version, insert into the move log, notify, commit) with the same snapshot size, so the ratio is
visible.

The script imports ``app`` from the tree it is run in only with ``PYTHONPATH=.`` (an editable
install elsewhere would otherwise win, and its servers would run that tree's code).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from machine import reference_ms

from app.devtools.players import FrameTally, SeatSocket
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


def cpu_seconds(pid: int, children: bool = False, kernel_only: bool = False) -> float:
    """User + system CPU time of a process so far (Linux /proc), 0.0 where unreadable; with
    ``children``, also that of its children that have exited; with ``kernel_only``, only its
    system time (the kernel's work for it: sockets, polling)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # After the command name: state is field 3, utime 14, stime 15, cutime 16 and cstime 17
    # (1-based, man 5 proc).
    if kernel_only:
        return int(fields[12]) / os.sysconf("SC_CLK_TCK")
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


def cpu_snapshot(server_pids: list[int], postgres: bool = True) -> dict[str, float]:
    """CPU seconds so far of the servers, this client and (when the stack has it) Postgres."""
    snap = {
        "server": sum(cpu_seconds(p) for p in server_pids),
        "of which kernel": sum(cpu_seconds(p, kernel_only=True) for p in server_pids),
        "client": cpu_seconds(os.getpid()),
    }
    if postgres:
        snap["postgres"] = postgres_cpu_seconds()
    return snap


@dataclass
class Stats:
    ack: list[float] = field(default_factory=list)
    all_seats: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # when each move was sent (perf_counter)
    errors: dict[str, int] = field(default_factory=dict)
    finished_tables: int = 0
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds spent during the run
    frames: FrameTally = field(default_factory=FrameTally.empty)  # received during the run
    setup_seconds: float = 0.0

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
) -> list[SeatSocket]:
    """Play one table till the deadline; a finished game is followed by a new one at a new table
    (same players), so that the load stays on for the whole run. Returns the table's sockets,
    open: the caller closes them once every table has stopped (a table that closed its sockets
    at once would load the server while the others' last moves are measured)."""
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
                    return []
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
        stats.sent_at.append(t0)
    for s in sockets:
        if s.close_code is not None:  # closed by the server (or the network) during the run
            stats.error(f"closed_{s.close_code}")
        for _ in range(s.resyncs):  # a delta that did not fit the client's game
            stats.error("delta_resync")
    return sockets


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
    postgres: bool = True,
    setup_concurrency: int = 8,
    idle_seconds: float = 0.0,
    deltas: bool = True,
) -> Stats:
    stats = Stats()
    rng = random.Random(1)
    limits = httpx.Limits(max_connections=20)
    clients = [httpx.AsyncClient(base_url=b, timeout=30.0, limits=limits) for b in bases]
    # Tables being set up at once (their HTTP calls and their sockets' handshakes): a bounded
    # number, so a thousand tables queue instead of opening thousands of connections at once.
    sem = asyncio.Semaphore(setup_concurrency)
    tally = FrameTally.empty()

    async def setup(i: int, tokens: list[str] | None = None) -> list[SeatSocket]:
        """Table ``i``: all its seats on one instance (as a load balancer that routes by table
        would place them), or with ``spread`` each seat on the next instance."""
        async with sem:
            table_id, tokens = await make_table(clients[i % len(clients)], seats, tokens, options)
            socks = []
            for seat, tok in enumerate(tokens):
                base = bases[(i + seat) % len(bases)] if spread else bases[i % len(bases)]
                # Pings: answered, and one of its own every 15 s, as the page does.
                s = SeatSocket(
                    base.replace("http://", "ws://"),
                    table_id,
                    tok,
                    keep=16,
                    ping_every=15.0,
                    tally=tally,
                    deltas=deltas,  # as the page asks (``--full``: whole updates)
                )
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
    ready = 0

    async def setup_first(i: int) -> list[SeatSocket]:
        nonlocal ready
        socks = await setup(i)
        ready += 1
        if tables >= 100 and ready % (tables // 10) == 0:  # a long set-up shows its progress
            print(f"  {ready} tables ready ({time.perf_counter() - t_setup:.0f}s)", flush=True)
        return socks

    all_socks = await asyncio.gather(*(setup_first(i) for i in range(tables)))
    took = time.perf_counter() - t_setup
    stats.setup_seconds = took
    print(
        f"set-up: {tables} tables, {tables * seats} sockets in {took:.1f}s "
        f"({setup_concurrency} tables at a time)",
        flush=True,
    )
    # The client shares the machine with the server it measures: what is alive now lives to the
    # end, and the run makes no garbage cycles worth collecting, so the collector stays off.
    gc.collect()
    gc.freeze()
    gc.disable()
    if idle_seconds > 0:
        # What the open sockets cost with no move at all (heartbeats, presence).
        idle_before = cpu_snapshot(server_pids or [], postgres)
        await asyncio.sleep(idle_seconds)
        idle_after = cpu_snapshot(server_pids or [], postgres)
        print(
            f"idle {idle_seconds:g}s with {tables * seats} sockets open, no moves: "
            + ", ".join(
                f"{k} {(idle_after[k] - idle_before[k]) / idle_seconds * 100:.0f}% of a core"
                for k in idle_after
            ),
            flush=True,
        )
    cpu_before = cpu_snapshot(server_pids or [], postgres)
    frames_before = tally.copy()
    start = time.perf_counter()
    deadline = start + seconds
    last_socks = await asyncio.gather(
        *(
            drive_table(
                socks, reopener(i), rate, deadline, stats, random.Random(rng.random()), timeout
            )
            for i, socks in enumerate(all_socks)
        )
    )
    elapsed = time.perf_counter() - start
    cpu_after = cpu_snapshot(server_pids or [], postgres)
    await asyncio.gather(*(s.close() for socks in last_socks for s in socks))
    stats.frames = tally.since(frames_before)
    gc.enable()
    stats.cpu = {k: cpu_after[k] - cpu_before[k] for k in cpu_after}
    stats.elapsed = elapsed  # type: ignore[attr-defined]
    stats.start = start  # type: ignore[attr-defined]
    for c in clients:
        await c.aclose()
    return stats


# Every simulated player connects from 127.0.0.1 and one process holds every socket: the own
# stack's server gets the per-address and per-process socket caps and the creation limits lifted
# (a real deployment counts each client's own address).
LOOPBACK_LIMITS = {
    "EMARA_WS_MAX_PER_ADDRESS": "100000",
    "EMARA_WS_MAX_PER_PROCESS": "100000",
    "EMARA_RATE_PROFILE_CREATE": "100000/hour",
    "EMARA_RATE_TABLE_CREATE": "100000/hour",
    "EMARA_TABLE_CREATE_LIMIT": "0",
}


def migrated_sqlite(path: Path) -> str:
    """A new SQLite file at ``path``, migrated to head (in a subprocess, as ``TempDatabase``
    migrates: alembic's env may configure logging or settings globally); its URL."""
    url = f"sqlite:///{path.resolve()}"
    code = "import sys; from app.db.migrate import upgrade; upgrade(sys.argv[1])"
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMARA_")}
    subprocess.run([sys.executable, "-c", code, url], cwd=ROOT, check=True, timeout=120, env=env)
    return url


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


def worst_seconds(stats: Stats, shown: int = 6) -> None:
    """Where the tail sits in time: the seconds of the run whose slowest move to every seat was
    slowest (a periodic task or a collection shows as evenly spaced seconds)."""
    start = getattr(stats, "start", None)
    if start is None or not stats.sent_at:
        return
    by_second: dict[int, list[float]] = {}
    for t0, rt in zip(stats.sent_at, stats.all_seats, strict=True):
        by_second.setdefault(int(t0 - start), []).append(rt)
    worst = sorted(by_second.items(), key=lambda kv: -max(kv[1]))[:shown]
    print(
        "slowest seconds (second of the run: moves sent in it, their max to every seat): "
        + ", ".join(f"{sec}s: {len(v)}, {max(v) * 1e3:.0f} ms" for sec, v in sorted(worst))
    )


def report(stats: Stats, seats: int) -> None:
    n = len(stats.ack)
    elapsed = getattr(stats, "elapsed", 1.0)
    print(f"moves: {n} in {elapsed:.1f}s = {n / elapsed:.1f} moves/s")
    print(f"round trip sent→ack:          {fmt_ms(stats.ack)}")
    print(f"round trip sent→all {seats} seats:  {fmt_ms(stats.all_seats)}")
    worst_seconds(stats)
    total_err = sum(stats.errors.values())
    print(f"errors: {total_err} {json.dumps(stats.errors, sort_keys=True) if total_err else ''}")
    if n:
        # What the clients received during the run (every socket, every frame, UTF-8 bytes).
        fr = stats.frames
        per_type = ", ".join(
            f"{k} {fr.bytes[k] / n:.0f}"
            for k in sorted(fr.bytes, key=lambda k: -fr.bytes[k])
            if fr.bytes[k]
        )
        updates = fr.frames.get("update", 0)
        mean_update = f"{fr.bytes['update'] / updates:.0f} B" if updates else "n/a"
        deltas = fr.frames.get("delta", 0)
        mean_delta = f"{fr.bytes['delta'] / deltas:.0f} B" if deltas else "n/a"
        print(
            f"bytes received per move (all frames to all sockets ÷ moves): "
            f"{fr.total_bytes / n:.0f} B; mean update frame {mean_update} ({updates} updates), "
            f"mean delta frame {mean_delta} ({deltas} deltas)"
        )
        print(f"  by frame type, B per move: {per_type}")
    if stats.finished_tables:
        print(f"games played to the end (each followed by a new table): {stats.finished_tables}")
    if n and stats.cpu:
        # Where the machine's time went: CPU per acknowledged move, and share of the cores.
        parts = [
            f"{who} {secs / n * 1e3:.2f} ms/move ({secs / elapsed * 100:.0f}% of a core)"
            for who, secs in stats.cpu.items()
            if secs or who not in ("server", "of which kernel")
        ]
        if "postgres" not in stats.cpu:
            parts.append("postgres n/a (embedded SQLite)")
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
    ap.add_argument(
        "--sqlite",
        action="store_true",
        help="own stack on a fresh embedded SQLite file (the default store) instead of Postgres",
    )
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument(
        "--idle",
        type=float,
        default=0.0,
        help="seconds of no moves after set-up, to measure what the open sockets cost",
    )
    ap.add_argument(
        "--setup-concurrency", type=int, default=8, help="tables set up at once (HTTP + sockets)"
    )
    ap.add_argument(
        "--full",
        action="store_true",
        help="clients ask for whole update frames instead of deltas (as a third-party client)",
    )
    ap.add_argument("--ceiling-concurrency", type=int, default=4)
    ap.add_argument("--no-ceiling", action="store_true")
    ap.add_argument("--server-arg", action="append", default=[], help="extra uvicorn argument")
    ap.add_argument(
        "--server-env",
        action="append",
        default=[],
        metavar="EMARA_X=V",
        help="a server setting (EMARA_GC_FREEZE_SECONDS=0: Python's own collector)",
    )
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
        f"{args.seconds:g}s, clock {args.clock}, {'whole updates' if args.full else 'deltas'}, "
        f"cpus={os.cpu_count()}",
        flush=True,
    )
    machine_before = reference_ms()
    db: TempDatabase | None = None
    servers: list[ServerProcess] = []
    logdir = Path(tempfile.mkdtemp(prefix="emara-load-"))
    try:
        if args.url:
            bases = args.url
        else:
            if args.sqlite:
                # A fresh file, migrated as `make migrate` migrates the default one.
                database_url = migrated_sqlite(logdir / "emara.db")
                print(f"database: embedded SQLite {logdir / 'emara.db'}", flush=True)
            else:
                db = TempDatabase(prefix="emara_load").__enter__()
                database_url = db.url
            for i in range(args.instances):
                servers.append(
                    ServerProcess(
                        database_url,
                        logdir / f"server{i}.log",
                        env={
                            "EMARA_LOG_LEVEL": "warning",
                            **LOOPBACK_LIMITS,
                            **dict(kv.split("=", 1) for kv in args.server_env),
                        },
                        extra_args=["--log-level", "warning", "--no-access-log", *args.server_arg],
                    ).start()
                )
            bases = [s.base for s in servers]
            print(
                "server limits raised for a loopback load (every player is 127.0.0.1): "
                + " ".join(f"{k}={v}" for k, v in LOOPBACK_LIMITS.items()),
                flush=True,
            )
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
                postgres=not args.sqlite,
                setup_concurrency=args.setup_concurrency,
                idle_seconds=args.idle,
                deltas=not args.full,
            )
        )
        report(stats, args.seats)
        print(
            f"machine: reference workload {machine_before:.0f} ms of CPU before the run, "
            f"{reference_ms():.0f} ms after (bench/machine.py: compare runs by it)"
        )
        for s in servers:
            errs = server_errors(s.log_text())
            print(f"server {s.port}: {len(errs)} error lines in its log ({s.log_path})")
        if db is None and not args.url:
            print("ceiling: n/a (embedded SQLite; the ceiling is a bare Postgres transaction)")
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
        for leftover in logdir.glob("emara.db*"):  # the SQLite file and its -wal/-shm
            leftover.unlink()
    _ = PG_ADMIN_URL
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())

"""Records abuse figures (not a test): what a padded record and looping replay reads cost.

    .venv/bin/python -m bench.abuse_records              # 10 s of load per phase, 8 clients
    .venv/bin/python -m bench.abuse_records --seconds 5 --clients 8

Starts its own Postgres database and one uvicorn process (app/devtools/stack.py), then
(``padded_record``):

1. imports the attack as it was found: ``[first move, undo to 0]`` 2,455 times in front of a
   real game (5,000 moves), and the same padding 200 times (within the cap of any record): the
   status and error code of each, and how long the server took to refuse it;
2. imports the real game (docs/records.example.json) and again (the same replay);
3. measures ``/api/health`` p50/p99 idle, then while ``clients`` clients loop ``GET
   /api/replays/{id}`` for ``seconds`` (a bystander's ``/api/profiles/me`` too), and counts the
   reads served and refused (429). ``/api/health`` is timed from a process of its own
   (bench/probe.py), so that the load's own client loop is not counted as the server's.
   The looping clients run in a process of their own at a lower priority (``nice`` +10,
   ``--loop``): an attacker's clients are on other machines, and on a 2-core box clients at the
   server's priority take its CPU, so the figure would measure the box and not the server.
   ``--same-priority`` runs them as the server's equals, for comparison.

``main`` runs it twice: with the default limits, and with the replay read limit switched off
(``EMARA_RATE_REPLAY_READ=""``: what the kept bytes alone do).
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from app.devtools.stack import ServerProcess, TempDatabase
from bench.probe import HealthProbe

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "records.example.json"
# The looping clients' priority below the server's and the probe's (see the module's docstring).
LOAD_NICENESS = 10


def _ms(samples: list[float], q: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def padded(record: dict[str, Any], pairs: int) -> dict[str, Any]:
    first = record["moves"][0]
    undo = {"seat": first["seat"], "move": {"kind": "undo", "to": 0}, "at": None}
    out = copy.deepcopy(record)
    out["moves"] = [first, undo] * pairs + record["moves"]
    return out


async def _timed_get(c: httpx.AsyncClient, path: str, headers: dict[str, str]) -> float:
    t0 = time.perf_counter()
    await c.get(path, headers=headers)
    return (time.perf_counter() - t0) * 1000


async def loop_reads(
    base_url: str, replay_id: str, token: str, clients: int, seconds: float
) -> dict[str, int]:
    """``clients`` clients each GET the replay in a loop for ``seconds``: reads served and
    refused."""
    auth = {"Authorization": f"Bearer {token}"}
    counts = {"served": 0, "refused": 0}
    stop = time.monotonic() + seconds

    async def one() -> None:
        async with httpx.AsyncClient(base_url=base_url, trust_env=False, timeout=60) as lc:
            while time.monotonic() < stop:
                r = await lc.get(f"/api/replays/{replay_id}", headers=auth)
                counts["served" if r.status_code == 200 else "refused"] += 1

    await asyncio.gather(*(one() for _ in range(clients)))
    return counts


def looping_clients(
    base_url: str, replay_id: str, token: str, clients: int, seconds: float, niceness: int
) -> dict[str, int]:
    """``loop_reads`` in a process of its own at ``niceness`` (``--loop``); its counts."""
    args = [base_url, replay_id, token, str(clients), str(seconds)]
    done = subprocess.run(
        [sys.executable, "-m", "bench.abuse_records", "--loop", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        preexec_fn=(lambda: os.nice(niceness)) if niceness else None,
    )
    counts: dict[str, int] = json.loads(done.stdout)
    return counts


async def padded_record(
    base_url: str,
    seconds: float = 10.0,
    clients: int = 8,
    example: Path = EXAMPLE,
    niceness: int = LOAD_NICENESS,
) -> dict[str, float]:
    """The figures of one server at ``base_url`` (see the module's docstring); codes are HTTP
    statuses (a float each, like every figure)."""
    record = json.loads(example.read_text(encoding="utf-8"))
    out: dict[str, float] = {}
    async with httpx.AsyncClient(base_url=base_url, trust_env=False, timeout=60) as c:
        me = (await c.post("/api/profiles", json={"name": "Padder"})).json()
        c.cookies.clear()
        auth = {"Authorization": f"Bearer {me['token']}"}
        other = (await c.post("/api/profiles", json={"name": "Bystander"})).json()
        c.cookies.clear()
        bystander = {"Authorization": f"Bearer {other['token']}"}
        for name, pairs in (("padded_5000", 2455), ("padded_200", 200)):
            body = json.dumps(padded(record, pairs)).encode()
            t0 = time.perf_counter()
            r = await c.post(
                "/api/records", content=body, headers={**auth, "Content-Type": "application/json"}
            )
            out[f"{name}_status"] = float(r.status_code)
            out[f"{name}_ms"] = round((time.perf_counter() - t0) * 1000, 1)
            print(name, r.status_code, r.json().get("error", {}).get("code"))
        r = await c.post("/api/records", json=record, headers=auth)
        out["real_import_status"] = float(r.status_code)
        replay_id = r.json()["replay_id"]
        again = await c.post("/api/records", json=record, headers=auth)
        out["real_again_status"] = float(again.status_code)
        out["same_replay_id"] = float(again.json().get("replay_id") == replay_id)
        first = await c.get(f"/api/replays/{replay_id}", headers=auth)
        out["replay_bytes"] = float(len(first.content))

        with HealthProbe(base_url) as idle:
            await asyncio.sleep(min(seconds, 5.0))
        out.update(idle.figures("health_idle"))

        done = asyncio.Event()
        me_lat: list[float] = []

        async def watch(path: str, headers: dict[str, str], into: list[float]) -> None:
            async with httpx.AsyncClient(base_url=base_url, trust_env=False, timeout=60) as wc:
                while not done.is_set():
                    into.append(await _timed_get(wc, path, headers))
                    await asyncio.sleep(0.02)

        with HealthProbe(base_url) as loaded:
            bystander_task = asyncio.create_task(watch("/api/profiles/me", bystander, me_lat))
            counts = await asyncio.to_thread(
                looping_clients, base_url, replay_id, me["token"], clients, seconds, niceness
            )
            done.set()
            await bystander_task
        out["replay_reads_served"] = float(counts["served"])
        out["replay_reads_refused"] = float(counts["refused"])
        out["load_niceness"] = float(niceness)
        out.update(loaded.figures("health_load"))
        out["bystander_me_p50_ms"] = _ms(me_lat, 0.5)
        out["bystander_me_p99_ms"] = _ms(me_lat, 0.99)
    return out


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--same-priority", action="store_true", help="the load at the server's nice")
    ap.add_argument("--loop", nargs=5, metavar=("URL", "REPLAY", "TOKEN", "CLIENTS", "SECONDS"))
    args = ap.parse_args()
    if args.loop:
        url, replay, token, n, secs = args.loop
        print(json.dumps(await loop_reads(url, replay, token, int(n), float(secs))))
        return
    niceness = 0 if args.same_priority else LOAD_NICENESS
    results: dict[str, Any] = {"checkout": str(ROOT)}
    phases = {"default_limits": {}, "replay_read_limit_off": {"EMARA_RATE_REPLAY_READ": ""}}
    with TempDatabase("emara_abuse_records") as db, tempfile.TemporaryDirectory() as tmp:
        for phase, env in phases.items():
            server = ServerProcess(db.url, Path(tmp) / f"{phase}.log", env=env).start()
            try:
                results[phase] = await padded_record(
                    server.base, args.seconds, args.clients, niceness=niceness
                )
            finally:
                server.stop()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    asyncio.run(main())

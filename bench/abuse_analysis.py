"""Analysis flood figures (not a test): what one profile queuing analyses costs a newcomer.

    .venv/bin/python -m bench.abuse_analysis                  # the default caps, then uncapped
    .venv/bin/python -m bench.abuse_analysis --uncapped 0     # the default caps only

Run it with ``-m`` from the root of the checkout to measure (the server is started from the
checkout whose ``app`` the script imports).

Starts its own Postgres database and one uvicorn process (app/devtools/stack.py) with the
real analysis worker (one loop, the strong bot at its default playouts) and the record import
limit raised (the bench imports a game per analysis). Then ``analysis_flood``:

1. idle: ``/api/health`` latency p50/p99 with nothing queued;
2. flood: one profile imports one-player games of its own (the greedy player's, a seed each)
   and asks for their analyses until the server refuses (``429 analysis_queue_full``) or
   ``flood`` are queued;
3. newcomer: another profile, asking once the first flooded analysis runs: seconds until its
   analysis is done, how many of the flood's analyses were done by then (the jobs that ran
   before it), and ``/api/health`` p50/p99 meanwhile (the worker busy), timed from a process of
   its own (bench/probe.py).

The second run (``--uncapped N``) raises the caps so that the profile queues N: the newcomer
still waits for one job at most (the queue serves requesters in turn), not for N.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

import httpx

from app.devtools.stack import ROOT, ServerProcess, TempDatabase
from app.records.schemas import FORMAT, FORMAT_VERSION, GameRecord
from app.records.version import rules_version
from app.rules import outcome
from app.rules.simulate import play_greedy
from bench.probe import HealthProbe

BENCH_ENV = {
    "EMARA_RATE_RECORD_IMPORT": "100000/minute",
    "EMARA_RATE_ANALYSIS_REQUEST": "100000/hour",
    "EMARA_ANALYSIS_JOBS_PER_PROCESS": "1",
}
UNCAPPED = {
    "EMARA_ANALYSIS_MAX_PENDING_PER_PROFILE": "100000",
    "EMARA_ANALYSIS_MAX_PENDING_PER_ADDRESS": "100000",
}


@cache
def solo_record(seed: int) -> dict[str, Any]:
    """A finished one-player game (the greedy player's from ``seed``) as a record."""
    options = {"players": 1, "start_player": 0}
    state, moves, _ = play_greedy(seed, options)
    record = GameRecord.model_validate(
        {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "rules_version": rules_version(),
            "options": options,
            "players": [{"seat": 0, "name": "Solo", "bot_level": "greedy"}],
            "seed": seed,
            "moves": moves,
            "outcome": outcome(state),
        },
        strict=False,
    )
    return record.model_dump(mode="json")


async def new_profile(c: httpx.AsyncClient, name: str) -> dict[str, str]:
    r = await c.post("/api/profiles", json={"name": name})
    r.raise_for_status()
    c.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def import_game(c: httpx.AsyncClient, who: dict[str, str], seed: int) -> str:
    record = await asyncio.to_thread(solo_record, seed)
    r = await c.post("/api/records", json=record, headers=who)
    r.raise_for_status()
    return str(r.json()["replay_id"])


async def status(c: httpx.AsyncClient, who: dict[str, str], replay_id: str) -> str:
    r = await c.get(f"/api/replays/{replay_id}/analysis", headers=who)
    r.raise_for_status()
    return str(r.json()["status"])


async def analysis_flood(
    base_url: str, *, flood: int = 50, seed: int = 9000, timeout: float = 900.0
) -> dict[str, float]:
    """Flood the analysis queue from one profile, then time a newcomer's first analysis."""
    async with httpx.AsyncClient(base_url=base_url, trust_env=False, timeout=60) as c:
        with HealthProbe(base_url) as idle:
            await asyncio.sleep(4.0)
        flooder = await new_profile(c, "Flood")
        flooded: list[str] = []
        refused = 0
        for i in range(flood):
            rid = await import_game(c, flooder, seed + i)
            r = await c.post(f"/api/replays/{rid}/analysis", headers=flooder)
            if r.status_code == 429 and r.json()["error"]["code"] == "analysis_queue_full":
                refused = 1
                break
            r.raise_for_status()
            flooded.append(rid)
        newcomer = await new_profile(c, "Newcomer")
        mine = await import_game(c, newcomer, seed + flood + 1)
        deadline = time.monotonic() + timeout
        while await status(c, flooder, flooded[0]) == "queued":  # the first flood job runs
            if time.monotonic() > deadline:
                raise RuntimeError("the worker never took up the flood")
            await asyncio.sleep(0.2)
        asked = time.monotonic()
        (await c.post(f"/api/replays/{mine}/analysis", headers=newcomer)).raise_for_status()
        with HealthProbe(base_url) as loaded:
            while await status(c, newcomer, mine) != "done":
                if time.monotonic() > deadline:
                    raise RuntimeError("the newcomer's analysis never finished")
                await asyncio.sleep(0.25)
            waited = time.monotonic() - asked
        before = [await status(c, flooder, rid) for rid in flooded]
    return {
        "flood_queued": float(len(flooded)),
        "flood_refused": float(refused),
        "newcomer_seconds": round(waited, 2),
        "jobs_done_before_newcomer": float(before.count("done")),
        **idle.figures("health_idle"),
        **loaded.figures("health_load"),
    }


async def _run(env: dict[str, str], flood: int, tmp: Path, name: str) -> dict[str, float]:
    with TempDatabase("emara_analysis") as db:
        server = ServerProcess(db.url, tmp / f"{name}.log", env={**BENCH_ENV, **env}).start()
        try:
            return await analysis_flood(server.base, flood=flood)
        finally:
            server.stop()


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--flood", type=int, default=50, help="at most this many (capped run)")
    ap.add_argument("--uncapped", type=int, default=8, help="the uncapped run's flood (0: none)")
    args = ap.parse_args()
    out: dict[str, Any] = {"server_checkout": str(ROOT)}
    with tempfile.TemporaryDirectory() as tmp:
        out["capped"] = await _run({}, args.flood, Path(tmp), "capped")
        if args.uncapped:
            out["uncapped"] = await _run(UNCAPPED, args.uncapped, Path(tmp), "uncapped")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    asyncio.run(main())

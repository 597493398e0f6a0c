"""Where the server's CPU goes under load: bench/load.py against one profiled server.

    .venv/bin/python bench/profile.py -- --tables 30 --seconds 20 --rate 0      # saturation
    .venv/bin/python bench/profile.py -- --tables 100 --seconds 30             # 1 move/s per table
    .venv/bin/python bench/profile.py --sqlite -- --tables 30 --seconds 20 --rate 0
    .venv/bin/python bench/profile.py --sampler yappi -- --tables 30 --seconds 20 --rate 0

Makes a fresh database (Postgres, or an embedded SQLite file with ``--sqlite``), starts one
uvicorn of the app in a child process, runs ``bench/load.py --url`` with the arguments after
``--`` and, once its set-up is done, profiles the server until the end of the run; then prints
the functions that cost the most CPU, by their own time and with what they call, per move.

Two profilers:

- ``py-spy`` (the default): samples the running server from outside, ``--rate`` times a second,
  only the thread that holds the GIL (what runs Python: the event loop or a worker thread). It
  does not slow the server down, so the shares are those of the real run. Time spent with the GIL
  released (a system call, libpq waiting for Postgres) is not counted. ``--save FILE`` keeps the
  samples (py-spy's raw format: one stack and its count per line, for flamegraph.pl).
- ``yappi``: traces every call of every thread (CPU clock). It counts calls, but its cost per
  call triples the time of small functions and moves the shares towards code that makes many
  calls: on this server it put rendering and deltas at half of the CPU where py-spy finds a
  fifth. ``--save FILE`` keeps the profile (pstats format, for snakeviz or ``python -m pstats``).
"""

from __future__ import annotations

import argparse
import os
import pstats
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from samples import py_spy, report_samples  # noqa: E402

SERVER_ENV = {
    "EMARA_LOG_LEVEL": "warning",
    "EMARA_WS_MAX_PER_ADDRESS": "100000",
    "EMARA_RATE_PROFILE_CREATE": "100000/hour",
    "EMARA_RATE_TABLE_CREATE": "100000/hour",
}


def serve(port: int, out: str) -> None:
    """The child: uvicorn under yappi until SIGTERM, then the profile saved to ``out``."""
    import uvicorn
    import yappi

    class Stop(Exception):
        pass

    def stop(signum: int, frame: object) -> None:
        raise Stop

    def begin(signum: int, frame: object) -> None:
        yappi.clear_stats()
        yappi.start(builtins=False, profile_threads=True)

    # uvicorn stops on SIGTERM, then raises the signal again for the handler it found: this one.
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGUSR1, begin)  # the load's set-up is over: measure from here
    yappi.set_clock_type("cpu")
    config = uvicorn.Config(
        "app.main:app",
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=5,
    )
    try:
        uvicorn.Server(config).run()
    except Stop:
        pass
    finally:
        yappi.stop()
        yappi.get_func_stats().save(out, type="pstat")


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        serve(int(sys.argv[2]), sys.argv[3])
        return 0
    argv = sys.argv[1:]
    load_args = argv[argv.index("--") + 1 :] if "--" in argv else []
    own = argv[: argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sqlite", action="store_true", help="an embedded SQLite file, not Postgres")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--save", help="keep the profile here (py-spy: raw samples; yappi: pstats)")
    ap.add_argument("--sampler", choices=("py-spy", "yappi"), default="py-spy")
    ap.add_argument("--rate", type=int, default=100, help="py-spy: samples a second")
    args = ap.parse_args(own)
    spying = args.sampler == "py-spy"

    from app.devtools.stack import ServerProcess, TempDatabase, _child_env, free_port

    work = Path(tempfile.mkdtemp(prefix="emara-profile-"))
    out = args.save or str(work / ("server.samples" if spying else "server.pstat"))
    db: TempDatabase | None = None
    if args.sqlite:
        url = f"sqlite:///{work / 'emara.db'}"
        subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from app.db.migrate import upgrade; upgrade(sys.argv[1])",
                url,
            ],
            cwd=ROOT,
            check=True,
        )
    else:
        db = TempDatabase(prefix="emara_profile").__enter__()
        url = db.url
    port = free_port()
    shape = ServerProcess(url, work / "server.log", port=port, env=SERVER_ENV)
    log = (work / "server.log").open("ab")
    if spying:
        shape.start()
        assert shape.proc is not None
        proc = shape.proc
    else:
        proc = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(port), out],
            cwd=ROOT,
            env=_child_env(shape.settings_env()),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        shape.proc = proc
    lines: list[str] = []
    spy: subprocess.Popen[bytes] | None = None
    try:
        shape.wait_ready(60)
        runner = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "bench" / "load.py"),
                "--url",
                shape.base,
                "--no-ceiling",
                *load_args,
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert runner.stdout is not None
        for line in runner.stdout:
            print(line, end="", flush=True)
            lines.append(line)
            if line.startswith("set-up:"):
                if spying:
                    spy = subprocess.Popen(
                        py_spy(proc.pid, args.rate, out),
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                else:
                    proc.send_signal(signal.SIGUSR1)
        runner.wait()
        if spy is not None:
            spy.send_signal(signal.SIGINT)  # py-spy writes its samples and exits
            spy.wait(60)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(120)
        log.close()
        if db is not None:
            db.drop()
    moves = 0
    for line in lines:
        if line.startswith("moves:"):
            moves = int(line.split()[1])
    if spying:
        report_samples(out, moves, args.rate, args.top)
        return 0
    stats = pstats.Stats(out)
    total = stats.total_tt  # type: ignore[attr-defined]
    per = f" = {total / moves * 1e3:.3f} ms per move" if moves else ""
    print(f"\nprofile: {total:.2f} s of server CPU over {moves} moves{per} ({out})")
    for key in ("tottime", "cumulative"):
        print(f"\n-- top {args.top} by {key} (ms per move) --")
        rows = sorted(
            stats.stats.items(), key=lambda kv: kv[1][2 if key == "tottime" else 3], reverse=True
        )  # type: ignore[attr-defined]
        for (file, line, name), (_, calls, tt, ct, _) in rows[: args.top]:
            where = file.replace(str(ROOT) + os.sep, "")
            where = where if len(where) < 60 else "…" + where[-59:]
            d = moves or 1
            print(
                f"{tt / d * 1e3:8.3f} {ct / d * 1e3:8.3f} {calls / d:8.1f}  {name} {where}:{line}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

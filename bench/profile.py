"""Where the server's CPU goes under load: bench/load.py against one server profiled by yappi.

    .venv/bin/python bench/profile.py -- --tables 30 --seconds 20 --rate 0      # saturation
    .venv/bin/python bench/profile.py -- --tables 100 --seconds 30             # 1 move/s per table
    .venv/bin/python bench/profile.py --sqlite -- --tables 30 --seconds 20 --rate 0

Makes a fresh database (Postgres, or an embedded SQLite file with ``--sqlite``), starts one
uvicorn of the app in a child process, runs ``bench/load.py --url`` with the arguments after
``--`` and, once its set-up is done, profiles the server with yappi (CPU clock, every thread: the
event loop and the worker threads where moves are judged and committed) until the end of the
run; then prints the functions that cost the most CPU, by their own time and by their time with
what they call, per move of the run (the profiler's own cost included: read the shares).
``--save FILE`` keeps the profile (pstats format, for snakeviz or ``python -m pstats``).
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
    ap.add_argument("--save", help="keep the profile here (pstats)")
    args = ap.parse_args(own)

    from app.devtools.stack import ServerProcess, TempDatabase, _child_env, free_port

    work = Path(tempfile.mkdtemp(prefix="emara-profile-"))
    out = args.save or str(work / "server.pstat")
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
                proc.send_signal(signal.SIGUSR1)
        runner.wait()
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

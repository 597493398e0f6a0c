"""What one drawing of the live table costs in the browser: a page watches N moves come over
its socket, and the figures say where its time went.

    .venv/bin/python bench/table_render.py               # 100 moves, 1366x900
    .venv/bin/python bench/table_render.py --moves 200 --phone

A uvicorn of the app (temporary SQLite database) and Debian's Chromium (``/usr/bin/chromium``,
or ``EMARA_CHROMIUM``). Ann watches in the browser; Ann and Bo play by HTTP, each move the
first-or-random legal one of a seeded generator. Printed: the drawings, the JavaScript time of
each (``TableScreen.render``, wall clock in the page) and of each panel's build, and the page's
main-thread CPU per drawing from Chromium's Performance domain (scripts, style, layout, the
rest), and the CPU of every Chromium process over the moves (its threads too: raster, GC,
the compositor). ``--chromium-arg`` tries a flag. The suite's browser tests are CPU-bound
(bench/cpu_by_test.py): this is the loop to try a change of the client's drawing against.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.db.migrate import upgrade
from app.devtools.stack import ServerProcess

CHROMIUM = os.environ.get("EMARA_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu"]
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}

TIMING = """async () => {
  const { TableScreen } = await import('/js/table.js');
  const { PANELS } = await import('/js/panels.js');
  const draw = TableScreen.prototype.render;
  window.__bench = { draws: 0, ms: 0, panels: {} };
  TableScreen.prototype.render = function () {
    const t0 = performance.now();
    draw.call(this);
    window.__bench.draws += 1;
    window.__bench.ms += performance.now() - t0;
  };
  for (const p of PANELS) {
    const build = p.build;
    p.build = (...args) => {
      const t0 = performance.now();
      const out = build(...args);
      window.__bench.panels[p.id] = (window.__bench.panels[p.id] || 0) + performance.now() - t0;
      return out;
    };
  }
}"""
METRICS = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration")


def call(http: Any, method: str, path: str, token: str, **kw: Any) -> Any:
    r = http.request(method, path, headers={"Authorization": f"Bearer {token}"}, **kw)
    r.raise_for_status()
    return r.json()


def play(http: Any, tid: str, tokens: list[str], rng: random.Random) -> int:
    """One legal move of the seat to act; the version it made."""
    seat = call(http, "GET", f"/api/tables/{tid}/game", tokens[0])["view"]["to_act"][0]
    g = call(http, "GET", f"/api/tables/{tid}/game", tokens[seat])
    legal = g["legal_moves"]
    ending = [m for m in legal if m["kind"] == "end_turn"]
    move = ending[0] if ending and rng.random() < 0.7 else rng.choice(legal)
    body = {"move": move, "expected_version": g["version"], "move_id": f"m{g['version']}"}
    return int(call(http, "POST", f"/api/tables/{tid}/moves", tokens[seat], json=body)["version"])


def chromium_cpu() -> float:
    """CPU-seconds used so far by every Chromium process (all its threads), from /proc."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"chrom" not in f.read().split(b"\0")[0]:
                    continue
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def metrics(cdp: Any) -> dict[str, float]:
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}


def start_table(srv: ServerProcess, ctx: Any) -> tuple[str, list[str]]:
    """Ann (the browser context) hosts, Bo joins by HTTP, Ann starts: (table id, tokens)."""
    http = srv.http()
    ann = ctx.request.post(srv.url("/api/profiles"), data={"name": "Ann"}).json()["token"]
    bo = http.post("/api/profiles", json={"name": "Bo"}).json()["token"]
    options = {"seats": 2, "options": {"start_player": 0}}
    table = call(http, "POST", "/api/tables", ann, json=options)
    tid = table["id"]
    join = {"invite_code": table["invite_code"]}
    call(http, "POST", f"/api/tables/{tid}/join", bo, json=join)
    call(http, "POST", f"/api/tables/{tid}/start", ann)
    return tid, [ann, bo]


def watch(
    srv: ServerProcess, viewport: Any, moves: int, seed: int, extra: list[str]
) -> dict[str, Any]:
    """The page's figures, and the CPU metrics before and after, for ``moves`` moves."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS + extra)
        try:
            ctx = browser.new_context(viewport=viewport, reduced_motion="reduce")
            ctx.add_init_script("localStorage.setItem('emara.lang', 'en')")
            ctx.add_init_script("localStorage.setItem('emara.signed_in', '1')")
            tid, tokens = start_table(srv, ctx)
            page = ctx.new_page()
            page.goto(srv.url(f"/t/{tid}"))
            page.get_by_test_id("game").wait_for(timeout=30000)
            page.evaluate(TIMING)
            cdp = ctx.new_cdp_session(page)
            cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
            before = metrics(cdp)
            chromium_before = chromium_cpu()
            rng = random.Random(seed)
            version = 0
            for _ in range(moves):
                version = play(srv.http(), tid, tokens, rng)
            page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)
            got: dict[str, Any] = page.evaluate("window.__bench")
            got["chromium"] = chromium_cpu() - chromium_before
            got["cpu"] = {k: v - before[k] for k, v in metrics(cdp).items() if k in METRICS}
            return got
        finally:
            browser.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=100)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--phone", action="store_true", help="390x844 (the tabs) instead of 1366x900")
    ap.add_argument("--chromium-arg", action="append", default=[], help="one more Chromium flag")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="emara-render-"))
    db = f"sqlite:///{tmp / 'emara.db'}"
    upgrade(db)
    env = {"EMARA_RATE_HTTP_MOVES": "100000/minute"}
    viewport = PHONE if args.phone else DESKTOP
    quiet = ["--log-level", "warning"]
    with ServerProcess(db, tmp / "server.log", extra_args=quiet, env=env) as srv:
        got = watch(srv, viewport, args.moves, args.seed, args.chromium_arg)
    n = max(got["draws"], 1)
    size = f"{viewport['width']}x{viewport['height']}"
    print(f"{args.moves} moves, {got['draws']} drawings at {size}")
    print(f"  render() in the page: {got['ms'] / n:6.1f} ms a drawing (wall clock)")
    for pid, ms in sorted(got["panels"].items(), key=lambda kv: -kv[1]):
        print(f"    panel {pid:8s} built in {ms / n:6.2f} ms")
    for key in METRICS:
        print(f"  {key:20s} {1000 * got['cpu'][key] / n:6.1f} ms a drawing (main-thread CPU)")
    print(f"  Chromium, every process {1000 * got['chromium'] / n:6.1f} ms a drawing (CPU)")


if __name__ == "__main__":
    main()

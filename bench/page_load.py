"""What opening a page costs the machine, by how warm the browser is: the figures behind the
browser tests' context pool (tests/browser/contexts.py).

    .venv/bin/python bench/page_load.py              # the rules page, 5 tries of each
    .venv/bin/python bench/page_load.py --path /solo --tries 9

A uvicorn of the app (temporary SQLite database) and Debian's Chromium (``/usr/bin/chromium``,
or ``EMARA_CHROMIUM``). Each step runs ``--tries`` times; printed is the median of the whole
machine's busy CPU (``/proc/stat``: Chromium's processes, Playwright's driver, the server) over
the step and a quiet second after it, so run it on an otherwise idle machine. The steps:

- a new context alone, and with an empty page;
- a new context with a one-line page of the site (a context's and a renderer's start);
- a new page, and a navigation, to that one-line page in a context that has one open;
- the client's page (``--path``) in a fresh context: every file fetched and compiled;
- the same page in a new page, and by a navigation, of a context that loaded it before.

``--chromium-arg`` tries a switch (``--chromium-arg=--renderer-process-limit=2``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.db.migrate import upgrade
from app.devtools.stack import ServerProcess
from bench.cpu_by_test import busy_seconds

CHROMIUM = os.environ.get("EMARA_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu"]
SMALL = "/favicon.svg"  # a file of the site that starts no client


def measure(step: Callable[[], None], tries: int) -> float:
    costs = []
    for _ in range(tries):
        time.sleep(0.4)
        start = busy_seconds()
        step()
        time.sleep(1.0)  # what the step set going (network, GC, the server's answer) settles
        costs.append(busy_seconds() - start)
    return statistics.median(costs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--path", default="/rules", help="the client's page to open")
    ap.add_argument("--tries", type=int, default=5)
    ap.add_argument(
        "--chromium-arg", action="append", default=[], help="one more Chromium switch (repeatable)"
    )
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="emara-page-load-"))
    db = f"sqlite:///{tmp / 'emara.db'}"
    upgrade(db)
    quiet = ["--log-level", "warning"]
    with ServerProcess(db, tmp / "server.log", extra_args=quiet) as srv, sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS + args.chromium_arg)
        opts: dict[str, Any] = {"service_workers": "block"}
        warm = b.new_context(**opts)
        warm_page = warm.new_page()
        warm_page.goto(srv.url(args.path))
        warm_page.wait_for_load_state("networkidle")

        def client(page: Any) -> None:
            page.goto(srv.url(args.path))
            page.wait_for_load_state("networkidle")

        def fresh(then: Callable[[Any], None] | None) -> Callable[[], None]:
            def step() -> None:
                ctx = b.new_context(**opts)
                if then is not None:
                    then(ctx.new_page())
                ctx.close()

            return step

        def new_page(then: Callable[[Any], None]) -> Callable[[], None]:
            def step() -> None:
                page = warm.new_page()
                then(page)
                page.close()

            return step

        steps: list[tuple[str, Callable[[], None]]] = [
            ("new context", lambda: b.new_context(**opts).close()),
            ("new context, empty page", fresh(lambda p: None)),
            ("new context, one-line page", fresh(lambda p: p.goto(srv.url(SMALL)))),
            ("warm context, new one-line page", new_page(lambda p: p.goto(srv.url(SMALL)))),
            ("warm page, navigation to one line", lambda: warm_page.goto(srv.url(SMALL))),
            (f"new context, {args.path}", fresh(client)),
            (f"warm context, new page, {args.path}", new_page(client)),
            (f"warm page, navigation to {args.path}", lambda: client(warm_page)),
        ]
        idle = measure(lambda: None, args.tries)
        print(f"busy CPU-s of the whole machine, median of {args.tries} (idle: {idle:.2f})")
        for name, step in steps:
            print(f"  {measure(step, args.tries):5.2f}  {name}", flush=True)
        b.close()


if __name__ == "__main__":
    main()

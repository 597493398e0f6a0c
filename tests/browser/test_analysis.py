"""The bot's analysis in the replay viewer, on a phone: asked for with the button, a progress bar
while it runs, then the chart over the game and the swings in words, each moving the viewer to
its move; axe finds nothing with the chart open.

The server runs no analysis worker of its own here: this test's worker works on the server's
database with a cheap bot of the server's bot version (the position value of app/bots/value.py
instead of playouts), so what the page shows does not wait for minutes of playouts."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from app import rules
from app.analysis.bot import StrongBot
from app.analysis.worker import AnalysisWorker
from app.bots import choose_move
from app.bots.onestep import own_part
from app.bots.sample import determinize
from app.bots.value import estimate
from app.clock import SystemClock
from app.config import Settings
from app.db.migrate import upgrade
from app.db.session import Database
from app.devtools.stack import ServerProcess
from tests.browser.shots import screenshot
from tests.browser.test_a11y import axe_violations

WAIT = 30000  # ms: generous, for a loaded machine
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path("/work/shots/analysis")


class ValueBot:
    """The server's bot version, answered cheaply: each seat's position value, the greedy move."""

    def __init__(self) -> None:
        settings = Settings()
        self.samples = settings.analysis_measure_samples
        self.budget = settings.analysis_measure_budget
        self.version = StrongBot(
            settings.analysis_playouts, samples=self.samples, budget=self.budget
        ).version
        self.calls = 0

    def expected(
        self, view: dict[str, Any], legal: list[dict[str, Any]], seat: int, rng_seed: int
    ) -> list[float]:
        self.calls += 1
        return [estimate(view, s) for s in range(int(view["players"]))]

    def preferred(
        self, view: dict[str, Any], legal: list[dict[str, Any]], rng_seed: int
    ) -> dict[str, Any]:
        return choose_move(view, legal, "greedy", rng_seed)

    def outcomes(
        self,
        view: dict[str, Any],
        seat: int,
        mover: int,
        moves: list[dict[str, Any] | None],
        rng_seed: int,
    ) -> list[list[list[float]]]:
        """Each sample: a drawn state after the move, valued by position (no playout)."""
        players = int(view["players"])
        out: list[list[list[float]]] = [[] for _ in moves]
        for i in range(self.samples):
            rows = []
            for move in moves:
                state = determinize(view, random.Random(rng_seed + i))
                if move is not None:
                    state = rules.apply_move(state, mover, move).state
                rows.append([estimate(own_part(state, s), s) for s in range(players)])
            for k, row in enumerate(rows):
                out[k].append(row)
        return out


def shot(page: Any, name: str) -> None:
    """The page, and the analysis panel alone, for looking at (when the folder exists)."""
    if SHOTS.parent.is_dir():
        SHOTS.mkdir(exist_ok=True)
        screenshot(page, path=str(SHOTS / name), full_page=True)
        screenshot(page.get_by_test_id("analysis"), path=str(SHOTS / ("panel-" + name)))


def test_the_analysis_in_the_replay_viewer_on_a_phone(browser: Any, tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'emara.db'}"
    upgrade(db_url)
    env = {"EMARA_ANALYSIS_JOBS_PER_PROCESS": "0"}
    record = json.loads((ROOT / "docs" / "records.example.json").read_text(encoding="utf-8"))
    with ServerProcess(db_url, tmp_path / "server.log", env=env) as srv:
        ctx = browser.new_context(viewport=PHONE)
        try:
            ctx.add_init_script("localStorage.setItem('emara.lang', 'en')")
            r = ctx.request.post(srv.url("/api/profiles"), data={"name": "Ada"})
            assert r.ok, r.text()
            ctx.add_init_script("localStorage.setItem('emara.signed_in', '1')")  # signed in by API
            r = ctx.request.post(srv.url("/api/records"), data=record)
            assert r.ok, r.text()
            rid = r.json()["replay_id"]
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(srv.url(f"/r/{rid}"))
            page.get_by_test_id("analysis-request").wait_for(timeout=WAIT)
            page.get_by_test_id("analysis-request").click()
            page.get_by_test_id("analysis-progress").wait_for(timeout=WAIT)

            db = Database(db_url)
            bot = ValueBot()
            worker = AnalysisWorker(db, SystemClock(), bot, owner="browser-test")
            worker._give_back = lambda job_id: None  # type: ignore[method-assign]  # dies mid-way
            job_id = worker.run_once(should_stop=lambda: bot.calls >= 120)
            assert job_id is not None
            page.wait_for_function(
                f"() => /120 of {len(record['moves']) + 1}/"  # every position of the game
                ".test(document.querySelector('[data-testid=analysis-progress]')"
                "?.textContent || '')",
                timeout=WAIT,
            )
            assert errors == []
            assert page.get_by_test_id("analysis-chart").is_visible()
            shot(page, "phone-progress.png")

            worker.run_job(job_id)  # the same worker, its lease still held: it goes on
            db.dispose()
            page.locator("[data-testid=analysis][data-status=done]").wait_for(timeout=WAIT)
            swings = page.get_by_test_id("analysis-swing")
            assert swings.count() >= 1
            first = swings.first
            text = first.inner_text()
            assert "points of expected final score" in text and "Played:" in text
            assert "The bot preferred:" in text
            assert "Nobody chose this." in page.get_by_test_id("analysis-luck").inner_text()
            n = first.get_attribute("data-position")
            first.click()
            page.wait_for_function(
                f"() => document.querySelector('[data-testid=replay-board]')?.dataset.position"
                f" === '{n}'",
                timeout=WAIT,
            )
            assert page.get_by_test_id("analysis-here").inner_text() == f"at move {n}"
            chart = page.get_by_test_id("analysis-chart")
            label = chart.get_attribute("aria-labelledby") or ""
            assert all(page.locator(f"[id='{i}']").count() == 1 for i in label.split())
            assert "Ada" not in (
                page.locator("#analysis-chart-desc").inner_text()
            )  # names: record's
            assert chart.bounding_box()["width"] <= PHONE["width"]  # type: ignore[index]
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= PHONE["width"]
            chart.scroll_into_view_if_needed()
            shot(page, "phone-done.png")
            assert axe_violations(page) == []
            # the chart can show each player's CP or BP as the game went instead
            tracks = ctx.request.get(srv.url(f"/api/replays/{rid}")).json()["tracks"][int(n)]
            for track in ("cp", "bp"):
                page.get_by_test_id(f"analysis-mode-{track}").check()
                values = page.locator("[data-testid=analysis-legend] li[data-seat]").evaluate_all(
                    "rows => rows.map(r => [Number(r.dataset.seat),"
                    " Number(r.querySelector('.analysis-value').textContent)])"
                )
                assert dict(values) == {p["seat"]: p[track] for p in tracks if not p["victoria"]}
            page.get_by_test_id("analysis-mode-expected").check()
            page.set_viewport_size(DESKTOP)
            page.get_by_test_id("analysis-chart").scroll_into_view_if_needed()
            shot(page, "desktop-done.png")
            assert axe_violations(page) == []
        finally:
            ctx.close()

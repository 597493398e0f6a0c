"""The guided first game in the browser, on a phone: "Learn by playing" from the landing opens a
real table against two bots, and the first round is played to its end by following the hints
alone — the test clicks whatever the hint marks, it knows no rule — once in English and once in
Czech. The bots move on their own as soon as it is their turn (the server's bot runner): the
test waits for the page's game version to change, never for a time. Then the profile remembers
the guided game and the landing offers it quietly. Screenshots of every step go to
test-artifacts/guide-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_phone import DESKTOP, PHONE, WAIT
from tests.browser.test_reach import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GUIDE = "[data-testid=guide]"
PRIMARY = "[data-guide-primary]"
# The hint on screen belongs to the game version on screen, and what it points at is marked: then
# the hint's step, version and whether it has something to click (read at that one moment).
READY_JS = """() => {
  const g = document.querySelector('[data-testid=guide]');
  if (!g || g.dataset.ready !== '1' || document.body.classList.contains('sending')) return false;
  if (g.dataset.version !== document.body.dataset.version) return false;
  const seen = {step: g.dataset.step, version: Number(g.dataset.version),
                actionable: g.dataset.actionable === '1'};
  if (!seen.actionable) return seen;
  // the marked thing is in the window, above the tab bar, and the panel does not cover it
  const el = document.querySelector('[data-guide-primary]');
  if (!el) return false;
  const r = el.getBoundingClientRect(), p = g.getBoundingClientRect();
  const bar = document.querySelector('.tabbar');
  const floor = bar ? bar.getBoundingClientRect().top : innerHeight;
  return r.top >= 0 && r.bottom <= floor && (r.bottom <= p.top || r.top >= p.bottom) && seen;
}"""
# After a click: the game moved on, or a payment to choose is now the marked thing.
MOVED_JS = """v => Number(document.body.dataset.version) !== v
  || !!document.querySelector('[data-testid=pay-picker] [data-guide-primary]')"""
TITLE = {"en": "Guided game", "cs": "Hra s průvodcem"}


def me(page: Any) -> dict[str, Any]:
    return page.evaluate("async () => (await fetch('/api/profiles/me')).json()")  # type: ignore[no-any-return]


def follow_the_hints(page: Any, artifacts: Path, name: str) -> list[str]:
    """Click what each hint marks until the hints let go; the steps seen, in order."""
    steps: list[str] = []
    shot: set[str] = set()
    for _ in range(400):
        seen = page.wait_for_function(READY_JS, timeout=WAIT).json_value()
        step, v = str(seen["step"]), int(seen["version"])
        steps.append(step)
        if step not in shot:
            shot.add(step)
            page.screenshot(path=str(artifacts / f"guide-{name}-{len(shot):02d}-{step}.png"))
        if step == "done":
            return steps
        if seen["actionable"]:
            page.locator(PRIMARY).click()
            page.wait_for_function(MOVED_JS, arg=v, timeout=WAIT)
        else:  # nothing to click: the bots are moving, or the round is ending
            page.wait_for_function(
                "v => Number(document.body.dataset.version) !== v", arg=v, timeout=WAIT
            )
    raise AssertionError(f"the hints never let go: {steps}")


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_first_round_is_played_by_following_the_hints_on_a_phone(
    server: Any, browser: Any, artifacts: Path, lang: str
) -> None:
    ctx = browser.new_context(viewport=PHONE, locale=lang)
    ctx.add_init_script(f"localStorage.setItem('emara.lang', '{lang}')")
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        sign_up(page, server, "Newcomer")
        page.goto(server.url("/"))
        offer = page.get_by_test_id("learn-offer")
        offer.wait_for(timeout=WAIT)
        assert offer.get_attribute("data-prominent") == "1"
        page.screenshot(path=str(artifacts / f"guide-{lang}-phone-00-landing.png"))
        offer.get_by_test_id("learn-by-playing").click()
        page.wait_for_url("**/t/*", timeout=WAIT)
        page.locator(GUIDE).wait_for(timeout=WAIT)
        assert page.locator(".guide-title").inner_text().startswith(TITLE[lang])
        steps = follow_the_hints(page, artifacts, f"{lang}-phone")
        # (the bots may move faster than the page shows a "wait" or "round_end" hint)
        for wanted in ("play_card", "move", "end_turn", "done"):
            assert wanted in steps, (wanted, steps)
        assert steps.count("play_card") == 3 and steps.count("end_turn") == 3, steps
        assert me(page)["guide"] == "finished"
        page.get_by_test_id("guide-close").click()
        assert page.locator(GUIDE).count() == 0
        # the landing still offers it, quietly
        page.goto(server.url("/"))
        offer = page.get_by_test_id("learn-offer")
        offer.wait_for(timeout=WAIT)
        assert offer.get_attribute("data-prominent") == "0"
        assert offer.get_by_test_id("learn-by-playing").count() == 1
        assert errors == []
    finally:
        ctx.close()


def test_skip_is_remembered_and_a_new_guided_game_can_start_from_the_profile_page(
    server: Any, browser: Any, artifacts: Path
) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        sign_up(page, server, "Skipper")
        page.goto(server.url("/learn"))
        page.locator(GUIDE).wait_for(timeout=WAIT)
        page.wait_for_function(READY_JS, timeout=WAIT)  # with the thing to click marked
        page.screenshot(path=str(artifacts / "guide-en-desktop-first.png"))
        table_url = page.url
        with page.expect_response(lambda r: r.url.endswith("/api/profiles/me/guide")) as put:
            page.get_by_test_id("guide-skip").click()
        assert put.value.ok
        assert page.locator(GUIDE).count() == 0 and page.locator(".guide-target").count() == 0
        assert me(page)["guide"] == "dismissed"
        page.reload()
        page.get_by_test_id("turn-indicator").wait_for(timeout=WAIT)
        assert page.locator(GUIDE).count() == 0, "a skipped guide stays away at that table"
        page.goto(server.url("/profile"))
        section = page.get_by_test_id("guide-section")
        section.wait_for(timeout=WAIT)
        section.get_by_test_id("learn-by-playing").click()
        page.wait_for_url("**/t/*", timeout=WAIT)
        assert page.url != table_url, "a new guided game"
        page.wait_for_function(READY_JS, timeout=WAIT)
        assert page.locator(GUIDE).get_attribute("data-step") == "play_card"
    finally:
        ctx.close()

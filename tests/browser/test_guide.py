"""The guided first game in the browser: "Learn by playing" from the landing opens a real table
against two bots, and the game is played past round 1 by following the hints alone — the test
clicks whatever the hint marks, it knows no rule — until every kind of decision has come up:
deliveries at the construction site, the market's books, a title and an end-of-round event's
offer (the guided deal is always the same one, in which they all come up within two rounds).
Once in English on a desktop, once in Czech on a phone. The hint panel never covers the header's
language selector and profile menu, nor the round and "Your turn" bar. The bots move on their own
as soon as it is their turn (the server's bot runner): the test waits for the page's game version
to change, never for a time. Screenshots of every kind of hint go to test-artifacts/guide-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.shots import screenshot
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
                actionable: g.dataset.actionable === '1', key: g.dataset.key};
  if (!seen.actionable) return seen;
  // the marked thing is in the window, above the tab bar, and the panel does not cover it
  const el = document.querySelector('[data-guide-primary]');
  if (!el) return false;
  const r = el.getBoundingClientRect(), p = g.getBoundingClientRect();
  const bar = document.querySelector('.tabbar');
  const floor = bar ? bar.getBoundingClientRect().top : innerHeight;
  return r.top >= 0 && r.bottom <= floor && (r.bottom <= p.top || r.top >= p.bottom) && seen;
}"""
# The page's controls the panel must leave in sight: the header's language selector and profile
# menu, the round and "Your turn" bar; those it covers (none, once the panel is placed).
COVERED_JS = """() => {
  const g = document.querySelector('[data-testid=guide]');
  if (!g) return [];
  const p = g.getBoundingClientRect();
  const sel = ['[data-testid=lang-select]', '[data-testid=profile-menu] > summary',
               '.status-bar .round', '[data-testid=turn-indicator]'];
  return sel.filter((s) => {
    const el = document.querySelector(s);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    if (!r.width || r.bottom <= 0 || r.top >= innerHeight) return false;
    return r.left < p.right && p.left < r.right && r.top < p.bottom && p.top < r.bottom;
  });
}"""
# After a click: the game moved on, or a payment to choose is now the marked thing.
MOVED_JS = """v => Number(document.body.dataset.version) !== v
  || !!document.querySelector('[data-testid=pay-picker] [data-guide-primary]')"""
TITLE = {"en": "Guided game", "cs": "Hra s průvodcem"}


def me(page: Any) -> dict[str, Any]:
    return page.evaluate("async () => (await fetch('/api/profiles/me')).json()")  # type: ignore[no-any-return]


# The kinds of decision past the first steps, by the words of their hints.
NEW_KINDS = {
    "delivery": tuple(f"guide.visit.deliver_{x}" for x in ("stone", "bread", "wood")),
    "books": ("guide.visit.market_books",),
    "title": ("guide.bonus.raise_title",),
    "event": ("guide.event_option",),
}  # fmt: skip


def follow_the_hints(page: Any, artifacts: Path, name: str) -> list[str]:
    """Click what each hint marks until every new kind of decision has come up (or the hints let
    go); the hints' words seen, in order. Each hint's panel leaves the page's controls in
    sight."""
    keys: list[str] = []
    shot: set[str] = set()
    for _ in range(600):
        seen = page.wait_for_function(READY_JS, timeout=WAIT).json_value()
        step, v, key = str(seen["step"]), int(seen["version"]), str(seen["key"])
        keys.append(key)
        assert page.evaluate(COVERED_JS) == [], (key, page.evaluate(COVERED_JS))
        if key not in shot:
            shot.add(key)
            short = key.removeprefix("guide.").replace(".", "-")
            screenshot(page, path=str(artifacts / f"guide-{name}-{len(shot):02d}-{short}.png"))
        if step == "done" or all(set(k) & set(keys) for k in NEW_KINDS.values()):
            return keys
        if seen["actionable"]:
            page.locator(PRIMARY).click()
            page.wait_for_function(MOVED_JS, arg=v, timeout=WAIT)
        else:  # nothing to click: the bots are moving, or the round is ending
            page.wait_for_function(
                "v => Number(document.body.dataset.version) !== v", arg=v, timeout=WAIT
            )
    raise AssertionError(f"the hints never led through every kind of decision: {keys}")


def test_the_guided_game_leads_past_round_1_through_every_kind_of_decision(
    server: Any, browser: Any, artifacts: Path
) -> None:
    guided_game_past_round_1(server, browser, artifacts, "en", "desktop")


def guided_game_past_round_1(
    server: Any, browser: Any, artifacts: Path, lang: str, size: str
) -> None:
    """The guided game from the landing, its hints followed past round 1 (in ``lang`` on a
    ``size`` screen; tests/browser/test_guide_phone.py plays it in Czech on a phone, on a worker
    of its own)."""
    ctx = browser.new_context(viewport=PHONE if size == "phone" else DESKTOP, locale=lang)
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
        screenshot(page, path=str(artifacts / f"guide-{lang}-{size}-00-landing.png"))
        offer.get_by_test_id("learn-by-playing").click()
        page.wait_for_url("**/t/*", timeout=WAIT)
        page.locator(GUIDE).wait_for(timeout=WAIT)
        assert page.locator(".guide-title").inner_text().startswith(TITLE[lang])
        keys = follow_the_hints(page, artifacts, f"{lang}-{size}")
        for kind, words in NEW_KINDS.items():
            assert set(words) & set(keys), (kind, keys)
        assert "guide.play_card_round" in keys, "past round 1"
        assert keys.count("guide.play_card_first") == 1
        # each kind's hint explains it in words of its own, on the screen
        assert len(set(keys)) >= 15, keys
        # the person may stop here: the landing then offers it quietly
        page.get_by_test_id("guide-skip").click()
        assert page.locator(GUIDE).count() == 0
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
        screenshot(page, path=str(artifacts / "guide-en-desktop-first.png"))
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

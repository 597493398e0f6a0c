"""Every piece explains itself: a long press on a phone (without the piece's tap action) and
keyboard focus on a desktop show the engine's explanation in a role=tooltip that the piece is
described by; Escape puts it away. Time in the page is Playwright's clock (no waiting on the
wall clock): the long press lasts exactly as long as the test says."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.browser.shots import screenshot
from tests.browser.test_a11y import axe_violations
from tests.browser.test_phone import DESKTOP, PHONE, WAIT, focused, set_lang, tab_to

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path(os.environ.get("EMARA_SHOTS", "test-artifacts"))
TIP = "[data-testid=explain-tip]"

# Counts the game frames (snapshot, update, delta) each socket of the page received, before the
# page's own handler sees them. A table page draws itself from HTTP, then again for the socket's
# answer to its hello (`lobby`, then the game frame): only after that frame is the board the one
# that stays under the pointer.
COUNT_GAME_FRAMES = """
(() => {
  window.__gameFrames = 0;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (ev) => {
        try {
          const type = JSON.parse(ev.data).type;
          if (["snapshot", "update", "delta"].includes(type)) window.__gameFrames += 1;
        } catch {}
      });
    }
  };
})();
"""


@contextmanager
def solo_table(browser: Any, server: Any, viewport: dict[str, int], touch: bool) -> Iterator[Any]:
    ctx = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    try:
        page = ctx.new_page()
        page.add_init_script(COUNT_GAME_FRAMES)
        page.goto(server.url("/"))
        page.get_by_test_id("name-input").fill("Sola")
        page.get_by_test_id("create-table").click()
        page.get_by_test_id("invite-link").wait_for(timeout=WAIT)
        page.goto(server.url("/solo"))
        page.get_by_test_id("solo-start-high-score").click()
        page.get_by_test_id("game").wait_for(timeout=WAIT)
        done = page.get_by_test_id("recovery-done")
        if done.count():
            done.click()
        page.wait_for_function(
            "() => window.__gameFrames > 0"
            " && document.querySelectorAll('#controls [data-testid=legal-move]').length > 0",
            timeout=WAIT,
        )
        yield page
    finally:
        ctx.close()


def long_press(page: Any, x: float, y: float, ms: int) -> None:
    cdp = page.context.new_cdp_session(page)
    point = [{"x": x, "y": y}]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
    page.clock.run_for(ms)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def inside(box: dict[str, float], size: dict[str, int]) -> bool:
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )


def test_long_press_on_a_phone_explains_a_location(server: Any, browser: Any) -> None:
    with solo_table(browser, server, PHONE, touch=True) as page:
        page.clock.install()
        page.get_by_test_id("tab-board").tap()
        castle = page.locator(
            "#panel-board [data-testid=location-filter][data-explain='location:castle']"
        )
        castle.scroll_into_view_if_needed()
        box = castle.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        # held for half a second: the explanation, and not the tap's action (the filter)
        long_press(page, x, y, 600)
        tip = page.locator(TIP)
        tip.wait_for(state="visible", timeout=WAIT)
        has_gift = (
            "() => document.querySelector('[data-testid=explain-tip]').innerText.includes('Gift')"
        )
        page.wait_for_function(has_gift, timeout=WAIT)
        text = tip.inner_text()
        assert "1 ring" in text and "BP" in text
        assert tip.get_attribute("role") == "tooltip"
        assert castle.get_attribute("aria-pressed") == "false"
        assert page.get_by_test_id("panel-board").is_visible()
        assert page.locator("#controls .filter").count() == 0
        assert "explain-tip" in (castle.get_attribute("aria-describedby") or "")
        tb = tip.bounding_box()
        assert inside(tb, PHONE), tb
        # the finger does not cover the words
        assert not (
            tb["x"] <= x <= tb["x"] + tb["width"] and tb["y"] <= y <= tb["y"] + tb["height"]
        )
        SHOTS.mkdir(parents=True, exist_ok=True)
        screenshot(page, path=str(SHOTS / "tooltip-phone-castle.png"))
        # a touch elsewhere puts it away; a short touch is the piece's tap again (the filter)
        # Desktop Chromium's touch emulation keeps a mouse pointer where an earlier event left
        # it and hovers with it when the page's layout changes: one left over the castle showed
        # the castle's *mouse* tooltip again once the touch one went away (data-how="mouse",
        # seen in CI). A phone has no such pointer; park it on the page's header first.
        page.mouse.move(1, 1)
        page.touchscreen.tap(5, 5)
        # the page's passive touch listeners let the browser acknowledge the touch before the
        # page has run its pointerdown handler: wait for the handler, not for the acknowledgement
        tip.wait_for(state="hidden", timeout=WAIT)
        long_press(page, x, y, 200)
        assert tip.is_hidden(), (tip.inner_text(), tip.get_attribute("data-how"))
        page.locator("#controls .filter").wait_for(timeout=WAIT)
        # in Czech too (the screenshot is for people to look at)
        set_lang(page, "cs")
        page.clock.install()
        page.get_by_test_id("tab-board").tap()
        castle.scroll_into_view_if_needed()
        box = castle.bounding_box()
        long_press(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, 600)
        in_czech = (
            "() => document.querySelector('[data-testid=explain-tip]').innerText.includes('prsten')"
        )
        page.wait_for_function(in_czech, timeout=WAIT)
        screenshot(page, path=str(SHOTS / "tooltip-phone-castle-cs.png"))


def test_keyboard_focus_explains_a_piece_and_escape_dismisses(server: Any, browser: Any) -> None:
    with solo_table(browser, server, DESKTOP, touch=False) as page:
        tab_to(page, "[data-explain^='marker:']", limit=400)
        tip = page.locator(TIP)
        tip.wait_for(state="visible", timeout=WAIT)
        page.wait_for_function(
            "() => /\\d/.test(document.querySelector('[data-testid=explain-tip]').textContent)",
            timeout=WAIT,
        )
        described = page.evaluate("() => document.activeElement.getAttribute('aria-describedby')")
        assert "explain-tip" in described
        assert inside(tip.bounding_box(), DESKTOP)
        # the log kept at its newest line scrolls beside the piece: the tooltip stays
        page.evaluate(
            "() => document.querySelector('.log-list').dispatchEvent(new Event('scroll'))"
        )
        assert tip.is_visible()
        SHOTS.mkdir(parents=True, exist_ok=True)
        screenshot(page, path=str(SHOTS / "tooltip-desktop-marker.png"))
        page.keyboard.press("Escape")
        assert tip.is_hidden()
        assert focused(page, "[data-explain^='marker:']")  # Escape keeps the place
        assert page.evaluate("() => document.activeElement.getAttribute('aria-describedby')") in (
            None,
            "",
        )
        # a legal move's button tells what it would give the player
        tab_to(page, "#controls [data-move]", limit=400)
        tip.wait_for(state="visible", timeout=WAIT)
        page.wait_for_function(
            "() => document.querySelector('[data-testid=explain-tip]').textContent.includes(':')",
            timeout=WAIT,
        )
        screenshot(page, path=str(SHOTS / "tooltip-desktop-move.png"))
        # with a card played, a location the councilor can reach lists the moves it offers
        page.keyboard.press("Enter")
        page.wait_for_function(
            "() => document.querySelector('#controls [data-kind=move]')", timeout=WAIT
        )
        page.mouse.move(1, 1)
        target = page.locator(".location.legal-target [data-testid=location-filter]").first
        target.hover()
        tip.wait_for(state="visible", timeout=WAIT)
        page.wait_for_function(
            "() => document.querySelector('[data-testid=explain-tip] .tip-moves li')", timeout=WAIT
        )
        assert "What you can do now" in tip.inner_text()
        screenshot(page, path=str(SHOTS / "tooltip-desktop-location-moves.png"))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_axe_with_a_tooltip_open(server: Any, browser: Any, size: str) -> None:
    viewport = DESKTOP if size == "desktop" else PHONE
    with solo_table(browser, server, viewport, touch=False) as page:
        if size == "phone":
            page.get_by_test_id("tab-board").click()
        piece = page.locator(".board [data-explain^='hut:']").first
        piece.scroll_into_view_if_needed()
        piece.hover()
        page.locator(TIP).wait_for(state="visible", timeout=WAIT)
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=explain-tip] .muted.tip-main')",
            timeout=WAIT,
        )
        assert axe_violations(page) == []
        screenshot(page, path=str(SHOTS / f"tooltip-{size}-hut.png"))


def tip_text(page: Any, has: str) -> str:
    """The tooltip's words once they include `has` (the words are fetched once per version)."""
    page.wait_for_function(
        "(w) => { const t = document.querySelector('[data-testid=explain-tip]');"
        " return t && !t.hidden && t.innerText.includes(w); }",
        arg=has,
        timeout=WAIT,
    )
    return str(page.locator(TIP).inner_text())


def test_the_score_table_explains_its_labels_by_hover_focus_and_tap(
    server: Any, browser: Any
) -> None:
    with solo_table(browser, server, DESKTOP, touch=False) as page:
        page.get_by_test_id("score-head-cp").hover()
        assert "citizen points" in tip_text(page, "CP")
        page.mouse.move(1, 1)
        page.locator(TIP).wait_for(state="hidden", timeout=WAIT)
        tab_to(page, "[data-testid=score-head-bp]")
        assert "building points" in tip_text(page, "BP")
        page.keyboard.press("Escape")
        page.locator(".scorebar .low-mark").first.hover()
        assert "lower of" in tip_text(page, "▼")
        SHOTS.mkdir(parents=True, exist_ok=True)
        screenshot(page, path=str(SHOTS / "tooltip-desktop-score-lower.png"))
    with solo_table(browser, server, PHONE, touch=True) as page:
        page.get_by_test_id("score-head-score").tap()
        text = tip_text(page, "lower")
        assert "CP" in text and "BP" in text
        assert inside(page.locator(TIP).bounding_box(), PHONE)
        screenshot(page, path=str(SHOTS / "tooltip-phone-score.png"))
        page.touchscreen.tap(5, 5)
        page.locator(TIP).wait_for(state="hidden", timeout=WAIT)


def test_moves_say_where_they_lead_and_a_redraw_opens_no_tooltip(server: Any, browser: Any) -> None:
    with solo_table(browser, server, DESKTOP, touch=False) as page:
        # advisors say "at once" / "each turn" once, not twice
        for advisor in page.locator(".board [data-explain^='advisor:']").all():
            advisor.scroll_into_view_if_needed()
            advisor.hover()
            text = tip_text(page, "Hire for").lower()
            assert text.count("at once") <= 1 and "once in each of your turns" not in text, text
        # a card on a slot: how far a councilor moves and what the card does
        play = page.locator("#controls [data-kind=play_card]").first
        play.scroll_into_view_if_needed()
        play.hover()
        text = tip_text(page, "Slot")
        assert "steps clockwise" in text or "step clockwise" in text, text
        assert "its action:" in text and "no change" not in text, text
        screenshot(page, path=str(SHOTS / "tooltip-desktop-play-card.png"))
        # a redraw under a resting pointer opens nothing: hover a location (its tooltip), put
        # the tooltip away, then click it (its filter: the table is drawn anew under the pointer)
        castle = page.locator(
            ".board [data-testid=location-filter][data-explain='location:castle']"
        )
        castle.scroll_into_view_if_needed()
        castle.hover()
        tip_text(page, "Gift")
        page.keyboard.press("Escape")
        assert page.locator(TIP).is_hidden()
        box = castle.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        castle.click()
        page.wait_for_function(
            "() => document.querySelector(\"[data-explain='location:castle'][aria-pressed=true]\")",
            timeout=WAIT,
        )
        # the redrawn table has settled with a piece that explains itself under the pointer
        under = "([x, y]) => !!document.elementFromPoint(x, y)?.closest('[data-explain]')"
        page.wait_for_function(under, arg=[x, y], timeout=WAIT)
        # what the browser says when a redraw puts a new element under the resting pointer
        page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).dispatchEvent(new PointerEvent("
            "'pointerover', {pointerType: 'mouse', bubbles: true, clientX: x, clientY: y}))",
            [x, y],
        )
        assert page.locator(TIP).is_hidden(), page.locator(TIP).inner_text()
        castle.click()  # the filter off again
        play.click()
        page.locator("#controls [data-kind=move]").first.wait_for(timeout=WAIT)
        # a real move explains: a councilor's move says where it lands and what is done there
        step = page.locator("#controls [data-kind=move]").first
        step.scroll_into_view_if_needed()
        sb = step.bounding_box()
        page.mouse.move(sb["x"] + 5, sb["y"] + 5)
        page.mouse.move(sb["x"] + 8, sb["y"] + 6)
        text = tip_text(page, "Lands on the")
        assert "no change" not in text and "There you can" in text, text
        screenshot(page, path=str(SHOTS / "tooltip-desktop-councilor-move.png"))

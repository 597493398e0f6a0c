"""The table on a phone, a tablet and a desktop, and a turn played with the keyboard alone.

Two people start a 2-player game on 390 x 844 phones. On the first screen, without scrolling,
every player's CP, BP and score are in view (the sticky score bar), and on your turn your cards
and the legal actions are too; the panels are tabs. At 768 and 1366 px every panel is in view and
there are no tabs. Then the player whose turn it is plays a whole turn with Tab, Enter and Space
only (on a phone and on a desktop). Screenshots (phone on your turn and on another's, desktop;
in English and Czech) land in test-artifacts/.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.browser.shots import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}
DESKTOP = {"width": 1366, "height": 900}
WAIT = 20000
CHOICES = "#controls [data-testid=legal-move], #controls [data-testid=end-turn]"
DECISIONS = ("keep_favor", "event_option", "decline", "choose_resource", "place_councilor")


@contextmanager
def two_players(browser: Any, server: Any, viewport: dict[str, int]) -> Iterator[list[Any]]:
    """A started 2-player game: [host page, guest page], each in its own browser context."""
    host_ctx = browser.new_context(viewport=viewport)
    guest_ctx = browser.new_context(viewport=viewport)
    try:
        host = host_ctx.new_page()
        guest = guest_ctx.new_page()
        host.goto(server.url("/"))
        host.get_by_test_id("name-input").fill("Alice")
        host.get_by_test_id("create-table").click()
        invite = host.get_by_test_id("invite-link").input_value()
        guest.goto(invite)
        guest.get_by_test_id("name-input").fill("Bob")
        guest.get_by_test_id("join-table").click()
        host.wait_for_function(
            "() => { const b = document.querySelector('[data-testid=start-game]');"
            " return b && !b.disabled; }",
            timeout=WAIT,
        )
        host.get_by_test_id("start-game").click()
        for p in (host, guest):
            p.get_by_test_id("game").wait_for(timeout=WAIT)
            # a new player is shown the recovery code once; "I have kept it" puts it away
            done = p.get_by_test_id("recovery-done")
            if done.count():
                done.click()
                done.wait_for(state="detached", timeout=WAIT)
        yield [host, guest]
    finally:
        host_ctx.close()
        guest_ctx.close()


def wait_turn_known(pages: list[Any]) -> tuple[Any, Any]:
    """(the page whose turn it is, the other page), once one of them shows its turn."""
    pages[0].wait_for_function(
        "() => !!document.querySelector('[data-testid=scorebar] tr.now')", timeout=WAIT
    )
    for p in pages:
        p.wait_for_function(
            "() => document.querySelectorAll('#controls [data-testid=legal-move]').length > 0"
            " || !!document.querySelector('[data-testid=turn-indicator]:not(.mine)')",
            timeout=WAIT,
        )
    mine = [p for p in pages if p.locator("[data-testid=turn-indicator].mine").count()]
    assert len(mine) == 1, "exactly one player has the turn"
    other = next(p for p in pages if p is not mine[0])
    mine[0].wait_for_function(
        "() => document.querySelectorAll('#controls [data-testid=legal-move]').length > 0",
        timeout=WAIT,
    )
    return mine[0], other


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    """Bounding boxes (page coordinates at the current scroll) of the visible matches."""
    found: list[dict[str, float]] = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)]
             .filter((el) => el.getClientRects().length > 0)
             .map((el) => { const r = el.getBoundingClientRect();
                            return {x: r.x, y: r.y, w: r.width, h: r.height, sel}; })""",
        selector,
    )
    return found


def assert_on_first_screen(page: Any, selector: str, size: dict[str, int]) -> int:
    """Every visible match lies inside the viewport, above the tab bar, with no scrolling."""
    assert page.evaluate("window.scrollY") == 0
    limit = page.evaluate(
        "() => { const b = document.querySelector('.tabbar');"
        " return b ? b.getBoundingClientRect().top : window.innerHeight; }"
    )
    found = boxes(page, selector)
    assert found, f"nothing visible matches {selector}"
    for b in found:
        assert b["w"] > 0 and b["h"] > 0, b
        assert b["x"] >= 0 and b["x"] + b["w"] <= size["width"] + 0.5, b
        assert b["y"] >= 0 and b["y"] + b["h"] <= limit + 0.5, (b, limit)
    return len(found)


def set_lang(page: Any, code: str) -> None:
    page.evaluate("(c) => localStorage.setItem('emara.lang', c)", code)
    page.reload()
    page.get_by_test_id("game").wait_for(timeout=WAIT)
    page.wait_for_function("(c) => document.documentElement.lang === c", arg=code, timeout=WAIT)


SCORES = "[data-testid=score-cp], [data-testid=score-bp], [data-testid=score-total]"


def test_phone_table_fits_the_first_screen(server: Any, browser: Any, artifacts: Path) -> None:
    with two_players(browser, server, PHONE) as pages:
        mine, other = wait_turn_known(pages)
        for lang in ("en", "cs"):
            if lang != "en":
                for p in pages:
                    set_lang(p, lang)
                mine.wait_for_function(
                    "() => document.querySelectorAll('#controls [data-testid=legal-move]').length",
                    timeout=WAIT,
                )
            for p in pages:
                assert p.get_by_test_id("game").get_attribute("data-layout") == "tabs"
                assert p.get_by_role("tablist").is_visible()
                # both tracks and the score of both players, in the first screen
                assert assert_on_first_screen(p, SCORES, PHONE) == 6
                assert p.locator("[data-testid=score-row]").count() == 2
                # the turn is marked in words and with a glyph, not only by colour
                assert p.locator("[data-testid=scorebar] tr.now .turn-mark").inner_text() == "▶"
            # the lower track of each player is underlined and marked ▼ with words
            lowers = mine.locator("[data-testid=scorebar] td.lower")
            assert lowers.count() >= 2
            assert "▼" in lowers.first.inner_text()
            # on my turn: my cards and every legal action on the first screen
            assert assert_on_first_screen(mine, "[data-testid=card]", PHONE) >= 1
            assert assert_on_first_screen(mine, CHOICES, PHONE) >= 1
            # and the part of the board they concern: where my councilors stand
            assert assert_on_first_screen(mine, "[data-testid=focus] button", PHONE) >= 1
            screenshot(mine, path=str(artifacts / f"phone-my-turn-{lang}.png"))
            screenshot(other, path=str(artifacts / f"phone-their-turn-{lang}.png"))
            # the other tabs: the board, then back to the hand
            other.get_by_test_id("tab-board").click()
            other.get_by_test_id("panel-board").locator(".rondels").wait_for(timeout=WAIT)
            assert other.get_by_test_id("panel-hand").is_hidden()
            screenshot(other, path=str(artifacts / f"phone-board-tab-{lang}.png"))
            # the score bar stays on screen when the long board panel is scrolled to its end
            other.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
            other.wait_for_function("() => window.scrollY > 0", timeout=WAIT)
            for b in boxes(other, SCORES):
                assert b["y"] >= 0 and b["y"] + b["h"] <= PHONE["height"], b
            other.evaluate("window.scrollTo(0, 0)")
            other.get_by_test_id("tab-hand").click()
            other.get_by_test_id("panel-hand").wait_for(timeout=WAIT)


def test_tablet_and_desktop_show_every_panel(server: Any, browser: Any, artifacts: Path) -> None:
    with two_players(browser, server, DESKTOP) as pages:
        mine, _other = wait_turn_known(pages)
        for size in (TABLET, DESKTOP):
            mine.set_viewport_size(size)
            mine.wait_for_function(
                "() => document.querySelector('[data-layout=all]')", timeout=WAIT
            )
            assert mine.get_by_role("tablist").count() == 0
            for sel in ("#controls", ".board", ".side", ".log", "[data-testid=scorebar]"):
                assert mine.locator(sel).is_visible(), sel
            if size is TABLET:
                screenshot(mine, path=str(artifacts / "tablet-table-en.png"))
        for lang in ("en", "cs"):
            if lang != "en":
                set_lang(mine, lang)
            screenshot(mine, path=str(artifacts / f"desktop-table-{lang}.png"))
        # narrowing the window to a phone turns the panels into tabs, live
        mine.set_viewport_size(PHONE)
        mine.wait_for_function("() => document.querySelector('[data-layout=tabs]')", timeout=WAIT)
        assert mine.get_by_role("tablist").is_visible()


def focused(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            "(sel) => !!document.activeElement && document.activeElement.matches(sel)", selector
        )
    )


def tab_to(page: Any, selector: str, limit: int = 250) -> None:
    """Press Tab until the focused element matches `selector`."""
    for _ in range(limit):
        if focused(page, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def next_target(page: Any, played: bool) -> str | None:
    kinds: list[str] = page.evaluate(
        "(sel) => [...document.querySelectorAll(sel)].map((el) => el.dataset.kind || '')",
        CHOICES,
    )
    for k in DECISIONS:
        if k in kinds:
            return f"#controls [data-testid=legal-move][data-kind={k}]"
    if not played and "play_card" in kinds:
        return "#controls [data-testid=legal-move][data-kind=play_card]"
    if "end_turn" in kinds:
        return "#controls [data-testid=end-turn]"
    for k in ("end_visit", "move"):
        if k in kinds:
            return f"#controls [data-testid=legal-move][data-kind={k}]"
    rest = [k for k in kinds if k not in ("use_advisor", "play_card")]
    return f"#controls [data-testid=legal-move][data-kind={rest[0]}]" if rest else None


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_whole_turn_with_the_keyboard_alone(
    server: Any, browser: Any, artifacts: Path, size: dict[str, int]
) -> None:
    with two_players(browser, server, size) as pages:
        mine, other = wait_turn_known(pages)
        me = mine.evaluate(
            "Number(document.querySelector('[data-testid=scorebar] tr.now').dataset.seat)"
        )
        played = False
        keys = ["Enter", "Space"]
        for step in range(40):
            if not mine.locator("[data-testid=turn-indicator].mine").count():
                break
            target = next_target(mine, played)
            assert target is not None, "my turn, but nothing to choose"
            before = int(mine.evaluate("document.body.dataset.version"))
            tab_to(mine, target)
            mine.keyboard.press(keys[step % 2])
            if mine.locator("[data-testid=pay-option]").count():
                # a payment picker opens with the focus on its first option
                assert focused(mine, "[data-testid=pay-option]")
                mine.keyboard.press("Enter")
            mine.wait_for_function(
                "(v) => Number(document.body.dataset.version) > v", arg=before, timeout=WAIT
            )
            mine.wait_for_function(
                "() => !document.body.classList.contains('sending')", timeout=WAIT
            )
            if "play_card" in target and not played and size is PHONE:
                screenshot(mine, path=str(artifacts / "phone-after-card-en.png"))
            played = played or "play_card" in target
        assert played, "a card was played"
        # the turn passed: the other player now has it, on both screens
        other.wait_for_function(
            "(s) => { const r = document.querySelector('[data-testid=scorebar] tr.now');"
            " return r && Number(r.dataset.seat) !== s; }",
            arg=me,
            timeout=WAIT,
        )
        assert not mine.locator("[data-testid=turn-indicator].mine").count()

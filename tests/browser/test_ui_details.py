"""Small things a player meets on the way: the profile menu closes with Escape and a click
outside; Enter in "Your name" signs in under it; the start player select shows its longest option
whole in every language; the building start value is explained; the two kinds of notice say which
is which and the bell is an inline SVG; the score chart's marker letters follow the language; the
log on a phone opens at its newest lines; My tables says whose turn it is."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_phone import DESKTOP, PHONE, WAIT, two_players, wait_turn_known
from tests.browser.test_reach import finished_game, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def menu_open(page: Any) -> bool:
    return bool(page.evaluate("() => !!document.querySelector('details.profile-menu[open]')"))


def open_menu(page: Any) -> None:
    page.get_by_test_id("profile-menu").locator("summary").click()
    page.wait_for_function(
        "() => !!document.querySelector('details.profile-menu[open]')", timeout=WAIT
    )


def test_enter_in_the_name_field_signs_in_under_that_name(server: Any, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(server.url("/"))
        page.get_by_test_id("name-input").fill("Enid")
        page.get_by_test_id("name-input").press("Enter")
        page.get_by_test_id("profile-name").filter(has_text="Enid").wait_for(timeout=WAIT)
        page.get_by_text("Playing as Enid.").wait_for(timeout=WAIT)
        assert page.evaluate("async () => (await fetch('/api/profiles/me')).status") == 200
    finally:
        ctx.close()


def test_the_new_table_form_fits_and_explains_itself(server: Any, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(server.url("/"))
        for lang in ("en", "cs", "de"):
            page.evaluate("(c) => localStorage.setItem('emara.lang', c)", lang)
            page.reload()
            page.wait_for_function(
                "(c) => document.documentElement.lang === c", arg=lang, timeout=WAIT
            )
            page.get_by_test_id("seats").select_option("4")
            # the select is as wide as it would be alone: no option is cut ("Rando")
            widths = page.evaluate(
                """() => { const sel = document.querySelector('[data-testid=start-player]');
                     const alone = sel.cloneNode(true);
                     alone.style.position = 'absolute';
                     document.body.append(alone);
                     const w = alone.getBoundingClientRect().width;
                     alone.remove();
                     return [sel.getBoundingClientRect().width, w]; }"""
            )
            assert widths[0] >= widths[1] - 0.5, (lang, widths)
            # the building start value has its hint under it, tied to the field
            hint_id = page.get_by_test_id("building-start").get_attribute("aria-describedby")
            assert hint_id == "building-start-hint"
            hint = page.locator("#building-start-hint")
            assert hint.is_visible()
            words = {"en": "building points", "cs": "stavebních bodů", "de": "Baupunkte"}
            assert words[lang] in hint.inner_text()
    finally:
        ctx.close()


def test_at_the_table_menu_notices_and_chart_read_clearly(server: Any, browser: Any) -> None:
    with two_players(browser, server, DESKTOP) as pages:
        mine, other = wait_turn_known(pages)
        # The profile menu: Escape closes it (focus back on its summary), so does a click outside.
        open_menu(mine)
        mine.get_by_test_id("push-toggle").focus()
        mine.keyboard.press("Escape")
        assert not menu_open(mine)
        assert mine.evaluate("document.activeElement.tagName") == "SUMMARY"
        open_menu(mine)
        mine.get_by_test_id("score-track").click(position={"x": 5, "y": 5})
        assert not menu_open(mine)
        open_menu(mine)
        mine.get_by_test_id("profile-menu").locator(".menu p").click()  # inside: stays open
        assert menu_open(mine)
        # Two notices, each saying what it is; the bell is drawn, not a font's glyph.
        push = mine.get_by_test_id("push-toggle")
        assert "push notifications on this device" in push.inner_text().lower()
        assert push.locator("svg[data-icon=bell]").count() == 1
        assert "🔔" not in push.inner_text() and "🔕" not in push.inner_text()
        tab = mine.get_by_test_id("tab-notify")
        assert "this tab" in tab.inner_text().lower()
        assert "push notifications" in (tab.get_attribute("title") or "")
        # My tables on the home page says whose turn it is.
        table_url = other.url
        for page, says in ((mine, "your turn"), (other, "'s turn")):
            page.goto(server.url("/"))
            page.get_by_test_id("my-table-turn").wait_for(timeout=WAIT)
            assert says in page.get_by_test_id("my-table-turn").inner_text()
        assert other.get_by_test_id("my-table-turn").inner_text() in {"Alice's turn", "Bob's turn"}
        # The chart's marker letters follow the language.
        for lang, marks in (("en", ["C", "B"]), ("cs", ["O", "S"]), ("de", ["Bü", "B"])):
            other.evaluate("(c) => localStorage.setItem('emara.lang', c)", lang)
            other.goto(table_url)
            other.get_by_test_id("score-track").wait_for(timeout=WAIT)
            got = other.evaluate(
                """() => ['cp', 'bp'].map((k) =>
                     document.querySelector(`.track-marker.${k} text`).textContent)"""
            )
            assert got == marks, lang


def test_the_phone_log_opens_at_its_newest_lines(server: Any, browser: Any) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    ctx = [browser.new_context(viewport=PHONE) for _ in range(2)]
    try:
        page, second = (c.new_page() for c in ctx)
        ann = sign_up(page, server, "Ann")
        ben = sign_up(second, server, "Ben")
        table = finished_game(server, [ann["token"], ben["token"]])
        page.goto(server.url(f"/t/{table}"))
        page.get_by_test_id("final-scores").wait_for(timeout=WAIT)
        page.get_by_test_id("rematch").wait_for(timeout=WAIT)  # the end screen is all there
        page.get_by_test_id("tab-log").click()
        page.locator("#log-list li").last.wait_for(timeout=WAIT)
        assert page.locator("#log-list li").count() > 40  # far longer than one screen
        newest_in_view = """() => {
             const last = [...document.querySelectorAll('#log-list li')].pop();
             const r = last.getBoundingClientRect();
             const bar = document.querySelector('.tabbar').getBoundingClientRect().top;
             return window.scrollY > 0 && r.top >= 0 && r.bottom <= bar + 0.5; }"""
        # Polled on a timer, not on animation frames: a page of one of two contexts may get no
        # frames for a while in headless Chromium, and the scroll this waits for is no animation.
        try:
            page.wait_for_function(newest_in_view, polling=100, timeout=WAIT)
        except PlaywrightTimeout:
            geometry = page.evaluate("""() => {
                const lines = document.querySelectorAll('#log-list li');
                const last = lines[lines.length - 1].getBoundingClientRect();
                const bar = document.querySelector('.tabbar').getBoundingClientRect();
                const tab = document.querySelector('[role=tab][aria-selected=true]');
                return {scrollY: window.scrollY, innerHeight: window.innerHeight,
                        scrollHeight: document.documentElement.scrollHeight,
                        lastTop: last.top, lastBottom: last.bottom, barTop: bar.top,
                        tab: tab && tab.id, tabbars: document.querySelectorAll('.tabbar').length};
            }""")
            pytest.fail(f"the newest log line is not in view above the tab bar: {geometry}")
    finally:
        for c in ctx:
            c.close()

"""Colours that honour the reader: the dark theme follows prefers-color-scheme, and the profile
menu's switch (as the system / light / dark) overrides it and is remembered in localStorage.
Screenshots of a running table in the dark, desktop and phone, land in test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.shots import screenshot
from tests.browser.test_a11y import axe_violations, contrast, luminance, rgb
from tests.browser.test_phone import DESKTOP, PHONE, WAIT, two_players, wait_turn_known

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def page_colours(page: Any) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(background, text) of the page itself."""
    bg, fg = page.evaluate(
        """() => { const s = getComputedStyle(document.documentElement);
             return [s.backgroundColor, s.color]; }"""
    )
    return rgb(bg), rgb(fg)


def is_dark(page: Any) -> bool:
    bg, fg = page_colours(page)
    assert contrast(bg, fg) >= 7, (bg, fg)
    return luminance(bg) < luminance(fg)


def choose(page: Any, theme: str) -> None:
    page.get_by_test_id("profile-menu").locator("summary").click()
    page.get_by_test_id("theme-select").select_option(theme)
    page.keyboard.press("Escape")


def test_the_system_dark_preference_and_the_menu_switch(server: Any, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP, color_scheme="dark")
    try:
        page = ctx.new_page()
        page.goto(server.url("/"))
        page.get_by_test_id("create-table").wait_for(timeout=WAIT)
        assert is_dark(page)  # the system asks for dark: dark, with nothing chosen
        choose(page, "light")
        assert not is_dark(page)
        assert page.evaluate("localStorage.getItem('emara.theme')") == "light"
        page.reload()
        page.get_by_test_id("create-table").wait_for(timeout=WAIT)
        assert not is_dark(page)  # remembered
        assert page.get_by_test_id("theme-select").input_value() == "light"
        choose(page, "auto")
        assert is_dark(page)
        assert page.evaluate("localStorage.getItem('emara.theme')") is None
        page.emulate_media(color_scheme="light")
        assert not is_dark(page)  # as the system, live
        choose(page, "dark")
        assert is_dark(page)  # over the system's light
        page.reload()
        page.get_by_test_id("create-table").wait_for(timeout=WAIT)
        assert is_dark(page)
    finally:
        ctx.close()


def test_a_running_table_in_the_dark(server: Any, browser: Any, artifacts: Path) -> None:
    with two_players(browser, server, DESKTOP) as pages:
        for p in pages:
            p.emulate_media(color_scheme="dark")
        mine, other = wait_turn_known(pages)
        assert is_dark(mine)
        screenshot(mine, path=str(artifacts / "dark-table-desktop.png"))
        found = {"desktop": axe_violations(mine)}
        for p in pages:
            p.set_viewport_size(PHONE)
            p.wait_for_function("() => document.querySelector('[data-layout=tabs]')", timeout=WAIT)
        screenshot(mine, path=str(artifacts / "dark-table-phone.png"))
        found["phone"] = axe_violations(mine)
        other.get_by_test_id("tab-board").click()
        other.get_by_test_id("panel-board").locator(".rondels").wait_for(timeout=WAIT)
        found["phone, board"] = axe_violations(other)
        screenshot(other, path=str(artifacts / "dark-table-phone-board.png"))
        assert found == {k: [] for k in found}

"""Contrast with the menus and dialogs open, on a desktop and a phone, in the light and the dark
theme: the profile menu (signed in, and the signed-out one with the recovery code), its theme
switch, the header's language selector, and the "Confirm it's you" and "Sign out everywhere"
dialogs. axe-core checks the page as it is then; and since axe cannot judge text over a gradient
(every button is one), each text in an open menu or dialog is also measured here against every
colour of the background behind it (WCAG AA: 4.5:1, 3:1 for large text)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.devtools.stack import ServerProcess
from tests.browser.modules import own_modules
from tests.browser.shots import screenshot
from tests.browser.test_a11y import axe_violations
from tests.browser.test_reach import DESKTOP, PHONE, WAIT, sign_up

pytestmark = [pytest.mark.browser]

_SOURCE = (Path(__file__).parent / "contrast_measure.js").read_text()
MEASURE = "\n".join(line for line in _SOURCE.splitlines() if not line.startswith("//"))


def _check(page: Any, found: dict[str, list[str]], name: str) -> None:
    found[name] = axe_violations(page) + page.evaluate(MEASURE)


def test_menus_and_dialogs_open_meet_aa_contrast(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    found: dict[str, list[str]] = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
        try:
            page = context.new_page()
            for size_name, size in (("desktop", DESKTOP), ("phone", PHONE)):
                at = f"{scheme}, {size_name}"
                page.set_viewport_size(size)
                sign_up(page, server, "Ada")
                page.goto(server.url("/games"))
                menu = page.get_by_test_id("profile-menu")
                menu.locator("summary").click()
                menu.get_by_test_id("history-link").wait_for(timeout=WAIT)
                screenshot(page, path=str(artifacts / f"menu-open-{size_name}-{scheme}.png"))
                _check(page, found, f"profile menu, {at}")
                page.keyboard.press("Escape")
                page.evaluate(
                    own_modules(
                        "() => { import('/js/stepup.js').then((m) => { m.confirmItsYou(); }); }"
                    )
                )
                page.get_by_test_id("stepup-dialog").wait_for(timeout=WAIT)
                _check(page, found, f"confirm it's you, {at}")
                page.get_by_test_id("stepup-cancel").click()
                page.evaluate(
                    own_modules(
                        "() => { import('/js/signoutall.js')"
                        ".then((m) => { m.signOutEverywhereDialog(); }); }"
                    )
                )
                page.get_by_test_id("signout-all-dialog").wait_for(timeout=WAIT)
                _check(page, found, f"sign out everywhere, {at}")
                page.keyboard.press("Escape")
                # Signed out: the menu with the recovery code.
                context.clear_cookies()
                page.evaluate("() => localStorage.removeItem('emara.signed_in')")
                page.goto(server.url("/"))
                menu = page.get_by_test_id("profile-menu")
                menu.locator("summary").click()
                menu.get_by_test_id("recover-input").wait_for(timeout=WAIT)
                _check(page, found, f"recovery menu, {at}")
        finally:
            context.close()
    assert found == {k: [] for k in found}

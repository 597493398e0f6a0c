"""My devices tells devices apart: each row says how the device was added (the first sign-in,
a device code) and its person may name it; the name is shown as text, beside the browser's name,
and an empty name shows the browser's name again. Screenshots: test-artifacts/devices-named-*.png
(1366×900 and 390×844, light and dark)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.devtools.stack import ServerProcess
from tests.browser.shots import screenshot
from tests.browser.test_a11y import axe_violations
from tests.browser.test_devices import _add_by_code
from tests.browser.test_reach import DESKTOP, PHONE, WAIT, people, sign_up

pytestmark = [pytest.mark.browser]


def test_devices_say_how_they_were_added_and_are_named_as_text(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    with people(browser, DESKTOP, PHONE) as (laptop, phone):
        laptop.add_init_script("localStorage.setItem('emara.lang', 'en')")
        sign_up(laptop, server, "Wanda")
        _add_by_code(laptop, phone, server)
        laptop.goto(server.url("/profile"))
        laptop.get_by_test_id("device").nth(1).wait_for(timeout=WAIT)
        here = laptop.locator("[data-testid=device][data-current='1']")
        there = laptop.locator("[data-testid=device][data-current='0']")
        assert "added when the profile was made" in here.get_by_test_id("device-how").inner_text()
        assert "added with a device code" in there.get_by_test_id("device-how").inner_text()

        browser_name = here.get_by_test_id("device-name").inner_text()
        here.get_by_test_id("device-rename").click()
        field = laptop.get_by_test_id("device-name-input")
        assert field.evaluate("f => f === document.activeElement")
        assert field.get_attribute("maxlength") == "40"
        assert laptop.get_by_label(f"Name for {browser_name}").count() == 1
        field.fill("<b>Desk</b> laptop")
        laptop.get_by_test_id("device-name-save").click()
        named = here.get_by_test_id("device-name")
        named.filter(has_text="<b>Desk</b> laptop").wait_for(timeout=WAIT)
        assert here.locator("b").count() == 0  # text, never markup
        assert here.get_by_test_id("device-browser").inner_text() == f" ({browser_name})"
        assert there.get_by_test_id("device-browser").count() == 0
        assert "null" not in there.inner_text()
        assert axe_violations(laptop) == []
        for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            laptop.set_viewport_size(size)
            for scheme in ("light", "dark"):
                laptop.emulate_media(color_scheme=scheme)
                screenshot(
                    laptop.get_by_test_id("devices-section"),
                    path=str(artifacts / f"devices-named-{name}-{scheme}.png"),
                )
        laptop.set_viewport_size(DESKTOP)
        # an empty name forgets it: the browser's name again
        here.get_by_test_id("device-rename").click()
        laptop.get_by_test_id("device-name-input").fill("   ")
        laptop.get_by_test_id("device-name-save").click()
        here.get_by_test_id("device-browser").wait_for(state="detached", timeout=WAIT)
        assert here.get_by_test_id("device-name").inner_text() == browser_name
        # and "Cancel" leaves the row as it was
        here.get_by_test_id("device-rename").click()
        laptop.get_by_test_id("device-name-input").fill("Not kept")
        laptop.get_by_test_id("device-name-cancel").click()
        assert here.get_by_test_id("device-name").inner_text() == browser_name

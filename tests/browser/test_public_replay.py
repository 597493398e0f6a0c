"""The `public_replay` table option in the browser: a box on the home page's new-table form, and
the lobby says whether the finished game's replay will be public (at 1366x900 and 390x844)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.shots import screenshot
from tests.browser.test_play import ConsoleWatch

pytestmark = [pytest.mark.browser]

WAIT = 30000  # ms
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SHOTS = Path("/work/shots/records")


@pytest.mark.parametrize(("size", "public"), [(DESKTOP, True), (PHONE, False)])
def test_the_new_table_form_sets_public_replay(
    server: Any, browser: Any, size: dict[str, int], public: bool
) -> None:
    watch = ConsoleWatch()
    ctx = browser.new_context(viewport=size)
    try:
        page = ctx.new_page()
        watch.attach(page, "host")
        page.goto(server.url("/"))
        page.get_by_test_id("name-input").fill("Ann")
        box = page.get_by_test_id("public-replay")
        assert not box.is_checked()  # off by default
        if public:
            box.check()
        SHOTS.mkdir(parents=True, exist_ok=True)
        box.scroll_into_view_if_needed()
        screenshot(page, path=str(SHOTS / f"landing-{size['width']}.png"))
        page.get_by_test_id("create-table").click()
        shown = page.get_by_test_id("lobby-public-replay")
        shown.wait_for(timeout=WAIT)
        assert shown.inner_text() == ("yes" if public else "no")
        # The lobby redraws when its socket reports: a whole-page picture needs no scrolling.
        screenshot(page, path=str(SHOTS / f"lobby-{size['width']}.png"), full_page=True)
        table_id = page.url.rstrip("/").split("/")[-1].split("?")[0]
        lobby = page.evaluate("async (id) => (await fetch(`/api/tables/${id}`)).json()", table_id)
        assert lobby["options"]["public_replay"] is public
        assert watch.errors == []
    finally:
        ctx.close()

"""My data on the profile page, in Chromium: "Download my data" saves one JSON file of the
person's own data; "Delete my profile" asks first (cancel keeps everything), then deletes and
says so, signed out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.devtools.stack import ServerProcess
from tests.browser.test_a11y import axe_violations
from tests.browser.test_reach import DESKTOP, PHONE, WAIT, people, shoot, sign_up

pytestmark = [pytest.mark.browser]


def _me_status(page: Any) -> int:
    return int(page.evaluate("fetch('/api/profiles/me').then((r) => r.status)"))


def test_my_data_downloads_as_one_json_file(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    with people(browser, DESKTOP) as (page,):
        ann = sign_up(page, server, "Maren")
        page.goto(server.url("/profile"))
        page.get_by_test_id("mydata-section").wait_for(timeout=WAIT)
        with page.expect_download(timeout=WAIT) as info:
            page.get_by_test_id("download-my-data").click()
        download = info.value
        assert download.suggested_filename.startswith("emara-my-data-")
        data = json.loads(Path(download.path()).read_text(encoding="utf-8"))
        assert data["profile"] == {**data["profile"], "id": ann["id"], "name": "Maren"}
        assert ann["recovery_code"] not in json.dumps(data)
        shoot(page, artifacts, "mydata-desktop")


def test_delete_my_profile_asks_first_then_deletes(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    with people(browser, PHONE) as (page,):
        sign_up(page, server, "Tilde")
        page.goto(server.url("/profile"))
        page.get_by_test_id("delete-profile").click()
        dialog = page.get_by_test_id("delete-dialog")
        dialog.wait_for(timeout=WAIT)
        assert "Tilde" in dialog.inner_text()
        assert axe_violations(page) == []
        shoot(page, artifacts, "mydata-delete-phone")
        page.keyboard.press("Escape")  # the same as Cancel: nothing happens
        dialog.wait_for(state="detached", timeout=WAIT)
        assert _me_status(page) == 200
        page.get_by_test_id("delete-profile").click()
        page.get_by_test_id("delete-go").click()
        page.get_by_test_id("profile-deleted").wait_for(timeout=WAIT)
        assert _me_status(page) == 401
        page.reload()
        # signed out now: the profile page asks "Who are you?" as every page does
        page.get_by_test_id("whoami").wait_for(timeout=WAIT)

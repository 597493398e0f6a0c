"""My devices in Chromium, as a person with a laptop and a phone uses them: the laptop adds the
phone with a code (the QR code and link shown beside it) and both stay signed in; the laptop
signs the phone out from the list and the phone's open table notices at once; a recovery code
signs in a third device and the others are told, still signed in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.devtools.stack import ServerProcess
from tests.browser.test_a11y import axe_violations
from tests.browser.test_reach import DESKTOP, PHONE, WAIT, api, people, shoot, sign_up

pytestmark = [pytest.mark.browser]


def _add_by_code(laptop: Any, phone: Any, server: ServerProcess) -> str:
    laptop.goto(server.url("/profile"))
    laptop.get_by_test_id("add-device").click()
    code = laptop.get_by_test_id("device-code").inner_text().strip()
    assert laptop.get_by_test_id("device-qr").is_visible()
    assert laptop.get_by_test_id("device-link").input_value().endswith("/add-device#" + code)
    phone.goto(server.url("/games"))
    phone.get_by_test_id("whoami").wait_for(timeout=WAIT)
    phone.get_by_test_id("whoami-code").fill(code)
    phone.get_by_test_id("whoami-code-go").click()
    phone.get_by_test_id("whoami").wait_for(state="detached", timeout=WAIT)
    return code


def test_a_device_is_added_by_code_and_the_first_stays_signed_in(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    with people(browser, DESKTOP, PHONE) as (laptop, phone):
        ann = sign_up(laptop, server, "Alma")
        _add_by_code(laptop, phone, server)
        shoot(laptop, artifacts, "devices-code-desktop")
        me = phone.evaluate("fetch('/api/profiles/me').then((r) => r.json())")
        assert me["id"] == ann["id"]
        laptop.reload()
        laptop.get_by_test_id("device").nth(1).wait_for(timeout=WAIT)
        assert laptop.get_by_test_id("device").count() == 2
        assert laptop.locator("[data-testid=device][data-current='1']").count() == 1
        assert axe_violations(laptop) == []
        # the link works too, on a third device, once
        laptop.get_by_test_id("add-device").click()
        link = laptop.get_by_test_id("device-link").input_value()
        with people(browser, PHONE) as (tablet,):
            tablet.goto(link)
            tablet.get_by_test_id("add-device-go").click()
            tablet.wait_for_url("**/games", timeout=WAIT)
            assert "#" not in tablet.url
        laptop.reload()
        laptop.get_by_test_id("device").nth(2).wait_for(timeout=WAIT)


def test_a_device_signed_out_from_the_list_notices_at_its_open_table(
    server: ServerProcess, browser: Any
) -> None:
    with people(browser, DESKTOP, PHONE) as (laptop, phone):
        ann = sign_up(laptop, server, "Bea")
        _add_by_code(laptop, phone, server)
        t = api(server, ann["token"], "POST", "/api/tables", json={"seats": 2})
        phone.goto(server.url(f"/t/{t['id']}"))
        phone.locator(".seat-list").get_by_text("Bea").wait_for(timeout=WAIT)
        laptop.goto(server.url("/profile"))
        laptop.get_by_test_id("device").nth(1).wait_for(timeout=WAIT)
        other = laptop.locator("[data-testid=device][data-current='0']")
        other.get_by_test_id("device-sign-out").click()
        phone.get_by_test_id("whoami").wait_for(timeout=WAIT)  # its socket closed: who are you?
        laptop.locator("[data-testid=device][data-current='0']").wait_for(
            state="detached", timeout=WAIT
        )
        assert laptop.evaluate("fetch('/api/profiles/me').then((r) => r.status)") == 200


def test_a_recovery_signs_in_a_third_device_and_the_others_are_told(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    with people(browser, DESKTOP, PHONE, PHONE) as (laptop, phone, found):
        ann = sign_up(laptop, server, "Cleo")
        _add_by_code(laptop, phone, server)
        found.goto(server.url("/games"))
        found.get_by_test_id("whoami-code").fill(ann["recovery_code"])
        found.get_by_test_id("whoami-code-go").click()
        found.get_by_test_id("whoami").wait_for(state="detached", timeout=WAIT)
        for page in (laptop, phone):
            page.goto(server.url("/"))
            notice = page.get_by_test_id("recovery-notice")
            notice.wait_for(timeout=WAIT)
            assert page.evaluate("fetch('/api/profiles/me').then((r) => r.status)") == 200
        shoot(phone, artifacts, "devices-recovery-notice-phone")
        phone.get_by_test_id("recovery-was-me").click()
        phone.get_by_test_id("recovery-notice").wait_for(state="detached", timeout=WAIT)
        phone.reload()
        phone.get_by_test_id("create-table").wait_for(timeout=WAIT)
        assert phone.get_by_test_id("recovery-notice").count() == 0

"""A signed-out visitor, in Chromium as people use it: an invite link opened on a phone asks
"who are you?" once and seats a new name in one step, with no pile of repeated notices; a table
open on a device whose session was cut off elsewhere asks once and stops reconnecting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.devtools.stack import ServerProcess
from tests.browser.test_a11y import axe_violations
from tests.browser.test_reach import PHONE, WAIT, api, people, shoot, sign_up

pytestmark = [pytest.mark.browser]


def _table(server: ServerProcess, host: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = api(server, host["token"], "POST", "/api/tables", json={"seats": 2})
    return out


def test_an_invite_link_opened_signed_out_asks_once_and_seats_the_new_name(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    with people(browser, PHONE, PHONE) as (host_page, guest):
        host = sign_up(host_page, server, "Hana")
        t = _table(server, host)
        sockets: list[str] = []
        guest.on("websocket", lambda ws: sockets.append(ws.url))
        guest.goto(server.url(f"/t/{t['id']}?invite={t['invite_code']}"))
        panel = guest.get_by_test_id("whoami")
        panel.wait_for(timeout=WAIT)
        assert guest.get_by_test_id("whoami-back").is_visible()  # the way back in, beside
        assert guest.get_by_test_id("whoami-code").is_visible()
        assert sockets == []  # nobody to connect as: no socket, no refusals
        assert guest.get_by_test_id("error").count() == 0
        shoot(guest, artifacts, "signin-panel-phone")
        assert axe_violations(guest) == []
        assert guest.evaluate("document.documentElement.scrollWidth <= innerWidth")
        guest.get_by_test_id("name-input").fill("Gita")
        guest.get_by_test_id("name-input").press("Enter")
        # one panel: the name is taken and the seat with it
        guest.locator(".seat-list").get_by_text("Gita").wait_for(timeout=WAIT)
        seats = api(server, host["token"], "GET", f"/api/tables/{t['id']}")["seats"]
        assert [s["name"] for s in seats] == ["Hana", "Gita"]
        assert guest.get_by_test_id("error").count() <= 1
        shoot(guest, artifacts, "signin-seated-phone")


def test_a_table_whose_session_was_cut_off_asks_once_and_stops_reconnecting(
    server: ServerProcess, browser: Any
) -> None:
    with people(browser, PHONE, PHONE) as (host_page, guest):
        host = sign_up(host_page, server, "Ivo")
        me = sign_up(guest, server, "Jana")
        t = _table(server, host)
        api(
            server,
            me["token"],
            "POST",
            f"/api/tables/{t['id']}/join",
            json={"invite_code": t["invite_code"]},
        )
        sockets: list[Any] = []
        guest.on("websocket", lambda ws: sockets.append(ws))
        guest.clock.install()  # the page's timers: moved on by the test below
        guest.goto(server.url(f"/t/{t['id']}"))
        guest.locator(".seat-list").get_by_text("Jana").wait_for(timeout=WAIT)
        opened = len(sockets)
        assert opened >= 1
        # Jana signs out everywhere from another device: this one's session is cut off.
        api(server, me["token"], "POST", "/api/profiles/signout-everywhere")
        guest.get_by_test_id("whoami").wait_for(timeout=WAIT)
        assert guest.get_by_test_id("error").count() <= 1
        # The refused socket is not retried: two minutes of the page's timers (every back-off
        # delay) pass and no new socket opens; the page waits for the person.
        guest.clock.run_for(120_000)
        assert len(sockets) == opened
        assert guest.get_by_test_id("whoami").count() == 1
        # Signing back in with the recovery code returns to the table, seated as before.
        guest.get_by_test_id("whoami-code").fill(me["recovery_code"])
        guest.get_by_test_id("whoami-code-go").click()
        guest.locator(".seat-list").get_by_text("Jana").wait_for(timeout=WAIT)
        assert guest.get_by_test_id("whoami").count() == 0

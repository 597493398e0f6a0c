"""The link of an invitation e-mail opens the table itself (/t/{id}, no invite code): the invited
person, signed in, is offered the invitation there — accept seats them and the lobby opens,
decline says so; anyone else still finds no table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_endscreen import shoot
from tests.browser.test_reach import DESKTOP, PHONE, WAIT, api, people, sign_up

pytestmark = [pytest.mark.browser]


def test_the_invited_person_accepts_or_declines_on_the_tables_own_page(
    server: Any, browser: Any, artifacts: Path
) -> None:
    with people(browser, DESKTOP, PHONE, PHONE) as (host, guest, stranger):
        cy = sign_up(host, server, "Cy")
        dee = sign_up(guest, server, "Dee")
        sign_up(stranger, server, "Eli")
        first = api(server, cy["token"], "POST", "/api/tables", json={"seats": 2})
        api(server, dee["token"], "POST", f"/api/tables/{first['id']}/join",
            json={"invite_code": first["invite_code"]})  # fmt: skip
        tables = []
        for _ in range(2):
            t = api(server, cy["token"], "POST", "/api/tables", json={"seats": 3})
            api(server, cy["token"], "POST", f"/api/tables/{t['id']}/invitations",
                json={"profile_id": dee["id"]})  # fmt: skip
            tables.append(t["id"])
        accept, decline = tables
        # Someone not invited: no table, as before.
        stranger.goto(server.url(f"/t/{accept}"))
        stranger.get_by_test_id("table-missing").wait_for(timeout=WAIT)
        assert stranger.get_by_test_id("invitation-here").count() == 0
        # Dee: the invitation, then the lobby with her in it.
        guest.goto(server.url(f"/t/{accept}"))
        offer = guest.get_by_test_id("invitation-here")
        offer.wait_for(timeout=WAIT)
        assert "Cy invites you" in offer.inner_text()
        shoot(guest, artifacts, "invitation-here-phone")
        guest.get_by_test_id("invitation-here-accept").click()
        guest.get_by_test_id("invitation-here").wait_for(state="detached", timeout=WAIT)
        lobby = api(server, dee["token"], "GET", f"/api/tables/{accept}")
        assert lobby["my_seat"] is not None
        guest.goto(server.url(f"/t/{decline}"))
        guest.get_by_test_id("invitation-here-decline").click()
        said = guest.get_by_test_id("invitation-here-said")
        said.filter(has_text="You declined the invitation.").wait_for(timeout=WAIT)
        assert api(server, dee["token"], "GET", "/api/me/invitations") == {"invitations": []}

""" "No more invitations from this person" in Chromium: the button beside Decline in My games
declines the invitation and refuses the inviter's next one; the profile page lists the person
and allows them again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.devtools.stack import ServerProcess
from tests.browser.shots import screenshot
from tests.browser.test_a11y import axe_violations
from tests.browser.test_reach import DESKTOP, PHONE, WAIT, api, people, sign_up

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[ServerProcess]:
    from app.db.migrate import upgrade

    tmp = tmp_path_factory.mktemp("block-server")
    db_url = f"sqlite:///{tmp / 'emara.db'}"
    upgrade(db_url)
    with ServerProcess(db_url, tmp / "server.log", extra_args=["--log-level", "warning"]) as srv:
        yield srv


def test_no_more_invitations_from_a_person_and_allowed_again(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    with people(browser, DESKTOP, PHONE) as (host, guest):
        cy = sign_up(host, server, "Cy")
        dee = sign_up(guest, server, "Dee")
        first = api(server, cy["token"], "POST", "/api/tables", json={"seats": 2})
        api(server, dee["token"], "POST", f"/api/tables/{first['id']}/join",
            json={"invite_code": first["invite_code"]})  # fmt: skip
        table = api(server, cy["token"], "POST", "/api/tables", json={"seats": 3})
        api(server, cy["token"], "POST", f"/api/tables/{table['id']}/invitations",
            json={"profile_id": dee["id"]})  # fmt: skip
        guest.goto(server.url("/games"))
        guest.get_by_test_id("my-invitation").wait_for(timeout=WAIT)
        block = guest.get_by_test_id("invitation-block")
        assert "Cy" in block.inner_text()
        assert axe_violations(guest) == []
        block.click()
        guest.get_by_test_id("my-invitations").wait_for(state="hidden", timeout=WAIT)
        again = httpx.post(
            server.url(f"/api/tables/{table['id']}/invitations"),
            json={"profile_id": dee["id"]},
            headers={"Authorization": f"Bearer {cy['token']}"},
            timeout=30,
        )
        assert again.status_code == 409
        assert again.json()["error"]["code"] == "invitation_not_wanted"
        guest.goto(server.url("/profile"))
        person = guest.get_by_test_id("blocked-person")
        person.filter(has_text="Cy").wait_for(timeout=WAIT)
        screenshot(guest, path=str(artifacts / "profile-blocked-phone.png"), full_page=True)
        assert axe_violations(guest) == []
        guest.get_by_test_id("invitation-unblock").click()
        guest.get_by_test_id("blocked-section").wait_for(state="hidden", timeout=WAIT)
        blocked = api(server, dee["token"], "GET", "/api/me/invitation-blocks")
        assert blocked == {"blocked": []}

"""A signed-out visitor at a table where the seat is taken, in Chromium: the "who are you?" panel
says which table it is and what can be done there before a name is asked for; a seated player
who types her own name again is led to the ways back in (no second profile), and a late friend
at a full, running table is told so and offered to watch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from app.devtools.stack import ServerProcess
from tests.browser.test_a11y import axe_violations
from tests.browser.test_reach import PHONE, WAIT, api, people, shoot, sign_up

pytestmark = [pytest.mark.browser]


def _profile(server: ServerProcess, name: str) -> dict[str, Any]:
    r = server.http().post("/api/profiles", json={"name": name})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def _named(server: ServerProcess, name: str) -> int:
    engine = create_engine(server.database_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT name FROM profile")).scalars().all()
    finally:
        engine.dispose()
    return sum(1 for n in rows if n.casefold() == name.casefold())


def _table(server: ServerProcess, host: dict[str, Any], guests: list[dict[str, Any]], seats: int):
    t: dict[str, Any] = api(server, host["token"], "POST", "/api/tables", json={"seats": seats})
    for g in guests:
        body = {"invite_code": t["invite_code"]}
        api(server, g["token"], "POST", f"/api/tables/{t['id']}/join", json=body)
    return t


def test_a_seated_player_signed_out_who_types_her_name_is_led_back_to_her_seat(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    hana, bea = _profile(server, "Hana"), _profile(server, "Bea")
    beas = _named(server, "Bea")  # the browser server is shared: other tests' Beas count too
    t = _table(server, hana, [bea], seats=3)
    api(server, hana["token"], "PUT", f"/api/tables/{t['id']}/name", json={"name": "Tuesday"})
    with people(browser, PHONE) as (phone,):
        phone.goto(server.url(f"/t/{t['id']}?invite={t['invite_code']}"))
        door = phone.get_by_test_id("whoami-table")
        door.wait_for(timeout=WAIT)
        assert door.get_attribute("data-door") == "open"
        assert "Tuesday" in door.inner_text() and "Hana" in door.inner_text()
        phone.get_by_test_id("name-input").fill(" bea ")
        phone.get_by_test_id("join-table").click()
        seated = phone.get_by_test_id("whoami-name-seated")
        seated.wait_for(timeout=WAIT)
        assert "2" in seated.inner_text()  # her seat, counted from one
        assert phone.get_by_test_id("whoami-another").is_visible()  # a free seat: another Bea
        shoot(phone, artifacts, "signin-name-seated-phone")
        assert axe_violations(phone) == []
        assert _named(server, "Bea") == beas  # no second profile
        phone.get_by_test_id("whoami-to-back").click()
        code = phone.get_by_test_id("whoami-code")
        assert phone.evaluate("document.activeElement.id") == "whoami-code"
        code.fill(bea["recovery_code"])
        phone.get_by_test_id("whoami-code-go").click()
        phone.locator(".seat-list").get_by_text("Bea").wait_for(timeout=WAIT)
        assert phone.get_by_test_id("whoami").count() == 0
    seats = api(server, hana["token"], "GET", f"/api/tables/{t['id']}")["seats"]
    assert [s["name"] for s in seats] == ["Hana", "Bea", None]
    assert _named(server, "Bea") == beas


def test_a_late_friend_at_a_full_running_table_is_told_before_a_name(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    ivo, kim = _profile(server, "Ivo"), _profile(server, "Kim")
    kims, lenas = _named(server, "Kim"), _named(server, "Lena")  # the server is shared
    t = _table(server, ivo, [kim], seats=2)
    api(server, ivo["token"], "POST", f"/api/tables/{t['id']}/start")
    with people(browser, PHONE) as (phone,):
        phone.goto(server.url(f"/t/{t['id']}?invite={t['invite_code']}"))
        door = phone.get_by_test_id("whoami-table")
        door.wait_for(timeout=WAIT)
        assert door.get_attribute("data-door") == "running"
        assert "running" in phone.get_by_test_id("whoami-door").inner_text()
        assert phone.get_by_test_id("whoami-door-can").is_visible()
        # "this is my seat" comes first, and the name only to watch: no seat is offered
        ways = phone.locator(".whoami-way").evaluate_all("els => els.map(e => e.dataset.testid)")
        assert ways == ["whoami-back", "whoami-new"]
        assert phone.get_by_test_id("join-table").count() == 0
        shoot(phone, artifacts, "signin-running-phone")
        assert axe_violations(phone) == []
        # her own name, typed by the seated Kim's friend: the seat is someone else's
        phone.get_by_test_id("name-input").fill("Kim")
        phone.get_by_test_id("whoami-new-go").click()
        phone.get_by_test_id("whoami-name-seated").wait_for(timeout=WAIT)
        assert phone.get_by_test_id("whoami-another").count() == 0  # no free seat to offer
        assert _named(server, "Kim") == kims
        phone.get_by_test_id("name-input").fill("Lena")
        phone.get_by_test_id("whoami-new-go").click()
        phone.get_by_test_id("whoami").wait_for(state="detached", timeout=WAIT)
    assert _named(server, "Lena") == lenas + 1
    seats = api(server, ivo["token"], "GET", f"/api/tables/{t['id']}")["seats"]
    assert [s["name"] for s in seats] == ["Ivo", "Kim"]


def test_a_refused_join_shows_its_words(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    mia, ned = _profile(server, "Mia"), _profile(server, "Ned")
    t = _table(server, mia, [], seats=2)
    with people(browser, PHONE) as (phone,):
        phone.goto(server.url(f"/t/{t['id']}?invite={t['invite_code']}"))
        phone.get_by_test_id("whoami-table").wait_for(timeout=WAIT)
        # the last seat goes to someone else while the panel is open
        body = {"invite_code": t["invite_code"]}
        api(server, ned["token"], "POST", f"/api/tables/{t['id']}/join", json=body)
        phone.get_by_test_id("name-input").fill("Ola")
        phone.get_by_test_id("join-table").click()
        refused = phone.get_by_test_id("whoami-refused")
        refused.wait_for(timeout=WAIT)
        assert "full" in refused.inner_text()
        phone.get_by_test_id("whoami-go-on").click()
        phone.get_by_test_id("whoami").wait_for(state="detached", timeout=WAIT)


def test_a_signed_in_namesake_is_told_in_the_lobby_and_may_sit_as_someone_else(
    server: ServerProcess, browser: Any
) -> None:
    pia, sam = _profile(server, "Pia"), _profile(server, "Sam")
    t = _table(server, pia, [sam], seats=3)
    with people(browser, PHONE) as (phone,):
        sign_up(phone, server, "Sam")  # another Sam, signed in on this phone
        phone.goto(server.url(f"/t/{t['id']}?invite={t['invite_code']}"))
        phone.get_by_test_id("join-table").click()
        said = phone.get_by_test_id("join-name-seated")
        said.wait_for(timeout=WAIT)
        assert "already sits" in said.inner_text()
        assert len(api(server, pia["token"], "GET", f"/api/tables/{t['id']}")["seats"]) == 3
        phone.get_by_test_id("join-another").click()
        phone.get_by_test_id("join-name-seated").wait_for(state="detached", timeout=WAIT)
    seats = api(server, pia["token"], "GET", f"/api/tables/{t['id']}")["seats"]
    assert [s["name"] for s in seats] == ["Pia", "Sam", "Sam"]

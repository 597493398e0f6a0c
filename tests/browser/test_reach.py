"""E-mail and play again in Chromium, as people use them: the profile's e-mail section (with and
without an SMTP server), the confirmation link and a sign-in link read back from a real SMTP
server on loopback (the second use refused), the rematch offer on a guest's end screen (accept:
seated), and an invitation from "People I play with" appearing live in My games (accept: seated).
Screenshots at 1366×900 and 390×844 go to test-artifacts/; axe finds no serious violation."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.devtools.stack import ServerProcess
from tests.browser.conftest import FINISHED_IN_SERVER, PLAYED_OVER_HTTP, finish_in_server
from tests.browser.shots import screenshot
from tests.browser.test_a11y import axe_violations
from tests.mail.smtpserver import Inbox, smtp_server

pytestmark = [pytest.mark.browser]

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
WAIT = 20000
LINK = re.compile(r"/email/(confirm|signin|unsubscribe)#([A-Za-z0-9_.-]+)")


@pytest.fixture(scope="module")
def inbox() -> Iterator[Inbox]:
    with smtp_server() as box:
        yield box


@pytest.fixture(scope="module")
def mail_server(
    tmp_path_factory: pytest.TempPathFactory, inbox: Inbox, browser: Any
) -> Iterator[ServerProcess]:
    """The app in a subprocess with its own SQLite database, sending to the loopback server."""
    from app.db.migrate import upgrade

    tmp = tmp_path_factory.mktemp("reach-server")
    db_url = f"sqlite:///{tmp / 'emara.db'}"
    upgrade(db_url)
    srv = ServerProcess(db_url, tmp / "server.log", extra_args=["--log-level", "warning"])
    srv.env = {
        **PLAYED_OVER_HTTP,
        **FINISHED_IN_SERVER,
        "EMARA_SMTP_HOST": inbox.host,
        "EMARA_SMTP_PORT": str(inbox.port),
        "EMARA_SMTP_SECURITY": "none",
        "EMARA_PUBLIC_URL": srv.base,
        "EMARA_EMAIL_GATHER_SECONDS": "0",
        "EMARA_EMAIL_SWEEP_SECONDS": "0.2",
    }
    with srv:
        yield srv


def sign_up(page: Any, server: ServerProcess, name: str) -> dict[str, Any]:
    page.goto(server.url("/"))
    page.get_by_test_id("create-table").wait_for(timeout=WAIT)
    body = page.evaluate(
        """async (name) => { const r = await fetch('/api/profiles', { method: 'POST',
             headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name }) });
           localStorage.setItem('emara.signed_in', '1'); return r.json(); }""",
        name,
    )
    return body  # type: ignore[no-any-return]


def in_czech(page: Any) -> None:
    page.get_by_test_id("lang-select").select_option("cs")
    page.locator("html[lang=cs]").wait_for(state="attached", timeout=WAIT)


def shoot(page: Any, artifacts: Path, name: str) -> None:
    screenshot(page, path=str(artifacts / f"{name}.png"), full_page=True)


@contextlib.contextmanager
def people(browser: Any, *viewports: dict[str, int]) -> Iterator[list[Any]]:
    contexts = [browser.new_context(viewport=v) for v in viewports]
    try:
        yield [c.new_page() for c in contexts]
    finally:
        for c in contexts:
            c.close()


def api(server: ServerProcess, token: str, method: str, path: str, **kw: Any) -> Any:
    r = server.http().request(method, path, headers={"Authorization": f"Bearer {token}"}, **kw)
    assert r.status_code < 300, r.text
    return r.json() if r.content else None


def finished_game(server: ServerProcess, tokens: list[str]) -> str:
    """A two-player game opened and joined over HTTP, played to its end in the server."""
    t = api(
        server, tokens[0], "POST", "/api/tables", json={"seats": 2, "options": {"start_player": 0}}
    )
    api(
        server,
        tokens[1],
        "POST",
        f"/api/tables/{t['id']}/join",
        json={"invite_code": t["invite_code"]},
    )
    api(server, tokens[0], "POST", f"/api/tables/{t['id']}/start")
    finish_in_server(server, str(t["id"]), seed=4)
    return str(t["id"])


def test_the_email_section_says_when_the_server_sends_no_email(
    server: Any, browser: Any, artifacts: Path
) -> None:
    with people(browser, DESKTOP) as (page,):
        sign_up(page, server, "Nora")
        page.goto(server.url("/profile"))
        page.get_by_test_id("email-off").wait_for(timeout=WAIT)
        assert page.get_by_test_id("email-input").count() == 0
        shoot(page, artifacts, "email-off-desktop")
        page.set_viewport_size(PHONE)
        shoot(page, artifacts, "email-off-phone")
        assert axe_violations(page) == []
        in_czech(page)
        page.get_by_test_id("email-off").filter(has_text="neposílá").wait_for(timeout=WAIT)
        shoot(page, artifacts, "email-off-phone-cs")


def test_an_address_is_confirmed_by_its_link_and_a_sign_in_link_works_once(
    mail_server: ServerProcess, browser: Any, inbox: Inbox, artifacts: Path
) -> None:
    with people(browser, DESKTOP, PHONE) as (page, phone):
        sign_up(page, mail_server, "Ada")
        page.goto(mail_server.url("/profile"))
        page.get_by_test_id("email-input").fill("ada@example.org")
        page.get_by_test_id("email-send").click()
        page.get_by_test_id("email-pending").wait_for(timeout=WAIT)
        mail = inbox.wait_for("ada@example.org")
        ((kind, token),) = LINK.findall(mail.text)
        assert kind == "confirm"
        page.goto(mail_server.url(f"/email/confirm#{token}"))
        page.get_by_test_id("email-link-go").click()
        page.get_by_test_id("email-link-result").filter(has_text="confirmed").wait_for(timeout=WAIT)
        assert "#" not in page.url  # the token left the address bar at once
        page.goto(mail_server.url("/profile"))
        page.get_by_test_id("email-address").wait_for(timeout=WAIT)
        assert page.get_by_test_id("email-address").inner_text() == "ada@example.org"
        assert page.get_by_test_id("email-notify").is_checked()
        shoot(page, artifacts, "email-confirmed-desktop")
        assert axe_violations(page) == []
        in_czech(page)
        page.get_by_test_id("email-section").filter(has_text="Vaše adresa").wait_for(timeout=WAIT)
        shoot(page, artifacts, "email-confirmed-desktop-cs")
        page.get_by_test_id("lang-select").select_option("en")
        # A phone that never saw Ada: a sign-in link by e-mail, once.
        phone.goto(mail_server.url("/email/signin"))
        phone.get_by_test_id("signin-email").fill("ada@example.org")
        phone.get_by_test_id("signin-send").click()
        phone.get_by_test_id("signin-note").filter(has_text="on its way").wait_for(timeout=WAIT)
        shoot(phone, artifacts, "email-signin-request-phone")
        mail = inbox.wait_for("ada@example.org", count=2)
        ((kind, token),) = LINK.findall(mail.text)
        assert kind == "signin"
        phone.goto(mail_server.url(f"/email/signin#{token}"))
        phone.get_by_test_id("email-link-go").click()
        phone.get_by_test_id("email-signed-in").wait_for(timeout=WAIT)
        phone.get_by_test_id("profile-name").filter(has_text="Ada").wait_for(timeout=WAIT)
        phone.goto(mail_server.url("/profile"))
        phone.get_by_test_id("email-address").wait_for(timeout=WAIT)
        shoot(phone, artifacts, "email-confirmed-phone")
        assert axe_violations(phone) == []
        # The desktop is still signed in; the link does not work a second time.
        page.goto(mail_server.url("/games"))
        page.get_by_test_id("my-games").wait_for(timeout=WAIT)
        phone.goto(mail_server.url(f"/email/signin#{token}"))
        phone.get_by_test_id("email-link-go").click()
        phone.get_by_test_id("email-link-result").filter(has_text="unknown").wait_for(timeout=WAIT)


def test_a_guest_accepts_the_rematch_from_the_end_screen_and_is_seated(
    mail_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    with people(browser, DESKTOP, DESKTOP) as (host, guest):
        ann = sign_up(host, mail_server, "Ann")
        ben = sign_up(guest, mail_server, "Ben")
        old = finished_game(mail_server, [ann["token"], ben["token"]])
        guest.goto(mail_server.url(f"/t/{old}"))
        guest.get_by_test_id("final-scores").wait_for(timeout=WAIT)
        guest.get_by_test_id("rematch").wait_for(timeout=WAIT)
        host.goto(mail_server.url(f"/t/{old}"))
        host.get_by_test_id("rematch").click()
        host.get_by_test_id("lobby").wait_for(timeout=WAIT)
        # The guest's end screen is told at once: the offer, with accept and decline.
        guest.get_by_test_id("rematch-offered").filter(has_text="Ann").wait_for(timeout=WAIT)
        guest.get_by_test_id("rematch-offer").scroll_into_view_if_needed()
        shoot(guest, artifacts, "rematch-offer-guest-desktop")
        assert axe_violations(guest) == []
        guest.set_viewport_size(PHONE)
        guest.get_by_test_id("rematch-offer").scroll_into_view_if_needed()
        shoot(guest, artifacts, "rematch-offer-guest-phone")
        guest.get_by_test_id("rematch-accept").click()
        guest.get_by_test_id("lobby").wait_for(timeout=WAIT)
        seat = guest.locator("[data-testid=lobby-seat][data-seat='1']")
        seat.filter(has_text="Ben").wait_for(timeout=WAIT)
        # The host's lobby shows Ben seated, live; the table can start.
        host.locator("[data-testid=lobby-seat][data-seat='1']").filter(has_text="Ben").wait_for(
            timeout=WAIT
        )
        host.get_by_test_id("start-game").wait_for(state="attached", timeout=WAIT)
        assert host.get_by_test_id("start-game").is_enabled()


def test_an_invitation_from_people_i_play_with_appears_in_my_games_and_seats_me(
    mail_server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    with people(browser, DESKTOP, PHONE) as (host, guest):
        cy = sign_up(host, mail_server, "Cy")
        dee = sign_up(guest, mail_server, "Dee")
        first = api(mail_server, cy["token"], "POST", "/api/tables", json={"seats": 2})
        api(mail_server, dee["token"], "POST", f"/api/tables/{first['id']}/join",
            json={"invite_code": first["invite_code"]})  # fmt: skip
        guest.goto(mail_server.url("/games"))
        guest.get_by_test_id("my-games").wait_for(timeout=WAIT)
        # Cy opens a new table and, in its lobby, names it and invites Dee: no link sent.
        host.goto(mail_server.url("/"))
        host.get_by_test_id("create-table").click()
        host.get_by_test_id("lobby").wait_for(timeout=WAIT)
        host.get_by_test_id("table-name").fill("Thursday club")
        host.get_by_test_id("table-name-save").click()
        host.locator("h1").filter(has_text="Thursday club").wait_for(timeout=WAIT)
        host.locator("[data-testid=person][data-name=Dee] [data-testid=invite-person]").click()
        host.locator("[data-testid=invited][data-status=pending]").wait_for(timeout=WAIT)
        shoot(host, artifacts, "lobby-invited-desktop")
        assert axe_violations(host) == []
        # Dee's My games shows it at once (the event stream), on her phone.
        invitation = guest.get_by_test_id("my-invitation")
        invitation.filter(has_text="Thursday club").wait_for(timeout=WAIT)
        shoot(guest, artifacts, "mygames-invitation-phone")
        assert axe_violations(guest) == []
        guest.set_viewport_size(DESKTOP)
        shoot(guest, artifacts, "mygames-invitation-desktop")
        guest.get_by_test_id("invitation-accept").click()
        guest.get_by_test_id("lobby").wait_for(timeout=WAIT)
        guest.locator("[data-testid=lobby-seat][data-seat='1']").filter(has_text="Dee").wait_for(
            timeout=WAIT
        )
        host.locator("[data-testid=invited][data-status=accepted]").wait_for(timeout=WAIT)
        host.locator("[data-testid=lobby-seat][data-seat='1']").filter(has_text="Dee").wait_for(
            timeout=WAIT
        )


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_table_name_being_typed_survives_a_lobby_redraw(
    mail_server: ServerProcess, browser: Any, artifacts: Path, size: str
) -> None:
    with people(browser, DESKTOP if size == "desktop" else PHONE) as (host,):
        sign_up(host, mail_server, "Eva")
        made = httpx.post(mail_server.url("/api/profiles"), json={"name": "Fay"}, timeout=30)
        fay = made.json()
        host.goto(mail_server.url("/"))
        host.get_by_test_id("create-table").click()
        host.get_by_test_id("lobby").wait_for(timeout=WAIT)
        table_id = host.url.rstrip("/").split("/")[-1].split("?")[0]
        host.get_by_test_id("table-name").fill("Friday club")
        # The field is one element for the lobby's life: mark it, to find it again after a redraw.
        host.get_by_test_id("table-name").evaluate("el => { el.dataset.mark = 'typed-in'; }")
        # Someone takes a seat while the name is being typed: the lobby is drawn again.
        invite = host.evaluate(
            "id => fetch(`/api/tables/${id}`).then(r => r.json()).then(t => t.invite_code)",
            table_id,
        )
        api(mail_server, fay["token"], "POST", f"/api/tables/{table_id}/join",
            json={"invite_code": invite})  # fmt: skip
        host.locator("[data-testid=lobby-seat]").filter(has_text="Fay").wait_for(timeout=WAIT)
        assert host.get_by_test_id("table-name").input_value() == "Friday club"
        # the same field, still focused: the host types on without clicking back into it
        assert host.evaluate("() => document.activeElement.dataset.mark") == "typed-in"
        shoot(host, artifacts, f"lobby-name-typed-{size}")
        host.get_by_test_id("table-name-save").click()
        host.locator("h1").filter(has_text="Friday club").wait_for(timeout=WAIT)

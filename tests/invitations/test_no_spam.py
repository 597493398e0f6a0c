"""Invitations cannot be turned into spam: the same invitation asked again tells nobody again; an
inviter whose invitation was declined lately is refused for a while; a person can take no more
invitations from a profile, and that inviter only ever sees the answer a "no" gets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import ManualClock
from app.invitations.service import Invited
from tests.conftest import Player, make_settings, new_player, wipe
from tests.invitations.helpers import my_invitations, open_table
from tests.mail.conftest import START, add_address, mail_settings, settle
from tests.mail.smtpserver import Inbox, smtp_server

BEN = "ben@example.org"
DAY = 86400.0


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    with smtp_server() as box:
        yield box


@pytest.fixture
def tc(database_url: str, tmp_path: Path, inbox: Inbox) -> Iterator[TestClient]:
    from app.main import create_app

    wipe(database_url)
    settings = make_settings(
        database_url, tmp_path, **mail_settings(inbox), invitation_decline_quiet_days=7
    )
    app: Any = create_app(settings, ManualClock(START))
    with TestClient(app) as c:
        yield c
    app.state.db.dispose()


@pytest.fixture
def told(tc: TestClient) -> list[Invited]:
    """Every invitation the listeners (e-mail and push) were told of."""
    heard: list[Invited] = []
    tc.app.state.invitations.listeners.append(heard.append)  # type: ignore[attr-defined]
    return heard


@pytest.fixture
def ada(tc: TestClient) -> Player:
    return new_player(tc, "Ada")


@pytest.fixture
def ben(tc: TestClient, inbox: Inbox, ada: Player) -> Player:
    ben = new_player(tc, "Ben")
    add_address(tc, ben, inbox, BEN)
    open_table(tc, [ada, ben], start=False)  # they played together: Ada may invite Ben
    return ben


def mails(tc: TestClient, inbox: Inbox) -> int:
    """Invitation mails Ben received (his address's confirmation aside)."""
    settle(tc)
    return len([m for m in inbox.to(BEN) if "confirm" not in m.text.lower()])


def new_table(tc: TestClient, host: Player) -> str:
    r = tc.post("/api/tables", json={"seats": 3}, headers=host.headers)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def invite(tc: TestClient, host: Player, table_id: str, who: Player) -> Any:
    return tc.post(
        f"/api/tables/{table_id}/invitations", json={"profile_id": who.id}, headers=host.headers
    )


def clock(tc: TestClient) -> ManualClock:
    return tc.app.state.clock  # type: ignore[attr-defined, no-any-return]


def test_ten_invitations_to_one_table_are_one_mail(
    tc: TestClient, inbox: Inbox, told: list[Invited], ada: Player, ben: Player
) -> None:
    table = new_table(tc, ada)
    answers = [invite(tc, ada, table, ben) for _ in range(10)]
    assert {r.status_code for r in answers} == {201}
    (inv,) = answers[-1].json()["invitations"]
    assert inv["status"] == "pending" and inv["name"] == "Ben"
    assert len(told) == 1 and mails(tc, inbox) == 1
    assert len(my_invitations(tc, ben)) == 1


def test_invited_again_after_a_withdrawal_is_not_told_again(
    tc: TestClient, inbox: Inbox, told: list[Invited], ada: Player, ben: Player
) -> None:
    table = new_table(tc, ada)
    for _ in range(5):
        (inv,) = invite(tc, ada, table, ben).json()["invitations"]
        r = tc.delete(f"/api/tables/{table}/invitations/{inv['id']}", headers=ada.headers)
        assert r.status_code == 200, r.text
    assert invite(tc, ada, table, ben).json()["invitations"][0]["status"] == "pending"
    assert len(told) == 1 and mails(tc, inbox) == 1


def test_after_a_no_the_inviter_is_refused_for_the_quiet_days(
    tc: TestClient, inbox: Inbox, told: list[Invited], ada: Player, ben: Player
) -> None:
    first = new_table(tc, ada)
    invite(tc, ada, first, ben)
    (inv,) = my_invitations(tc, ben)
    assert tc.post(f"/api/invitations/{inv['id']}/decline", headers=ben.headers).status_code == 204
    for table in (first, new_table(tc, ada)):  # the same table, or a new one
        r = invite(tc, ada, table, ben)
        assert r.status_code == 409 and r.json()["error"]["code"] == "invitation_not_wanted"
    assert len(told) == 1 and mails(tc, inbox) == 1
    clock(tc).advance(7 * DAY + 1)
    assert invite(tc, ada, new_table(tc, ada), ben).status_code == 201
    assert len(told) == 2 and mails(tc, inbox) == 2


def test_no_more_invitations_from_a_profile(
    tc: TestClient, inbox: Inbox, told: list[Invited], ada: Player, ben: Player
) -> None:
    eve = new_player(tc, "Eve")
    open_table(tc, [eve, ben], start=False)
    tables = [new_table(tc, ada), new_table(tc, ada)]
    for table in tables:
        invite(tc, ada, table, ben)
    invite(tc, eve, new_table(tc, eve), ben)
    mine = {x["inviter_name"]: x for x in my_invitations(tc, ben)}
    r = tc.post(f"/api/invitations/{mine['Ada']['id']}/block", headers=ben.headers)
    assert r.status_code == 204
    # Every invitation of Ada's is declined (as Ada sees it), Eve's still waits.
    assert [x["inviter_name"] for x in my_invitations(tc, ben)] == ["Eve"]
    for table in tables:
        seen = tc.get(f"/api/tables/{table}/invitations", headers=ada.headers).json()
        assert [x["status"] for x in seen["invitations"]] == ["declined"]
    # Ada's next invitation gets the answer a recent "no" gets, now and after the quiet days.
    for _ in range(2):
        r = invite(tc, ada, new_table(tc, ada), ben)
        assert r.status_code == 409 and r.json()["error"]["code"] == "invitation_not_wanted"
        clock(tc).advance(8 * DAY)
    assert len(told) == 3 and mails(tc, inbox) == 3
    blocked = tc.get("/api/me/invitation-blocks", headers=ben.headers).json()["blocked"]
    assert [(b["id"], b["name"]) for b in blocked] == [(ada.id, "Ada")]
    assert tc.get("/api/me/invitation-blocks", headers=ada.headers).json()["blocked"] == []
    # Lifted: Ada may invite Ben again.
    r = tc.delete(f"/api/me/invitation-blocks/{ada.id}", headers=ben.headers)
    assert r.status_code == 204
    assert tc.get("/api/me/invitation-blocks", headers=ben.headers).json()["blocked"] == []
    assert invite(tc, ada, new_table(tc, ada), ben).status_code == 201
    assert len(told) == 4 and mails(tc, inbox) == 4


def test_only_the_invited_person_blocks_through_their_invitation(
    tc: TestClient, ada: Player, ben: Player
) -> None:
    eve = new_player(tc, "Eve")
    invite(tc, ada, new_table(tc, ada), ben)
    (inv,) = my_invitations(tc, ben)
    for who in (eve, ada):
        r = tc.post(f"/api/invitations/{inv['id']}/block", headers=who.headers)
        assert r.status_code == 404
    assert tc.post(f"/api/invitations/{inv['id']}/block").status_code == 401
    assert my_invitations(tc, ben)[0]["id"] == inv["id"]
    assert tc.get("/api/me/invitation-blocks", headers=eve.headers).json()["blocked"] == []


def test_a_rematch_leaves_the_seat_of_someone_who_said_no_free(
    tc: TestClient, inbox: Inbox, told: list[Invited], ada: Player, ben: Player
) -> None:
    from sqlalchemy import update

    from app.db.models import GameTable

    invite(tc, ada, new_table(tc, ada), ben)
    (inv,) = my_invitations(tc, ben)
    r = tc.post(f"/api/invitations/{inv['id']}/block", headers=ben.headers)
    assert r.status_code == 204
    played = open_table(tc, [ada, ben])["id"]
    with tc.app.state.db.session() as s:  # type: ignore[attr-defined]
        s.execute(update(GameTable).where(GameTable.id == played).values(status="finished"))
    r = tc.post(f"/api/tables/{played}/rematch", headers=ada.headers)
    assert r.status_code == 200, r.text
    assert my_invitations(tc, ben) == []
    assert len(told) == 1 and mails(tc, inbox) == 1  # the first invitation only
    seats = tc.get(f"/api/tables/{r.json()['table_id']}", headers=ada.headers).json()["seats"]
    assert [x["taken"] for x in seats] == [True, False]

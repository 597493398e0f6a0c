"""Strangers cannot spend a mailbox's sign-in budget: a sign-in link asked for without a session
of the address's profile counts against a smaller budget of its own, so strangers using theirs
up never refuse the owner's own request (made with a session of that profile)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests.conftest import make_settings, new_player, wipe
from tests.mail.conftest import START, add_address, mail_settings, settle
from tests.mail.smtpserver import Inbox

ADDRESS = "ada@example.org"


@pytest.fixture
def budgeted(database_url: str, tmp_path: Path, inbox: Inbox) -> Iterator[TestClient]:
    from app.main import create_app

    wipe(database_url)
    settings = make_settings(
        database_url,
        tmp_path,
        **mail_settings(inbox),
        rate_email_send="5/hour",
        rate_email_signin_strangers="2/hour",
    )
    app: Any = create_app(settings, ManualClock(START))
    with TestClient(app) as c:
        yield c
    app.state.db.dispose()


def ask(c: TestClient, headers: dict[str, str] | None = None) -> int:
    r = c.post("/api/email/signin-link", json={"address": ADDRESS}, headers=headers or {})
    return r.status_code


def test_strangers_using_up_their_budget_never_refuse_the_owner(
    budgeted: TestClient, inbox: Inbox
) -> None:
    c = budgeted
    ada = new_player(c, "Ada")
    add_address(c, ada, inbox, ADDRESS)
    # Strangers (no session) from the same client address: two links, then refused.
    assert [ask(c) for _ in range(4)] == [202, 202, 429, 429]
    # The owner, with a session of the profile, still gets a link.
    assert ask(c, ada.headers) == 202
    settle(c)
    assert len([m for m in inbox.to(ADDRESS) if "sign" in m.subject.lower()]) == 3


def test_another_profiles_session_counts_as_a_stranger(budgeted: TestClient, inbox: Inbox) -> None:
    c = budgeted
    ada, eve = new_player(c, "Ada"), new_player(c, "Eve")
    add_address(c, ada, inbox, ADDRESS)
    assert [ask(c, eve.headers) for _ in range(3)] == [202, 202, 429]
    assert ask(c) == 429  # the strangers' budget of the mailbox is used up, signed in or not
    assert ask(c, ada.headers) == 202


def test_the_owners_budget_still_holds(budgeted: TestClient, inbox: Inbox) -> None:
    c = budgeted
    ada = new_player(c, "Ada")
    add_address(c, ada, inbox, ADDRESS)  # one of the owner's five this hour
    assert [ask(c, ada.headers) for _ in range(5)] == [202, 202, 202, 202, 429]


def test_an_unknown_address_answers_like_a_known_one(budgeted: TestClient) -> None:
    c = budgeted
    codes = [c.post("/api/email/signin-link", json={"address": "x@example.org"}).status_code]
    codes += [c.post("/api/email/signin-link", json={"address": "x@example.org"}).status_code]
    codes += [c.post("/api/email/signin-link", json={"address": "x@example.org"}).status_code]
    assert codes == [202, 202, 429]

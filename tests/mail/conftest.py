"""An app that sends e-mail to a real SMTP server on loopback; its time is a ManualClock."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests.conftest import Player, assert_replays, make_settings, new_player, wipe
from tests.mail.smtpserver import Inbox, smtp_server

START = 1_800_000_000.0
PUBLIC = "http://emara.test"


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    with smtp_server() as box:
        yield box


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


def mail_settings(inbox: Inbox, **extra: Any) -> dict[str, Any]:
    return {
        "smtp_host": inbox.host,
        "smtp_port": inbox.port,
        "smtp_security": "none",
        "smtp_from": "Crown of Emara <noreply@emara.test>",
        "public_url": PUBLIC,
        "deadline_sweep_seconds": 0,
        "email_sweep_seconds": 0,
        "email_retry_seconds": 0,
        **extra,
    }


@pytest.fixture
def mailing(database_url: str, tmp_path: Path, inbox: Inbox, clock: ManualClock) -> Iterator[Any]:
    from app.main import create_app

    wipe(database_url)
    application = create_app(make_settings(database_url, tmp_path, **mail_settings(inbox)), clock)
    yield application
    assert_replays(application)
    application.state.db.dispose()


@pytest.fixture
def tc(mailing: Any) -> Iterator[TestClient]:
    with TestClient(mailing) as c:
        yield c


@pytest.fixture
def ada(tc: TestClient) -> Player:
    return new_player(tc, "Ada")


@pytest.fixture
def ben(tc: TestClient) -> Player:
    return new_player(tc, "Ben")


def settle(tc: TestClient) -> None:
    tc.portal.call(tc.app.state.mailer.idle)  # type: ignore[union-attr, attr-defined]


def sweep(tc: TestClient, now: float) -> None:
    tc.portal.call(tc.app.state.mailer.sweep, now)  # type: ignore[union-attr, attr-defined]
    settle(tc)


LINK = re.compile(re.escape(PUBLIC) + r"/email/(confirm|signin|unsubscribe)#([A-Za-z0-9_.-]+)")


def link_token(text: str, kind: str) -> str:
    found = [tok for k, tok in LINK.findall(text) if k == kind]
    assert len(found) == 1, text
    return found[0]


def add_address(tc: TestClient, who: Player, inbox: Inbox, address: str, lang: str = "en") -> None:
    """Add and confirm ``address`` for ``who`` through the link the server mailed."""
    r = tc.post("/api/email", json={"address": address, "lang": lang}, headers=who.headers)
    assert r.status_code == 202, r.text
    settle(tc)
    token = link_token(inbox.to(address)[-1].text, "confirm")
    r = tc.post("/api/email/confirm", json={"token": token})
    assert r.status_code == 200, r.text

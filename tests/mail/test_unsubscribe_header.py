"""The one-click unsubscribe headers as they arrive over SMTP: ``List-Unsubscribe`` is one
angle-bracketed https link (RFC 2369 / RFC 8058), never RFC 2047 encoded words, read from the raw
bytes without any decoding (the compat32 parser, as a plain mail client sees it); the link it
holds unsubscribes with one POST."""

from __future__ import annotations

import email
import re
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient

from app.mail.compose import Outgoing, build
from tests.conftest import Player
from tests.mail.conftest import PUBLIC, START, add_address, settle, sweep
from tests.mail.smtpserver import Inbox
from tests.pace.conftest import end_turn, open_game

HTTPS = "https://emara.example.org"


def test_list_unsubscribe_arrives_as_one_angle_bracketed_link(
    tc: TestClient, ada: Player, ben: Player, inbox: Inbox
) -> None:
    add_address(tc, ada, inbox, "ada@example.org", lang="de")
    table = open_game(tc, [ben, ada], {"mode": "turn", "hours": 24})["id"]
    end_turn(tc, table, ben)
    settle(tc)
    sweep(tc, START + 120)
    mail = inbox.received[-1]
    raw = email.message_from_bytes(mail.raw)  # compat32: nothing decoded, nothing unfolded
    value = raw["List-Unsubscribe"]
    assert "=?" not in value
    assert re.fullmatch(
        rf"<{re.escape(PUBLIC)}/api/email/unsubscribe/one-click\?token=[^\s<>]+>", value
    )
    assert raw["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # On the wire the header is one line (not folded).
    (line,) = [ln for ln in mail.raw.split(b"\r\n") if ln.startswith(b"List-Unsubscribe:")]
    assert line == b"List-Unsubscribe: " + value.encode()
    # The link still unsubscribes with the one-click POST.
    parts = urlsplit(value.strip("<>"))
    r = tc.post(
        f"{parts.path}?{parts.query}",
        content=b"List-Unsubscribe=One-Click",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 200 and r.json() == {"done": True}
    assert tc.get("/api/email", headers=ada.headers).json()["notify"] is False


def test_a_long_https_link_stays_one_line_and_a_bad_one_is_refused() -> None:
    url = f"{HTTPS}/api/email/unsubscribe/one-click?token=" + "A" * 300
    msg = build(Outgoing("ada@example.org", "digest", "Zwei Spiele", "x", url), "n@e.test", START)
    from aiosmtplib.email import flatten_message  # how the SMTP client writes it

    raw = email.message_from_bytes(flatten_message(msg))
    assert raw["List-Unsubscribe"] == f"<{url}>"
    assert raw["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    for bad in (url + " x", url + ">", "https://é.example/x", url + "A" * 1000):
        with pytest.raises(ValueError):
            build(Outgoing("a@example.org", "digest", "s", "x", bad), "n@e.test", START)

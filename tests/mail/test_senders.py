"""One slow message never holds up another: several senders, at most a share of them for one
recipient domain, a deadline on every message, and retries scheduled for later instead of
waited for. The SMTP server on loopback holds the recipients of a slow domain (or defers them);
time is the injected ManualClock."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import ManualClock
from app.mail.postman import Outcome, Postman
from tests.conftest import Player, make_settings, new_player, wipe
from tests.mail.conftest import START, add_address, mail_settings, settle
from tests.mail.smtpserver import Inbox

ADA = "ada@example.org"
# Long enough for a message on a loaded machine, far shorter than the SMTP timeout (20 s): a
# message that arrives in time was not queued behind the stalled one.
ARRIVES = 10.0

Make = Callable[..., TestClient]
CLOSE_SECONDS = 60.0


@pytest.fixture
def make(database_url: str, tmp_path: Path, inbox: Inbox) -> Iterator[Make]:
    from app.main import create_app

    opened: list[tuple[Any, TestClient]] = []

    def build(**extra: Any) -> TestClient:
        wipe(database_url)
        settings = make_settings(database_url, tmp_path, **mail_settings(inbox, **extra))
        app: Any = create_app(settings, ManualClock(START))
        c = TestClient(app)
        c.__enter__()
        opened.append((app, c))
        return c

    yield build
    inbox.release.set()
    for app, c in opened:
        # Bounded: once in a long parallel run the app's shutdown was seen waiting on after its
        # test had passed; the run goes on, and says so.
        closing = threading.Thread(target=c.__exit__, args=(None, None, None), daemon=True)
        closing.start()
        closing.join(CLOSE_SECONDS)
        if closing.is_alive():
            warnings.warn(f"the app's shutdown took over {CLOSE_SECONDS} s", stacklevel=1)
            continue
        app.state.db.dispose()


def postman(c: TestClient) -> Postman:
    return c.app.state.mail.postman  # type: ignore[attr-defined, no-any-return]


def confirm_to(c: TestClient, who: Player, address: str) -> None:
    """Someone asks for a confirmation link to ``address`` (a message the server sends)."""
    r = c.post("/api/email", json={"address": address}, headers=who.headers)
    assert r.status_code == 202, r.text


def sign_in_link(c: TestClient, inbox: Inbox) -> str:
    r = c.post("/api/email/signin-link", json={"address": ADA})
    assert r.status_code == 202, r.text
    return inbox.wait_for(ADA, 2, timeout=ARRIVES).subject


def test_a_message_to_a_slow_domain_never_holds_up_a_sign_in_link(make: Make, inbox: Inbox) -> None:
    c = make()
    ada, eve = new_player(c, "Ada"), new_player(c, "Eve")
    add_address(c, ada, inbox, ADA)
    inbox.stall.add("slow.test")
    confirm_to(c, eve, "eve@slow.test")
    assert inbox.stalled.wait(ARRIVES)  # a sender is stuck at the slow domain's recipient
    assert sign_in_link(c, inbox)  # delivered while the first message is still held
    assert inbox.to("eve@slow.test") == []
    inbox.release.set()
    assert inbox.wait_for("eve@slow.test", timeout=ARRIVES)


def test_a_slow_domain_holds_at_most_its_share_of_the_senders(make: Make, inbox: Inbox) -> None:
    c = make(email_senders=2, email_senders_per_domain=1)
    ada = new_player(c, "Ada")
    add_address(c, ada, inbox, ADA)
    inbox.stall.add("slow.test")
    for n in range(4):  # strangers fill the queue with messages to the slow domain
        confirm_to(c, new_player(c, f"Eve{n}"), f"eve{n}@slow.test")
    assert inbox.stalled.wait(ARRIVES)
    assert sign_in_link(c, inbox)
    assert postman(c).schedule.sending["slow.test"] == 1


def test_a_deferred_message_is_tried_again_later_and_its_sender_goes_on(
    make: Make, inbox: Inbox
) -> None:
    c = make(email_retry_seconds=30)
    ada, eve = new_player(c, "Ada"), new_player(c, "Eve")
    add_address(c, ada, inbox, ADA)
    inbox.defer.add("later.test")
    confirm_to(c, eve, "eve@later.test")
    assert sign_in_link(c, inbox)  # not behind the 30 s before the deferred one's retry
    settle(c)  # nothing is due: the deferred message waits for its next attempt
    p, clock = postman(c), c.app.state.clock  # type: ignore[attr-defined]
    (waiting,) = p.schedule.waiting
    assert waiting.attempts == 1
    assert waiting.next_attempt_at == clock.monotonic() + 30
    inbox.defer.clear()
    clock.advance(30)
    p.wake()
    settle(c)
    assert len(inbox.to("eve@later.test")) == 1
    assert p.schedule.waiting == []


def test_every_message_ends_by_its_deadline_and_is_tried_again_later(
    make: Make, inbox: Inbox
) -> None:
    c = make(email_deadline_seconds=0.3, email_retry_seconds=60, email_attempts=2)
    eve = new_player(c, "Eve")
    inbox.stall.add("slow.test")
    confirm_to(c, eve, "eve@slow.test")
    settle(c)  # the attempt ends at its deadline (0.3 s), not at the SMTP timeout (20 s)
    p = postman(c)
    assert ("confirm", Outcome.RETRY) in p.outcomes
    (waiting,) = p.schedule.waiting
    assert waiting.attempts == 1 and p.schedule.busy == 0
    c.app.state.clock.advance(60)  # type: ignore[attr-defined]
    p.wake()
    settle(c)  # the second and last attempt ends at its deadline too: given up
    assert list(p.outcomes).count(("confirm", Outcome.RETRY)) == 2
    assert p.schedule.waiting == [] and len(p.schedule) == 0

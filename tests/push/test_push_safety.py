"""Web Push cannot be turned against the server or its network, nor slow it down.

- A subscription's endpoint is refused in every spelling of an inner address (IPv4 and IPv6,
  decimal, octal, hexadecimal and short forms, names resolving inside), unless it is https on
  port 443 to a known push service (the allow-list, on by default).
- Before each message the endpoint is judged again and the connection goes to the address so
  judged (a name that now resolves inside is dropped, never connected to); redirects are not
  followed; a reply head is read up to a cap; a message has one overall deadline.
- Sending uses its own workers, pool and bounded queue: a push service that never answers holds
  no thread that database work needs, and moves and routes go on.
"""

from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from anyio import to_thread
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.clock import ManualClock
from app.db.models import PushSubscription
from app.push.endpoint import BadPushEndpoint, numeric_host
from tests.conftest import Player, assert_replays, make_settings, new_player, wipe
from tests.pace.conftest import START, end_turn, open_game
from tests.push.pushservice import Browser
from tests.push.rawservice import RawService, raw_service

PUBLIC = "93.184.216.34"
# What the resolver of these tests answers for each name.
NAMES: dict[str, list[str]] = {
    "fcm.googleapis.com": [PUBLIC],
    "updates.push.services.mozilla.com": [PUBLIC],
    "web.push.apple.com": [PUBLIC],
    "push.public.example": [PUBLIC, "2606:2800:220:1:248:1893:25c8:1946"],
    "push.inside.example": ["10.1.2.3"],
    "push.mixed.example": [PUBLIC, "127.0.0.1"],
    "push.mapped.example": ["::ffff:169.254.169.254"],
    "push.nat64.example": ["64:ff9b::a00:1"],
    "push.sixtofour.example": ["2002:c0a8:101::1"],
    "push.linklocal.example": ["fe80::1"],
}

INNER_SPELLINGS = [
    # loopback, in every form a URL parser reads as an address
    "https://127.0.0.1/p",
    "https://127.1/p",
    "https://127.0.1/p",
    "https://0x7f.1/p",
    "https://0x7f000001/p",
    "https://2130706433/p",
    "https://017700000001/p",
    "https://0177.0.0.1/p",
    "https://0177.0.0.01/p",
    "https://127.0.0.1./p",
    "https://0/p",
    "https://0.0.0.0/p",
    "https://[::1]/p",
    "https://[::]/p",
    "https://[0:0:0:0:0:0:0:1]/p",
    "https://[::ffff:127.0.0.1]/p",
    "https://[::ffff:7f00:1]/p",
    "https://[::127.0.0.1]/p",
    # private, shared, link-local (cloud metadata), multicast, reserved, documentation
    "https://10.0.0.7/p",
    "https://012.0.0.7/p",
    "https://0xa.0.0.7/p",
    "https://167772167/p",
    "https://172.16.0.1/p",
    "https://192.168.1.1/p",
    "https://0xc0.0xa8.1.1/p",
    "https://100.64.0.1/p",
    "https://169.254.169.254/latest",
    "https://2852039166/latest",
    "https://0xa9.0xfe.0xa9.0xfe/latest",
    "https://224.0.0.1/p",
    "https://239.255.255.250/p",
    "https://240.0.0.1/p",
    "https://255.255.255.255/p",
    "https://192.0.2.1/p",
    "https://198.18.0.1/p",
    "https://[fe80::1]/p",
    "https://[fe80::1%25eth0]/p",
    "https://[fc00::1]/p",
    "https://[fd12:3456::1]/p",
    "https://[fec0::1]/p",
    "https://[ff02::1]/p",
    "https://[2001:db8::1]/p",
    "https://[2002:7f00:1::1]/p",
    "https://[64:ff9b::7f00:1]/p",
    "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/p",
    # numbers that are no address, and names no public host has
    "https://1.2.3.0x100/p",
    "https://1.2.3.4.5/p",
    "https://256.1.1.1/p",
    "https://09.1.1.1/p",
    "https://localhost/p",
    "https://push.localhost/p",
    "https://printer.local/p",
    "https://metadata.internal/p",
    "https://1.0.0.127.in-addr.arpa/p",
    "https://intranet/p",
    "https://x.123/p",
    # names that resolve inside, wholly or in part
    "https://push.inside.example/p",
    "https://push.mixed.example/p",
    "https://push.mapped.example/p",
    "https://push.nat64.example/p",
    "https://push.sixtofour.example/p",
    "https://push.linklocal.example/p",
    "https://push.nowhere.example/p",  # does not resolve
    # not https on 443, not a plain URL
    "http://push.public.example/p",
    "https://push.public.example:8443/p",
    "https://push.public.example:80/p",
    "ftp://push.public.example/p",
    "https://user:pw@push.public.example/p",
    "https://push.public.example/p#frag",
    "https://push.public.example\\@127.0.0.1/p",
    "https://push.public.example /p",
    "https://0x5db8d822/p",  # a public address, but not in its usual form
]


def fake_resolver(calls: list[str] | None = None) -> Any:
    def resolve(host: str, port: int) -> Sequence[str]:
        if calls is not None:
            calls.append(host)
        if host not in NAMES:
            raise OSError("no such name")
        return NAMES[host]

    return resolve


def subscriptions(app: Any) -> int:
    with app.state.db.session() as s:
        return int(s.scalar(select(func.count()).select_from(PushSubscription)) or 0)


@pytest.fixture
def make_app(database_url: str, tmp_path: Path) -> Iterator[Any]:
    from app.main import create_app

    apps: list[Any] = []

    def make(**extra: Any) -> Any:
        wipe(database_url)
        extra.setdefault("deadline_sweep_seconds", 0)
        extra.setdefault("push_retry_seconds", 0)
        application = create_app(
            make_settings(database_url, tmp_path, **extra), clock=ManualClock(START)
        )
        application.state.push.delivery.resolve = fake_resolver()
        apps.append(application)
        return application

    yield make
    for application in apps:
        assert_replays(application)
        application.state.db.dispose()


def subscribe(tc: TestClient, who: Player, endpoint: str) -> Any:
    sub = Browser(endpoint).subscription()
    return tc.post("/api/push/subscriptions", json=sub, headers=who.headers)


def settle(tc: TestClient) -> None:
    tc.portal.call(tc.app.state.push.idle)  # type: ignore[union-attr, attr-defined]


# ---------------------------------------------------------------------------- admission
def test_inner_addresses_are_refused_in_every_spelling(make_app: Any) -> None:
    """With the allow-list lifted (any public host), every inner spelling is still refused."""
    app = make_app(push_allow_any_host=True)
    with TestClient(app) as tc:
        ada = new_player(tc, "Ada")
        accepted = []
        for endpoint in INNER_SPELLINGS:
            r = subscribe(tc, ada, endpoint)
            if r.status_code != 422:
                accepted.append((endpoint, r.status_code))
            else:
                assert r.json()["error"]["code"] in ("bad_push_endpoint", "malformed"), endpoint
        assert accepted == []
        assert subscriptions(app) == 0
        # A public host is accepted, by name or by address in its usual form.
        assert subscribe(tc, ada, "https://push.public.example/p").status_code == 201
        assert subscribe(tc, ada, f"https://{PUBLIC}/p").status_code == 201
        assert subscriptions(app) == 2


def test_only_known_push_services_by_default(make_app: Any) -> None:
    app = make_app()
    with TestClient(app) as tc:
        ada = new_player(tc, "Ada")
        for endpoint in [
            "https://fcm.googleapis.com/fcm/send/abc",
            "https://updates.push.services.mozilla.com/wpush/v2/abc",
            "https://web.push.apple.com/QGx",
        ]:
            assert subscribe(tc, ada, endpoint).status_code == 201, endpoint
        for endpoint in [
            "https://push.public.example/p",  # public, but no push service
            f"https://{PUBLIC}/p",
            "https://fcm.googleapis.com.push.public.example/p",
            "https://evilfcm.googleapis.com/p",
            "https://push.apple.com/p",
            "https://fcm.googleapis.com:8443/fcm/send/abc",
            "http://fcm.googleapis.com/fcm/send/abc",
            *INNER_SPELLINGS[:20],
        ]:
            r = subscribe(tc, ada, endpoint)
            assert r.status_code == 422, (endpoint, r.text)
        assert subscriptions(app) == 3


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("127.0.0.1", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0X7F.0.0.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("017700000001", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("1.2.3", "1.2.0.3"),
        ("0x", "0.0.0.0"),
        ("10.0.0.7.", "10.0.0.7"),
        ("::1", "::1"),
        ("push.example.com", None),
        ("1x.example.com", None),
    ],
)
def test_hosts_are_read_as_a_browser_reads_them(host: str, address: str | None) -> None:
    got = numeric_host(host)
    assert got == (None if address is None else ipaddress.ip_address(address))


@pytest.mark.parametrize("host", ["1.2.3.0x100", "1.2.3.4.5", "256.0.0.1", "08.0.0.1"])
def test_numbers_that_are_no_address_are_refused(host: str) -> None:
    with pytest.raises(BadPushEndpoint):
        numeric_host(host)


# ---------------------------------------------------------------------------- sending
def test_the_address_is_checked_again_at_send_time(make_app: Any) -> None:
    """DNS can change between the subscription and a message: a name that resolves inside now
    is dropped, and nothing connects to it."""
    app = make_app(push_allow_any_host=True)
    connected: list[tuple[str, str]] = []

    async def connect(address: Any, endpoint: Any, max_reply: int) -> Any:
        connected.append((str(address), endpoint.host))
        raise ConnectionRefusedError

    app.state.push.delivery.connect = connect
    with TestClient(app) as tc:
        ada, ben = new_player(tc, "Ada"), new_player(tc, "Ben")
        assert subscribe(tc, ada, "https://push.public.example/p").status_code == 201
        NAMES["push.rebinding.example"] = [PUBLIC]
        try:
            assert subscribe(tc, ada, "https://push.rebinding.example/p").status_code == 201
            NAMES["push.rebinding.example"] = ["169.254.169.254"]
            open_game(tc, [ada, ben], {"mode": "live"})
            settle(tc)
        finally:
            del NAMES["push.rebinding.example"]
        outcomes = dict(app.state.push.sent)
        assert outcomes["https://push.rebinding.example/p"] == "refused"
        assert ("169.254.169.254", "push.rebinding.example") not in connected
        assert all(address == PUBLIC or ":" in address for address, _ in connected)
        assert subscriptions(app) == 1  # the rebinding endpoint is gone


@pytest.fixture
def answering() -> Iterator[RawService]:
    with raw_service() as raw:
        yield raw


def _pinned_app(make_app: Any, raw: RawService, **extra: Any) -> tuple[Any, list[Any]]:
    """An app whose connections to public addresses land on ``raw`` (recorded)."""
    app = make_app(push_allow_any_host=True, **extra)
    connected: list[Any] = []

    async def connect(address: Any, endpoint: Any, max_reply: int) -> Any:
        connected.append((str(address), endpoint.host, endpoint.port))
        return await asyncio.open_connection("127.0.0.1", raw.port, limit=max_reply)

    app.state.push.delivery.connect = connect
    return app, connected


def _one_message(app: Any, endpoint: str, deadline: float | None = None) -> str:
    with TestClient(app) as tc:
        ada, ben = new_player(tc, "Ada"), new_player(tc, "Ben")
        assert subscribe(tc, ada, endpoint).status_code == 201
        if deadline is not None:  # for the message only (subscribing resolves within it too)
            delivery = app.state.push.delivery
            delivery.limits = dataclasses.replace(delivery.limits, deadline=deadline)
        open_game(tc, [ada, ben], {"mode": "live"})
        settle(tc)
        outcomes = [o for e, o in app.state.push.sent if e == endpoint]
    assert outcomes, "no message was sent"
    return str(outcomes[0])


def test_a_message_goes_to_the_checked_address_with_the_name_as_host(
    make_app: Any, answering: RawService
) -> None:
    app, connected = _pinned_app(make_app, answering)
    calls: list[str] = []
    app.state.push.delivery.resolve = fake_resolver(calls)
    assert _one_message(app, "https://push.public.example/push/ada?x=1") == "sent"
    assert connected == [(PUBLIC, "push.public.example", 443)]
    assert calls == ["push.public.example", "push.public.example"]  # subscribing, sending
    head = answering.heads[0].decode()
    assert head.startswith("POST /push/ada?x=1 HTTP/1.1\r\n")
    assert "\r\nHost: push.public.example\r\n" in head
    assert "\r\nContent-Encoding: aes128gcm\r\n" in head and "\r\nTTL: " in head


def test_redirects_are_never_followed(make_app: Any) -> None:
    moved = b"HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:9/x\r\n\r\n"
    with raw_service(reply=moved) as raw:
        app, connected = _pinned_app(make_app, raw)
        assert _one_message(app, "https://push.public.example/p") == "failed"
        assert len(connected) == 1 and raw.connections == 1


def test_a_reply_head_past_the_cap_is_not_read(make_app: Any) -> None:
    huge = b"HTTP/1.1 201 Created\r\nX-Pad: " + b"a" * (1 << 20) + b"\r\n\r\n"
    with raw_service(reply=huge) as raw:
        app, _ = _pinned_app(make_app, raw, push_max_reply_bytes=4096, push_attempts=1)
        assert _one_message(app, "https://push.public.example/p") == "retry"


def test_a_message_has_one_deadline_however_the_service_drips(make_app: Any) -> None:
    """A reply sent a byte at a time never times out a single read; the message's deadline
    ends it all the same (a quarter second here)."""
    with raw_service("drip") as raw:
        app, _ = _pinned_app(make_app, raw, push_attempts=1)
        assert _one_message(app, "https://push.public.example/p", deadline=0.25) == "retry"
        assert raw.connections == 1


def test_a_push_service_that_never_answers_delays_no_move_and_no_route(make_app: Any) -> None:
    """Twenty devices on a push service that takes connections and never answers, while the
    game goes on: at most ``push_workers`` messages are in flight, the queue stays bounded (the
    rest are dropped and counted), no database worker thread is held by push, and every move
    and route answers."""
    with raw_service("blackhole") as hole:
        app = make_app(
            push_allow_loopback_http=True,
            push_workers=2,
            push_queue=4,
            push_deadline_seconds=3600,
        )
        with TestClient(app) as tc:
            ada, ben = new_player(tc, "Ada"), new_player(tc, "Ben")
            for who in (ada, ben):
                for n in range(10):
                    r = subscribe(tc, who, f"{hole.origin}/push/{who.name}{n}")
                    assert r.status_code == 201, r.text
            t = open_game(tc, [ada, ben], {"mode": "live"})
            hole.wait_for_open(2)
            for _ in range(3):  # moves go on while both send slots hang
                end_turn(tc, t["id"], ada)
                end_turn(tc, t["id"], ben)
                assert tc.get("/api/health").status_code == 200
                assert tc.get("/api/tables", headers=ada.headers).status_code == 200
            delivery = app.state.push.delivery

            async def held_database_threads() -> float:
                return float(to_thread.current_default_thread_limiter().borrowed_tokens)

            tc.portal.call(app.state.push.inbox.drained)  # its look-ups of the moves are done
            tc.portal.call(app.state.bots.idle)
            assert tc.portal.call(held_database_threads) == 0
            assert hole.open_now == 2 and hole.most_open == 2  # never more than the workers
            assert delivery.waiting <= 4 and delivery.dropped > 0
            assert end_turn(tc, t["id"], ada)

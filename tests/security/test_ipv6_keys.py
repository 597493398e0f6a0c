"""Per-address limits count an IPv6 client as its /64 (one subscriber's network) and an
IPv4-mapped address as its IPv4 address: a client cannot step to a fresh allowance by sending
from the next address of its own network. One function (app/ratelimit/address.py) is used by
the rate limits and the socket caps alike."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from app.ratelimit.address import address_key
from tests.conftest import make_settings, new_player


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2:0:0:0:9", "2001:db8:1:2::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("fe80::1%eth0", "fe80::/64"),
        ("testclient", "testclient"),
    ],
)
def test_an_address_is_counted_as_its_network(host: str, key: str) -> None:
    assert address_key(host) == key


def test_two_networks_are_two_keys() -> None:
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")


Make = Callable[[str], TestClient]


@pytest.fixture
def make(database_url: str, tmp_path: Path) -> Iterator[Make]:
    """``make(host)``: a client from that address of one app with small per-address limits
    (one app, started once: every client sends on the first one's event loop)."""
    from tests.conftest import wipe

    wipe(database_url)
    app = create_app(
        make_settings(
            database_url,
            tmp_path,
            rate_profile_create="3/hour",
            rate_invite_misses="3/minute",
            ws_max_per_address=2,
        )
    )
    clients: list[TestClient] = []

    def client(host: str) -> TestClient:
        c = TestClient(app, client=(host, 40000))
        if clients:
            c.portal = clients[0].portal  # the app's one loop (its tasks are bound to it)
        else:
            c.__enter__()  # the lifespan, once
        clients.append(c)
        return c

    yield client
    if clients:
        clients[0].__exit__(None, None, None)
    app.state.db.dispose()


def test_new_profiles_from_one_ipv6_network_share_one_allowance(make: Make) -> None:
    codes = []
    for n in range(4):
        c = make(f"2001:db8:7:7::{n + 1:x}")
        codes.append(c.post("/api/profiles", json={"name": f"P{n}"}).status_code)
    assert codes == [201, 201, 201, 429]
    other = make("2001:db8:7:8::1")  # another network: its own allowance
    assert other.post("/api/profiles", json={"name": "Q"}).status_code == 201


def test_an_ipv4_client_seen_as_ipv4_mapped_ipv6_is_one_client(make: Make) -> None:
    codes = []
    for host in ("192.0.2.9", "::ffff:192.0.2.9", "::ffff:c000:209", "192.0.2.9"):
        codes.append(make(host).post("/api/profiles", json={"name": "P"}).status_code)
    assert codes == [201, 201, 201, 429]
    assert make("192.0.2.10").post("/api/profiles", json={"name": "Q"}).status_code == 201


def test_invite_guesses_from_one_ipv6_network_share_one_allowance(make: Make) -> None:
    home = make("2001:db8:9::1")
    host = new_player(home, "Host")
    t = home.post("/api/tables", json={"seats": 2}, headers=host.headers).json()
    codes = []
    for n in range(4):
        c = make(f"2001:db8:5:5::{n + 1:x}")
        codes.append(c.get(f"/api/tables/{t['id']}?invite=wrong{n}").status_code)
    assert codes == [404, 404, 404, 429]


def test_sockets_from_one_ipv6_network_share_the_per_address_cap(make: Make) -> None:
    home = make("2001:db8:9::1")
    ann = new_player(home, "Ann")
    t = home.post("/api/tables", json={"seats": 2}, headers=ann.headers).json()
    url = f"/ws/tables/{t['id']}"
    clients = [make(f"2001:db8:6:6::{n + 1:x}") for n in range(3)]
    a = clients[0].websocket_connect(url, headers=ann.headers)
    b = clients[1].websocket_connect(url, headers=ann.headers)
    with a as wa, b as wb:
        assert wa.receive_json()["type"] == "welcome"
        assert wb.receive_json()["type"] == "welcome"
        with clients[2].websocket_connect(url, headers=ann.headers) as wc:
            got = wc.receive_json()
            assert got["type"] == "error" and got["code"] == "too_many_sockets", got
            assert got["per"] == "address"
            with pytest.raises(WebSocketDisconnect):
                wc.receive_json()

"""Guessing stays infeasible and a person with the right code gets in.

A neighbour's wrong guesses from the same address use up the address's misses; a newcomer with
the right code still gets in, while the target's own misses (per table; per kind of code for
recovery and add-a-device codes) last. Past those, callers out of misses of their own wait at
that target only — never a whole address, never another table. Misses of one kind of code never
block another kind."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests.conftest import make_settings, wipe

Make = Callable[..., TestClient]


@pytest.fixture
def make(database_url: str, tmp_path: Path) -> Iterator[Make]:
    """``make(address)``: a client from that address of one app with small guessing limits:
    3 misses a minute per address or profile, 6 per table from callers out of their own."""
    from app.main import create_app

    wipe(database_url)
    settings = make_settings(
        database_url,
        tmp_path,
        rate_invite_misses="3/minute",
        rate_invite_target_misses="6/minute",
        rate_recover_misses="3/minute",
        rate_recover_target_misses="6/minute",
        rate_device_code_misses="3/minute",
        rate_device_code_target_misses="6/minute",
    )
    application = create_app(settings, clock=ManualClock(start=1_800_000_000.0))
    clients: list[TestClient] = []

    def client(address: str) -> TestClient:
        c = TestClient(application, client=(address, 40000))
        c.__enter__()
        clients.append(c)
        return c

    yield client
    for c in clients:
        c.__exit__(None, None, None)
    application.state.db.dispose()


def profile(c: TestClient, name: str) -> dict[str, Any]:
    r = c.post("/api/profiles", json={"name": name})
    assert r.status_code == 201, r.text
    c.cookies.clear()
    body = r.json()
    return {
        "headers": {"Authorization": f"Bearer {body['token']}"},
        "recovery": body["recovery_code"],
    }


def table(c: TestClient, host: dict[str, Any]) -> dict[str, Any]:
    r = c.post("/api/tables", json={"seats": 3}, headers=host["headers"])
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def test_a_newcomer_with_the_right_invite_gets_in_after_a_neighbours_wrong_guesses(
    make: Make,
) -> None:
    home, cafe = make("10.1.0.1"), make("10.2.0.1")
    ann = profile(home, "Ann")
    t = table(home, ann)
    eve, sam = profile(home, "Eve"), profile(home, "Sam")  # made elsewhere: no count at the café
    for n in range(3):
        r = cafe.get(f"/api/tables/{t['id']}", params={"invite": f"W{n}"}, headers=eve["headers"])
        assert r.status_code == 404
    r = cafe.get(f"/api/tables/{t['id']}", params={"invite": "W9"}, headers=eve["headers"])
    assert r.status_code == 429  # the guesser waits
    # Sam, at the same café, with the right code: he looks, joins and opens the socket.
    r = cafe.get(
        f"/api/tables/{t['id']}", params={"invite": t["invite_code"]}, headers=sam["headers"]
    )
    assert r.status_code == 200, r.text
    r = cafe.post(
        f"/api/tables/{t['id']}/join",
        json={"invite_code": t["invite_code"]},
        headers=sam["headers"],
    )
    assert r.status_code == 200, r.text
    sam_ws = cafe.websocket_connect(
        f"/ws/tables/{t['id']}?invite={t['invite_code']}", headers=sam["headers"]
    )
    with sam_ws as ws:
        assert ws.receive_json()["type"] == "welcome"


def test_a_tables_misses_bound_the_guessing_of_callers_out_of_their_own(make: Make) -> None:
    home, cafe, elsewhere = make("10.1.0.1"), make("10.2.0.1"), make("10.3.0.1")
    ann = profile(home, "Ann")
    t, other = table(home, ann), table(home, ann)
    eve, sam = profile(home, "Eve"), profile(home, "Sam")
    misses = 0
    for n in range(3):  # the café's own misses
        r = cafe.get(f"/api/tables/{t['id']}", params={"invite": f"W{n}"})
        assert r.status_code == 404
        misses += 1
    while misses < 6:  # out of its own: each further miss a 429, counted for the table
        r = cafe.get(
            f"/api/tables/{t['id']}", params={"invite": f"V{misses}"}, headers=eve["headers"]
        )
        assert r.status_code == 429
        misses += 1
    # The table took 6 misses: the café (out of its own) now waits there even with the code...
    r = cafe.get(
        f"/api/tables/{t['id']}", params={"invite": t["invite_code"]}, headers=sam["headers"]
    )
    assert r.status_code == 429
    assert int(r.headers["retry-after"]) >= 1
    # ...but not at another table, and nobody with misses left waits anywhere.
    r = cafe.get(
        f"/api/tables/{other['id']}",
        params={"invite": other["invite_code"]},
        headers=sam["headers"],
    )
    assert r.status_code == 200
    r = elsewhere.get(f"/api/tables/{t['id']}", params={"invite": t["invite_code"]})
    assert r.status_code == 200
    # The host is never locked out of her own table.
    assert cafe.get(f"/api/tables/{t['id']}", headers=ann["headers"]).status_code == 200


def test_wrong_device_codes_never_block_a_right_recovery_code(make: Make) -> None:
    home, cafe = make("10.1.0.1"), make("10.2.0.1")
    ann = profile(home, "Ann")
    for n in range(4):
        r = cafe.post("/api/profiles/devices/add", json={"code": f"ZZZZ-ZZZ{n + 2}"})
        assert r.status_code == (404 if n < 3 else 429)
    r = cafe.post("/api/profiles/recover", json={"code": ann["recovery"]})
    assert r.status_code == 200, r.text


def test_a_right_recovery_code_gets_in_from_an_address_out_of_misses(make: Make) -> None:
    home, cafe, elsewhere = make("10.1.0.1"), make("10.2.0.1"), make("10.3.0.1")
    ann = profile(home, "Ann")
    for n in range(4):
        r = cafe.post("/api/profiles/recover", json={"code": f"0000-0000-0000-000{n}"})
        assert r.status_code == (404 if n < 3 else 429)
    r = cafe.post("/api/profiles/recover", json={"code": ann["recovery"]})
    assert r.status_code == 200, r.text
    code = r.json()["recovery_code"]
    # Recovery codes name no target: every recovery code together takes the misses of callers
    # out of their own (6 here); past them the café waits, even with the right code...
    for n in range(2):
        r = cafe.post("/api/profiles/recover", json={"code": f"1111-0000-0000-000{n}"})
        assert r.status_code == 429
    assert cafe.post("/api/profiles/recover", json={"code": code}).status_code == 429
    # ...and an address with misses of its own left does not.
    r = elsewhere.post("/api/profiles/recover", json={"code": code})
    assert r.status_code == 200, r.text

"""Moves over HTTP have a rate per profile, as the socket has a token bucket per socket; and
every route that reads an invite code (the hint and the moves too) reads it through the
guessing limit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests.conftest import Player, make_settings, new_player, wipe


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(start=1_800_000_000.0)  # a minute boundary


@pytest.fixture
def client(database_url: str, tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    from app.main import create_app

    wipe(database_url)
    settings = make_settings(
        database_url, tmp_path, rate_http_moves="3/minute", rate_invite_misses="3/minute"
    )
    application = create_app(settings, clock=clock)
    with TestClient(application) as c:
        yield c
    application.state.db.dispose()


def started(client: TestClient, ann: Player, bob: Player) -> dict[str, Any]:
    body = {"seats": 2, "options": {"start_player": 0}}
    t = client.post("/api/tables", json=body, headers=ann.headers).json()
    r = client.post(
        f"/api/tables/{t['id']}/join", json={"invite_code": t["invite_code"]}, headers=bob.headers
    )
    assert r.status_code == 200, r.text
    assert client.post(f"/api/tables/{t['id']}/start", headers=ann.headers).status_code == 200
    return t  # type: ignore[no-any-return]


def test_moves_over_http_have_a_rate_per_profile(client: TestClient, clock: ManualClock) -> None:
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    t = started(client, ann, bob)
    url = f"/api/tables/{t['id']}/moves"
    stale = {"move": {"kind": "end_turn"}, "expected_version": 99, "move_id": "x"}
    for _ in range(3):
        assert client.post(url, json=stale, headers=ann.headers).status_code == 409
    r = client.post(url, json=stale, headers=ann.headers)
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(r.headers["retry-after"]) <= 60
    # Another profile has its own rate; the window passes on the injected clock.
    assert client.post(url, json=stale, headers=bob.headers).status_code == 409
    clock.advance(60)
    game = client.get(f"/api/tables/{t['id']}/game", headers=ann.headers).json()
    body = {"move": game["legal_moves"][0], "expected_version": game["version"], "move_id": "m"}
    assert client.post(url, json=body, headers=ann.headers).status_code == 200


@pytest.mark.parametrize("route", ["hint", "moves"])
def test_wrong_invite_codes_cost_on_the_hint_and_the_moves(client: TestClient, route: str) -> None:
    ann, bob, eve = (new_player(client, n) for n in ("Ann", "Bob", "Eve"))
    t = started(client, ann, bob)

    def attempt(n: int) -> Any:
        if route == "hint":
            return client.get(
                f"/api/tables/{t['id']}/hint", params={"invite": f"W{n}"}, headers=eve.headers
            )
        body = {"move": {"kind": "end_turn"}, "expected_version": 0, "move_id": f"e{n}"}
        return client.post(
            f"/api/tables/{t['id']}/moves",
            params={"invite": f"W{n}"},
            json=body,
            headers=eve.headers,
        )

    for n in range(3):
        assert attempt(n).status_code == 404
    r = attempt(9)
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"

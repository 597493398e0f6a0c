"""Sessions a person controls: tokens expire (on the injected clock), renew by use, carry the
profile's generation (sign out everywhere and recovery cut earlier tokens off, on the socket
too), and a legacy token (no issue time) is swapped for a dated one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.clock import ManualClock
from tests.conftest import make_settings, wipe

DAY = 86400.0


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def timed(database_url: str, tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    """The app on both databases, its clock in the test's hand: 30-day sessions, renewed after
    a day of age."""
    from app.main import create_app

    wipe(database_url)
    settings = make_settings(database_url, tmp_path, session_days=30, session_renew_hours=24)
    application = create_app(settings, clock=clock)
    with TestClient(application) as c:
        yield c
    application.state.db.dispose()


def _new(c: TestClient, name: str = "Ann") -> dict[str, Any]:
    r = c.post("/api/profiles", json={"name": name})
    assert r.status_code == 201, r.text
    c.cookies.clear()
    return dict(r.json())


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_token_expires_after_the_session_time(timed: TestClient, clock: ManualClock) -> None:
    ann = _new(timed)
    clock.advance(29 * DAY)
    assert timed.get("/api/profiles/me", headers=_bearer(ann["token"])).status_code == 200
    timed.cookies.clear()
    clock.advance(2 * DAY)  # 31 days after issue; the renewed one (29 days) is still good
    r = timed.get("/api/profiles/me", headers=_bearer(ann["token"]))
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "unauthenticated"


def test_a_token_in_use_is_renewed(timed: TestClient, clock: ManualClock) -> None:
    ann = _new(timed)
    # Young token: nothing renewed.
    young = timed.get("/api/profiles/me", headers=_bearer(ann["token"]))
    assert "emara-renewed-token" not in young.headers and "set-cookie" not in young.headers
    clock.advance(2 * DAY)
    r = timed.get("/api/profiles/me", headers=_bearer(ann["token"]))
    assert r.status_code == 200
    fresh = r.headers["emara-renewed-token"]
    assert fresh != ann["token"]
    assert f"emara_token={fresh}" in r.headers["set-cookie"]
    assert r.headers["cache-control"] == "no-store"
    timed.cookies.clear()
    # Past the first token's lifetime, the renewed one goes on; the old one is refused.
    clock.advance(29 * DAY)
    assert timed.get("/api/profiles/me", headers=_bearer(ann["token"])).status_code == 401
    assert timed.get("/api/profiles/me", headers=_bearer(fresh)).status_code == 200


def test_renewal_by_cookie_keeps_a_browser_signed_in(timed: TestClient, clock: ManualClock) -> None:
    timed.post("/api/profiles", json={"name": "Ann"})  # the cookie jar keeps the token
    for _ in range(6):  # half a year of weekly visits
        clock.advance(7 * DAY)
        assert timed.get("/api/profiles/me").status_code == 200
    clock.advance(31 * DAY)  # then a month away
    assert timed.get("/api/profiles/me").status_code == 401


def test_a_token_from_the_future_is_refused(timed: TestClient, clock: ManualClock) -> None:
    ann = _new(timed)
    clock.advance(-DAY)
    assert timed.get("/api/profiles/me", headers=_bearer(ann["token"])).status_code == 401


def test_sign_out_everywhere_closes_the_socket_door(timed: TestClient) -> None:
    ann = _new(timed)
    t = timed.post("/api/tables", json={"seats": 2}, headers=_bearer(ann["token"]))
    assert t.status_code == 201, t.text
    url = f"/ws/tables/{t.json()['id']}"
    with timed.websocket_connect(url, headers=_bearer(ann["token"])) as ws:
        assert ws.receive_json()["type"] == "welcome"
    fresh = timed.post("/api/profiles/signout-everywhere", headers=_bearer(ann["token"]))
    assert fresh.status_code == 200
    timed.cookies.clear()
    with timed.websocket_connect(url, headers=_bearer(ann["token"])) as ws:
        frame = ws.receive_json()
        assert frame["type"] == "error" and frame["code"] == "unauthenticated"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    with timed.websocket_connect(url, headers=_bearer(fresh.json()["token"])) as ws:
        assert ws.receive_json()["type"] == "welcome"


def test_recovery_signs_in_this_device_and_tells_the_others(timed: TestClient) -> None:
    """A recovery code signs in the new device; the earlier ones stay signed in and are told
    once ("not you? sign out everywhere") until they say it was them."""
    ann = _new(timed)
    old_token = ann["token"]
    r = timed.post("/api/profiles/recover", json={"code": ann["recovery_code"]})
    assert r.status_code == 200
    timed.cookies.clear()
    me = timed.get("/api/profiles/me", headers=_bearer(old_token))
    assert me.status_code == 200
    assert me.json()["recovered_elsewhere"]["device"]
    new = timed.get("/api/profiles/me", headers=_bearer(r.json()["token"]))
    assert new.status_code == 200 and new.json()["recovered_elsewhere"] is None
    ack = timed.post("/api/profiles/me/devices/acknowledge", headers=_bearer(old_token))
    assert ack.status_code == 204
    timed.cookies.clear()
    again = timed.get("/api/profiles/me", headers=_bearer(old_token)).json()
    assert again["recovered_elsewhere"] is None


def test_signing_out_everywhere_twice_leaves_only_the_last_token(timed: TestClient) -> None:
    ann = _new(timed)
    first = timed.post("/api/profiles/signout-everywhere", headers=_bearer(ann["token"]))
    timed.cookies.clear()
    second = timed.post("/api/profiles/signout-everywhere", headers=_bearer(first.json()["token"]))
    timed.cookies.clear()
    tokens = [ann["token"], first.json()["token"], second.json()["token"]]
    codes = [timed.get("/api/profiles/me", headers=_bearer(t)).status_code for t in tokens]
    assert codes == [401, 401, 200]


def test_one_code_spent_twice_at_once_opens_one_session(timed: TestClient) -> None:
    """Two devices racing with the same recovery code: exactly one wins."""
    import asyncio

    from app.errors import BadRecoveryCode

    ann = _new(timed)
    svc = timed.app.state.profiles  # type: ignore[attr-defined]

    async def race() -> list[Any]:
        return list(
            await asyncio.gather(
                *(svc.recover(ann["recovery_code"]) for _ in range(4)), return_exceptions=True
            )
        )

    results = asyncio.run(race())
    won = [r for r in results if not isinstance(r, BaseException)]
    assert len(won) == 1, results
    assert all(isinstance(r, BadRecoveryCode) for r in results if r not in won)
    r = timed.post("/api/profiles/recover", json={"code": won[0].recovery_code})
    assert r.status_code == 200

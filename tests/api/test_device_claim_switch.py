"""An add-a-device code or link, or a recovery code, opened in a browser signed in as another
profile: refused with ``409 signed_in_as_other`` (both names), nothing changed and the code
still good; sent again with ``"switch": true`` it signs the browser in as the code's profile.
The same profile, or no valid session, goes through at once. On both databases."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests.conftest import Player, make_settings, wipe

COOKIE = "emara_token"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def app(database_url: str, tmp_path: Path, clock: ManualClock) -> Iterator[Any]:
    from app.main import create_app

    wipe(database_url)
    application = create_app(make_settings(database_url, tmp_path), clock=clock)
    yield application
    application.state.db.dispose()


def signed_in_as(client: TestClient, who: Player | None) -> None:
    """This browser's cookie: ``who``'s token, or none."""
    client.cookies.clear()
    if who is not None:
        client.cookies.set(COOKIE, who.token)


def me(client: TestClient) -> Any:
    r = client.get("/api/profiles/me")
    assert r.status_code == 200, r.text
    return r.json()["id"]


def device_code(client: TestClient, who: Player) -> str:
    r = client.post("/api/profiles/me/devices/code", headers=who.headers)
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def devices(client: TestClient, who: Player) -> int:
    return len(client.get("/api/profiles/me/devices", headers=who.headers).json()["devices"])


def test_a_device_code_of_another_profile_asks_first_and_switches_only_when_told(
    client: TestClient, ann: Player, bob: Player
) -> None:
    code = device_code(client, bob)
    before = devices(client, bob)
    signed_in_as(client, ann)
    r = client.post("/api/profiles/devices/add", json={"code": code})
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert error["code"] == "signed_in_as_other"
    assert error["signed_in_as"] == "Ann" and error["link_profile"] == "Bob"
    assert set(error) == {"code", "message", "signed_in_as", "link_profile"}  # no id, no secret
    assert "set-cookie" not in r.headers
    assert me(client) == ann.id  # still Ann
    assert devices(client, bob) == before  # no session opened for Bob
    # Told to switch: the same code (not spent by the refusal) signs this browser in as Bob.
    r = client.post("/api/profiles/devices/add", json={"code": code, "switch": True})
    assert r.status_code == 200, r.text
    assert r.json()["id"] == bob.id and COOKIE in r.cookies
    assert me(client) == bob.id
    assert devices(client, bob) == before + 1
    # Spent now, once.
    r = client.post("/api/profiles/devices/add", json={"code": code, "switch": True})
    assert r.status_code == 404 and r.json()["error"]["code"] == "bad_device_code"


def test_a_bearer_token_of_another_profile_is_asked_too(
    client: TestClient, ann: Player, bob: Player
) -> None:
    code = device_code(client, bob)
    signed_in_as(client, None)
    r = client.post("/api/profiles/devices/add", json={"code": code}, headers=ann.headers)
    assert r.status_code == 409 and r.json()["error"]["signed_in_as"] == "Ann"
    r = client.post("/api/profiles/devices/add", json={"code": code})  # signed out: at once
    assert r.status_code == 200 and r.json()["id"] == bob.id


def test_the_same_profile_or_no_valid_session_goes_through_at_once(
    client: TestClient, ann: Player, bob: Player
) -> None:
    signed_in_as(client, ann)
    r = client.post("/api/profiles/devices/add", json={"code": device_code(client, ann)})
    assert r.status_code == 200 and r.json()["id"] == ann.id
    client.cookies.clear()
    client.cookies.set(COOKIE, "not-a-token")
    r = client.post("/api/profiles/devices/add", json={"code": device_code(client, bob)})
    assert r.status_code == 200 and r.json()["id"] == bob.id


def test_a_wrong_code_is_still_a_wrong_code_and_switch_must_be_a_boolean(
    client: TestClient, ann: Player
) -> None:
    signed_in_as(client, ann)
    r = client.post("/api/profiles/devices/add", json={"code": "ABCD-EFGH"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "bad_device_code"
    r = client.post("/api/profiles/devices/add", json={"code": "ABCD-EFGH", "switch": "yes"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "malformed"
    assert me(client) == ann.id


def test_a_recovery_code_of_another_profile_asks_first_and_is_not_spent(
    client: TestClient, ann: Player, bob: Player
) -> None:
    signed_in_as(client, ann)
    r = client.post("/api/profiles/recover", json={"code": bob.recovery_code})
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert (error["code"], error["signed_in_as"], error["link_profile"]) == (
        "signed_in_as_other",
        "Ann",
        "Bob",
    )
    assert "recovery_code" not in r.text and "set-cookie" not in r.headers
    assert me(client) == ann.id
    r = client.post("/api/profiles/recover", json={"code": bob.recovery_code, "switch": True})
    assert r.status_code == 200 and r.json()["id"] == bob.id
    assert r.json()["recovery_code"] != bob.recovery_code
    assert me(client) == bob.id


def test_a_switch_hands_out_only_the_new_session_not_a_renewal_of_the_old(
    client: TestClient, ann: Player, bob: Player, clock: ManualClock
) -> None:
    clock.advance(25 * 3600)  # Ann's token is due for renewal on its next use
    # Bob confirms it is him (his sign-in is a day old) before he asks for a device code.
    r = client.post(
        "/api/profiles/me/confirm", json={"code": bob.recovery_code}, headers=bob.headers
    )
    assert r.status_code == 200, r.text
    code = device_code(client, bob)
    signed_in_as(client, ann)
    r = client.post("/api/profiles/devices/add", json={"code": code, "switch": True})
    assert r.status_code == 200, r.text
    assert "emara-renewed-token" not in r.headers  # Ann's renewed token is not handed out
    cookies = r.headers.get_list("set-cookie")
    assert len(cookies) == 1 and cookies[0].startswith(f"{COOKIE}={r.json()['token']};")
    assert me(client) == bob.id

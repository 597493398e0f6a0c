"""My devices, on both databases: a signed-in device adds another with a short code (once, for
10 minutes; its link and QR code carry it), both stay signed in and both play; each device is
listed with a name from its browser and can be signed out alone; a recovery signs in one more
device and the others are told, still signed in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests.conftest import make_settings, wipe

PHONE_UA = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0 Mobile Safari/537.36"
)
LAPTOP_UA = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"


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


class Device:
    """One browser: the app's one test client, each request with this browser's User-Agent and
    none of another device's cookies."""

    def __init__(self, client: TestClient, ua: str) -> None:
        self.client, self.ua = client, ua
        self.cookies = client.cookies

    def _call(self, method: str, path: str, **kw: Any) -> Any:
        self.client.cookies.clear()
        headers = {"User-Agent": self.ua, **kw.pop("headers", {})}
        return self.client.request(method, path, headers=headers, **kw)

    def get(self, path: str, **kw: Any) -> Any:
        return self._call("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> Any:
        return self._call("POST", path, **kw)

    def delete(self, path: str, **kw: Any) -> Any:
        return self._call("DELETE", path, **kw)


@pytest.fixture
def c(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _me(d: Device, token: str) -> int:
    return int(d.get("/api/profiles/me", headers=_auth(token)).status_code)


def test_a_device_is_added_by_code_and_both_stay_signed_in_and_play(c: TestClient) -> None:
    laptop, phone = Device(c, LAPTOP_UA), Device(c, PHONE_UA)
    ann = laptop.post("/api/profiles", json={"name": "Ann"}).json()
    bob = laptop.post("/api/profiles", json={"name": "Bob"}).json()
    shown = laptop.post("/api/profiles/me/devices/code", headers=_auth(ann["token"]))
    assert shown.status_code == 201, shown.text
    code = shown.json()
    assert len(code["code"].replace("-", "")) == 8
    assert code["link"].endswith("/add-device#" + code["code"])  # in the fragment: no log
    assert code["qr_svg"].startswith("data:image/svg+xml;")
    assert "%3Csvg" in code["qr_svg"] and "2000%2Fsvg" in code["qr_svg"]  # a namespaced svg
    added = phone.post("/api/profiles/devices/add", json={"code": code["code"].lower()})
    assert added.status_code == 200, added.text
    assert added.json()["id"] == ann["id"]
    phone_token = added.json()["token"]
    assert "emara_token=" in added.headers["set-cookie"]
    # the code works once
    again = phone.post("/api/profiles/devices/add", json={"code": code["code"]})
    assert again.status_code == 404 and again.json()["error"]["code"] == "bad_device_code"
    # both devices are signed in, each its own session
    assert _me(laptop, ann["token"]) == 200 and _me(phone, phone_token) == 200
    listed = laptop.get("/api/profiles/me/devices", headers=_auth(ann["token"])).json()
    names = sorted((d["device"], d["current"], d["how"]) for d in listed["devices"])
    assert names == [
        ("Chrome on Android", False, "added"),
        ("Firefox on Linux", True, "created"),
    ]
    # both play a move at Ann's seat
    t = laptop.post(
        "/api/tables",
        json={"seats": 2, "options": {"start_player": 0}},
        headers=_auth(ann["token"]),
    ).json()
    laptop.post(
        f"/api/tables/{t['id']}/join",
        json={"invite_code": t["invite_code"]},
        headers=_auth(bob["token"]),
    )
    assert laptop.post(f"/api/tables/{t['id']}/start", headers=_auth(ann["token"])).is_success
    for n, (d, token) in enumerate(((laptop, ann["token"]), (phone, phone_token))):
        g = d.get(f"/api/tables/{t['id']}/game", headers=_auth(token)).json()
        if not g["legal_moves"]:
            break
        body = {
            "move": g["legal_moves"][0],
            "expected_version": g["version"],
            "move_id": f"m{n}",
        }
        r = d.post(f"/api/tables/{t['id']}/moves", json=body, headers=_auth(token))
        assert r.status_code == 200, r.text


def test_a_device_code_expires_after_ten_minutes(c: TestClient, clock: ManualClock) -> None:
    laptop, phone = Device(c, LAPTOP_UA), Device(c, PHONE_UA)
    ann = laptop.post("/api/profiles", json={"name": "Ann"}).json()
    code = laptop.post("/api/profiles/me/devices/code", headers=_auth(ann["token"])).json()
    clock.advance(601)
    late = phone.post("/api/profiles/devices/add", json={"code": code["code"]})
    assert late.status_code == 404 and late.json()["error"]["code"] == "bad_device_code"
    assert "set-cookie" not in late.headers


def test_one_device_is_signed_out_from_the_list_and_the_others_stay(c: TestClient) -> None:
    laptop, phone = Device(c, LAPTOP_UA), Device(c, PHONE_UA)
    ann = laptop.post("/api/profiles", json={"name": "Ann"}).json()
    code = laptop.post("/api/profiles/me/devices/code", headers=_auth(ann["token"])).json()
    phone_token = phone.post("/api/profiles/devices/add", json={"code": code["code"]}).json()[
        "token"
    ]
    listed = laptop.get("/api/profiles/me/devices", headers=_auth(ann["token"])).json()
    other = next(d for d in listed["devices"] if not d["current"])
    out = laptop.delete(f"/api/profiles/me/devices/{other['id']}", headers=_auth(ann["token"]))
    assert out.status_code == 204
    assert _me(phone, phone_token) == 401
    assert _me(laptop, ann["token"]) == 200
    left = laptop.get("/api/profiles/me/devices", headers=_auth(ann["token"])).json()
    assert [d["current"] for d in left["devices"]] == [True]
    # another profile's device cannot be signed out by a stranger
    eve = laptop.post("/api/profiles", json={"name": "Eve"}).json()
    mine = left["devices"][0]["id"]
    r = laptop.delete(f"/api/profiles/me/devices/{mine}", headers=_auth(eve["token"]))
    assert r.status_code == 404
    assert _me(laptop, ann["token"]) == 200


def test_a_recovery_signs_in_a_third_device_and_the_others_are_told(c: TestClient) -> None:
    laptop, phone = Device(c, LAPTOP_UA), Device(c, PHONE_UA)
    tablet = Device(c, "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) Safari/604.1")
    ann = laptop.post("/api/profiles", json={"name": "Ann"}).json()
    code = laptop.post("/api/profiles/me/devices/code", headers=_auth(ann["token"])).json()
    phone_token = phone.post("/api/profiles/devices/add", json={"code": code["code"]}).json()[
        "token"
    ]
    rec = tablet.post("/api/profiles/recover", json={"code": ann["recovery_code"]})
    assert rec.status_code == 200
    for d, token in ((laptop, ann["token"]), (phone, phone_token)):
        me = d.get("/api/profiles/me", headers=_auth(token))
        assert me.status_code == 200
        assert me.json()["recovered_elsewhere"]["device"] == "Safari on iPad"
    assert (
        tablet.get("/api/profiles/me", headers=_auth(rec.json()["token"])).json()[
            "recovered_elsewhere"
        ]
        is None
    )
    listed = laptop.get("/api/profiles/me/devices", headers=_auth(ann["token"])).json()
    assert len(listed["devices"]) == 3

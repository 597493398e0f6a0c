"""Passkeys on an IP address: browsers refuse an IP as the relying party, so the server hands out
no options there. Each passkey route answers ``passkeys_need_host_name`` (a typed error the page
puts in words), naming the same server on ``localhost`` when the address is a loopback one."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.conftest import new_player
from tests.passkeys.conftest import Device

ROUTES = ("register/options", "signin/options", "confirm/options")


def _refusal(tc: TestClient, base: str, route: str, headers: dict[str, str]) -> dict[str, str]:
    r = tc.post(f"{base}/api/passkeys/{route}", headers=headers)
    assert r.status_code == 400, r.text
    error: dict[str, str] = r.json()["error"]
    assert error["code"] == "passkeys_need_host_name"
    return error


@pytest.mark.parametrize(
    ("base", "local"),
    [
        ("http://127.0.0.1:8000", "http://localhost:8000/"),
        ("http://[::1]:8123", "http://localhost:8123/"),
        ("http://192.168.1.20:8000", None),
    ],
)
def test_no_passkey_options_on_an_ip_address(tc: TestClient, base: str, local: str | None) -> None:
    ada = new_player(tc, "Ada")
    for route in ROUTES:
        error = _refusal(tc, base, route, ada.headers)
        assert error.get("open") == local
        assert "host name" in error["message"]
    # The same server on a host name hands them out.
    r = tc.post("http://localhost:8000/api/passkeys/signin/options")
    assert r.status_code == 200 and r.json()["rpId"] == "localhost"


def test_a_public_url_on_an_ip_address_is_refused_too(device: Device) -> None:
    tc = device(public_url="http://127.0.0.1:9000")
    ada = new_player(tc, "Ada")
    error = _refusal(tc, "http://localhost:9000", "register/options", ada.headers)
    assert error["open"] == "http://localhost:9000/"

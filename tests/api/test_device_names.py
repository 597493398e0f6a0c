"""Naming a device in My devices: each device is listed with how it was added, and its person
may give it a name of their own (shown beside the browser's name), change it or forget it. The
name is bounded, printable and NUL-free; another profile's device cannot be named."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import Player


def devices(client: TestClient, who: Player) -> list[dict[str, Any]]:
    r = client.get("/api/profiles/me/devices", headers=who.headers)
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()["devices"]
    return out


def rename(client: TestClient, who: Player, device_id: str, name: Any) -> Any:
    return client.put(
        f"/api/profiles/me/devices/{device_id}/name", json={"name": name}, headers=who.headers
    )


def test_a_device_is_named_renamed_and_forgotten(client: TestClient, ann: Player) -> None:
    [mine] = devices(client, ann)
    assert mine["how"] == "created" and mine["name"] is None
    assert rename(client, ann, mine["id"], "  Kitchen   tablet ").status_code == 204
    assert devices(client, ann)[0]["name"] == "Kitchen tablet"  # spaces folded
    assert rename(client, ann, mine["id"], "Laptop <b>&</b>").status_code == 204
    assert devices(client, ann)[0]["name"] == "Laptop <b>&</b>"  # stored as text, as typed
    assert rename(client, ann, mine["id"], "   ").status_code == 204
    assert devices(client, ann)[0]["name"] is None
    assert rename(client, ann, mine["id"], None).status_code == 204
    assert devices(client, ann)[0]["name"] is None


def test_bad_names_are_refused_and_change_nothing(client: TestClient, ann: Player) -> None:
    [mine] = devices(client, ann)
    assert rename(client, ann, mine["id"], "Phone").status_code == 204
    for bad in ["x" * 41, "a\x00b", "tab\x07bell", 7, ["Phone"]]:
        r = rename(client, ann, mine["id"], bad)
        assert r.status_code == 422, (bad, r.text)
    r = client.put(
        f"/api/profiles/me/devices/{mine['id']}/name",
        json={"name": "Phone", "colour": "red"},
        headers=ann.headers,
    )
    assert r.status_code == 422
    assert devices(client, ann)[0]["name"] == "Phone"
    assert rename(client, ann, mine["id"], "y" * 40).status_code == 204


def test_another_profiles_device_cannot_be_named(
    client: TestClient, ann: Player, bob: Player
) -> None:
    [hers] = devices(client, ann)
    r = rename(client, bob, hers["id"], "Mine now")
    assert r.status_code == 404, r.text
    assert rename(client, bob, "no-such-device", "x").status_code == 404
    assert devices(client, ann)[0]["name"] is None
    signed_out = client.put(f"/api/profiles/me/devices/{hers['id']}/name", json={"name": "x"})
    assert signed_out.status_code == 401

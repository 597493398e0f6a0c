"""Players: create, who am I, tokens by cookie and bearer, recovery on another device."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.conftest import new_player


def test_create_profile_returns_token_and_sets_httponly_cookie(client: TestClient) -> None:
    r = client.post("/api/profiles", json={"name": "  Ann   Smith "})
    assert r.status_code == 201
    body = r.json()
    assert set(body) == {"id", "name", "token", "recovery_code"}
    assert body["name"] == "Ann Smith"
    cookie = r.headers["set-cookie"]
    assert "emara_token=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    # the cookie alone authenticates
    me = client.get("/api/profiles/me")
    assert me.status_code == 200
    assert me.json() == {"id": body["id"], "name": "Ann Smith"}


def test_bearer_token_authenticates(client: TestClient) -> None:
    ann = new_player(client, "Ann")
    r = client.get("/api/profiles/me", headers=ann.headers)
    assert r.json()["id"] == ann.id
    assert "token" not in r.json() and "recovery_code" not in r.json()


def test_without_or_with_bad_token_is_401(client: TestClient) -> None:
    ann = new_player(client, "Ann")
    assert client.get("/api/profiles/me").status_code == 401
    assert client.get("/api/profiles/me").json()["error"]["code"] == "unauthenticated"
    forged = ann.token[:-2] + ("AA" if not ann.token.endswith("AA") else "BB")
    r = client.get("/api/profiles/me", headers={"Authorization": f"Bearer {forged}"})
    assert r.status_code == 401
    client.cookies.set("emara_token", "garbage")
    assert client.get("/api/profiles/me").status_code == 401


def test_recovery_code_gives_a_new_token_for_the_same_profile(client: TestClient) -> None:
    ann = new_player(client, "Ann")
    r = client.post("/api/profiles/recover", json={"code": ann.recovery_code.lower()})
    assert r.status_code == 200
    body = r.json()
    assert body["id"] == ann.id and body["token"] != ann.token
    assert "recovery_code" not in body
    me = client.get("/api/profiles/me", headers={"Authorization": f"Bearer {body['token']}"})
    assert me.json()["id"] == ann.id
    # the old device keeps working
    assert client.get("/api/profiles/me", headers=ann.headers).json()["id"] == ann.id


def test_wrong_recovery_code(client: TestClient) -> None:
    new_player(client, "Ann")
    r = client.post("/api/profiles/recover", json={"code": "0000-0000-0000-0000"})
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "bad_recovery_code"
    assert "set-cookie" not in r.headers


def test_malformed_profile_bodies_are_422(client: TestClient) -> None:
    for body in ({}, {"name": ""}, {"name": "x" * 41}, {"name": "   "}, {"name": 5}, []):
        r = client.post("/api/profiles", json=body)
        assert r.status_code == 422, body
        assert r.json()["error"]["code"] == "malformed"


def test_health(client: TestClient) -> None:
    r = client.get("/api/health")
    assert r.status_code == 200
    assert r.json()["status"] == "ok"
    assert r.json()["database"] in ("sqlite", "postgresql")

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
    assert me.json() == {
        "id": body["id"],
        "name": "Ann Smith",
        "recovered_elsewhere": None,
        "guide": None,
        "notices": [],
    }


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


def test_recovery_code_gives_a_new_token_and_a_new_code(client: TestClient) -> None:
    ann = new_player(client, "Ann")
    r = client.post("/api/profiles/recover", json={"code": ann.recovery_code.lower()})
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {"id", "name", "token", "recovery_code"}
    assert body["id"] == ann.id and body["token"] != ann.token
    assert body["recovery_code"] != ann.recovery_code
    client.cookies.clear()
    me = client.get("/api/profiles/me", headers={"Authorization": f"Bearer {body['token']}"})
    assert me.json()["id"] == ann.id
    # the earlier device stays signed in and is told (to sign out everywhere if it was not them)
    earlier = client.get("/api/profiles/me", headers=ann.headers)
    assert earlier.status_code == 200 and earlier.json()["recovered_elsewhere"]["device"]


def test_a_recovery_code_works_once(client: TestClient) -> None:
    ann = new_player(client, "Ann")
    first = client.post("/api/profiles/recover", json={"code": ann.recovery_code})
    assert first.status_code == 200
    again = client.post("/api/profiles/recover", json={"code": ann.recovery_code})
    assert again.status_code == 404
    assert again.json()["error"]["code"] == "bad_recovery_code"
    assert "set-cookie" not in again.headers
    # the replacement works, once
    new_code = first.json()["recovery_code"]
    second = client.post("/api/profiles/recover", json={"code": new_code})
    assert second.status_code == 200 and second.json()["id"] == ann.id
    assert client.post("/api/profiles/recover", json={"code": new_code}).status_code == 404
    # the device of the first recovery stays signed in, and is told of the second
    client.cookies.clear()
    old = {"Authorization": f"Bearer {first.json()['token']}"}
    me = client.get("/api/profiles/me", headers=old)
    assert me.status_code == 200 and me.json()["recovered_elsewhere"] is not None


def test_wrong_recovery_code(client: TestClient) -> None:
    new_player(client, "Ann")
    r = client.post("/api/profiles/recover", json={"code": "0000-0000-0000-0000"})
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "bad_recovery_code"
    assert "set-cookie" not in r.headers


def test_malformed_profile_bodies_are_422(client: TestClient) -> None:
    bad: list[object] = [{}, {"name": ""}, {"name": "x" * 41}, {"name": "   "}, {"name": 5}, []]
    bad += [{"name": ["Ann"]}, {"name": True}, {"name": "Ann", "admin": True}]
    for body in bad:
        r = client.post("/api/profiles", json=body)
        assert r.status_code == 422, body
        assert r.json()["error"]["code"] == "malformed"
        assert "set-cookie" not in r.headers
    for body in ({"code": 123}, {"code": 1234567890123456}, {"code": None}, {}):
        r = client.post("/api/profiles/recover", json=body)
        assert r.status_code == 422, body
        assert r.json()["error"]["code"] == "malformed"


def test_strict_bodies_refuse_what_lax_parsing_would_coerce() -> None:
    from pydantic import ValidationError

    from app.profiles.schemas import ProfileIn, RecoverIn

    for model, body in ((ProfileIn, {"name": b"Ann"}), (RecoverIn, {"code": b"ABCD-1234"})):
        try:
            model.model_validate(body)
        except ValidationError:
            continue
        raise AssertionError(f"{model.__name__} coerced {body}")


def test_responses_with_secrets_are_not_stored(client: TestClient) -> None:
    r = client.post("/api/profiles", json={"name": "Ann"})
    assert r.headers["cache-control"] == "no-store"
    me = client.get("/api/profiles/me")
    assert me.status_code == 200 and me.headers["cache-control"] == "no-store"
    code = r.json()["recovery_code"]
    rec = client.post("/api/profiles/recover", json={"code": code})
    assert rec.status_code == 200 and rec.headers["cache-control"] == "no-store"
    out = client.post("/api/profiles/signout-everywhere")
    assert out.status_code == 200 and out.headers["cache-control"] == "no-store"


def test_sign_out_clears_the_cookie(client: TestClient) -> None:
    client.post("/api/profiles", json={"name": "Ann"})
    assert client.get("/api/profiles/me").status_code == 200
    r = client.post("/api/profiles/signout")
    assert r.status_code == 204
    assert "emara_token=" in r.headers["set-cookie"] and "Max-Age=0" in r.headers["set-cookie"]
    assert r.headers["cache-control"] == "no-store"
    assert client.get("/api/profiles/me").status_code == 401


def test_sign_out_everywhere_cuts_off_every_other_token(client: TestClient) -> None:
    ann = new_player(client, "Ann")
    other = client.post("/api/profiles/recover", json={"code": ann.recovery_code}).json()
    client.cookies.clear()
    laptop = {"Authorization": f"Bearer {other['token']}"}
    phone_token = client.post("/api/profiles/signout-everywhere", headers=laptop)
    assert phone_token.status_code == 200
    body = phone_token.json()
    assert set(body) == {"id", "name", "token", "removed_passkeys", "removed_address"}
    assert body["id"] == ann.id and body["removed_passkeys"] == 0
    client.cookies.clear()
    assert client.get("/api/profiles/me", headers=laptop).status_code == 401
    fresh = {"Authorization": f"Bearer {body['token']}"}
    assert client.get("/api/profiles/me", headers=fresh).json()["id"] == ann.id
    # without a session there is nothing to sign out of
    assert client.post("/api/profiles/signout-everywhere").status_code == 401


def test_the_bearer_header_wins_over_the_cookie(client: TestClient) -> None:
    ann = new_player(client, "Ann")
    bob = new_player(client, "Bob")
    client.cookies.set("emara_token", ann.token)
    assert client.get("/api/profiles/me").json()["id"] == ann.id
    assert client.get("/api/profiles/me", headers=bob.headers).json()["id"] == bob.id
    # a bad header is refused even next to a good cookie
    bad = {"Authorization": "Bearer not-a-token"}
    assert client.get("/api/profiles/me", headers=bad).status_code == 401


def test_health(client: TestClient) -> None:
    r = client.get("/api/health")
    assert r.status_code == 200
    assert r.json()["status"] == "ok"
    assert r.json()["database"] in ("sqlite", "postgresql")

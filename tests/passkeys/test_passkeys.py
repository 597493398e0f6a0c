"""Passkeys over HTTP, answered by a software authenticator (real ECDSA P-256 signatures and
"none" attestations): add one, list it, sign in with it on another device (the first stays
signed in), and every refusal: a replayed or expired challenge, another profile's challenge, a
wrong origin, a sign count that goes back, a removed passkey; sign-in options are rate-limited."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests.conftest import Player, new_player
from tests.passkeys.authenticator import Authenticator, unb64url
from tests.passkeys.conftest import ORIGIN, Device, add_passkey, signin_options


def _code(r: Any) -> str:
    return str(r.json()["error"]["code"])


def test_a_passkey_added_signs_in_on_another_device_and_the_first_stays_signed_in(
    device: Device, tc: TestClient, ada: Player, key: Authenticator, clock: ManualClock
) -> None:
    options = tc.post("/api/passkeys/register/options", headers=ada.headers)
    assert options.status_code == 200 and options.headers["cache-control"] == "no-store"
    o = options.json()
    assert o["rp"] == {"id": "testserver", "name": "Crown of Emara"}
    assert o["user"]["name"] == "Ada" and o["excludeCredentials"] == []
    assert unb64url(o["user"]["id"]) != ada.id.encode()  # an opaque handle, not the profile id
    assert ada.id not in o["user"]["id"]
    assert o["authenticatorSelection"]["residentKey"] == "preferred"
    assert o["authenticatorSelection"]["userVerification"] == "preferred"
    assert o["attestation"] == "none" and o["timeout"] == 300_000
    r = tc.post("/api/passkeys/register", json={"credential": key.create(o)}, headers=ada.headers)
    assert r.status_code == 201, r.text
    added = r.json()
    assert added["name"] == "Passkey 1" and added["last_used_at"] is None
    clock.advance(1)
    second = add_passkey(tc, ada, Authenticator(ORIGIN), name="  Laptop ")
    assert second["name"] == "Laptop"
    # The next options exclude both, and the handle stays the profile's.
    again = tc.post("/api/passkeys/register/options", headers=ada.headers).json()
    assert len(again["excludeCredentials"]) == 2 and again["user"]["id"] == o["user"]["id"]

    listed = tc.get("/api/passkeys", headers=ada.headers)
    assert listed.status_code == 200
    rows = listed.json()["passkeys"]
    assert [p["name"] for p in rows] == ["Passkey 1", "Laptop"]
    assert all(set(p) == {"id", "name", "created_at", "last_used_at"} for p in rows)

    # A second device, signed out: the passkey signs it in.
    phone = device()
    assert phone.get("/api/profiles/me").status_code == 401
    clock.advance(60)
    r = phone.post("/api/passkeys/signin", json={"credential": key.get(signin_options(phone))})
    assert r.status_code == 200, r.text
    assert r.json() == {"id": ada.id, "name": "Ada"}
    assert "emara_token=" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]
    me = phone.get("/api/profiles/me")
    assert me.status_code == 200 and me.json()["id"] == ada.id
    # The first device's session is still good.
    assert tc.get("/api/profiles/me", headers=ada.headers).status_code == 200
    used = tc.get("/api/passkeys", headers=ada.headers).json()["passkeys"][0]
    assert used["last_used_at"] is not None


def test_a_challenge_works_once_and_runs_out_after_five_minutes(
    device: Device, tc: TestClient, ada: Player, key: Authenticator, clock: ManualClock
) -> None:
    add_passkey(tc, ada, key)
    phone = device()
    options = signin_options(phone)
    first = key.get(options)
    assert phone.post("/api/passkeys/signin", json={"credential": first}).status_code == 200
    # The same answer again, and a new answer to the same challenge: both refused.
    r = phone.post("/api/passkeys/signin", json={"credential": first})
    assert r.status_code == 400 and _code(r) == "bad_passkey_challenge"
    r = phone.post("/api/passkeys/signin", json={"credential": key.get(options)})
    assert r.status_code == 400 and _code(r) == "bad_passkey_challenge"
    # Expired.
    late = signin_options(phone)
    clock.advance(301)
    r = phone.post("/api/passkeys/signin", json={"credential": key.get(late)})
    assert r.status_code == 400 and _code(r) == "bad_passkey_challenge"
    # A registration's challenge works once too (Ada confirms it's her: her sign-in is old).
    r = tc.post("/api/profiles/me/confirm", json={"code": ada.recovery_code}, headers=ada.headers)
    assert r.status_code == 200, r.text
    o = tc.post("/api/passkeys/register/options", headers=ada.headers).json()
    made = Authenticator(ORIGIN).create(o)
    assert (
        tc.post(
            "/api/passkeys/register", json={"credential": made}, headers=ada.headers
        ).status_code
        == 201
    )
    r = tc.post("/api/passkeys/register", json={"credential": made}, headers=ada.headers)
    assert r.status_code == 400 and _code(r) == "bad_passkey_challenge"


def test_a_registration_challenge_is_its_profiles_and_a_sign_in_challenge_is_not_one(
    tc: TestClient, ada: Player, key: Authenticator
) -> None:
    bob = new_player(tc, "Bob")
    o = tc.post("/api/passkeys/register/options", headers=ada.headers).json()
    r = tc.post("/api/passkeys/register", json={"credential": key.create(o)}, headers=bob.headers)
    assert r.status_code == 400 and _code(r) == "bad_passkey_challenge"
    # A sign-in challenge cannot register a passkey.
    s = signin_options(tc)
    fake = {**o, "challenge": s["challenge"]}
    r = tc.post(
        "/api/passkeys/register",
        json={"credential": Authenticator(ORIGIN).create(fake)},
        headers=ada.headers,
    )
    assert r.status_code == 400 and _code(r) == "bad_passkey_challenge"
    assert tc.get("/api/passkeys", headers=bob.headers).json() == {"passkeys": []}
    assert tc.post("/api/passkeys/register/options").status_code == 401


def test_an_answer_made_for_another_origin_is_refused(
    device: Device, tc: TestClient, ada: Player, key: Authenticator
) -> None:
    o = tc.post("/api/passkeys/register/options", headers=ada.headers).json()
    evil = key.create(o, origin="https://evil.example")
    r = tc.post("/api/passkeys/register", json={"credential": evil}, headers=ada.headers)
    assert r.status_code == 400 and _code(r) == "passkey_refused"
    assert tc.get("/api/passkeys", headers=ada.headers).json() == {"passkeys": []}
    key.credentials.clear()
    add_passkey(tc, ada, key)
    phone = device()
    answer = key.get(signin_options(phone), origin="https://evil.example")
    r = phone.post("/api/passkeys/signin", json={"credential": answer})
    assert r.status_code == 400 and _code(r) == "passkey_refused"
    assert phone.get("/api/profiles/me").status_code == 401
    assert "set-cookie" not in r.headers


def test_a_forged_signature_or_a_sign_count_going_back_is_refused(
    device: Device, tc: TestClient, ada: Player, key: Authenticator
) -> None:
    add_passkey(tc, ada, key)
    phone = device()
    ok = phone.post(
        "/api/passkeys/signin", json={"credential": key.get(signin_options(phone), sign_count=5)}
    )
    assert ok.status_code == 200, ok.text
    # A clone of the authenticator answers with a count below the one seen: refused.
    other = device()
    back = key.get(signin_options(other), sign_count=3)
    r = other.post("/api/passkeys/signin", json={"credential": back})
    assert r.status_code == 400 and _code(r) == "passkey_refused"
    same = key.get(signin_options(other), sign_count=5)
    r = other.post("/api/passkeys/signin", json={"credential": same})
    assert r.status_code == 400 and _code(r) == "passkey_refused"
    assert other.get("/api/profiles/me").status_code == 401
    # A signature by another key for the same credential id: refused.
    forged = key.get(signin_options(other), sign_count=9)
    forged["response"]["signature"] = key.get(signin_options(other), sign_count=10)["response"][
        "signature"
    ]
    r = other.post("/api/passkeys/signin", json={"credential": forged})
    assert r.status_code == 400 and _code(r) == "passkey_refused"
    # Going on upwards still works.
    r = other.post(
        "/api/passkeys/signin", json={"credential": key.get(signin_options(other), sign_count=11)}
    )
    assert r.status_code == 200, r.text


def test_a_removed_passkey_signs_nobody_in(
    device: Device, tc: TestClient, ada: Player, key: Authenticator
) -> None:
    added = add_passkey(tc, ada, key)
    bob = new_player(tc, "Bob")
    # Only its owner removes it.
    assert tc.delete(f"/api/passkeys/{added['id']}", headers=bob.headers).status_code == 404
    r = tc.delete(f"/api/passkeys/{added['id']}", headers=ada.headers)
    assert r.status_code == 204
    assert tc.get("/api/passkeys", headers=ada.headers).json() == {"passkeys": []}
    phone = device()
    r = phone.post("/api/passkeys/signin", json={"credential": key.get(signin_options(phone))})
    assert r.status_code == 404 and _code(r) == "unknown_passkey"
    assert phone.get("/api/profiles/me").status_code == 401


def test_an_answer_naming_another_user_handle_is_refused(
    device: Device, tc: TestClient, ada: Player, key: Authenticator
) -> None:
    add_passkey(tc, ada, key)
    phone = device()
    answer = key.get(signin_options(phone))
    answer["response"]["userHandle"] = "c29tZW9uZS1lbHNl"
    r = phone.post("/api/passkeys/signin", json={"credential": answer})
    assert r.status_code == 400 and _code(r) == "passkey_refused"


def test_sign_in_options_are_rate_limited_per_client_address(
    device: Device, clock: ManualClock
) -> None:
    tc = device("10.0.0.7", rate_passkey_signin="3/minute")
    for _ in range(3):
        assert tc.post("/api/passkeys/signin/options").status_code == 200
    r = tc.post("/api/passkeys/signin/options")
    assert r.status_code == 429 and _code(r) == "rate_limited"
    assert 1 <= int(r.headers["retry-after"]) <= 60
    # Answers count too; another address is not held up.
    r = tc.post("/api/passkeys/signin", json={"credential": {}})
    assert r.status_code == 429
    assert device("10.0.0.8").post("/api/passkeys/signin/options").status_code == 200
    clock.advance(60)
    assert tc.post("/api/passkeys/signin/options").status_code == 200

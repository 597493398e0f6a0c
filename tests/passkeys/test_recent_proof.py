"""Confirm it's you: adding or removing a passkey needs a recent proof on the asking device (its
sign-in, or a re-entered recovery code or passkey, within ``recent_proof_seconds``); a token that
is merely still good is refused with ``403 recent_proof_required`` and nothing changes. A passkey
added is told to the profile's other devices ("not you?"), each dismissing it for itself."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests.conftest import Player, new_player
from tests.passkeys.authenticator import Authenticator, b64url
from tests.passkeys.conftest import ORIGIN, Device, add_passkey, signin_options

PROOF = 300  # the default window (seconds)


def _code(r: Any) -> str:
    return str(r.json()["error"]["code"])


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _mine(tc: TestClient, who: Player) -> list[str]:
    return [p["name"] for p in tc.get("/api/passkeys", headers=who.headers).json()["passkeys"]]


def _second_device(laptop: TestClient, device: Device, who: Player) -> dict[str, str]:
    """Another device of ``who`` signed in by a code from My devices (a sign-in: a proof)."""
    code = laptop.post("/api/profiles/me/devices/code", headers=who.headers).json()["code"]
    phone = device()
    r = phone.post("/api/profiles/devices/add", json={"code": code})
    assert r.status_code == 200, r.text
    phone.cookies.clear()
    return _auth(r.json()["token"])


def test_an_old_sign_in_may_not_add_a_passkey_until_the_recovery_code_is_re_entered(
    device: Device, key: Authenticator, clock: ManualClock
) -> None:
    tc = device(passkey_challenge_seconds=600)
    ada = new_player(tc, "Ada")
    # Creating the profile was a sign-in: a passkey may be added at once.
    add_passkey(tc, ada, key, name="Mine")
    options = tc.post("/api/passkeys/register/options", headers=ada.headers).json()
    clock.advance(PROOF + 1)
    # Still signed in, but the proof is old: neither new options nor the answer are taken.
    assert tc.get("/api/profiles/me", headers=ada.headers).status_code == 200
    r = tc.post("/api/passkeys/register/options", headers=ada.headers)
    assert r.status_code == 403 and _code(r) == "recent_proof_required"
    intruder = Authenticator(ORIGIN)
    r = tc.post(
        "/api/passkeys/register", json={"credential": intruder.create(options)}, headers=ada.headers
    )
    assert r.status_code == 403 and _code(r) == "recent_proof_required"
    assert _mine(tc, ada) == ["Mine"]
    # A wrong code proves nothing (and counts as a miss, like a recovery).
    r = tc.post("/api/profiles/me/confirm", json={"code": "0000-0000"}, headers=ada.headers)
    assert r.status_code == 404 and _code(r) == "bad_recovery_code"
    assert tc.post("/api/passkeys/register/options", headers=ada.headers).status_code == 403
    # The recovery code, re-entered (not used up): allowed for the next five minutes.
    r = tc.post("/api/profiles/me/confirm", json={"code": ada.recovery_code}, headers=ada.headers)
    assert r.status_code == 200, r.text
    assert r.json()["until"] > r.json()["proved_at"]
    add_passkey(tc, ada, Authenticator(ORIGIN), name="Second")
    assert _mine(tc, ada) == ["Mine", "Second"]
    clock.advance(PROOF + 1)
    assert tc.post("/api/passkeys/register/options", headers=ada.headers).status_code == 403
    # The code still works as a recovery code: it was not spent by the confirmation.
    r = device().post("/api/profiles/recover", json={"code": ada.recovery_code})
    assert r.status_code == 200


def test_removing_a_passkey_needs_a_recent_proof_and_one_of_its_own_passkeys_gives_it(
    device: Device, tc: TestClient, ada: Player, key: Authenticator, clock: ManualClock
) -> None:
    passkey = add_passkey(tc, ada, key, name="Mine")
    clock.advance(PROOF + 1)
    r = tc.delete(f"/api/passkeys/{passkey['id']}", headers=ada.headers)
    assert r.status_code == 403 and _code(r) == "recent_proof_required"
    assert _mine(tc, ada) == ["Mine"]
    # Another profile's passkey proves nothing here.
    ben = new_player(tc, "Ben")
    bens_key = Authenticator(ORIGIN)
    add_passkey(tc, ben, bens_key)
    options = tc.post("/api/passkeys/confirm/options", headers=ada.headers).json()
    assert [c["id"] for c in options["allowCredentials"]] == [b64url(key.credentials[0].id)]
    r = tc.post(
        "/api/passkeys/confirm", json={"credential": bens_key.get(options)}, headers=ada.headers
    )
    assert r.status_code == 404 and _code(r) == "unknown_passkey"
    # Ada's own passkey does.
    options = tc.post("/api/passkeys/confirm/options", headers=ada.headers).json()
    r = tc.post("/api/passkeys/confirm", json={"credential": key.get(options)}, headers=ada.headers)
    assert r.status_code == 200, r.text
    assert tc.delete(f"/api/passkeys/{passkey['id']}", headers=ada.headers).status_code == 204
    assert _mine(tc, ada) == []
    # Without a passkey there is nothing to confirm with.
    r = tc.post("/api/passkeys/confirm/options", headers=ada.headers)
    assert r.status_code == 404 and _code(r) == "unknown_passkey"


def test_every_sign_in_is_a_proof_and_signing_out_everywhere_is_not_one(
    device: Device, tc: TestClient, ada: Player, key: Authenticator, clock: ManualClock
) -> None:
    add_passkey(tc, ada, key)
    clock.advance(PROOF + 1)
    # A passkey sign-in on a phone: the phone may add a passkey at once; the laptop may not.
    phone = device()
    options = signin_options(phone)
    r = phone.post("/api/passkeys/signin", json={"credential": key.get(options)})
    assert r.status_code == 200
    assert phone.post("/api/passkeys/register/options").status_code == 200
    assert tc.post("/api/passkeys/register/options", headers=ada.headers).status_code == 403
    # A device added by a code (after the laptop proved itself) may too.
    tc.post("/api/profiles/me/confirm", json={"code": ada.recovery_code}, headers=ada.headers)
    tablet = _second_device(tc, device, ada)
    clock.advance(PROOF - 10)
    assert tc.post("/api/passkeys/register/options", headers=tablet).status_code == 200
    clock.advance(20)
    assert tc.post("/api/passkeys/register/options", headers=tablet).status_code == 403
    # Signing out everywhere proves nothing: the fresh session keeps the old proof.
    r = tc.post("/api/profiles/signout-everywhere", headers=tablet)
    assert r.status_code == 200
    fresh = _auth(r.json()["token"])
    r = tc.post("/api/passkeys/register/options", headers=fresh)
    assert r.status_code == 403 and _code(r) == "recent_proof_required"
    # A recovery is a sign-in.
    r = device().post("/api/profiles/recover", json={"code": ada.recovery_code})
    assert tc.post("/api/passkeys/register/options", headers=_auth(r.json()["token"])).is_success


def test_the_window_is_a_setting(device: Device, clock: ManualClock) -> None:
    tc = device(recent_proof_seconds=60)
    ada = new_player(tc, "Ada")
    clock.advance(59)
    assert tc.post("/api/passkeys/register/options", headers=ada.headers).status_code == 200
    clock.advance(2)
    assert tc.post("/api/passkeys/register/options", headers=ada.headers).status_code == 403


def test_a_passkey_added_is_told_to_the_other_devices_until_each_dismisses_it(
    device: Device, tc: TestClient, ada: Player, key: Authenticator, clock: ManualClock
) -> None:
    phone = _second_device(tc, device, ada)
    tablet = _second_device(tc, device, ada)
    clock.advance(10)
    add_passkey(tc, ada, key, name="Unknown key")
    # The device that added it is not told; the others are, with what and from where.
    assert tc.get("/api/profiles/me", headers=ada.headers).json()["notices"] == []
    notices = tc.get("/api/profiles/me", headers=phone).json()["notices"]
    assert len(notices) == 1
    notice = notices[0]
    assert notice["kind"] == "passkey_added" and notice["detail"] == "Unknown key"
    assert notice["device"] == "a device" and notice["at"].startswith("2027-01-15T08:")
    # A device signed in after the change is not told of it.
    clock.advance(1)
    later = _second_device(tc, device, ada)
    assert tc.get("/api/profiles/me", headers=later).json()["notices"] == []
    # Dismissed on the phone: gone there, still shown on the tablet.
    r = tc.post("/api/profiles/me/notices/dismiss", json={"through": notice["id"]}, headers=phone)
    assert r.status_code == 204
    assert tc.get("/api/profiles/me", headers=phone).json()["notices"] == []
    assert len(tc.get("/api/profiles/me", headers=tablet).json()["notices"]) == 1
    # A dismissal past the newest notice does not hide the next one.
    tc.post("/api/profiles/me/notices/dismiss", json={"through": 10**9}, headers=tablet)
    assert tc.get("/api/profiles/me", headers=tablet).json()["notices"] == []
    tc.post("/api/profiles/me/confirm", json={"code": ada.recovery_code}, headers=phone)
    add_passkey(tc, Player(ada.id, ada.name, phone["Authorization"][7:], ""), Authenticator(ORIGIN))
    kinds = [n["kind"] for n in tc.get("/api/profiles/me", headers=tablet).json()["notices"]]
    assert kinds == ["passkey_added"]
    assert tc.get("/api/profiles/me", headers=phone).json()["notices"] == []


def test_a_profile_keeps_only_its_newest_notices(device: Device, clock: ManualClock) -> None:
    from sqlalchemy import func, select

    from app.db.models import SecurityNotice

    tc = device(security_notices_kept=2)
    ada = new_player(tc, "Ada")
    phone = _second_device(tc, device, ada)
    clock.advance(1)
    for name in ("One", "Two", "Three"):
        add_passkey(tc, ada, Authenticator(ORIGIN), name=name)
    shown = [n["detail"] for n in tc.get("/api/profiles/me", headers=phone).json()["notices"]]
    assert shown == ["Three", "Two"]
    with tc.app.state.db.session() as s:  # type: ignore[attr-defined]
        assert s.scalar(select(func.count()).select_from(SecurityNotice)) == 2


def test_a_borrowed_session_cannot_mint_a_freshly_signed_in_device(
    device: Device, tc: TestClient, ada: Player, clock: ManualClock
) -> None:
    """A device added by a code is signed in (a proof there): asking for the code needs one."""
    clock.advance(PROOF + 1)
    r = tc.post("/api/profiles/me/devices/code", headers=ada.headers)
    assert r.status_code == 403 and _code(r) == "recent_proof_required"
    tc.post("/api/profiles/me/confirm", json={"code": ada.recovery_code}, headers=ada.headers)
    assert tc.post("/api/profiles/me/devices/code", headers=ada.headers).status_code == 201

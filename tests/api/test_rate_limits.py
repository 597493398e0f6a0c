"""Guessing costs: each limited route answers 429 ``rate_limited`` with ``Retry-After`` once a
client address (or a profile) has used its allowance, and serves again when the window has
passed on the injected clock. Misses count for guesses (invite, recovery), attempts for
creation (profiles, tables)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests.conftest import make_settings, wipe
from tests.games import play_out

Make = Callable[..., TestClient]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(start=1_800_000_000.0)  # a minute boundary: windows start here


@pytest.fixture
def make(database_url: str, tmp_path: Path, clock: ManualClock) -> Iterator[Make]:
    """``make(address)``: a client from that address of one app (both databases) with small
    limits: 3 profiles, 2 tables, 3 invite misses, 2 recovery misses a minute."""
    from app.main import create_app

    wipe(database_url)
    settings = make_settings(
        database_url,
        tmp_path,
        rate_profile_create="3/minute",
        rate_table_create="2/minute",
        rate_invite_misses="3/minute",
        rate_recover_misses="2/minute",
    )
    application = create_app(settings, clock=clock)
    clients: list[TestClient] = []

    def client(address: str = "10.0.0.1") -> TestClient:
        c = TestClient(application, client=(address, 40000))
        c.__enter__()
        clients.append(c)
        return c

    yield client
    for c in clients:
        c.__exit__(None, None, None)
    application.state.db.dispose()


def _limited(r: Any, at_most: int) -> None:
    assert r.status_code == 429, r.text
    assert r.json()["error"]["code"] == "rate_limited"
    retry = int(r.headers["retry-after"])
    assert 1 <= retry <= at_most
    assert r.json()["error"]["retry_after"] == retry


def _profile(c: TestClient, name: str = "Ann") -> dict[str, str]:
    r = c.post("/api/profiles", json={"name": name})
    assert r.status_code == 201, r.text
    c.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def test_profile_creation_per_address(make: Make, clock: ManualClock) -> None:
    a, b = make("10.0.0.1"), make("10.0.0.2")
    for _ in range(3):
        _profile(a)
    clock.advance(20)
    r = a.post("/api/profiles", json={"name": "Ann"})
    _limited(r, 40)
    assert "set-cookie" not in r.headers
    _profile(b)  # another address has its own allowance
    clock.advance(40)  # the window has passed
    _profile(a)


def test_table_creation_per_address_and_per_profile(make: Make, clock: ManualClock) -> None:
    a, b = make("10.0.0.1"), make("10.0.0.2")
    ann, bob = _profile(a, "Ann"), _profile(b, "Bob")
    for _ in range(2):
        assert a.post("/api/tables", json={"seats": 2}, headers=ann).status_code == 201
    _limited(a.post("/api/tables", json={"seats": 2}, headers=ann), 60)
    # the same profile from another address: still limited (per profile)
    _limited(b.post("/api/tables", json={"seats": 2}, headers=ann), 60)
    # another profile from the first address: limited (per address)
    _limited(a.post("/api/tables", json={"seats": 2}, headers=bob), 60)
    assert len(a.get("/api/tables", headers=ann).json()["tables"]) == 2  # nothing was created
    clock.advance(60)
    assert a.post("/api/tables", json={"seats": 2}, headers=ann).status_code == 201


@pytest.mark.parametrize("route", ["lobby", "game", "join", "preview"])
def test_wrong_invite_codes_cost(make: Make, clock: ManualClock, route: str) -> None:
    host, guest = make("10.0.0.1"), make("10.0.0.9")
    ann = _profile(host, "Ann")
    t = host.post("/api/tables", json={"seats": 2}, headers=ann).json()
    tid, code = t["id"], t["invite_code"]
    bob = _profile(guest, "Bob")

    def attempt(invite: str) -> Any:
        if route == "lobby":
            return guest.get(f"/api/tables/{tid}", params={"invite": invite}, headers=bob)
        if route == "game":
            return guest.get(f"/api/tables/{tid}/game", params={"invite": invite}, headers=bob)
        if route == "preview":
            return guest.get(f"/api/tables/{tid}/preview", params={"invite": invite})
        return guest.post(f"/api/tables/{tid}/join", json={"invite_code": invite}, headers=bob)

    for n in range(3):
        assert attempt(f"WRONG{n}").status_code in (403, 404)
    # out of misses: a wrong code waits; the right one still gets in while the table's own
    # misses last (tests/security/test_guess_limits_bystanders.py)
    _limited(attempt("WRONG9"), 60)
    assert attempt(code).status_code in (200, 409)  # the game of a lobby table is a 409
    # the host, at its own address and with its own profile, is not affected
    assert host.get(f"/api/tables/{tid}", headers=ann).status_code == 200
    clock.advance(60)
    assert attempt(code).status_code in (200, 409)  # the game of a lobby table is a 409


def test_right_invite_codes_do_not_cost(make: Make) -> None:
    host, guest = make("10.0.0.1"), make("10.0.0.9")
    ann = _profile(host, "Ann")
    t = host.post("/api/tables", json={"seats": 2}, headers=ann).json()
    for _ in range(10):
        r = guest.get(f"/api/tables/{t['id']}", params={"invite": t["invite_code"]})
        assert r.status_code == 200


def test_misses_count_per_profile_across_addresses(make: Make) -> None:
    host = make("10.0.0.1")
    ann = _profile(host, "Ann")
    t = host.post("/api/tables", json={"seats": 2}, headers=ann).json()
    first = make("10.0.0.7")
    eve = _profile(first, "Eve")
    for n in range(3):
        r = first.get(f"/api/tables/{t['id']}", params={"invite": f"X{n}"}, headers=eve)
        assert r.status_code == 404
    moved = make("10.0.0.8")  # Eve moves to a fresh address, same profile
    _limited(moved.get(f"/api/tables/{t['id']}", params={"invite": "X9"}, headers=eve), 60)


def test_wrong_recovery_codes_cost(make: Make, clock: ManualClock) -> None:
    a = make("10.0.0.1")
    r = a.post("/api/profiles", json={"name": "Ann"})
    code = r.json()["recovery_code"]
    a.cookies.clear()
    for _ in range(2):
        bad = a.post("/api/profiles/recover", json={"code": "0000-0000-0000-0000"})
        assert bad.status_code == 404
    _limited(a.post("/api/profiles/recover", json={"code": "2222-2222-2222-2222"}), 60)
    other = make("10.0.0.2")
    wrong = other.post("/api/profiles/recover", json={"code": "1111-1111-1111-1111"})
    assert wrong.status_code == 404
    clock.advance(60)
    ok = a.post("/api/profiles/recover", json={"code": code})
    assert ok.status_code == 200


def test_the_socket_handshake_check(make: Make) -> None:
    """``RateLimiter.check``, for callers outside HTTP: counts one attempt per call."""
    import asyncio

    from app.errors import RateLimited

    c = make()
    limiter = c.app.state.limiter  # type: ignore[attr-defined]

    async def go() -> None:
        for _ in range(3):
            await limiter.check("invite", ["ip:10.1.1.1"])
        with pytest.raises(RateLimited) as caught:
            await limiter.check("invite", ["ip:10.1.1.1"])
        assert caught.value.headers == {"Retry-After": str(caught.value.extra["retry_after"])}
        await limiter.check("invite", ["ip:10.1.1.2"])

    asyncio.run(go())


def test_limits_are_settings(tmp_path: Path) -> None:
    from app.config import Settings
    from app.ratelimit import LimitName, parse_rule

    s = Settings(data_dir=tmp_path, rate_invite_misses="5/second;7/day", rate_recover_misses="")
    rule = parse_rule(LimitName.INVITE, s.rate_invite_misses)
    assert [(i.amount, i.get_expiry()) for i in rule.items] == [(5, 1), (7, 86400)]
    assert parse_rule(LimitName.RECOVER, s.rate_recover_misses).items == ()
    with pytest.raises(ValueError):
        parse_rule(LimitName.INVITE, "many/often")


def _redis_up() -> bool:
    import socket

    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=2):
            return True
    except OSError:
        return False


def test_two_instances_share_counters_in_redis(tmp_path: Path) -> None:
    """``EMARA_RATE_LIMIT_STORAGE=redis://…``: misses on one instance count on the other."""
    import os
    import secrets

    from app.db.migrate import upgrade
    from app.main import create_app

    if not _redis_up():
        if os.environ.get("CI") == "true":
            pytest.fail("Redis on 127.0.0.1:6379 is mandatory when CI=true")
        pytest.skip("SKIPPED LOUDLY: Redis on 127.0.0.1:6379 is not reachable")
    url = f"sqlite:///{tmp_path / 'emara.db'}"
    upgrade(url)
    clock = ManualClock()
    address = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250)}"
    settings = make_settings(
        url,
        tmp_path,
        rate_limit_storage="redis://127.0.0.1:6379/0",
        rate_recover_misses="2/minute",
    )
    apps = [create_app(settings, clock=clock), create_app(settings, clock=clock)]
    with (
        TestClient(apps[0], client=(address, 1)) as one,
        TestClient(apps[1], client=(address, 2)) as two,
    ):
        wrong = {"code": "0000-0000-0000-0000"}
        assert one.post("/api/profiles/recover", json=wrong).status_code == 404
        assert two.post("/api/profiles/recover", json=wrong).status_code == 404
        _limited(one.post("/api/profiles/recover", json=wrong), 60)
        _limited(two.post("/api/profiles/recover", json=wrong), 60)
        clock.advance(60)
        assert two.post("/api/profiles/recover", json=wrong).status_code == 404
    for application in apps:
        application.state.db.dispose()


def test_the_defaults_are_on_and_documented(tmp_path: Path) -> None:
    from app.config import Settings

    s = Settings(data_dir=tmp_path)
    defaults = {
        "EMARA_RATE_PROFILE_CREATE": s.rate_profile_create,
        "EMARA_RATE_TABLE_CREATE": s.rate_table_create,
        "EMARA_RATE_INVITE_MISSES": s.rate_invite_misses,
        "EMARA_RATE_RECOVER_MISSES": s.rate_recover_misses,
        "EMARA_RATE_LIMIT_STORAGE": s.rate_limit_storage,
        "EMARA_SESSION_DAYS": f"{s.session_days:g}",
        "EMARA_SESSION_RENEW_HOURS": f"{s.session_renew_hours:g}",
    }
    ops = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    for name, value in defaults.items():
        assert value, name  # every limit is on by default
        assert f"| `{name}` | `{value}` |" in ops or f"| `{name}` | {value} |" in ops, name


def test_unreachable_counters_do_not_stop_the_game(tmp_path: Path) -> None:
    """Redis down: requests are served (limits blind, a warning logged), not refused or 500."""
    from app.db.migrate import upgrade
    from app.main import create_app

    url = f"sqlite:///{tmp_path / 'emara.db'}"
    upgrade(url)
    settings = make_settings(
        url, tmp_path, rate_limit_storage="redis://127.0.0.1:1/0", rate_profile_create="1/minute"
    )
    application = create_app(settings, clock=ManualClock())
    with TestClient(application) as c:
        for _ in range(3):
            assert c.post("/api/profiles", json={"name": "Ann"}).status_code == 201
    application.state.db.dispose()


def test_wrong_invite_codes_cost_on_the_socket_too(make: Make, clock: ManualClock) -> None:
    host, guest = make("10.0.0.1"), make("10.0.0.9")
    ann = _profile(host, "Ann")
    t = host.post("/api/tables", json={"seats": 2}, headers=ann).json()
    bob = _profile(guest, "Bob")

    def first_frame(invite: str) -> dict[str, Any]:
        url = f"/ws/tables/{t['id']}?invite={invite}"
        with guest.websocket_connect(url, headers=bob) as ws:
            frame: dict[str, Any] = ws.receive_json()
        return frame

    for n in range(3):
        assert first_frame(f"WRONG{n}")["code"] == "not_found"
    # out of misses: a wrong code waits; the right one still gets in while the table's own
    # misses last (tests/security/test_guess_limits_bystanders.py)
    assert first_frame("WRONG9")["code"] == "rate_limited"
    assert first_frame(t["invite_code"])["type"] == "welcome"
    clock.advance(60)
    assert first_frame("WRONG8")["code"] == "not_found"


def test_a_shared_address_out_of_guesses_keeps_its_players_at_their_tables(
    make: Make, clock: ManualClock
) -> None:
    """Ann, Bob, Carol and Eve share one address (a café, a school). Eve guesses invite codes
    until the address is out of misses: Ann and Bob still reach every door of their own table
    (their seats need no invite, even when the link they opened carries one), and the game over,
    its replay; Eve and Carol, who have no seat there, wait for a wrong code, and get in with the
    right one while the table's own misses last (tests/security/test_guess_limits_bystanders.py)."""
    cafe, home = make("10.0.0.5"), make("10.0.0.6")
    ann, bob, carol = (_profile(home, n) for n in ("Ann", "Bob", "Carol"))
    eve = _profile(cafe, "Eve")
    t = cafe.post("/api/tables", json={"seats": 2}, headers=ann).json()
    tid, code = t["id"], t["invite_code"]
    r = cafe.post(f"/api/tables/{tid}/join", json={"invite_code": code}, headers=bob)
    assert r.status_code == 200
    assert cafe.post(f"/api/tables/{tid}/start", headers=ann).status_code == 200
    other = cafe.post("/api/tables", json={"seats": 2}, headers=ann).json()
    for n in range(3):
        r = cafe.get(f"/api/tables/{other['id']}", params={"invite": f"X{n}"}, headers=eve)
        assert r.status_code == 404
    for who in (ann, bob):
        for path in ("", "/game", "/chat"):
            r = cafe.get(f"/api/tables/{tid}{path}", params={"invite": code}, headers=who)
            assert r.status_code == 200, (path, r.text)
        assert cafe.post(f"/api/tables/{tid}/mutes/1", headers=who).status_code == 200
        with cafe.websocket_connect(f"/ws/tables/{tid}?invite={code}", headers=who) as ws:
            assert ws.receive_json()["type"] == "welcome"
    r = cafe.post(f"/api/tables/{tid}/join", json={"invite_code": code}, headers=bob)
    assert r.status_code == 200  # already seated: nothing guessed
    for who in (eve, carol):
        _limited(cafe.get(f"/api/tables/{tid}", params={"invite": "X8"}, headers=who), 60)
        r = cafe.get(f"/api/tables/{tid}", params={"invite": code}, headers=who)
        assert r.status_code == 200
    # a wrong code in a seated player's link guesses nothing either: the seat is what counts
    assert cafe.get(f"/api/tables/{tid}", params={"invite": "X9"}, headers=bob).status_code == 200
    # the game over, its replay is theirs as well: the seat is what counts there too
    play_out(cafe, tid, seed=3)
    for who in (ann, bob):
        for path in (f"/api/replays/{tid}", f"/api/replays/{tid}/positions/2"):
            assert cafe.get(path, headers=who).status_code == 200, path
    clock.advance(60)
    r = cafe.get(f"/api/tables/{tid}", params={"invite": code}, headers=carol)
    assert r.status_code == 200


def test_solo_tables_count_against_the_creation_limits(make: Make, clock: ManualClock) -> None:
    """A solo game is a table: it costs the same allowance as any table, per address and per
    profile, and a mix of both kinds shares one count."""
    a, b = make("10.0.0.1"), make("10.0.0.2")
    ann, bob = _profile(a, "Ann"), _profile(b, "Bob")
    solo = {"mode": "high_score"}
    assert a.post("/api/solo", json=solo, headers=ann).status_code == 201
    assert a.post("/api/tables", json={"seats": 2}, headers=ann).status_code == 201
    _limited(a.post("/api/solo", json=solo, headers=ann), 60)
    _limited(a.post("/api/tables", json={"seats": 2}, headers=ann), 60)
    _limited(b.post("/api/solo", json=solo, headers=ann), 60)  # the profile, elsewhere
    _limited(a.post("/api/solo", json=solo, headers=bob), 60)  # the address, someone else
    assert len(a.get("/api/tables", headers=ann).json()["tables"]) == 2  # nothing more made
    clock.advance(60)
    assert a.post("/api/solo", json=solo, headers=ann).status_code == 201

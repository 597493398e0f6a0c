"""Signed tokens with key rotation, the per-profile limit on opening tables, the per-connection
frame rate limit, and the Origin check at the socket handshake."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.config import Settings
from app.main import create_app
from tests.conftest import SUITE_SECRET_KEY


def _client(url: str, tmp_path: Path, **extra: Any) -> TestClient:
    extra.setdefault("secret_key", SUITE_SECRET_KEY)
    settings = Settings(database_url=url, data_dir=tmp_path / "data", **extra)
    return TestClient(create_app(settings))


def _profile(c: TestClient, name: str = "Ann") -> dict[str, Any]:
    r = c.post("/api/profiles", json={"name": name})
    assert r.status_code == 201, r.text
    c.cookies.clear()
    return dict(r.json())


def _me(c: TestClient, token: str) -> int:
    return c.get("/api/profiles/me", headers={"Authorization": f"Bearer {token}"}).status_code


def test_key_rotation_accepts_previous_keys_and_signs_with_the_current(
    sqlite_url: str, tmp_path: Path
) -> None:
    old = _client(sqlite_url, tmp_path, secret_key="key-one-" + "o" * 32)
    token_old = _profile(old)["token"]
    assert _me(old, token_old) == 200

    rotated = _client(
        sqlite_url,
        tmp_path,
        secret_key="key-two-" + "n" * 32,
        previous_secret_keys=["key-one-" + "o" * 32],
    )
    assert _me(rotated, token_old) == 200  # old tokens keep working during the rotation
    token_new = _profile(rotated, "Bob")["token"]
    assert _me(rotated, token_new) == 200
    assert token_new.rsplit(".", 1)[-1] != token_old.rsplit(".", 1)[-1]

    # The old key is retired: its tokens stop working; the new ones go on.
    retired = _client(sqlite_url, tmp_path, secret_key="key-two-" + "n" * 32)
    assert _me(retired, token_old) == 401
    assert _me(retired, token_new) == 200
    # New tokens were signed with the current key, not with an old one.
    assert _me(old, token_new) == 401
    # Tampering is refused under every key.
    forged = token_old[:-3] + ("aaa" if not token_old.endswith("aaa") else "bbb")
    assert _me(rotated, forged) == 401

    # The socket accepts a token signed with a previous key as well.
    t = rotated.post(
        "/api/tables", json={"seats": 2}, headers={"Authorization": f"Bearer {token_old}"}
    )
    assert t.status_code == 201, t.text
    with rotated.websocket_connect(
        f"/ws/tables/{t.json()['id']}", headers={"Authorization": f"Bearer {token_old}"}
    ) as ws:
        assert ws.receive_json()["type"] == "welcome"
    for c in (old, rotated, retired):
        c.app.state.db.dispose()


def test_previous_keys_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMARA_SECRET_KEY", "current")
    monkeypatch.setenv("EMARA_PREVIOUS_SECRET_KEYS", "older, oldest ,")
    s = Settings()
    assert s.previous_secret_keys == ["older", "oldest"]


def test_table_creation_is_limited_per_profile(sqlite_url: str, tmp_path: Path) -> None:
    c = _client(sqlite_url, tmp_path, table_create_limit=3, table_create_window_seconds=600)
    ann, bob = _profile(c, "Ann"), _profile(c, "Bob")
    h = {"Authorization": f"Bearer {ann['token']}"}
    for _ in range(3):
        assert c.post("/api/tables", json={"seats": 2}, headers=h).status_code == 201
    r = c.post("/api/tables", json={"seats": 2}, headers=h)
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "rate_limited"
    assert len(c.get("/api/tables", headers=h).json()["tables"]) == 3  # nothing was created
    # Another profile has its own allowance.
    hb = {"Authorization": f"Bearer {bob['token']}"}
    assert c.post("/api/tables", json={"seats": 2}, headers=hb).status_code == 201
    c.app.state.db.dispose()


def _table(live: Any) -> tuple[str, dict[str, str]]:
    import httpx

    with httpx.Client(base_url=live.http, timeout=30) as c:
        p = c.post("/api/profiles", json={"name": "Ann"}).json()
        h = {"Authorization": f"Bearer {p['token']}"}
        t = c.post("/api/tables", json={"seats": 2}, headers=h).json()
    return t["id"], h


def test_frame_rate_is_limited_per_connection(live_factory: Any) -> None:
    live = live_factory(ws_rate_per_second=5.0, ws_rate_burst=10)
    tid, h = _table(live)

    async def go() -> None:
        url = f"{live.ws}/ws/tables/{tid}"
        ws = await connect(url, additional_headers=h, open_timeout=30)
        assert json.loads(await ws.recv())["type"] == "welcome"
        # A burst past the allowance: the excess is refused with a typed error, socket open.
        for _ in range(40):
            await ws.send(json.dumps({"type": "ping"}))
        kinds = []
        for _ in range(40):
            f = json.loads(await asyncio.wait_for(ws.recv(), 30))
            kinds.append(f.get("code") or f["type"])
        assert kinds.count("rate_limited") >= 20
        assert 10 <= kinds.count("pong") <= 20  # the burst, plus what refilled meanwhile
        assert ws.close_code is None
        # A client that keeps flooding is cut off (bounded flood).
        with pytest.raises(ConnectionClosed):
            for _ in range(400):
                await ws.send(json.dumps({"type": "ping"}))
            while True:
                await asyncio.wait_for(ws.recv(), 30)
        assert ws.close_code == 1008
        # The limit belongs to that connection: a new one is served.
        ws2 = await connect(url, additional_headers=h, open_timeout=30)
        assert json.loads(await ws2.recv())["type"] == "welcome"
        await ws2.send(json.dumps({"type": "ping"}))
        f = json.loads(await asyncio.wait_for(ws2.recv(), 30))
        assert f["type"] == "pong"
        await ws2.close()

    asyncio.run(go())


BAD_ORIGINS = [
    "http://evil.example",
    "null",
    "https://evil.example",
    "http://127.0.0.1.evil.example",
    "http://allowed.example.evil",
    "file://",
]


def test_bad_origin_is_refused_at_the_handshake(live_factory: Any) -> None:
    live = live_factory()
    tid, h = _table(live)

    async def go() -> None:
        for origin in BAD_ORIGINS:
            with pytest.raises(InvalidStatus) as caught:
                await connect(
                    f"{live.ws}/ws/tables/{tid}",
                    origin=origin,  # type: ignore[arg-type]
                    additional_headers=h,
                    open_timeout=30,
                )
            assert caught.value.response.status_code == 403, origin
        ok = await connect(
            f"{live.ws}/ws/tables/{tid}",
            origin="http://allowed.example",  # type: ignore[arg-type]
            additional_headers=h,
            open_timeout=30,
        )
        assert json.loads(await ok.recv())["type"] == "welcome"
        await ok.close()

    asyncio.run(go())


def test_openapi_422_is_the_error_envelope(sqlite_url: str, tmp_path: Path) -> None:
    c = _client(sqlite_url, tmp_path)
    doc = c.get("/openapi.json").json()
    schemas = doc["components"]["schemas"]
    assert "HTTPValidationError" not in schemas and "ValidationError" not in schemas
    envelope = schemas["ErrorEnvelope"]
    assert envelope["required"] == ["error"]
    body = schemas[envelope["properties"]["error"]["$ref"].rsplit("/", 1)[-1]]
    assert {"code", "message", "details"} <= set(body["properties"])
    ops = [(p, m, op) for p, item in doc["paths"].items() for m, op in item.items()]
    with_422 = [(p, m) for p, m, op in ops if "422" in op["responses"]]
    assert len(with_422) >= 10
    for p, m, op in ops:
        if "422" in op["responses"]:
            schema = op["responses"]["422"]["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorEnvelope"}, (p, m)
    # the real 422 matches the documented envelope
    from app.errors import ErrorEnvelope

    r = c.post("/api/profiles", json={"name": 5})
    assert r.status_code == 422
    parsed = ErrorEnvelope.model_validate(r.json())
    assert parsed.error.code == "malformed" and parsed.error.details
    c.app.state.db.dispose()  # type: ignore[attr-defined]


def test_openapi_lists_429_on_limited_routes(sqlite_url: str, tmp_path: Path) -> None:
    c = _client(sqlite_url, tmp_path)
    paths = c.get("/openapi.json").json()["paths"]
    limited = {
        ("post", "/api/profiles"),
        ("post", "/api/profiles/recover"),
        ("post", "/api/tables"),
        ("get", "/api/tables/{table_id}"),
        ("get", "/api/tables/{table_id}/game"),
        # the game log's older pages take an invite code too (spectators)
        ("get", "/api/tables/{table_id}/log"),
        ("post", "/api/tables/{table_id}/join"),
        # chat and mutes take an invite code (spectators)
        ("get", "/api/tables/{table_id}/chat"),
        ("post", "/api/tables/{table_id}/mutes/{seat}"),
        ("delete", "/api/tables/{table_id}/mutes/{seat}"),
        # the host's renaming of a table; a solo table counts against the creation limits
        ("put", "/api/tables/{table_id}/name"),
        ("post", "/api/solo"),
        # a rematch opens a table; invitations are answered by the invited, limited per profile
        ("post", "/api/tables/{table_id}/rematch"),
        ("get", "/api/tables/{table_id}/invitations"),
        ("post", "/api/tables/{table_id}/invitations"),
        ("delete", "/api/tables/{table_id}/invitations/{invitation_id}"),
        ("post", "/api/invitations/{invitation_id}/accept"),
        ("post", "/api/invitations/{invitation_id}/decline"),
        ("post", "/api/invitations/{invitation_id}/block"),
        # e-mail tokens can be guessed at: confirming, unsubscribing and signing in are limited
        ("post", "/api/email/confirm"),
        ("post", "/api/email/unsubscribe"),
        ("post", "/api/email/unsubscribe/one-click"),
        ("post", "/api/email/signin"),
        # a code that adds a device is asked for (per profile) and guessed at (misses)
        ("post", "/api/profiles/me/devices/code"),
        ("post", "/api/profiles/devices/add"),
        # passkey sign-in needs no profile: options and answers are limited per address
        ("post", "/api/passkeys/signin/options"),
        ("post", "/api/passkeys/signin"),
        # confirm it's you: the recovery code (guessed at, like a recovery) or a passkey
        ("post", "/api/profiles/me/confirm"),
        ("post", "/api/passkeys/confirm/options"),
        ("post", "/api/passkeys/confirm"),
        # the board explained takes an invite code too (spectators)
        ("get", "/api/tables/{table_id}/explain"),
        # every route that reads an invite code reads it through the guessing limit
        ("get", "/api/tables/{table_id}/hint"),
        ("get", "/api/tables/{table_id}/preview"),
        # moves over HTTP: a rate per profile, as the socket has one per socket
        ("post", "/api/tables/{table_id}/moves"),
        # a guided game opens a table against bots
        ("post", "/api/tutorial"),
        # records and replays: a finished table's id or a replay id can be guessed at, imports
        # replay a whole game, an analysis costs CPU; the host's public switch
        ("get", "/api/tables/{table_id}/record"),
        ("put", "/api/tables/{table_id}/public_replay"),
        ("post", "/api/records"),
        ("get", "/api/replays/{replay_id}"),
        ("get", "/api/replays/{replay_id}/positions/{n}"),
        ("get", "/api/replays/{replay_id}/analysis"),
        ("post", "/api/replays/{replay_id}/analysis"),
        # protecting oneself: the host's acts on a person, reports (limited, and capped per
        # reporter) and blocks; reports and blocks at a table read an invite code (spectators)
        ("post", "/api/tables/{table_id}/seats/{seat}/remove"),
        ("post", "/api/tables/{table_id}/host"),
        ("post", "/api/tables/{table_id}/reports"),
        ("post", "/api/tables/{table_id}/blocks"),
        ("post", "/api/me/blocks"),
    }
    for path, item in paths.items():
        for method, op in item.items():
            has = "429" in op["responses"]
            assert has == ((method, path) in limited), (method, path)
            if has:
                assert "Retry-After" in op["responses"]["429"]["headers"]
    c.app.state.db.dispose()  # type: ignore[attr-defined]

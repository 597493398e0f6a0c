"""A NUL in any text from the wire is refused at the border with a typed 422 ``malformed``,
before a database connection is taken: on Postgres, fifty such moves over HTTP and over the
socket open no connection and close none."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from app.realtime.limits import SocketLimits, SocketRegistry
from tests.conftest import Player

NUL_ID = "m\x00"
# Connections the pool holds idle before counting starts (SQLite's pool keeps five).
WARM = 5


class Connects:
    """Connections the app's database opened: the ORM's pool and the moves' own pool."""

    def __init__(self, app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.n = 0
        db = app.state.db
        # The app's background loops (the deadline sweep, the mail) take connections of their
        # own at any time: the pool is filled first, so that they find one idle and only a
        # request that needed more than the pool holds would open one.
        held = [db.engine.connect() for _ in range(WARM)]
        for conn in held:
            conn.close()

        def counted(*_: Any) -> None:
            self.n += 1

        event.listen(db.engine, "connect", counted)
        if db.direct is not None:
            opened = db.direct._connect

            async def connect() -> Any:
                counted()
                return await opened()

            monkeypatch.setattr(db.direct, "_connect", connect)


@pytest.fixture
def started(client: TestClient, ann: Player, bob: Player) -> Iterator[dict[str, Any]]:
    r = client.post(
        "/api/tables", json={"seats": 2, "options": {"start_player": 0}}, headers=ann.headers
    )
    t = r.json()
    r = client.post(
        f"/api/tables/{t['id']}/join", json={"invite_code": t["invite_code"]}, headers=bob.headers
    )
    assert r.status_code == 200, r.text
    assert client.post(f"/api/tables/{t['id']}/start", headers=ann.headers).status_code == 200
    game = client.get(f"/api/tables/{t['id']}/game", headers=ann.headers).json()
    # One move played: the server knows the table's position, as at any table in play (a move
    # then takes the quick path, the one that writes without a worker thread).
    body = {"move": game["legal_moves"][0], "expected_version": 0, "move_id": "first"}
    r = client.post(f"/api/tables/{t['id']}/moves", json=body, headers=ann.headers)
    assert r.status_code == 200, r.text
    game = client.get(f"/api/tables/{t['id']}/game", headers=ann.headers).json()
    assert game["legal_moves"], "Ann moves on in her turn"
    yield {"table": t, "game": game}


def assert_malformed(r: Any) -> None:
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "malformed"


def test_fifty_nul_move_ids_over_http_take_no_connection(
    app: Any,
    client: TestClient,
    ann: Player,
    started: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table_id, game = started["table"]["id"], started["game"]
    connects = Connects(app, monkeypatch)
    move = game["legal_moves"][0]
    for n in range(50):
        body = {"move": move, "expected_version": game["version"], "move_id": f"{NUL_ID}{n}"}
        r = client.post(f"/api/tables/{table_id}/moves", json=body, headers=ann.headers)
        assert_malformed(r)
    assert connects.n == 0
    after = client.get(f"/api/tables/{table_id}/game", headers=ann.headers).json()
    assert after["version"] == game["version"]


def test_fifty_nul_move_ids_over_the_socket_take_no_connection(
    app: Any,
    client: TestClient,
    ann: Player,
    started: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table_id, game = started["table"]["id"], started["game"]
    move = game["legal_moves"][0]
    # The socket's frame rate allows the fifty frames at once (its limit is tested elsewhere).
    app.state.socket_registry = SocketRegistry()
    app.state.socket_limits = SocketLimits(rate_burst=100)
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=ann.headers) as ws:
        assert ws.receive_json()["type"] == "welcome"
        connects = Connects(app, monkeypatch)
        for n in range(50):
            frame = {
                "type": "move",
                "move": move,
                "expected_version": game["version"],
                "move_id": f"{NUL_ID}{n}",
                "ref": n,
            }
            ws.send_json(frame)
            while (got := ws.receive_json()).get("ref") != n:
                pass
            assert got["type"] == "error" and got["code"] == "malformed", got
        assert connects.n == 0


@pytest.mark.parametrize(
    "where",
    ["text", "key", "deep"],
)
def test_a_nul_anywhere_in_a_move_frame_is_refused(where: str) -> None:
    from app.realtime.frames import Refusal, parse_client

    move: dict[str, Any] = {"kind": "end_turn"}
    if where == "text":
        move["kind"] = "end\x00turn"
    elif where == "key":
        move["k\x00"] = 1
    else:
        move["a"] = [{"b": ["\x00"]}]
    import json

    frame = json.dumps({"type": "move", "move": move, "expected_version": 0, "move_id": "a"})
    out = parse_client(frame, 16_384, 32)
    assert isinstance(out, Refusal) and out.code == "malformed"


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/profiles", {"name": "A\x00n"}),
        ("put", "/api/tables/{t}/name", {"name": "Fri\x00day"}),
        ("post", "/api/tables/{t}/join", {"invite_code": "x\x00"}),
        ("post", "/api/profiles/recover", {"code": "AAAA-\x00AAA"}),
        ("post", "/api/profiles/devices/add", {"code": "AAAA-\x00AAA"}),
        ("get", "/api/tables/{t}?invite=a%00b", None),
        ("get", "/api/tables/{t}/game?invite=%00", None),
        ("get", "/api/replays/a%00b", None),
        (
            "post",
            "/api/tables/{t}/moves",
            {"move": {"k\x00": 1}, "expected_version": 0, "move_id": "a"},
        ),
    ],
)
def test_a_nul_in_any_text_of_a_request_is_a_typed_422(
    app: Any,
    client: TestClient,
    ann: Player,
    started: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    path: str,
    body: dict[str, Any] | None,
) -> None:
    connects = Connects(app, monkeypatch)
    url = path.format(t=started["table"]["id"])
    kwargs: dict[str, Any] = {"headers": ann.headers}
    if body is not None:
        kwargs["json"] = body
    assert_malformed(getattr(client, method)(url, **kwargs))
    assert connects.n == 0


@pytest.mark.parametrize("target", ["/ws/tables/ab%00cdefghijk", "/ws/tables/{t}?invite=%00"])
def test_a_socket_handshake_with_a_nul_is_closed_before_it_is_accepted(
    app: Any,
    client: TestClient,
    ann: Player,
    started: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    target: str,
) -> None:
    from starlette.websockets import WebSocketDisconnect

    connects = Connects(app, monkeypatch)
    url = target.format(t=started["table"]["id"])
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(url, headers=ann.headers) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 1008
    assert connects.n == 0

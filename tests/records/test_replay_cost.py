"""A replay costs what a game costs: its log comes in bounded pages, each page and position is
encoded once (a second read is the kept bytes: no replaying, no model check, no encoding on
the event loop), and replay reads are counted per client address and profile."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import ManualClock
from app.main import create_app
from app.ratelimit.spacing import Spacer
from app.records import service as record_service
from tests.conftest import Player, make_settings, new_player, wipe

Record = dict[str, Any]


@pytest.fixture
def make_app(database_url: str, tmp_path: Path) -> Iterator[Any]:
    made: list[Any] = []

    def make(**settings: Any) -> Any:
        wipe(database_url)
        application = create_app(make_settings(database_url, tmp_path, **settings))
        made.append(application)
        return application

    yield make
    for application in made:
        application.state.db.dispose()


def _imported(client: TestClient, who: Player, example: Record) -> str:
    r = client.post("/api/records", json=example, headers=who.headers)
    assert r.status_code == 201, r.text
    return str(r.json()["replay_id"])


def test_the_log_comes_in_bounded_pages(make_app: Any, example: Record) -> None:
    app = make_app(replay_page_max=50)
    with TestClient(app) as client:
        ann = new_player(client, "Ann")
        rid = _imported(client, ann, example)
        positions = len(example["moves"]) + 1
        log: list[dict[str, Any]] = []
        tracks: list[Any] = []
        offset: int | None = 0
        pages = 0
        while offset is not None:
            r = client.get(
                f"/api/replays/{rid}", params={"offset": offset, "limit": 500}, headers=ann.headers
            )
            assert r.status_code == 200, r.text
            page = r.json()
            assert page["limit"] == 50 and page["offset"] == offset  # the setting caps it
            assert len(page["tracks"]) <= 50 and len(page["log"]) <= 50
            assert page["positions"] == positions
            log += page["log"]
            tracks += page["tracks"]
            offset = page["next_offset"]
            pages += 1
        assert pages == -(-positions // 50)
        assert [e["position"] for e in log] == list(range(1, positions))
        assert [e["move"] for e in log] == [m["move"] for m in example["moves"]]
        assert len(tracks) == positions
        past = client.get(f"/api/replays/{rid}", params={"offset": positions}, headers=ann.headers)
        assert past.status_code == 404 and past.json()["error"]["code"] == "no_such_position"


def test_a_second_read_is_served_from_the_kept_bytes(
    make_app: Any, example: Record, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    encoded: list[str] = []
    real = record_service._encode

    def spy(model: Any, out: dict[str, Any]) -> bytes:
        encoded.append(model.__name__)
        return real(model, out)

    monkeypatch.setattr(record_service, "_encode", spy)
    with TestClient(app) as client:
        ann = new_player(client, "Ann")
        rid = _imported(client, ann, example)
        cache = app.state.records.encoded
        first = client.get(f"/api/replays/{rid}", headers=ann.headers)
        second = client.get(f"/api/replays/{rid}", headers=ann.headers)
        assert first.status_code == second.status_code == 200
        assert first.content == second.content
        assert encoded == ["ReplayOut"] and (cache.misses, cache.hits) == (1, 1)
        body = json.loads(first.content)
        assert len(body["log"]) == len(example["moves"]) and body["next_offset"] is None
        for _ in range(2):
            r = client.get(f"/api/replays/{rid}/positions/7?eyes=1", headers=ann.headers)
            assert r.status_code == 200 and r.json()["position"] == 7
        assert encoded == ["ReplayOut", "PositionOut"] and (cache.misses, cache.hits) == (2, 2)
        # the kept bytes are still only for whoever may look
        bob = new_player(client, "Bob")
        r = client.get(f"/api/replays/{rid}", headers=bob.headers)
        assert r.status_code == 404
        assert cache.hits == 2


def test_the_kept_bytes_stay_within_their_setting(make_app: Any, example: Record) -> None:
    app = make_app(replay_cache_bytes=20_000)  # a position is about 5 to 7 kB
    with TestClient(app) as client:
        ann = new_player(client, "Ann")
        rid = _imported(client, ann, example)
        for n in range(0, 10):
            r = client.get(f"/api/replays/{rid}/positions/{n}", headers=ann.headers)
            assert r.status_code == 200
        cache = app.state.records.encoded
        assert 0 < cache.size_bytes <= 20_000 and 2 <= len(cache) <= 3


def test_replay_reads_are_counted_per_profile(make_app: Any, example: Record) -> None:
    app = make_app(rate_replay_read="3/minute")
    with TestClient(app) as client:
        ann = new_player(client, "Ann")
        rid = _imported(client, ann, example)
        assert client.get(f"/api/replays/{rid}", headers=ann.headers).status_code == 200
        assert client.get(f"/api/replays/{rid}/positions/1", headers=ann.headers).status_code == 200
        assert client.get(f"/api/replays/{rid}/positions/2", headers=ann.headers).status_code == 200
        r = client.get(f"/api/replays/{rid}", headers=ann.headers)
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["Retry-After"]) > 0
        r = client.get(f"/api/replays/{rid}/positions/3", headers=ann.headers)
        assert r.status_code == 429


def test_an_address_past_its_reads_is_held_then_refused_before_its_session_is_read(
    make_app: Any, example: Record
) -> None:
    app = make_app(rate_replay_read="2/minute", rate_refusal_delay_seconds=1.5)
    held: list[float] = []

    async def sleep(seconds: float) -> None:
        held.append(seconds)

    app.state.limiter._sleep = sleep
    sessions: list[str] = []
    with TestClient(app) as client:
        ann = new_player(client, "Ann")
        rid = _imported(client, ann, example)
        profiles = app.state.profiles
        read = profiles.session

        async def counted(token: str | None) -> Any:
            sessions.append(str(token))
            return await read(token)

        profiles.session = counted
        for _ in range(2):
            assert client.get(f"/api/replays/{rid}", headers=ann.headers).status_code == 200
        assert held == [] and len(sessions) == 2
        # the address has used up its reads: held, then refused, its session never read
        for _ in range(3):
            r = client.get(f"/api/replays/{rid}/positions/1", headers=ann.headers)
            assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
        assert len(held) == 3 and all(1.5 <= h <= 2.25 for h in held) and len(sessions) == 2
        # nothing is left waiting
        assert app.state.limiter._held == 0


def test_replay_reads_of_one_address_are_spaced_by_their_per_second_limit(
    make_app: Any, example: Record
) -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(round(seconds, 6))

    app = make_app(rate_replay_read="20/second;240/minute")
    app.state.limiter.spacer = Spacer(ManualClock(), sleep)  # the clock stands still
    with TestClient(app) as client:
        ann = new_player(client, "Ann")
        rid = _imported(client, ann, example)
        for n in range(4):
            r = client.get(f"/api/replays/{rid}/positions/{n}", headers=ann.headers)
            assert r.status_code == 200
    assert waits == [0.05, 0.1, 0.15]  # one every 1/20 s, none at once

"""``/metrics``: who may read it, and that its numbers follow what happens (moves accepted and
refused, rate limits, the gauges read at scrape time); ``/api/health`` and ``/api/ready``."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from app.clock import ManualClock
from app.errors import RateLimited
from app.ratelimit import LimitName, RateLimiter, parse_rule, storage_for
from tests.conftest import Player
from tests.games import game, open_table, start

TOKEN = "operator-token-for-tests"


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def scrape(app: Any) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    local = TestClient(app, client=("127.0.0.1", 40000))
    r = local.get("/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return samples(r.text)


@pytest.fixture
def token(app: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(app.state.settings, "metrics_token", TOKEN)
    return TOKEN


def test_metrics_are_served_on_loopback_and_with_the_token_only(app: Any, token: str) -> None:
    outside = TestClient(app, client=("203.0.113.9", 40000))
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {token}"}):
        r = outside.get("/metrics", headers=headers)
        assert r.status_code == 404
        assert r.json()["error"]["code"] == "not_found"
    assert outside.get("/metrics", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    local = TestClient(app, client=("127.0.0.1", 40000))
    assert local.get("/metrics").status_code == 200
    assert TestClient(app, client=("::1", 40000)).get("/metrics").status_code == 200
    # a request a proxy on this machine forwarded came from elsewhere
    forwarded = local.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"})
    assert forwarded.status_code == 404


def test_without_a_token_setting_only_loopback_reads_them(app: Any) -> None:
    assert app.state.settings.metrics_token == ""
    outside = TestClient(app, client=("203.0.113.9", 40000))
    assert outside.get("/metrics", headers={"Authorization": "Bearer "}).status_code == 404


def test_moves_accepted_and_refused_move_the_counters(
    client: TestClient, app: Any, ann: Player, bob: Player
) -> None:
    t = open_table(client, [ann, bob])
    start(client, t["id"], ann)
    before = scrape(app)
    g = game(client, t["id"], ann)
    body = {"move": g["legal_moves"][0], "expected_version": g["version"], "move_id": "m1"}
    assert client.post(f"/api/tables/{t['id']}/moves", json=body, headers=ann.headers).is_success
    again = client.post(f"/api/tables/{t['id']}/moves", json=body, headers=ann.headers)
    assert again.json()["duplicate"] is True
    stale = {**body, "move_id": "m2"}  # the version moved on
    r = client.post(f"/api/tables/{t['id']}/moves", json=stale, headers=ann.headers)
    assert r.json()["error"]["code"] == "stale_version"
    g = game(client, t["id"], ann)
    out_of_turn = {"move": g["legal_moves"][0], "expected_version": g["version"], "move_id": "m3"}
    r = client.post(f"/api/tables/{t['id']}/moves", json=out_of_turn, headers=bob.headers)
    assert r.status_code == 409
    illegal = r.json()["error"]["code"]  # Bob's seat may not make Ann's move
    after = scrape(app)

    def moved(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    assert moved("emara_moves_accepted_total") == 1
    assert moved("emara_moves_repeated_total") == 1
    assert moved("emara_moves_refused_total", reason="stale_version") == 1
    assert moved("emara_moves_refused_total", reason=illegal) == 1
    assert moved("emara_move_seconds_count") == 1
    assert moved("emara_move_seconds_bucket", le="+Inf") == 1
    assert moved("emara_move_seconds_sum") > 0
    # gauges read at scrape time
    assert after[("emara_tables", (("state", "playing"),))] == 1
    assert after[("emara_tables", (("state", "lobby"),))] == 0
    for queue in ("email_sender", "push_sender", "email_outbox", "analysis_queued"):
        assert after[("emara_queue_length", (("queue", queue),))] == 0
    assert after[("emara_worker_threads", (("use", "limit"),))] >= 1
    assert ("emara_open_sockets", (("kind", "table_socket"),)) in after
    assert ("emara_db_pool_connections", (("use", "checked_out"),)) in after


def test_rate_limit_refusals_are_counted_by_limit_name() -> None:
    limiter = RateLimiter(
        storage_for("memory://"), ManualClock(), [parse_rule(LimitName.MOVE, "1/minute")]
    )

    async def twice() -> None:
        await limiter.check(LimitName.MOVE, ["p1"])
        with pytest.raises(RateLimited):
            await limiter.check(LimitName.MOVE, ["p1"])

    asyncio.run(twice())
    assert limiter.tally.by_limit == {"move": 1}


def test_rate_limit_refusals_reach_the_scrape(app: Any) -> None:
    app.state.limit_tally.refuse("invite")
    got = scrape(app)
    assert got[("emara_rate_limit_refusals_total", (("limit", "invite"),))] >= 1
    assert ("emara_rate_limit_refusals_total", (("limit", "socket_frames"),)) in got


def test_health_needs_no_database_and_ready_does(
    client: TestClient, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert client.get("/api/ready").json() == {
        "status": "ok",
        "database": app.state.db.engine.dialect.name,
    }

    def down() -> None:
        raise ConnectionError("the database is away")

    monkeypatch.setattr(app.state.db, "ping", down)
    assert client.get("/api/health").status_code == 200
    r = client.get("/api/ready")
    assert r.status_code == 503
    assert r.json()["error"]["code"] == "unavailable"

"""The HTTP request body limit: 413 body_too_large, nothing changed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import make_settings, new_player, wipe


@pytest.fixture
def small(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    from app.main import create_app

    wipe(database_url)
    application = create_app(make_settings(database_url, tmp_path, max_body_bytes=200))
    with TestClient(application) as c:
        yield c
    application.state.db.dispose()


def _too_large(r: Any, limit: int) -> None:
    assert r.status_code == 413, r.text
    err = r.json()["error"]
    assert err["code"] == "body_too_large" and err["limit"] == limit and err["message"]


def test_default_limit_is_64_kib() -> None:
    from app.config import Settings

    assert Settings().max_body_bytes == 65_536


def test_declared_length_over_the_limit(small: TestClient) -> None:
    ann = new_player(small, "Ann")
    body = {"seats": 2, "options": {"x": "y" * 400}}
    r = small.post("/api/tables", json=body, headers=ann.headers)
    _too_large(r, 200)
    assert small.get("/api/tables", headers=ann.headers).json()["tables"] == []
    # Under the limit, the same endpoint works.
    r = small.post("/api/tables", json={"seats": 2, "options": {}}, headers=ann.headers)
    assert r.status_code == 201, r.text


def test_chunked_body_over_the_limit(small: TestClient) -> None:
    payload = json.dumps({"name": "A" * 500}).encode()

    def chunks() -> Iterator[bytes]:
        for i in range(0, len(payload), 64):
            yield payload[i : i + 64]

    r = small.post("/api/profiles", content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in {k.lower() for k in r.request.headers}
    _too_large(r, 200)

    def short() -> Iterator[bytes]:
        yield b'{"name": '
        yield b'"Bo"}'

    r = small.post("/api/profiles", content=short(), headers={"content-type": "application/json"})
    assert r.status_code == 201, r.text


def test_environment_sets_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.config import Settings

    monkeypatch.setenv("EMARA_MAX_BODY_BYTES", "1234")
    assert Settings().max_body_bytes == 1234

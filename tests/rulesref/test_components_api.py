"""GET /api/rules/components: the engine's component numbers, public, read-only, cached."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.rulesref.service import build_document
from tests.rulesref.paths import resolve, shown

DATA = Path(__file__).resolve().parents[2] / "app" / "rules" / "data" / "components.json"


def test_serves_the_engine_file_to_anyone(client: Any) -> None:
    r = client.get("/api/rules/components")
    assert r.status_code == 200
    assert r.json() == json.loads(DATA.read_text(encoding="utf-8"))
    assert r.headers["cache-control"] == "public, max-age=300"
    assert r.headers["etag"].startswith('"')


def test_a_current_tag_is_answered_with_not_modified(client: Any) -> None:
    tag = client.get("/api/rules/components").headers["etag"]
    r = client.get("/api/rules/components", headers={"If-None-Match": f'"old", {tag}'})
    assert r.status_code == 304
    assert r.content == b""
    stale = client.get("/api/rules/components", headers={"If-None-Match": '"old"'})
    assert stale.status_code == 200


def test_only_get_is_answered(client: Any) -> None:
    assert client.post("/api/rules/components", json={}).status_code in (403, 405)


def test_an_unknown_section_never_leaves_the_server() -> None:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    raw["seed"] = 42
    with pytest.raises(ValueError):
        build_document(raw)


def test_paths_resolve_like_the_page() -> None:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    assert resolve(raw, "advisors.A.3.cost.stone") == raw["advisors"]["A"][3]["cost"]["stone"]
    assert resolve(raw, "favor_tokens.tokens.length") == len(raw["favor_tokens"]["tokens"])
    assert resolve(raw, "market_books_cp.3.@key") == "3"
    assert resolve(raw, "markers.gift.2-3.@key") == "2-3"
    with pytest.raises(KeyError):
        resolve(raw, "market_books_cp.9.@key")
    assert shown(-5, signed=True) == "−5" and shown(2, signed=True) == "+2"

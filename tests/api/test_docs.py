"""docs/protocol.md names every HTTP route of the app and every socket frame type."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _documented(text: str, method: str, path: str) -> bool:
    # The docs write the table id as {id}; a query string or the end of the code span may follow.
    path = path.replace("{table_id}", "{id}")
    return re.search(re.escape(f"{method} {path}") + r"(?=[`\[\s?]|$)", text) is not None


def test_every_route_is_in_protocol_md(app: Any) -> None:
    text = PROTOCOL.read_text()
    routes = [
        (method.upper(), path) for path, ops in app.openapi()["paths"].items() for method in ops
    ]
    assert len(routes) >= 16
    missing = [f"{m} {p}" for m, p in routes if not _documented(text, m, p)]
    assert missing == []


def test_documentation_check_would_catch_a_missing_route() -> None:
    assert _documented(
        "### `GET /api/tables/{id}/game[?invite=CODE]`", "GET", "/api/tables/{table_id}/game"
    )
    assert not _documented("### `GET /api/tables/{id}/game`", "GET", "/api/tables/{table_id}")
    assert not _documented("### `POST /api/solo`", "GET", "/api/solo")


def test_every_socket_frame_type_is_in_protocol_md() -> None:
    from typing import get_args

    from app.frames_schema import ServerFrame
    from app.realtime.frames import ClientFrame

    text = PROTOCOL.read_text()
    types = {
        model.model_fields["type"].annotation.__args__[0]
        for union in (ClientFrame, ServerFrame)
        for model in get_args(get_args(union)[0])
    }
    assert {"welcome", "lobby", "accepted", "error", "hello", "move", "snapshot"} <= types
    missing = sorted(t for t in types if f'"type": "{t}"' not in text)
    assert missing == []


def test_committed_openapi_document_is_current() -> None:
    from app.openapi import render

    committed = (PROTOCOL.parent / "openapi.json").read_text(encoding="utf-8")
    assert committed == render(), "docs/openapi.json is stale: python -m app.openapi > it"

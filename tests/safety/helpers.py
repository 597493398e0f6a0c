"""Tables with people and chat messages for the tests of reports and blocks."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient

from app.tables.types import Viewer
from tests import games
from tests.conftest import Player


def table(client: TestClient, *players: Player, **options: Any) -> dict[str, Any]:
    """A table in its lobby: the first player hosts, the rest joined in order (seats 0, 1, …)."""
    return games.open_table(client, list(players), options)


def say(app: Any, table_id: str, who: Player, seat: int | None, text: str) -> int:
    """``who`` writes ``text`` at the table (as the socket's chat frame does); the message id."""
    app.state.chat.rate, app.state.chat.burst = 1000.0, 1000
    viewer = Viewer(table_id, seat, who.id)
    posted = asyncio.run(app.state.chat.post(viewer, text, f"m-{who.id}-{text}"[:64]))
    return int(posted.message["id"])


def report(
    client: TestClient, table_id: str, who: Player, invite: str | None = None, **body: Any
) -> Any:
    body.setdefault("reason", "harassment")
    params = {"invite": invite} if invite else None
    return client.post(
        f"/api/tables/{table_id}/reports", json=body, params=params, headers=who.headers
    )


def code(r: Any) -> str:
    return str(r.json()["error"]["code"])

"""Tables opened through the HTTP API as clients would, played to the end in process
(tests/games.py), and the invitations a person is answered."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests import games
from tests.conftest import Player


def open_table(
    client: TestClient, players: list[Player], start: bool = True, **options: Any
) -> dict[str, Any]:
    t = games.open_table(client, players, options)
    if start:
        t = games.start(client, t["id"], players[0])
    return t


def play_to_end(client: TestClient, table_id: str, players: list[Player], seed: int = 3) -> None:
    """The seats play legal moves (mostly ending their turns) until the game is over."""
    games.play_out(client, table_id, seed)
    g = games.game(client, table_id, players[0])
    assert g["status"] == "finished", g["status"]


def finished_game(client: TestClient, players: list[Player], **options: Any) -> str:
    t = open_table(client, players, **options)
    play_to_end(client, t["id"], players)
    return str(t["id"])


def my_invitations(client: TestClient, who: Player) -> list[dict[str, Any]]:
    r = client.get("/api/me/invitations", headers=who.headers)
    assert r.status_code == 200, r.text
    return r.json()["invitations"]  # type: ignore[no-any-return]

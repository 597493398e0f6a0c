"""Tables opened, played to the end and answered through the HTTP API, as clients would."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import Player, pick_move


def open_table(
    client: TestClient, players: list[Player], start: bool = True, **options: Any
) -> dict[str, Any]:
    body = {"seats": len(players), "options": {"start_player": 0, **options}}
    r = client.post("/api/tables", json=body, headers=players[0].headers)
    assert r.status_code == 201, r.text
    t = r.json()
    for p in players[1:]:
        r = client.post(
            f"/api/tables/{t['id']}/join", json={"invite_code": t["invite_code"]}, headers=p.headers
        )
        assert r.status_code == 200, r.text
    if start:
        r = client.post(f"/api/tables/{t['id']}/start", headers=players[0].headers)
        assert r.status_code == 200, r.text
        t = r.json()
    return t  # type: ignore[no-any-return]


def play_to_end(client: TestClient, table_id: str, players: list[Player], seed: int = 3) -> None:
    """Every seat plays legal moves (mostly ending its turn) until the game is over."""
    rng = random.Random(seed)
    for n in range(5000):
        moved = False
        for p in players:
            g = client.get(f"/api/tables/{table_id}/game", headers=p.headers).json()
            if g["status"] == "finished":
                return
            if not g["legal_moves"]:
                continue
            move = pick_move(g["legal_moves"], rng)
            r = client.post(
                f"/api/tables/{table_id}/moves",
                json={"move": move, "expected_version": g["version"], "move_id": f"e{n}"},
                headers=p.headers,
            )
            assert r.status_code == 200, r.text
            moved = True
        assert moved, "nobody could move"
    raise AssertionError("the game did not end")


def finished_game(client: TestClient, players: list[Player], **options: Any) -> str:
    t = open_table(client, players, **options)
    play_to_end(client, t["id"], players)
    return str(t["id"])


def my_invitations(client: TestClient, who: Player) -> list[dict[str, Any]]:
    r = client.get("/api/me/invitations", headers=who.headers)
    assert r.status_code == 200, r.text
    return r.json()["invitations"]  # type: ignore[no-any-return]

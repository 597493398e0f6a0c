"""Games finished through the HTTP API with a chosen seed, for the record and replay tests."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import Player, pick_move


def open_table(
    client: TestClient, players: list[Player], options: dict[str, Any] | None = None
) -> str:
    """A table of ``players`` (the first hosts), joined by the rest; not started."""
    host = players[0]
    body = {"seats": len(players), "options": {"start_player": 0, **(options or {})}}
    r = client.post("/api/tables", json=body, headers=host.headers)
    assert r.status_code == 201, r.text
    t = r.json()
    for p in players[1:]:
        r = client.post(
            f"/api/tables/{t['id']}/join", json={"invite_code": t["invite_code"]}, headers=p.headers
        )
        assert r.status_code == 200, r.text
    return str(t["id"])


def start(app: Any, client: TestClient, table_id: str, host: Player, seed: int) -> None:
    """Start the game with a chosen seed (the lobby's seed source, injected)."""
    app.state.service.lobbies.new_seed = lambda: seed
    r = client.post(f"/api/tables/{table_id}/start", headers=host.headers)
    assert r.status_code == 200, r.text


def play(
    client: TestClient,
    table_id: str,
    players: list[Player],
    seed: int,
    stop_after: int | None = None,
) -> dict[str, Any]:
    """Play random legal moves (each seat through its own requests) until the game ends, or
    ``stop_after`` moves; the last game read of the seat that moved."""
    rng = random.Random(seed)
    g = client.get(f"/api/tables/{table_id}/game", headers=players[0].headers).json()
    for n in range(5000):
        if g["status"] == "finished" or (stop_after is not None and n >= stop_after):
            return dict(g)
        mover = players[g["view"]["to_act"][0]]
        if g["seat"] != players.index(mover):
            g = client.get(f"/api/tables/{table_id}/game", headers=mover.headers).json()
        move = pick_move(g["legal_moves"], rng)
        r = client.post(
            f"/api/tables/{table_id}/moves",
            json={"move": move, "expected_version": g["version"], "move_id": f"m{n}"},
            headers=mover.headers,
        )
        assert r.status_code == 200, r.text
        g = client.get(f"/api/tables/{table_id}/game", headers=mover.headers).json()
    raise AssertionError("the game did not end")


def finish(app: Any, client: TestClient, players: list[Player], seed: int, **options: Any) -> str:
    """A seeded game of ``players`` opened, started and played to its end: its table id."""
    app.state.service.lobbies.new_seed = lambda: seed  # a solo table starts as it opens
    table_id = open_table(client, players, options)
    if len(players) > 1:
        start(app, client, table_id, players[0], seed)
    play(client, table_id, players, seed)
    return table_id

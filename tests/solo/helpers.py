"""Playing a solo game through the HTTP API, as a client would."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient


def play_to_end(
    client: TestClient, headers: dict[str, str], table_id: str, seed: int = 0, limit: int = 2000
) -> dict[str, Any]:
    """Play legal moves (chosen by a seeded RNG) until the game is over; returns the last game."""
    rng = random.Random(seed)
    for n in range(limit):
        r = client.get(f"/api/tables/{table_id}/game", headers=headers)
        assert r.status_code == 200, r.text
        game = r.json()
        if game["view"]["outcome"] is not None:
            return game
        move = rng.choice(game["legal_moves"])
        r = client.post(
            f"/api/tables/{table_id}/moves",
            headers=headers,
            json={"move": move, "expected_version": game["version"], "move_id": f"m{n}"},
        )
        assert r.status_code == 200, r.text
    raise AssertionError("the solo game did not end")

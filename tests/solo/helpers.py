"""A solo game played to its end: moves chosen uniformly by a seeded RNG, played by the engine in
process (tests/games.py); the game read back as its player's client reads it."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests import games


def play_to_end(
    client: TestClient, headers: dict[str, str], table_id: str, seed: int = 0, limit: int = 2000
) -> dict[str, Any]:
    """Play legal moves (chosen by a seeded RNG) until the game is over; returns the last game."""
    games.play_out(client, table_id, seed, stop_after=limit, policy=games.any_move)
    r = client.get(f"/api/tables/{table_id}/game", headers=headers)
    assert r.status_code == 200, r.text
    game: dict[str, Any] = r.json()
    assert game["view"]["outcome"] is not None, "the solo game did not end"
    return game

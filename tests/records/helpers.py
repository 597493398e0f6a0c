"""Games with a chosen seed for the record and replay tests: the lobby through the HTTP API, the
moves played out by the engine in process (tests/games.py)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests import games
from tests.conftest import Player


def open_table(
    client: TestClient, players: list[Player], options: dict[str, Any] | None = None
) -> str:
    """A table of ``players`` (the first hosts), joined by the rest; not started."""
    return str(games.open_table(client, players, options)["id"])


def start(app: Any, client: TestClient, table_id: str, host: Player, seed: int) -> None:
    """Start the game with a chosen seed (the lobby's seed source, injected)."""
    assert client.app is app
    games.start(client, table_id, host, seed)


def play(
    client: TestClient,
    table_id: str,
    players: list[Player],
    seed: int,
    stop_after: int | None = None,
) -> dict[str, Any]:
    """Play moves chosen with ``seed`` (mostly ending the turn) until the game ends, or
    ``stop_after`` moves; the game as the seat that moved last reads it."""
    games.play_out(client, table_id, seed, stop_after)
    g = games.game(client, table_id, players[0])
    if g["log"] and g["log"][-1]["seat"] != 0:
        g = games.game(client, table_id, players[g["log"][-1]["seat"]])
    return g


def finish(app: Any, client: TestClient, players: list[Player], seed: int, **options: Any) -> str:
    """A seeded game of ``players`` opened, started and played to its end: its table id."""
    assert client.app is app
    return games.finish(client, players, seed, **options)

"""Tables for tests: opened, joined and started through the HTTP API as clients do (a few cheap
requests), their games then played out by the engine in process (app/devtools/finished.py) and
stored as the server's move transaction stores them.

One way for every folder: ``open_table`` and ``start`` for the lobby, ``play_out`` for the moves
(to the end, or ``stop_after`` of them), ``finish`` for a seeded game opened, started and played
to its end. The tests about playing itself (tests/api/test_game.py, the socket's game, the
browser's) play through the server and do not use these.
"""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from app.devtools import finished
from tests.conftest import Player

Policy = finished.Policy
ending_turns = finished.ending_turns


def any_move(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Any legal move, chosen uniformly (the solo players' policy)."""
    return rng.choice(legal)


def open_table(
    client: TestClient, players: list[Player], options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A table of ``players`` (the first hosts, seat 0 starts unless ``options`` say otherwise),
    joined by the rest; not started. The table as created (with its invite code)."""
    body = {"seats": len(players), "options": {"start_player": 0, **(options or {})}}
    r = client.post("/api/tables", json=body, headers=players[0].headers)
    assert r.status_code == 201, r.text
    t: dict[str, Any] = r.json()
    for p in players[1:]:
        r = client.post(
            f"/api/tables/{t['id']}/join", json={"invite_code": t["invite_code"]}, headers=p.headers
        )
        assert r.status_code == 200, r.text
    return t


def seed_next_games(client: TestClient, seed: int) -> None:
    """Games started from now on are dealt from ``seed`` (the lobby's seed source, injected)."""
    client.app.state.service.lobbies.new_seed = lambda: seed  # type: ignore[attr-defined]


def start(client: TestClient, table_id: str, host: Player, seed: int | None = None) -> Any:
    """Start the game (dealt from ``seed`` when given); the started table."""
    if seed is not None:
        seed_next_games(client, seed)
    r = client.post(f"/api/tables/{table_id}/start", headers=host.headers)
    assert r.status_code == 200, r.text
    return r.json()


def play_out(
    client: TestClient,
    table_id: str,
    seed: int = 0,
    stop_after: int | None = None,
    policy: Policy = ending_turns,
) -> int:
    """The started table's game played by the engine in process to its end (or ``stop_after``
    moves), moves chosen by ``policy`` seeded with ``seed``; the table's version afterwards."""
    service = client.app.state.service  # type: ignore[attr-defined]
    portal = getattr(client, "portal", None)  # the client's event loop, while it runs
    on_loop = portal.call if portal is not None else None
    return finished.play_out(service, table_id, seed, stop_after, policy, on_loop)


def finish(client: TestClient, players: list[Player], seed: int, **options: Any) -> str:
    """A game of ``players`` dealt from ``seed`` (a solo table starts as it opens), played to
    its end with moves seeded by ``seed``: its table id."""
    seed_next_games(client, seed)
    table_id = str(open_table(client, players, options)["id"])
    if len(players) > 1:
        start(client, table_id, players[0])
    play_out(client, table_id, seed)
    return table_id


def game(client: TestClient, table_id: str, who: Player) -> dict[str, Any]:
    """The game as ``who`` reads it."""
    r = client.get(f"/api/tables/{table_id}/game", headers=who.headers)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]

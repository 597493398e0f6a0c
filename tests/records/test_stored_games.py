"""The audits of stored games, over games of every kind: each game in the database replays from
its seed to exactly its stored snapshot, and each finished game's record, exported as JSON and
imported again, replays to that snapshot and to the events of its move log (docs/records.md).

These once ran after every test of the suite; here they run over many games at once: two to four
seats and solo, every option, games played out by the engine (app/devtools/finished.py), a game
played through the server with moves taken back, and games left in the middle.
"""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import (
    Player,
    assert_records_round_trip,
    assert_replays,
    new_player,
    pick_move,
)
from tests.games import play_out
from tests.records.helpers import open_table, start

KINDS: list[tuple[int, dict[str, Any]]] = [
    (1, {"building_start": 20}),
    (1, {"building_start": 35, "random_locations": True}),
    (2, {}),
    (2, {"full_selection": True, "undo": False}),
    (3, {"random_locations": True}),
    (4, {"full_selection": True}),
]


def started(app: Any, client: TestClient, players: list[Player], seed: int, **options: Any) -> str:
    app.state.service.lobbies.new_seed = lambda: seed  # a solo table starts as it opens
    table_id = open_table(client, players, options)
    if len(players) > 1:
        start(app, client, table_id, players[0], seed)
    return table_id


def test_games_of_every_kind_replay_and_round_trip(app: Any, client: TestClient) -> None:
    players = [new_player(client, name) for name in ("Ann", "Bob", "Cid", "Dee")]
    finished = 0
    for n, (seats, options) in enumerate(KINDS):
        for seed in (n + 1, n + 40):
            table_id = started(app, client, players[:seats], seed, **options)
            play_out(client, table_id, seed)
            finished += 1
        # and one left in the middle of its game
        table_id = started(app, client, players[:seats], n + 80, **options)
        play_out(client, table_id, n, stop_after=17 + n)
    assert finished == 2 * len(KINDS)
    assert_replays(app)
    assert_records_round_trip(app)


def test_a_game_played_through_the_server_with_moves_taken_back_replays_and_round_trips(
    app: Any, client: TestClient
) -> None:
    """The server's log holds the moves taken back and the undos; the game replays through
    them all, and its record (the moves that stand) replays to the same snapshot."""
    players = [new_player(client, name) for name in ("Ann", "Bob")]
    table_id = started(app, client, players, 5)
    rng = random.Random(5)
    taken_back = 0
    g = client.get(f"/api/tables/{table_id}/game", headers=players[0].headers).json()
    for n in range(40):
        mover = players[g["view"]["to_act"][0]]
        g = client.get(f"/api/tables/{table_id}/game", headers=mover.headers).json()
        points = g["view"]["turn"]["undo"]
        if points and n % 3 == 2:
            move = {"kind": "undo", "to": points[0]["to"]}
        else:
            move = pick_move(g["legal_moves"], rng)
        taken_back += move["kind"] == "undo"
        r = client.post(
            f"/api/tables/{table_id}/moves",
            json={"move": move, "expected_version": g["version"], "move_id": f"u{n}"},
            headers=mover.headers,
        )
        assert r.status_code == 200, r.text
        g = client.get(f"/api/tables/{table_id}/game", headers=mover.headers).json()
    assert taken_back > 0
    play_out(client, table_id, 5)
    assert_replays(app)
    assert_records_round_trip(app)

"""After the last move every score the server hands out is the final one: the tracks after the
leftover goods (the engine's outcome), in the game's ``scores``, the lobby's outcome and My games;
the solo sheet's best scores and next campaign game follow the engine's solo outcome."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests import games
from tests.conftest import Player, new_player
from tests.solo.helpers import play_to_end as solo_play_to_end

GAME_SEED = 5


def play_to_end(client: TestClient, players: list[Player], seed: int) -> dict[str, Any]:
    """A table of ``players`` opened, joined, started and played to its end (in process, moves
    chosen with ``seed``); the host's game."""
    t = games.open_table(client, players)
    if len(players) > 1:
        games.start(client, t["id"], players[0])
    games.play_out(client, t["id"], seed)
    g = games.game(client, t["id"], players[0])
    assert g["status"] == "finished", g["status"]
    return g


def test_scores_after_the_end_are_the_final_tracks(
    client: TestClient, ann: Player, bob: Player
) -> None:
    cid = new_player(client, "Cid")
    # A game's seed is secret and random; this one (with these moves) ends with leftover goods.
    client.app.state.service.lobbies.new_seed = lambda: GAME_SEED
    final = play_to_end(client, [ann, bob, cid], seed=5)
    outcome = final["view"]["outcome"]
    assert outcome is not None
    moved = [p for p in outcome["players"] if p["leftover"]["points"]]
    assert moved, "the game should leave someone leftover goods"
    by_seat = {p["seat"]: p for p in outcome["players"]}
    got = {s["seat"]: (s["cp"], s["bp"], s["score"]) for s in final["scores"]}
    assert got == {seat: (p["cp"], p["bp"], p["score"]) for seat, p in by_seat.items()}
    listed = client.get("/api/me/tables", headers=ann.headers).json()
    (mine,) = [x for x in listed["tables"] if x["group"] == "finished"]
    me = by_seat[0]
    assert (mine["result"]["place"], mine["result"]["of"]) == (me["rank"], 3)
    assert mine["result"]["score"] == me["score"]


def test_a_campaign_game_counts_as_its_start_values_best_score_and_sets_the_next(
    client: TestClient, ann: Player
) -> None:
    r = client.post("/api/solo", headers=ann.headers, json={"mode": "campaign"})
    assert r.status_code == 201, r.text
    tid = r.json()["table_id"]
    end = solo_play_to_end(client, ann.headers, tid, seed=2)
    outcome = end["view"]["outcome"]
    me, victoria = outcome["players"][0], outcome["victoria"]
    # one ranking of the player and Victoria, agreeing with the result
    assert (me["rank"], victoria["rank"]) == ((1, 2) if outcome["won"] else (2, 1))
    sheet = client.get("/api/profiles/me/solo", headers=ann.headers).json()
    assert sheet["high_scores"] == {"40": me["score"]}
    assert sheet["campaign"]["next_start"] == (35 if outcome["won"] else 42)
    (result,) = sheet["results"]
    assert (result["table_id"], result["mode"], result["won"]) == (tid, "campaign", outcome["won"])

"""A profile's history: only its own finished games, results read from each game's outcome,
the aggregates over them, and paging."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import Player
from tests.records.helpers import finish, open_table


def outcome_of(client: TestClient, player: Player, table_id: str) -> dict[str, Any]:
    r = client.get(f"/api/replays/{table_id}", headers=player.headers)
    assert r.status_code == 200, r.text
    return dict(r.json()["outcome"])


def test_history_lists_only_my_finished_games_with_results_and_aggregates(
    app: Any, client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    duel = finish(app, client, [ann, bob], seed=7)
    solo_a = finish(app, client, [ann], seed=11, building_start=30)
    solo_b = finish(app, client, [ann], seed=12, building_start=30)
    solo_c = finish(app, client, [ann], seed=13, building_start=20)
    others = finish(app, client, [bob, eve], seed=9)  # not ann's
    running = open_table(client, [ann, bob])  # not finished

    r = client.get("/api/profiles/me/history", headers=ann.headers)
    assert r.status_code == 200, r.text
    out = r.json()
    ids = [g["replay_id"] for g in out["games"]]
    assert out["total"] == 4 and out["next_offset"] is None
    assert ids == [solo_c, solo_b, solo_a, duel]  # newest first
    assert others not in ids and running not in ids

    results = {tid: outcome_of(client, ann, tid) for tid in (duel, solo_a, solo_b, solo_c)}
    for g in out["games"]:
        o = results[g["replay_id"]]
        mine = next(p for p in o["players"] if p["seat"] == g["my_seat"])
        assert (g["score"], g["cp"], g["bp"], g["rank"]) == (
            mine["score"],
            mine["cp"],
            mine["bp"],
            mine["rank"],
        )
        assert g["won"] == o["won"]
        assert [s["seat"] for s in g["seats"]] == list(range(g["players"]))
    duel_game = next(g for g in out["games"] if g["replay_id"] == duel)
    assert duel_game["players"] == 2 and duel_game["of"] == 2
    assert [s["name"] for s in duel_game["seats"]] == [ann.name, bob.name]
    assert duel_game["building_start"] is None and duel_game["victoria_score"] is None

    solo_scores = {t: results[t]["players"][0]["score"] for t in (solo_a, solo_b, solo_c)}
    by = {a["players"]: a for a in out["by_players"]}
    assert set(by) == {1, 2}
    assert by[1]["games"] == 3
    assert by[1]["average_score"] == round(sum(solo_scores.values()) / 3, 1)
    assert by[1]["best_score"] == max(solo_scores.values())
    assert by[2]["games"] == 1 and by[2]["average_score"] == duel_game["score"]

    vic = {v["building_start"]: v for v in out["victoria"]}
    assert [v["building_start"] for v in out["victoria"]] == [20, 30]
    assert vic[30]["games"] == 2 and vic[20]["games"] == 1
    assert vic[30]["best_score"] == max(solo_scores[solo_a], solo_scores[solo_b])
    assert vic[30]["won"] == sum(1 for t in (solo_a, solo_b) if results[t]["won"])
    assert vic[20]["average_score"] == solo_scores[solo_c]

    assert [p["replay_id"] for p in out["timeline"]] == [duel, solo_a, solo_b, solo_c]

    # eve's history holds her one game, not ann's
    theirs = client.get("/api/profiles/me/history", headers=eve.headers).json()
    assert [g["replay_id"] for g in theirs["games"]] == [others]


def test_history_pages(app: Any, client: TestClient, ann: Player) -> None:
    ids = [finish(app, client, [ann], seed=30 + i, building_start=35) for i in range(3)]
    first = client.get("/api/profiles/me/history?limit=2", headers=ann.headers).json()
    assert [g["replay_id"] for g in first["games"]] == [ids[2], ids[1]]
    assert first["total"] == 3 and first["next_offset"] == 2
    # the aggregates cover every game whatever the page
    assert first["by_players"][0]["games"] == 3 and len(first["timeline"]) == 3
    second = client.get(
        f"/api/profiles/me/history?limit=2&offset={first['next_offset']}", headers=ann.headers
    ).json()
    assert [g["replay_id"] for g in second["games"]] == [ids[0]]
    assert second["next_offset"] is None


def test_history_needs_a_profile_and_refuses_bad_paging(client: TestClient, ann: Player) -> None:
    assert client.get("/api/profiles/me/history").status_code == 401
    for q in ("limit=0", "limit=101", "offset=-1", "limit=x"):
        r = client.get(f"/api/profiles/me/history?{q}", headers=ann.headers)
        assert r.status_code == 422, q
    empty = client.get("/api/profiles/me/history", headers=ann.headers).json()
    assert empty["games"] == [] and empty["total"] == 0 and empty["by_players"] == []


def _bot_played(app: Any, table_id: str, seat: int, *, moves: int = 0, holds: bool = False) -> None:
    """As the bot runner leaves it: ``moves`` of the seat's moves made by a bot (its move ids),
    and the seat still handed to a bot at the end when ``holds``."""
    from sqlalchemy import select, update

    from app.db.models import MoveRecord, Seat

    with app.state.db.session() as s:
        ids = s.scalars(
            select(MoveRecord.id)
            .where(MoveRecord.table_id == table_id, MoveRecord.seat == seat)
            .order_by(MoveRecord.version)
            .limit(moves)
        ).all()
        for n, move in enumerate(ids):
            s.execute(
                update(MoveRecord).where(MoveRecord.id == move).values(move_id=f"bot:{seat}:{n}")
            )
        if holds:
            s.execute(
                update(Seat)
                .where(Seat.table_id == table_id, Seat.seat == seat)
                .values(bot_level="easy")
            )


def test_games_a_bot_played_for_me_are_marked_and_left_out_of_my_figures(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    mine = finish(app, client, [ann, bob], seed=41)
    taken_back = finish(app, client, [ann, bob], seed=42)  # a bot played part, ann took it back
    left = finish(app, client, [ann, bob], seed=43)  # a bot held ann's seat at the end
    bobs = finish(app, client, [ann, bob], seed=44)  # a bot played bob's seat: ann's counts
    _bot_played(app, taken_back, 0, moves=3)
    _bot_played(app, left, 0, holds=True)
    _bot_played(app, bobs, 1, moves=5, holds=True)

    out = client.get("/api/profiles/me/history", headers=ann.headers).json()
    games = {g["replay_id"]: g for g in out["games"]}
    assert {t for t, g in games.items() if g["bot_played"]} == {taken_back, left}
    assert games[taken_back]["bot_moves"] == 3 and games[taken_back]["my_moves"] > 3
    assert games[mine]["bot_moves"] == 0 and games[bobs]["bot_moves"] == 0
    assert out["total"] == 4 and out["bot_games"] == 2 and out["with_bots"] is False
    own = [games[mine]["score"], games[bobs]["score"]]
    (two,) = out["by_players"]
    assert two["games"] == 2 and two["best_score"] == max(own)
    assert two["average_score"] == round(sum(own) / 2, 1)
    assert {p["replay_id"] for p in out["timeline"]} == {mine, bobs}

    # Asked for: the figures count them too.
    every = client.get("/api/profiles/me/history?with_bots=true", headers=ann.headers).json()
    assert every["with_bots"] is True and every["by_players"][0]["games"] == 4
    assert every["by_players"][0]["best_score"] == max(g["score"] for g in games.values())
    assert len(every["timeline"]) == 4
    # bob's own history: the game a bot played for him is his bot game
    theirs = client.get("/api/profiles/me/history", headers=bob.headers).json()
    assert [g["replay_id"] for g in theirs["games"] if g["bot_played"]] == [bobs]

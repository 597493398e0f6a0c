"""POST /api/solo and GET /api/profiles/me/solo on SQLite and Postgres."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.rules import data as rules_data
from app.solo.models import SoloGame
from tests.conftest import Player, pick_move
from tests.solo.helpers import play_to_end


def sheet(client: TestClient, p: Player) -> dict[str, Any]:
    r = client.get("/api/profiles/me/solo", headers=p.headers)
    assert r.status_code == 200, r.text
    return r.json()


def rows(app: Any, table_id: str | None = None) -> list[SoloGame]:
    with app.state.db.session() as s:
        q = select(SoloGame)
        if table_id is not None:
            q = q.where(SoloGame.table_id == table_id)
        return list(s.scalars(q))


def test_a_new_profile_has_an_empty_sheet(client: TestClient, ann: Player) -> None:
    body = sheet(client, ann)
    assert body["campaign"] == {
        "next_start": 40,
        "best_start": None,
        "best_score": None,
        "history": [],
    }
    assert body["high_scores"] == {}
    assert body["results"] == []
    assert body["open"] == []
    solo = rules_data.RAW["solo"]
    assert body["rules"] == {k: solo[k] for k in body["rules"]}
    assert set(body["rules"]) == {
        "campaign_first_start",
        "campaign_win_step",
        "campaign_loss_step",
    }


def test_high_score_game_is_recorded_once_when_it_ends(
    app: Any, client: TestClient, ann: Player
) -> None:
    r = client.post(
        "/api/solo", headers=ann.headers, json={"mode": "high_score", "building_start": 20}
    )
    assert r.status_code == 201, r.text
    started = r.json()
    table_id = started["table_id"]
    assert started["mode"] == "high_score"
    assert started["building_start"] == 20
    assert started["table"]["status"] == "playing"

    game = client.get(f"/api/tables/{table_id}/game", headers=ann.headers).json()
    assert game["view"]["players"] == 1
    assert game["view"]["options"]["building_start"] == 20
    assert game["view"]["victoria"] is not None
    assert game["view"]["players_state"][0]["bp"] == 20
    assert [g["table_id"] for g in sheet(client, ann)["open"]] == [table_id]

    end = play_to_end(client, ann.headers, table_id, seed=1)
    outcome = end["view"]["outcome"]

    # Recorded by the after-commit hook, before anybody read the sheet.
    (row,) = rows(app, table_id)
    assert row.finished_at is not None
    assert row.score == outcome["players"][0]["score"]
    assert row.victoria_score == outcome["victoria"]["score"]
    assert row.won == outcome["won"]

    body = sheet(client, ann)
    assert body["open"] == []
    (result,) = body["results"]
    assert result["table_id"] == table_id
    assert result["mode"] == "high_score"
    assert result["building_start"] == 20
    me = outcome["players"][0]
    assert (result["cp"], result["bp"], result["score"]) == (me["cp"], me["bp"], me["score"])
    assert result["victoria_score"] == outcome["victoria"]["score"]
    assert result["won"] is (me["score"] > outcome["victoria"]["score"])
    assert body["high_scores"] == {"20": me["score"]}
    # A high-score game leaves the campaign alone.
    assert body["campaign"]["next_start"] == 40
    assert body["campaign"]["history"] == []

    # Recording again (hook, later reads) changes nothing: one result per table.
    import anyio

    assert anyio.run(app.state.solo.record, table_id) is False
    assert sheet(client, ann)["results"] == body["results"]
    with app.state.db.session() as s:
        assert s.scalar(select(func.count()).select_from(SoloGame)) == 1


def test_campaign_starts_at_its_next_value_and_resumes_an_open_game(
    client: TestClient, ann: Player, bob: Player
) -> None:
    first = client.post("/api/solo", headers=ann.headers, json={"mode": "campaign"})
    assert first.status_code == 201, first.text
    assert first.json()["building_start"] == 40
    assert first.json()["resumed"] is False
    table_id = first.json()["table_id"]

    again = client.post("/api/solo", headers=ann.headers, json={"mode": "campaign"})
    assert again.status_code == 201
    assert again.json()["table_id"] == table_id
    assert again.json()["resumed"] is True

    # Another profile has a campaign of its own.
    other = client.post("/api/solo", headers=bob.headers, json={"mode": "campaign"})
    assert other.json()["table_id"] != table_id
    assert other.json()["building_start"] == 40

    end = play_to_end(client, ann.headers, table_id, seed=2)
    won = end["view"]["outcome"]["won"]
    body = sheet(client, ann)
    expected = 35 if won else 42
    assert body["campaign"]["next_start"] == expected
    assert [g["building_start"] for g in body["campaign"]["history"]] == [40]
    assert body["campaign"]["best_start"] == (40 if won else None)

    second = client.post("/api/solo", headers=ann.headers, json={"mode": "campaign"})
    assert second.json()["table_id"] != table_id
    assert second.json()["building_start"] == expected
    game = client.get(f"/api/tables/{second.json()['table_id']}/game", headers=ann.headers)
    assert game.json()["view"]["players_state"][0]["bp"] == expected


def test_high_score_without_a_start_value_uses_the_engine_default(
    client: TestClient, ann: Player
) -> None:
    r = client.post("/api/solo", headers=ann.headers, json={"mode": "high_score"})
    assert r.status_code == 201, r.text
    game = client.get(f"/api/tables/{r.json()['table_id']}/game", headers=ann.headers).json()
    assert r.json()["building_start"] == game["view"]["options"]["building_start"]


def test_bad_input_is_refused_and_changes_nothing(
    app: Any, client: TestClient, ann: Player
) -> None:
    bad = [
        {"mode": "tournament"},
        {"mode": "campaign", "building_start": 30},
        {"mode": "high_score", "building_start": -1},
        {"mode": "high_score", "building_start": "20"},
        {"mode": "high_score", "extra": 1},
        {"mode": "high_score", "building_start": 10**30},
        {"mode": "high_score", "building_start": True},
        {"mode": "high_score", "building_start": 20.5},
        {"mode": ["campaign"]},
        [],
        {},
    ]
    for body in bad:
        r = client.post("/api/solo", headers=ann.headers, json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["error"]["code"] in ("malformed", "bad_options"), r.text
    r = client.post("/api/solo", json={"mode": "campaign"})
    assert r.status_code == 401
    assert client.get("/api/profiles/me/solo").status_code == 401
    assert rows(app) == []
    assert client.get("/api/tables", headers=ann.headers).json()["tables"] == []


def test_a_one_seat_table_from_the_table_form_counts_as_a_high_score_game(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    r = client.post(
        "/api/tables", headers=ann.headers, json={"seats": 1, "options": {"building_start": 33}}
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    # A two-seat game of Bob's is never a solo result.
    duo = client.post("/api/tables", headers=bob.headers, json={"seats": 2}).json()
    end = play_to_end(client, ann.headers, table_id, seed=3)
    me = end["view"]["outcome"]["players"][0]
    (row,) = rows(app, table_id)
    assert (row.mode, row.building_start, row.score) == ("high_score", 33, me["score"])
    body = sheet(client, ann)
    assert body["high_scores"] == {"33": me["score"]}
    assert [g["table_id"] for g in body["results"]] == [table_id]
    assert sheet(client, bob)["results"] == []
    assert rows(app, duo["id"]) == []


def test_a_result_missed_at_commit_is_recorded_once_on_read_even_when_racing(
    app: Any, client: TestClient, ann: Player
) -> None:
    import threading

    from sqlalchemy import update

    r = client.post("/api/solo", headers=ann.headers, json={"mode": "campaign"})
    table_id = r.json()["table_id"]
    end = play_to_end(client, ann.headers, table_id, seed=4)

    def forget() -> None:
        # As if the process had stopped between the commit of the last move and the recording.
        with app.state.db.session() as s:
            s.execute(
                update(SoloGame)
                .where(SoloGame.table_id == table_id)
                .values(finished_at=None, cp=None, bp=None, score=None, won=None)
            )

    forget()
    body = sheet(client, ann)  # reading the sheet records it
    assert [g["table_id"] for g in body["campaign"]["history"]] == [table_id]
    assert body["open"] == []

    forget()
    wins: list[bool] = []
    barrier = threading.Barrier(3)

    def record() -> None:
        barrier.wait()
        wins.append(app.state.solo._record_one(table_id))

    threads = [threading.Thread(target=record) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(wins) == [False, False, True]
    body = sheet(client, ann)
    (game,) = body["campaign"]["history"]
    assert game["score"] == end["view"]["outcome"]["players"][0]["score"]
    assert game["won"] == end["view"]["outcome"]["won"]


def test_moves_of_tables_with_more_seats_never_look_at_solo_records(
    client: TestClient, app: Any, ann: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The solo record is a hook of the move that ends a game: the moves of a running game,
    of any size, never reach it."""
    looks: list[str] = []
    real = app.state.solo.record_in
    monkeypatch.setattr(app.state.service.play, "finish_hooks", [lambda c, t: looks.append(t)])
    r = client.post("/api/tables", json={"seats": 2, "options": {}}, headers=ann.headers)
    t = r.json()
    client.post(
        f"/api/tables/{t['id']}/join", json={"invite_code": t["invite_code"]}, headers=bob.headers
    )
    assert client.post(f"/api/tables/{t['id']}/start", headers=ann.headers).status_code == 200
    rng = random.Random(2)
    for _ in range(5):
        g = client.get(f"/api/tables/{t['id']}/game", headers=ann.headers).json()
        who = ann if g["view"]["to_act"] == [0] else bob
        g = client.get(f"/api/tables/{t['id']}/game", headers=who.headers).json()
        r = client.post(
            f"/api/tables/{t['id']}/moves",
            json={
                "move": pick_move(g["legal_moves"], rng),
                "expected_version": g["version"],
                "move_id": f"m{g['version']}",
            },
            headers=who.headers,
        )
        assert r.status_code == 200, r.text
    assert looks == []
    assert real is not None


def test_the_result_commits_with_the_last_move(
    client: TestClient, app: Any, ann: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recorded inside the transaction of the move that ends the game: nothing runs after the
    commit. A recording that fails leaves the move committed; the next sheet read records it."""
    assert app.state.solo.record_in in app.state.service.play.finish_hooks

    def broken(*_: Any) -> bool:
        raise RuntimeError("the record keeping broke")

    started = client.post(
        "/api/solo", headers=ann.headers, json={"mode": "high_score", "building_start": 20}
    ).json()
    table_id = started["table_id"]
    monkeypatch.setattr(app.state.solo, "_record", broken)
    end = play_to_end(client, ann.headers, table_id, seed=2)
    assert end["status"] == "finished"
    (row,) = rows(app, table_id)
    assert row.finished_at is None  # the failed recording rolled back alone
    monkeypatch.undo()
    body = sheet(client, ann)
    assert [g["table_id"] for g in body["results"]] == [table_id]

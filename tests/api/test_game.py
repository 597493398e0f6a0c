"""Play over HTTP: the game view, moves, errors with stable codes, idempotency, spectators."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import Player, SecretCanary, new_player, pick_move


def started(client: TestClient, players: list[Player], **options: Any) -> dict[str, Any]:
    host = players[0]
    body = {"seats": len(players), "options": options}
    t = client.post("/api/tables", json=body, headers=host.headers).json()
    for p in players[1:]:
        r = client.post(
            f"/api/tables/{t['id']}/join",
            json={"invite_code": t["invite_code"]},
            headers=p.headers,
        )
        assert r.status_code == 200, r.text
    if len(players) > 1:
        r = client.post(f"/api/tables/{t['id']}/start", headers=host.headers)
        assert r.status_code == 200, r.text
    return t


def game(client: TestClient, tid: str, who: Player | None, invite: str | None = None) -> Any:
    q = f"?invite={invite}" if invite else ""
    r = client.get(f"/api/tables/{tid}/game{q}", headers=who.headers if who else {})
    assert r.status_code == 200, r.text
    return r.json()


def post_move(
    client: TestClient, tid: str, who: Player, move: Any, version: int, move_id: str
) -> Any:
    return client.post(
        f"/api/tables/{tid}/moves",
        json={"move": move, "expected_version": version, "move_id": move_id},
        headers=who.headers,
    )


def test_complete_game_over_http_with_secrets_kept(
    client: TestClient, app: Any, ann: Player, bob: Player, eve: Player
) -> None:
    players = [ann, bob]
    t = started(client, players)
    tid = t["id"]
    rng = random.Random(7)
    received: dict[int | None, list[Any]] = {0: [], 1: [], None: []}
    n = 0
    while True:
        views = [game(client, tid, p) for p in players]
        spectator = game(client, tid, eve, t["invite_code"])
        for seat, g in enumerate(views):
            received[seat].append(g)
            assert g["seat"] == seat and g["view"]["me"]["seat"] == seat
        received[None].append(spectator)
        assert spectator["view"]["me"] is None and spectator["legal_moves"] == []
        assert {g["version"] for g in views} == {spectator["version"]} == {n}
        if views[0]["status"] != "playing":
            break
        seat = views[0]["view"]["to_act"][0]
        move = pick_move(views[seat]["legal_moves"], rng)
        r = post_move(client, tid, players[seat], move, n, f"move-{n}")
        assert r.status_code == 200, r.text
        out = r.json()
        received[seat].append(out)
        assert out["version"] == n + 1 and out["duplicate"] is False
        n += 1
        assert n < 2000, "the game does not end"
    final = views[0]
    assert final["status"] == "finished"
    outcome = final["view"]["outcome"]
    assert outcome is not None and len(outcome["players"]) == 2
    assert len(final["log"]) == n
    assert [e["version"] for e in final["log"]] == list(range(1, n + 1))
    lobby = client.get(f"/api/tables/{tid}", headers=ann.headers).json()
    assert lobby["status"] == "finished" and lobby["outcome"] == outcome
    listed = client.get("/api/tables", headers=bob.headers).json()["tables"]
    assert [x["status"] for x in listed if x["id"] == tid] == ["finished"]
    # no more moves once finished
    r = post_move(client, tid, ann, {"kind": "end_turn"}, n, "late")
    assert r.status_code == 409 and r.json()["error"]["code"] == "wrong_status"
    canary = SecretCanary(app, tid)
    for seat, items in received.items():
        assert canary.check(seat, items) > 0
    assert app.state.service.replay_matches(tid)


def test_move_errors_have_stable_codes(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    t = started(client, [ann, bob], start_player=0)
    tid = t["id"]
    g = game(client, tid, ann)
    assert g["view"]["to_act"] == [0] and g["version"] == 0 and g["legal_moves"]
    # illegal: not this seat's turn
    move = game(client, tid, ann)["legal_moves"][0]
    r = post_move(client, tid, bob, move, 0, "b1")
    assert r.status_code == 409
    err = r.json()["error"]
    assert err["code"] == "illegal_move" and err["engine_code"] and err["message"]
    # illegal: nonsense move
    r = post_move(client, tid, ann, {"kind": "fly_to_the_moon"}, 0, "a0")
    assert r.status_code == 409 and r.json()["error"]["code"] == "illegal_move"
    # stale version
    r = post_move(client, tid, ann, move, 3, "a1")
    assert r.status_code == 409
    assert r.json()["error"] == {
        "code": "stale_version",
        "message": "the table has moved on",
        "version": 0,
    }
    # spectators do not hold a seat
    r = client.post(
        f"/api/tables/{tid}/moves?invite={t['invite_code']}",
        json={"move": move, "expected_version": 0, "move_id": "e1"},
        headers=eve.headers,
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_seat"
    # strangers see nothing
    r = post_move(client, tid, eve, move, 0, "e2")
    assert r.status_code == 404
    assert client.get(f"/api/tables/{tid}/game", headers=eve.headers).status_code == 404
    # malformed bodies
    for body in (
        {},
        {"move": move, "expected_version": 0},
        {"move": move, "move_id": "x"},
        {"move": "play", "expected_version": 0, "move_id": "x"},
        {"move": move, "expected_version": -1, "move_id": "x"},
        {"move": move, "expected_version": 0, "move_id": ""},
        {"move": move, "expected_version": 0, "move_id": "x" * 65},
    ):
        r = client.post(f"/api/tables/{tid}/moves", json=body, headers=ann.headers)
        assert r.status_code == 422, body
        assert r.json()["error"]["code"] == "malformed"
    # nothing of the above changed anything
    after = game(client, tid, ann)
    assert after["version"] == 0 and after["log"] == [] and after["view"] == g["view"]


def test_repeated_move_id_returns_first_result_and_applies_nothing(
    client: TestClient, ann: Player, bob: Player
) -> None:
    t = started(client, [ann, bob], start_player=0)
    tid = t["id"]
    move = game(client, tid, ann)["legal_moves"][0]
    first = post_move(client, tid, ann, move, 0, "same-id")
    assert first.status_code == 200
    view_after = game(client, tid, ann)
    again = post_move(client, tid, ann, move, 0, "same-id")
    assert again.status_code == 200
    assert again.json()["version"] == first.json()["version"] == 1
    assert again.json()["events"] == first.json()["events"]
    assert again.json()["duplicate"] is True
    final = game(client, tid, ann)
    assert final["version"] == 1 and len(final["log"]) == 1
    assert final["view"] == view_after["view"]


def test_spectators(client: TestClient, ann: Player, bob: Player, eve: Player) -> None:
    open_t = started(client, [ann, bob])
    g = game(client, open_t["id"], eve, open_t["invite_code"])
    assert g["seat"] is None and g["view"]["me"] is None and g["legal_moves"] == []
    closed = started(client, [ann, bob], spectators=False)
    r = client.get(
        f"/api/tables/{closed['id']}/game?invite={closed['invite_code']}", headers=eve.headers
    )
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "forbidden"
    # without a profile, the invite code still shows the public view of an open table
    g = game(client, open_t["id"], None, open_t["invite_code"])
    assert g["view"]["me"] is None


def test_solo_table_starts_at_once(client: TestClient, ann: Player) -> None:
    r = client.post(
        "/api/tables", json={"seats": 1, "options": {"building_start": 30}}, headers=ann.headers
    )
    assert r.status_code == 201
    t = r.json()
    assert t["status"] == "playing" and t["seat_count"] == 1
    g = game(client, t["id"], ann)
    assert g["view"]["players"] == 1 and g["view"]["victoria"] is not None
    assert g["legal_moves"] and g["view"]["to_act"] == [0]
    assert g["view"]["players_state"][0]["bp"] == 30
    move = g["legal_moves"][0]
    assert post_move(client, t["id"], ann, move, 0, "s1").status_code == 200


def test_every_seat_count_and_variant_starts(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    dan = new_player(client, "Dan")
    for players, options in (
        ([ann, bob, eve], {"random_locations": True}),
        ([ann, bob, eve, dan], {"full_selection": True, "start_player": 3}),
    ):
        t = started(client, players, **options)
        g = game(client, t["id"], players[0])
        assert g["view"]["players"] == len(players)
        seats = [game(client, t["id"], p)["legal_moves"] for p in players]
        assert any(seats)


def test_the_canary_catches_leaks(client: TestClient, app: Any, ann: Player, bob: Player) -> None:
    """The secret check itself fails on a leak (else the canaries above prove nothing)."""
    import pytest

    from app import rules
    from app.db.models import GameTable

    t = started(client, [ann, bob], start_player=0)
    g = game(client, t["id"], ann)
    move = g["legal_moves"][0]
    assert post_move(client, t["id"], ann, move, 0, "c1").status_code == 200
    canary = SecretCanary(app, t["id"])
    with app.state.service.db.session() as s:
        state = rules.decode_state(s.get(GameTable, t["id"]).state)
    assert canary.check(0, [game(client, t["id"], ann)]) == 1
    leaks = [
        rules.encode_state(state),  # everything
        {"view": rules.view_for(state, 1)},  # another seat's view
        {"x": [{"hand": rules.view_for(state, 1)["me"]["hand"]}]},
        {"order": rules.encode_state(state)["favor"]["pile"]},
        {"note": f"seed={canary.seed}"},
    ]
    for leak in leaks:
        with pytest.raises(AssertionError):
            canary.check(0, [leak])


def test_game_payload_names_the_seats_and_their_bots(
    client: TestClient, app: Any, ann: Player, bob: Player, eve: Player
) -> None:
    from app.tables.service import Viewer

    t = client.post("/api/tables", json={"seats": 3, "options": {}}, headers=ann.headers).json()
    tid = t["id"]
    r = client.post(
        f"/api/tables/{tid}/join", json={"invite_code": t["invite_code"]}, headers=bob.headers
    )
    assert r.status_code == 200, r.text
    r = client.post(f"/api/tables/{tid}/seats/2/bot", json={"level": "random"}, headers=ann.headers)
    assert r.status_code == 200, r.text
    assert client.post(f"/api/tables/{tid}/start", headers=ann.headers).status_code == 200
    client.portal.call(app.state.bots.idle)  # type: ignore[union-attr]
    expected = [
        {"seat": 0, "name": "Ann", "bot_level": None},
        {"seat": 1, "name": "Bob", "bot_level": None},
        {"seat": 2, "name": None, "bot_level": "random"},
    ]
    g = game(client, tid, ann)
    assert g["seats"] == expected
    assert game(client, tid, eve, t["invite_code"])["seats"] == expected

    svc = app.state.service
    snap = client.portal.call(svc.catch_up, Viewer(tid, None, None), None)  # type: ignore[union-attr]
    assert snap["type"] == "snapshot" and snap["seats"] == expected

    # An update frame right after a move of this process carries them too.
    seat = g["view"]["to_act"][0]
    mover = [ann, bob][seat]
    g = game(client, tid, mover)
    move = pick_move(g["legal_moves"], random.Random(3))
    assert post_move(client, tid, mover, move, g["version"], "seats-1").status_code == 200
    upd = client.portal.call(svc.catch_up, Viewer(tid, 0, ann.id), g["version"])  # type: ignore[union-attr]
    assert upd["type"] == "update" and upd["seats"] == expected

    # Bob hands his seat to a bot: the seat keeps his name and shows the level.
    r = client.post(f"/api/tables/{tid}/seats/1/bot", json={"level": "greedy"}, headers=bob.headers)
    assert r.status_code == 200, r.text
    client.portal.call(app.state.bots.idle)  # type: ignore[union-attr]
    g = game(client, tid, ann)
    assert g["seats"][1] == {"seat": 1, "name": "Bob", "bot_level": "greedy"}


def test_replay_check_judges_a_snapshot_against_its_own_versions(
    client: TestClient, app: Any, ann: Player, bob: Player
) -> None:
    """A move committed after the snapshot was read (a later version in the log) is not a
    mismatch; a snapshot that differs from its replay is."""
    from sqlalchemy import update

    from app.db.models import GameTable

    tid = started(client, [ann, bob], start_player=0)["id"]
    rng = random.Random(4)
    svc = app.state.service
    with svc.db.session() as s:
        first = s.get(GameTable, tid)
        assert first is not None
        v0, state0 = first.version, first.state
    g = game(client, tid, ann)
    assert post_move(client, tid, ann, pick_move(g["legal_moves"], rng), v0, "a").status_code == 200
    # The row as a reader saw it just before that move committed, with the move already logged.
    with svc.db.session() as s, s.begin():
        s.execute(update(GameTable).where(GameTable.id == tid).values(version=v0, state=state0))
    assert svc.replay_matches(tid)
    with svc.db.session() as s, s.begin():
        s.execute(update(GameTable).where(GameTable.id == tid).values(state={**state0, "round": 5}))
    assert not svc.replay_matches(tid)
    # Leave the table consistent for the teardown check.
    with svc.db.session() as s, s.begin():
        s.execute(update(GameTable).where(GameTable.id == tid).values(state=state0))

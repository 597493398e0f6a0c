"""Taking moves back through the server: logged, replayed, refused in the engine's words."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.test_game import game, post_move, started
from tests.conftest import LiveServer, Player, SecretCanary, assert_replays
from tests.ws.client import Http, Socket
from tests.ws.test_socket import run, setup_table, until_version


def first_step(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A move of the turn that is not its end (the first card played, say)."""
    return next(m for m in legal if m["kind"] != "end_turn")


def test_an_undo_through_the_server_is_logged_and_gives_back_the_earlier_views(
    client: TestClient, app: Any, ann: Player, bob: Player
) -> None:
    tid = started(client, [ann, bob], start_player=0)["id"]
    before = {0: game(client, tid, ann), 1: game(client, tid, bob)}
    v0 = before[0]["version"]
    assert before[0]["view"]["turn"]["undo"] == []
    r = post_move(client, tid, ann, first_step(before[0]["legal_moves"]), v0, "step")
    assert r.status_code == 200, r.text
    mid = game(client, tid, ann)
    assert mid["view"]["turn"]["undo"] == [{"to": 0, "moves": 1}]
    assert game(client, tid, bob)["view"]["turn"]["undo"] == []
    r = post_move(client, tid, ann, {"kind": "undo", "to": 0}, v0 + 1, "back")
    assert r.status_code == 200, r.text
    assert r.json()["version"] == v0 + 2
    assert [e for e in r.json()["events"] if e["type"] == "moves_taken_back"] == [
        {"type": "moves_taken_back", "seat": 0, "count": 1}
    ]
    for seat, who in ((0, ann), (1, bob)):
        after = game(client, tid, who)
        assert after["view"] == before[seat]["view"]
        assert after["legal_moves"] == before[seat]["legal_moves"]
        last = after["log"][-1]
        assert last["version"] == v0 + 2 and last["seat"] == 0
        assert last["move"] == {"kind": "undo", "to": 0}
        assert {"type": "moves_taken_back", "seat": 0, "count": 1} in last["events"]
    # what bob missed names ann's taking back, and nothing of ann's hand
    since = client.get(f"/api/tables/{tid}/since", headers=bob.headers).json()
    (ann_summary,) = since["summary"]
    assert ann_summary["seat"] == 0
    assert {"kind": "took_back", "count": 1} in ann_summary["items"]
    assert since["changes"] == []
    SecretCanary(app, tid).check(1, [since])
    assert_replays(app)


def test_the_engine_refusals_of_an_undo_arrive_with_their_codes(
    client: TestClient, ann: Player, bob: Player
) -> None:
    tid = started(client, [ann, bob], start_player=0)["id"]
    g = game(client, tid, ann)
    r = post_move(client, tid, ann, {"kind": "undo", "to": 0}, g["version"], "nothing")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "illegal_move"
    assert r.json()["error"]["engine_code"] == "undo_nothing"
    r = post_move(client, tid, ann, first_step(g["legal_moves"]), g["version"], "step")
    assert r.status_code == 200, r.text
    r = post_move(client, tid, ann, {"kind": "undo", "to": 1}, g["version"] + 1, "bad")
    assert r.json()["error"]["engine_code"] == "undo_bad_target"
    r = post_move(client, tid, bob, {"kind": "undo", "to": 0}, g["version"] + 1, "not-bob")
    assert r.status_code == 409 and r.json()["error"]["code"] == "illegal_move"
    assert game(client, tid, ann)["version"] == g["version"] + 1


def test_a_table_without_undo_refuses_it(client: TestClient, ann: Player, bob: Player) -> None:
    tid = started(client, [ann, bob], start_player=0, undo=False)["id"]
    g = game(client, tid, ann)
    r = post_move(client, tid, ann, first_step(g["legal_moves"]), g["version"], "step")
    assert r.status_code == 200, r.text
    mid = game(client, tid, ann)
    assert mid["view"]["turn"]["undo"] == []
    r = post_move(client, tid, ann, {"kind": "undo", "to": 0}, mid["version"], "back")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "illegal_move"
    assert r.json()["error"]["engine_code"] == "undo_not_allowed"
    assert game(client, tid, ann) == mid


def test_an_undo_over_the_socket_reaches_every_seat(live: LiveServer) -> None:
    http = Http(live)
    t, (ann, bob) = setup_table(http, start_player=0)
    tid = t["id"]
    http.call("POST", f"/api/tables/{tid}/start", ann["token"])

    async def play() -> None:
        sa = await Socket.open(live, tid, "ann", token=ann["token"])
        sb = await Socket.open(live, tid, "bob", token=bob["token"])
        first: dict[int, dict[str, Any]] = {}
        for seat, s in ((0, sa), (1, sb)):
            await s.expect("welcome")
            await s.send({"type": "hello", "since": None})
            first[seat] = await s.expect("snapshot")
        v0 = first[0]["version"]
        step = first_step(first[0]["legal_moves"])
        await sa.send({"type": "move", "move": step, "expected_version": v0, "move_id": "a"})
        await sa.expect("accepted")
        mid = await until_version(sa, v0 + 1)
        assert mid["view"]["turn"]["undo"] == [{"to": 0, "moves": 1}]
        undo = {"kind": "undo", "to": 0}
        await sa.send({"type": "move", "move": undo, "expected_version": v0 + 1, "move_id": "b"})
        await sa.expect("accepted")
        for seat, s in ((0, sa), (1, sb)):
            frame = await until_version(s, v0 + 2)
            assert frame["view"] == first[seat]["view"]
            assert frame["legal_moves"] == first[seat]["legal_moves"]
            (entry,) = frame["moves"]
            assert {"type": "moves_taken_back", "seat": 0, "count": 1} in entry["events"]
        await sa.close()
        await sb.close()

    run(play())
    http.close()

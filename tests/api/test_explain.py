"""GET /api/tables/{id}/explain: the caller's own seat only, spectators without moves, no
secret in any answer, one computation per table version and seat."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from tests.api.test_game import game, post_move, started
from tests.conftest import Player, SecretCanary, pick_move


def explain(client: TestClient, tid: str, who: Player | None, invite: str | None = None) -> Any:
    q = f"?invite={invite}" if invite else ""
    r = client.get(f"/api/tables/{tid}/explain{q}", headers=who.headers if who else {})
    assert r.status_code == 200, r.text
    return r.json()


def test_each_seat_is_told_its_own_moves_and_a_spectator_none(
    client: TestClient, app: Any, ann: Player, bob: Player, eve: Player
) -> None:
    t = started(client, [ann, bob], start_player=0)
    tid = t["id"]
    rng = random.Random(3)
    answers: dict[int | None, list[Any]] = {0: [], 1: [], None: []}
    for n in range(40):
        g = [game(client, tid, p) for p in (ann, bob)]
        mine = [explain(client, tid, p) for p in (ann, bob)]
        watching = explain(client, tid, eve, t["invite_code"])
        for seat in (0, 1):
            assert mine[seat]["seat"] == seat and mine[seat]["version"] == g[seat]["version"]
            # the promises are for exactly the caller's own legal moves
            assert [e["move"] for e in mine[seat]["moves"]] == g[seat]["legal_moves"]
            answers[seat].append(mine[seat])
        assert watching["seat"] is None and watching["moves"] == []
        hand = {"card:" + c for c in g[0]["view"]["me"]["hand"]} - played(g[0])
        assert not hand & set(watching["elements"])
        answers[None].append(watching)
        seat = g[0]["view"]["to_act"][0]
        move = pick_move(g[seat]["legal_moves"], rng)
        r = post_move(client, tid, (ann, bob)[seat], move, g[seat]["version"], f"m{n}")
        assert r.status_code == 200, r.text
    canary = SecretCanary(app, tid)
    for seat, got in answers.items():
        assert canary.check(seat, got) > 0


def played(g: Any) -> set[str]:
    return {"card:" + c for p in g["view"]["players_state"] for c in p["slots"].values() if c}


def test_strangers_and_closed_tables_are_refused(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    closed = started(client, [ann, bob], spectators=False)
    r = client.get(f"/api/tables/{closed['id']}/explain", headers=eve.headers)
    assert r.status_code == 404
    r = client.get(
        f"/api/tables/{closed['id']}/explain?invite={closed['invite_code']}", headers=eve.headers
    )
    assert r.status_code == 403
    waiting = client.post("/api/tables", json={"seats": 2}, headers=ann.headers).json()
    r = client.get(f"/api/tables/{waiting['id']}/explain", headers=ann.headers)
    assert r.status_code == 409 and r.json()["error"]["code"] == "wrong_status"


def test_computed_once_per_version_and_seat(
    client: TestClient, app: Any, ann: Player, bob: Player
) -> None:
    t = started(client, [ann, bob], start_player=0)
    explainer = app.state.service.explainer
    before = explainer.computed
    first = explain(client, t["id"], ann)
    assert explain(client, t["id"], ann) == first
    assert explainer.computed == before + 1
    explain(client, t["id"], bob)
    assert explainer.computed == before + 2
    move = first["moves"][0]["move"]
    assert post_move(client, t["id"], ann, move, 0, "x1").status_code == 200
    after = explain(client, t["id"], ann)
    assert after["version"] == 1 and explainer.computed == before + 3
    assert len(explainer.memory) <= explainer.size

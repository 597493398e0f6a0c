"""Bot seats through the API: seat bots, play a whole table, hand a seat over and take it back."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from anyio import from_thread
from fastapi.testclient import TestClient
from sqlalchemy import select

from app import rules
from app.clock import ManualClock
from app.db.models import MoveRecord, utcnow
from app.realtime.hub import Notice, NoticeKind
from tests.conftest import Player, SecretCanary, pick_move


def _table(client: TestClient, host: Player, seats: int, **options: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"seats": seats, "options": options}, headers=host.headers)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def _bot(client: TestClient, tid: str, seat: int, who: Player, level: str = "greedy") -> Any:
    return client.post(
        f"/api/tables/{tid}/seats/{seat}/bot", json={"level": level}, headers=who.headers
    )


def _game(client: TestClient, tid: str, who: Player) -> Any:
    r = client.get(f"/api/tables/{tid}/game", headers=who.headers)
    assert r.status_code == 200, r.text
    return r.json()


def _settle(client: TestClient, app: Any) -> None:
    """Let the bots finish whatever they are doing."""
    client.portal.call(app.state.bots.idle)  # type: ignore[union-attr]


def _move(client: TestClient, tid: str, who: Player, g: dict[str, Any], move: Any) -> Any:
    r = client.post(
        f"/api/tables/{tid}/moves",
        json={"move": move, "expected_version": g["version"], "move_id": f"m{g['version']}"},
        headers=who.headers,
    )
    assert r.status_code == 200, r.text
    return r.json()


def _join(client: TestClient, t: dict[str, Any], who: Player) -> None:
    r = client.post(
        f"/api/tables/{t['id']}/join", json={"invite_code": t["invite_code"]}, headers=who.headers
    )
    assert r.status_code == 200, r.text


def _keys_with_paths(node: Any, path: str = "$") -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if isinstance(node, dict):
        for k, v in node.items():
            out.append((k, path))
            out.extend(_keys_with_paths(v, f"{path}.{k}"))
    elif isinstance(node, list):
        for v in node:
            out.extend(_keys_with_paths(v, path))
    return out


def _keys(node: Any) -> set[str]:
    return {k for k, _ in _keys_with_paths(node)}


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[Any], str]]:
    """Every input the runner hands to a bot: (view, legal moves, level)."""
    import app.bots.runner as bots_api

    calls: list[tuple[Any, list[Any], str]] = []
    real = bots_api.choose_move

    def spy(view: Any, legal: Any, level: str, rng_seed: int, budget: float) -> Any:
        calls.append((view, legal, level))
        return real(view, legal, level, rng_seed, budget)

    monkeypatch.setattr(bots_api, "choose_move", spy)
    return calls  # type: ignore[return-value]


def test_seating_bots_in_the_lobby(client: TestClient, ann: Player, bob: Player) -> None:
    t = _table(client, ann, 3)
    tid = t["id"]
    _join(client, t, bob)  # bob takes seat 1
    assert _bot(client, tid, 2, bob).json()["error"]["code"] == "not_host"
    assert _bot(client, tid, 1, ann).json()["error"]["code"] == "seat_taken"
    assert _bot(client, tid, 3, ann).status_code == 404
    assert _bot(client, tid, 2, ann, "genius").status_code == 422
    r = _bot(client, tid, 2, ann, "random")
    assert r.status_code == 200, r.text
    r = _bot(client, tid, 2, ann, "strong")  # the host may change the level
    seats = r.json()["seats"]
    assert [s["bot_level"] for s in seats] == [None, None, "strong"]
    assert seats[2]["taken"] and seats[2]["name"] is None
    lobby = client.get(f"/api/tables/{tid}", headers=bob.headers).json()
    assert lobby["seats"][2]["bot_level"] == "strong"
    # the host frees the seat again, then fills it for the start
    r = client.delete(f"/api/tables/{tid}/seats/2/bot", headers=ann.headers)
    assert r.status_code == 200 and r.json()["seats"][2]["taken"] is False
    assert _bot(client, tid, 2, ann, "random").status_code == 200
    assert client.post(f"/api/tables/{tid}/start", headers=ann.headers).status_code == 200
    r = client.delete(f"/api/tables/{tid}/seats/2/bot", headers=ann.headers)
    assert r.json()["error"]["code"] == "wrong_status"


def test_one_person_and_three_bots_play_to_the_end(
    client: TestClient,
    app: Any,
    ann: Player,
    recorded: list[tuple[dict[str, Any], list[Any], str]],
) -> None:
    app.state.bots.budget = 0.01
    t = _table(client, ann, 4)
    tid = t["id"]
    for seat, level in ((1, "random"), (2, "greedy"), (3, "strong")):
        assert _bot(client, tid, seat, ann, level).status_code == 200
    assert client.post(f"/api/tables/{tid}/start", headers=ann.headers).status_code == 200
    rng = random.Random(3)
    mine = 0
    for _ in range(2000):
        _settle(client, app)
        g = _game(client, tid, ann)
        if g["status"] == "finished":
            break
        assert g["legal_moves"], f"the bots stopped on their turn: {g['view']['to_act']}"
        _move(client, tid, ann, g, pick_move(g["legal_moves"], rng))
        mine += 1
    assert g["status"] == "finished"
    assert g["view"]["outcome"] is not None
    seats_moved = {entry["seat"] for entry in g["log"]}
    assert seats_moved == {0, 1, 2, 3}
    assert mine < len(g["log"])
    assert {level for _, _, level in recorded} == {"random", "greedy", "strong"}

    # Every bot input is exactly its own seat's view at some version, and holds no secret.
    canary = SecretCanary(app, tid)
    states = [rules.decode_state(tree) for tree in canary.trees]
    # (seat, its view at a version) -> the legal moves it had there
    seen: dict[tuple[int, str], list[list[Any]]] = {}
    for st in states:
        for seat in (1, 2, 3):
            key = (seat, json.dumps(rules.view_for(st, seat), sort_keys=True))
            legal = [rules.encode_move(m) for m in rules.legal_moves(st, seat)]
            seen.setdefault(key, []).append(legal)
    for view, legal, _level in recorded:
        seat = view["me"]["seat"]
        assert seat in (1, 2, 3)
        assert legal in seen.get((seat, json.dumps(view, sort_keys=True)), [])
    # ...so no other seat's hand, no deck or pile order and no seed reaches a bot.
    for view, legal, _level in recorded:
        assert str(canary.seed) not in json.dumps([view, legal])
        assert not {"deck", "rng", "seed", "hands", "boxed_advisors", "b_stack"} & _keys(view)
        assert isinstance(view["favor"]["pile"], int)  # counts only, never the orders
        assert isinstance(view["favor"]["discard"], int)
        assert [k for k in _keys_with_paths(view) if k[0] == "hand"] == [("hand", "$.me")]


def test_a_seat_handed_to_a_bot_and_taken_back(
    client: TestClient, app: Any, ann: Player, bob: Player, eve: Player
) -> None:
    app.state.bots.budget = 0.01
    t = _table(client, ann, 2, start_player=0, idle_seconds=60)
    tid = t["id"]
    _join(client, t, bob)
    assert client.post(f"/api/tables/{tid}/start", headers=ann.headers).status_code == 200
    rng = random.Random(5)

    # Ann's turn: Bob is not idle, so the host cannot take his seat; a stranger never can.
    g = _game(client, tid, ann)
    assert g["view"]["to_act"] == [0]
    assert _bot(client, tid, 1, ann).json()["error"]["code"] == "seat_active"
    assert _bot(client, tid, 1, eve).status_code == 404
    while _game(client, tid, ann)["view"]["to_act"] == [0]:
        g = _game(client, tid, ann)
        _move(client, tid, ann, g, pick_move(g["legal_moves"], rng))
    _settle(client, app)
    before = _game(client, tid, bob)
    assert before["view"]["to_act"] == [1]  # nobody plays for Bob yet

    # Bob's turn: the host waits for the table's idle time (60 s), read from the server's clock.
    clock = ManualClock(utcnow())
    app.state.bot_seats.clock = clock
    clock.advance(59)
    assert _bot(client, tid, 1, ann).json()["error"]["code"] == "seat_active"
    # Bob is idle on his turn: the host hands his seat to a bot.
    clock.advance(1)
    r = _bot(client, tid, 1, ann, "greedy")
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["bot_level"] == "greedy"
    assert r.json()["seats"][1]["name"] == "Bob"
    _settle(client, app)
    after = _game(client, tid, ann)
    bot_moves = [e for e in after["log"] if e["version"] > before["version"]]
    assert bot_moves and all(e["seat"] == 1 for e in bot_moves)
    assert after["view"]["to_act"] == [0]  # the bot played Bob's turn through

    # Only Bob can take the seat back.
    r = client.post(f"/api/tables/{tid}/seats/1/reclaim", headers=ann.headers)
    assert r.json()["error"]["code"] == "not_your_seat"
    r = client.post(f"/api/tables/{tid}/seats/1/reclaim", headers=bob.headers)
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["bot_level"] is None
    r = client.post(f"/api/tables/{tid}/seats/1/reclaim", headers=bob.headers)
    assert r.json()["error"]["code"] == "not_a_bot"

    # Ann plays her turn; now Bob's turn waits for Bob.
    while _game(client, tid, ann)["view"]["to_act"] == [0]:
        g = _game(client, tid, ann)
        _move(client, tid, ann, g, pick_move(g["legal_moves"], rng))
    _settle(client, app)
    g = _game(client, tid, bob)
    assert g["view"]["to_act"] == [1] and g["legal_moves"]
    version = g["version"]
    _settle(client, app)
    assert _game(client, tid, bob)["version"] == version
    _move(client, tid, bob, g, pick_move(g["legal_moves"], rng))

    # Bob may leave his seat to a bot himself at any time.
    r = _bot(client, tid, 1, bob, "random")
    assert r.status_code == 200 and r.json()["seats"][1]["bot_level"] == "random"
    _settle(client, app)
    assert _game(client, tid, ann)["view"]["to_act"] == [0]

    # While the bot plays his seat, Bob's own moves are refused (before the rules look at them:
    # it is Ann's turn) and change nothing.
    bobs = _game(client, tid, bob)
    r = client.post(
        f"/api/tables/{tid}/moves",
        json={"move": {"kind": "end_turn"}, "expected_version": bobs["version"], "move_id": "b1"},
        headers=bob.headers,
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "bot_plays_seat", r.text
    assert _game(client, tid, ann)["version"] == bobs["version"]
    with app.state.service.db.session() as s:
        assert s.scalar(select(MoveRecord.id).where(MoveRecord.move_id == "b1")) is None


def test_bots_whose_turn_it_is_wake_up_after_a_restart(
    client: TestClient, app: Any, ann: Player
) -> None:
    runner = app.state.bots
    runner.budget = 0.01
    t = _table(client, ann, 2, start_player=1)
    tid = t["id"]
    assert _bot(client, tid, 1, ann, "random").status_code == 200
    _settle(client, app)  # the look the seating asked for is over before the table starts
    runner.kick = lambda table_id: None  # as if the process died before the bot moved
    assert client.post(f"/api/tables/{tid}/start", headers=ann.headers).status_code == 200
    _settle(client, app)
    g = _game(client, tid, ann)
    assert g["version"] == 0 and g["view"]["to_act"] == [1]
    del runner.kick
    client.portal.call(runner.resume)  # what start-up does
    _settle(client, app)
    g = _game(client, tid, ann)
    assert g["version"] > 0 and g["view"]["to_act"] == [0]
    assert {e["seat"] for e in g["log"]} == {1}


def test_a_table_without_bots_is_looked_at_once(
    client: TestClient, app: Any, ann: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = app.state.bots
    looks: list[str] = []
    real_job = runner._job

    def counting_job(table_id: str) -> Any:
        looks.append(table_id)
        return real_job(table_id)

    monkeypatch.setattr(runner, "_job", counting_job)
    t = _table(client, ann, 2, start_player=0)
    tid = t["id"]
    _join(client, t, bob)
    assert client.post(f"/api/tables/{tid}/start", headers=ann.headers).status_code == 200
    rng = random.Random(3)
    for _ in range(6):
        g = _game(client, tid, ann)
        who = ann if g["view"]["to_act"] == [0] else bob
        g = _game(client, tid, who)
        _move(client, tid, who, g, pick_move(g["legal_moves"], rng))
        _settle(client, app)
    assert looks.count(tid) == 1  # the first move showed no bot seat; later moves cost nothing
    assert tid in runner.botless


@pytest.mark.parametrize("meanwhile", ["move", "seat change"])
def test_a_move_during_the_first_look_costs_no_second_look_a_seat_change_does(
    client: TestClient,
    app: Any,
    ann: Player,
    bob: Player,
    monkeypatch: pytest.MonkeyPatch,
    meanwhile: str,
) -> None:
    runner = app.state.bots
    looks: list[str] = []
    real_job = runner._job

    def slow_job(table_id: str) -> Any:
        looks.append(table_id)
        if len(looks) == 1:  # a notice arrives while the table is being looked at
            kind = NoticeKind.GAME if meanwhile == "move" else NoticeKind.LOBBY
            from_thread.run(runner.send, Notice(table_id, kind, 1))
        return real_job(table_id)

    monkeypatch.setattr(runner, "_job", slow_job)
    t = _table(client, ann, 2, start_player=0)
    _join(client, t, bob)
    assert client.post(f"/api/tables/{t['id']}/start", headers=ann.headers).status_code == 200
    _settle(client, app)
    assert looks.count(t["id"]) == (1 if meanwhile == "move" else 2)
    assert t["id"] in runner.botless


def test_a_runner_that_could_not_look_at_a_table_looks_again(
    client: TestClient, app: Any, ann: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure of the runner (the database away for a moment) never leaves a table waiting on
    its bot for good: it looks again after a pause (the runner's timer, held by the test)."""
    import app.bots.runner as bots_api

    runner = app.state.bots
    runner.budget = 0.01
    timers: list[tuple[float, Any]] = []
    monkeypatch.setattr(
        runner, "schedule", lambda delay, callback: timers.append((delay, callback))
    )
    real, calls = runner._job, []

    def flaky(table_id: str) -> Any:
        calls.append(table_id)
        if len(calls) == 1:
            raise bots_api.AppError("the database is unavailable, try again")
        return real(table_id)

    t = _table(client, ann, 2, start_player=1)
    tid = t["id"]
    assert _bot(client, tid, 1, ann).status_code == 200
    _settle(client, app)
    monkeypatch.setattr(runner, "_job", flaky)
    assert client.post(f"/api/tables/{tid}/start", headers=ann.headers).status_code == 200
    _settle(client, app)
    assert len(calls) == 1 and _game(client, tid, ann)["version"] == 0
    assert [delay for delay, _ in timers] == [bots_api.RETRY_FIRST_SECONDS]

    async def time_passes() -> None:
        timers.pop()[1]()
        await runner.idle()

    client.portal.call(time_passes)
    assert len(calls) >= 2
    assert _game(client, tid, ann)["version"] > 0, "the bot never moved after the failure"


def test_a_bot_move_for_a_seat_taken_back_is_refused(
    client: TestClient, app: Any, ann: Player, bob: Player
) -> None:
    """The seat is checked in the move's own transaction: whatever the bot was thinking, once its
    player has the seat back, the bot's move is refused and changes nothing."""
    from app.errors import NoBotSeat

    t = _table(client, ann, 2, start_player=0)
    tid = t["id"]
    _join(client, t, bob)
    assert client.post(f"/api/tables/{tid}/start", headers=ann.headers).status_code == 200
    g = _game(client, tid, ann)
    svc = app.state.service
    with pytest.raises(NoBotSeat):
        svc.play.submit_sync(tid, 0, g["legal_moves"][0], g["version"], "bot:0:0", bot=True)
    assert _game(client, tid, ann)["version"] == g["version"]
    out, fresh = svc.play.submit_sync(
        tid, 0, g["legal_moves"][0], g["version"], "ann:0", profile_id=ann.id
    )
    assert fresh and out["version"] == g["version"] + 1


def test_the_idle_time_has_a_floor_and_a_default(
    client: TestClient, app: Any, ann: Player, bob: Player
) -> None:
    """A table cannot ask for less than a minute of idle time; without one it is two minutes."""
    r = client.post(
        "/api/tables", json={"seats": 2, "options": {"idle_seconds": 59}}, headers=ann.headers
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "malformed"
    t = _table(client, ann, 2, start_player=1)
    assert t["options"]["idle_seconds"] == 120
    tid = t["id"]
    _join(client, t, bob)
    assert client.post(f"/api/tables/{tid}/start", headers=ann.headers).status_code == 200
    clock = ManualClock(utcnow())
    app.state.bot_seats.clock = clock
    clock.advance(119)
    assert _bot(client, tid, 1, ann).json()["error"]["code"] == "seat_active"
    clock.advance(1)
    assert _bot(client, tid, 1, ann).status_code == 200
    _settle(client, app)


def test_a_table_stored_with_less_idle_time_gets_the_floor(
    client: TestClient, app: Any, ann: Player, bob: Player
) -> None:
    """A table written before the floor (idle_seconds 0 in its options) waits a minute all the
    same."""
    from sqlalchemy import update

    from app.db.models import GameTable

    t = _table(client, ann, 2, start_player=1)
    tid = t["id"]
    _join(client, t, bob)
    with app.state.service.db.session() as s:
        s.execute(
            update(GameTable)
            .where(GameTable.id == tid)
            .values(options={**t["options"], "idle_seconds": 0})
        )
    assert client.post(f"/api/tables/{tid}/start", headers=ann.headers).status_code == 200
    clock = ManualClock(utcnow())
    app.state.bot_seats.clock = clock
    clock.advance(59)
    assert _bot(client, tid, 1, ann).json()["error"]["code"] == "seat_active"
    clock.advance(1)
    assert _bot(client, tid, 1, ann).status_code == 200
    _settle(client, app)

"""The analysis job: computed once and reused, resumed after a restart, never run by two
workers at once, taken over when its worker's lease runs out, deterministic."""

from __future__ import annotations

import threading
from typing import Any

from fastapi.testclient import TestClient

from app import rules
from app.analysis import repository as repo
from app.analysis.measure import CHANCE_EVENTS
from app.clock import ManualClock
from app.db.session import Database
from tests.analysis.conftest import CountingBot, import_example, move_worth, worker
from tests.conftest import Player, new_player


def analysis(client: TestClient, replay_id: str, who: Player, post: bool = False) -> dict[str, Any]:
    call = client.post if post else client.get
    r = call(f"/api/replays/{replay_id}/analysis", headers=who.headers)
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_an_analysis_is_computed_once_and_reused(
    app: Any, client: TestClient, clock: ManualClock, ann: Player, example: dict[str, Any]
) -> None:
    rid = import_example(client, ann, example)
    before = analysis(client, rid, ann)
    assert before["status"] == "none" and before["done"] == 0 and before["positions"] == []
    total = before["total"]
    queued = analysis(client, rid, ann, post=True)
    assert (queued["status"], queued["done"], queued["total"]) == ("queued", 0, total)
    assert analysis(client, rid, ann, post=True)["status"] == "queued"  # idempotent

    bot: CountingBot = app.state.test_bot
    w = worker(app, clock)
    assert w.run_once() is not None
    assert w.run_once() is None  # one job only, however often it was asked for
    calls = (bot.expected_calls, bot.preferred_calls)
    assert calls[0] == total - 1  # every position but the last (its scores are final)
    done = analysis(client, rid, ann)
    assert done["status"] == "done" and done["done"] == total == len(done["positions"])
    assert [p["position"] for p in done["positions"]] == list(range(total))
    final = {p["seat"]: p["score"] for p in example["outcome"]["players"]}
    assert done["positions"][-1]["expected"] == [float(final[s]) for s in range(3)]

    # Asked again, and for another replay of the very same game: the stored analysis.
    again = analysis(client, rid, ann, post=True)
    bob = new_player(client, "Bob")
    other = import_example(client, bob, example)
    theirs = analysis(client, other, bob, post=True)
    assert w.run_once() is None
    assert (bot.expected_calls, bot.preferred_calls) == calls
    assert again["positions"] == done["positions"] == theirs["positions"]
    assert theirs["status"] == "done"


def test_swings_are_measured_costs_and_name_the_move_played_and_the_bots_move(
    app: Any, client: TestClient, clock: ManualClock, ann: Player, example: dict[str, Any]
) -> None:
    rid = import_example(client, ann, example)
    analysis(client, rid, ann, post=True)
    worker(app, clock).run_once()
    out = analysis(client, rid, ann)
    log = client.get(f"/api/replays/{rid}", headers=ann.headers).json()["log"]
    assert [p["seat"] for p in out["swings"]] == [0, 1, 2]
    listed = 0
    for player in out["swings"]:
        seat, swings = player["seat"], player["swings"]
        assert len(swings) <= 3
        assert [s["cost"] for s in swings] == sorted((s["cost"] for s in swings), reverse=True)
        for s in swings:
            n = s["position"]
            assert s["played"] == log[n - 1] and s["played"]["seat"] == seat
            played = rules.encode_move(rules.decode_move(log[n - 1]["move"]))
            preferred = s["preferred"]
            assert preferred["move"] != played  # the bot's own move is never a swing
            # the stand-in's measure: the preferred move's worth minus the played one's
            assert s["cost"] == move_worth(preferred["move"]) - move_worth(dict(played)) > 0
            assert s["noise"] == 0.0 and s["change"] == -s["cost"]
            assert preferred["events"] and all(p["seat"] == seat for p in preferred["summary"])
            listed += 1
        for lk in player["luck"]:
            assert lk["played"] == log[lk["position"] - 1]
            assert any(e["type"] in CHANCE_EVENTS for e in lk["played"]["events"])
    assert listed > 0
    assert any(p["luck"] for p in out["swings"])


def test_a_restart_half_way_resumes_where_it_stopped(
    app: Any, client: TestClient, clock: ManualClock, ann: Player, example: dict[str, Any]
) -> None:
    rid = import_example(client, ann, example)
    total = analysis(client, rid, ann, post=True)["total"]
    first = CountingBot()
    k = 17
    w1 = worker(app, clock, first)
    w1.run_once(should_stop=lambda: first.expected_calls >= k)
    half = analysis(client, rid, ann)
    assert (half["status"], half["done"]) == ("queued", k)  # given back on stopping
    assert [p["position"] for p in half["positions"]] == list(range(k))

    second = CountingBot()
    w2 = worker(app, clock, second)  # a new instance
    w2.run_once()
    assert second.expected_calls == total - 1 - k  # resumed at k, nothing done twice
    done = analysis(client, rid, ann)
    assert done["status"] == "done" and done["done"] == total
    assert done["positions"][:k] == half["positions"]


def _key(app: Any, replay_id: str) -> str:
    return app.state.analysis._key(replay_id)  # type: ignore[no-any-return]


def test_a_dead_workers_job_is_taken_over_when_its_lease_runs_out(
    app: Any, client: TestClient, clock: ManualClock, ann: Player, example: dict[str, Any]
) -> None:
    rid = import_example(client, ann, example)
    analysis(client, rid, ann, post=True)
    dead = worker(app, clock, CountingBot(), lease_seconds=60)
    job_id = dead.claim()  # claimed, then the instance dies without a word
    assert job_id is not None
    heir_bot = CountingBot()
    heir = worker(app, clock, heir_bot, lease_seconds=60)
    assert heir.run_once() is None  # the lease still holds
    assert analysis(client, rid, ann)["status"] == "running"
    clock.advance(61)
    assert heir.run_once() == job_id
    assert analysis(client, rid, ann)["status"] == "done"
    # The dead one comes back to life: its lease is gone, it stores nothing.
    dead_bot = CountingBot()
    dead.bot = dead_bot
    dead.run_job(job_id)
    assert dead_bot.expected_calls <= 1
    out = analysis(client, rid, ann)
    assert out["status"] == "done" and out["done"] == out["total"]


def test_a_worker_runs_only_the_jobs_of_its_own_bot_version(
    app: Any, client: TestClient, clock: ManualClock, ann: Player, example: dict[str, Any]
) -> None:
    rid = import_example(client, ann, example)
    analysis(client, rid, ann, post=True)
    other = CountingBot(version="counting-2")  # an instance configured with other playouts
    assert worker(app, clock, other).run_once() is None
    assert other.expected_calls == 0
    assert worker(app, clock).run_once() is not None


def test_a_worker_that_lost_its_lease_stores_nothing(
    app: Any, client: TestClient, clock: ManualClock, ann: Player, example: dict[str, Any]
) -> None:
    rid = import_example(client, ann, example)
    analysis(client, rid, ann, post=True)
    slow, fast = worker(app, clock, CountingBot(), lease_seconds=60), worker(app, clock)
    job_id = slow.claim()
    clock.advance(61)
    assert fast.claim() == job_id  # taken over: now two workers hold the id, one the lease
    slow.run_job(job_id)
    assert analysis(client, rid, ann)["done"] == 0
    fast.run_job(job_id)
    assert analysis(client, rid, ann)["status"] == "done"


def test_two_instances_claiming_at_once_never_share_a_job(app: Any, clock: ManualClock) -> None:
    """Many jobs, two instances (each its own connection pool) claiming as fast as they can in
    two threads: every job is claimed by exactly one of them."""
    url = app.state.db.url
    with app.state.db.session() as s:
        for i in range(12):
            repo.add_job(s, f"key{i}", "counting-1", f"r{i:011d}", 5, clock.utcnow())
    dbs = [Database(url), Database(url)]
    won: list[list[int]] = [[], []]
    start = threading.Barrier(2)

    def claimer(i: int) -> None:
        w = worker(app, clock)
        w.db = dbs[i]
        w.owner = f"instance-{i}"
        start.wait()
        while (job_id := w.claim()) is not None:
            won[i].append(job_id)

    threads = [threading.Thread(target=claimer, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for d in dbs:
        d.dispose()
    assert sorted(won[0] + won[1]) == sorted(set(won[0] + won[1]))
    assert len(won[0]) + len(won[1]) == 12
    with app.state.db.session() as s:
        owners = {
            j: repo.job_by_id(s, j).lease_owner  # type: ignore[union-attr]
            for j in won[0] + won[1]
        }
    assert all(owners[j] == "instance-0" for j in won[0])
    assert all(owners[j] == "instance-1" for j in won[1])


def test_the_same_record_and_bot_version_give_the_same_numbers(
    app: Any, client: TestClient, clock: ManualClock, ann: Player, example: dict[str, Any]
) -> None:
    rid = import_example(client, ann, example)
    analysis(client, rid, ann, post=True)
    worker(app, clock).run_once()
    first = analysis(client, rid, ann)
    with app.state.db.session() as s:
        job = repo.job(s, _key(app, rid), "counting-1")
        assert job is not None
        s.delete(job)
    assert analysis(client, rid, ann)["status"] == "none"
    analysis(client, rid, ann, post=True)
    worker(app, clock, CountingBot()).run_once()
    second = analysis(client, rid, ann)
    assert second["positions"] == first["positions"]
    assert second["swings"] == first["swings"]

"""The analysis queue is shared fairly: a profile and an address may have only so many
analyses waiting, the requesters are served in turn (one person's long queue delays another's
first analysis by one job at most, whichever instance claims), and one game is analysed once
however its record is written."""

from __future__ import annotations

import copy
import threading
from functools import cache
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.analysis import repository as repo
from app.analysis.key import game_key
from app.analysis.schemas import JobStatus
from app.analysis.worker import AnalysisWorker
from app.clock import ManualClock
from app.db.models import AnalysisJob, AnalysisRequest
from app.records.schemas import FORMAT, FORMAT_VERSION, GameRecord
from app.records.version import rules_version
from app.rules import outcome
from app.rules.simulate import play_greedy
from tests.analysis.conftest import import_example, worker
from tests.conftest import Player, new_player


@cache
def _solo(seed: int) -> dict[str, Any]:
    options = {"players": 1, "start_player": 0}
    state, moves, _ = play_greedy(seed, options)
    record = GameRecord.model_validate(
        {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "rules_version": rules_version(),
            "options": options,
            "players": [{"seat": 0, "name": "Solo", "bot_level": "greedy"}],
            "seed": seed,
            "moves": moves,
            "outcome": outcome(state),
        },
        strict=False,
    )
    return record.model_dump(mode="json")


def solo_game(seed: int) -> dict[str, Any]:
    """A finished one-player game of its own for every seed (the greedy player's)."""
    return copy.deepcopy(_solo(seed))


def ask(client: TestClient, replay_id: str, who: Player) -> Any:
    return client.post(f"/api/replays/{replay_id}/analysis", headers=who.headers)


def queue(client: TestClient, who: Player, seeds: list[int]) -> list[str]:
    """``who`` imports a game per seed and asks for its analysis: the replay ids."""
    ids = []
    for seed in seeds:
        rid = import_example(client, who, solo_game(seed))
        r = ask(client, rid, who)
        assert r.status_code == 200, r.text
        ids.append(rid)
    return ids


def count(app: Any, model: Any) -> int:
    with app.state.db.session() as s:
        return int(s.scalar(select(func.count()).select_from(model)) or 0)


def job_of(app: Any, replay_id: str) -> int:
    key = app.state.analysis._key(replay_id)
    with app.state.db.session() as s:
        job_id = s.scalar(select(AnalysisJob.id).where(AnalysisJob.record_key == key))
    assert job_id is not None
    return int(job_id)


def finish(app: Any, w: AnalysisWorker, job_id: int) -> None:
    """The job's analysis is over (what the worker computes does not matter here)."""
    with app.state.db.session() as s:
        assert repo.finish(s, job_id, w.owner, JobStatus.DONE, w.clock.utcnow())


def roomy(app: Any) -> None:
    """Caps far above what a test queues (every test client has one address)."""
    app.state.analysis.max_pending_per_profile = 10
    app.state.analysis.max_pending_per_address = 100


def test_a_profile_over_its_cap_is_refused_and_nothing_is_queued(
    app: Any, client: TestClient, clock: ManualClock, ann: Player
) -> None:
    app.state.analysis.max_pending_per_profile = 2
    queue(client, ann, [101, 102])
    third = import_example(client, ann, solo_game(103))
    r = ask(client, third, ann)
    assert r.status_code == 429, r.text
    error = r.json()["error"]
    assert (error["code"], error["limit"], error["scope"]) == ("analysis_queue_full", 2, "profile")
    assert (count(app, AnalysisJob), count(app, AnalysisRequest)) == (2, 2)
    got = client.get(f"/api/replays/{third}/analysis", headers=ann.headers).json()
    assert got["status"] == "none"
    # One done: room for one more.
    w = worker(app, clock)
    job_id = w.claim()
    assert job_id is not None
    finish(app, w, job_id)
    assert ask(client, third, ann).status_code == 200
    assert count(app, AnalysisJob) == 3


def test_asking_again_for_a_waiting_analysis_is_not_refused(
    app: Any, client: TestClient, ann: Player
) -> None:
    app.state.analysis.max_pending_per_profile = 1
    (rid,) = queue(client, ann, [111])
    again = ask(client, rid, ann)
    assert again.status_code == 200 and again.json()["status"] == "queued"
    assert count(app, AnalysisRequest) == 1


def test_an_address_over_its_cap_is_refused_whichever_profile_asks(
    app: Any, client: TestClient, ann: Player
) -> None:
    app.state.analysis.max_pending_per_profile = 2
    app.state.analysis.max_pending_per_address = 3  # every test client has one address
    bob, cid = new_player(client, "Bob"), new_player(client, "Cid")
    queue(client, ann, [121, 122])
    queue(client, bob, [123])
    rid = import_example(client, cid, solo_game(124))
    r = ask(client, rid, cid)
    assert r.status_code == 429, r.text
    error = r.json()["error"]
    assert (error["code"], error["limit"], error["scope"]) == ("analysis_queue_full", 3, "address")
    assert (count(app, AnalysisJob), count(app, AnalysisRequest)) == (3, 3)


def test_a_newcomers_first_analysis_waits_one_job_at_most(
    app: Any, client: TestClient, clock: ManualClock, ann: Player
) -> None:
    """Ann queues five, Bob then one: Bob's is the next job taken. Two instances take turns
    claiming: the order is the database's, so it holds across them."""
    roomy(app)
    bob = new_player(client, "Bob")
    anns = [job_of(app, r) for r in queue(client, ann, [131, 132, 133, 134, 135])]
    one, two = worker(app, clock, owner="instance-1"), worker(app, clock, owner="instance-2")
    assert one.claim() == anns[0]  # Ann's first is running when Bob asks
    (bobs,) = [job_of(app, r) for r in queue(client, bob, [136])]
    clock.advance(1)
    assert two.claim() == bobs
    claimed = []
    for w in (one, two, one, two):
        clock.advance(1)
        claimed.append(w.claim())
    assert claimed == anns[1:]
    assert one.claim() is None


def test_requesters_are_served_in_turn(
    app: Any, client: TestClient, clock: ManualClock, ann: Player
) -> None:
    """Ann and Bob queue three each, Cid one later: Ann, Bob, Cid, then Ann and Bob in turn."""
    roomy(app)
    bob, cid = new_player(client, "Bob"), new_player(client, "Cid")
    anns = [job_of(app, r) for r in queue(client, ann, [141, 142, 143])]
    bobs = [job_of(app, r) for r in queue(client, bob, [144, 145, 146])]
    cids = [job_of(app, r) for r in queue(client, cid, [147])]
    w = worker(app, clock)
    claimed = []
    while (job_id := w.claim()) is not None:
        claimed.append(job_id)
        clock.advance(1)
    assert claimed == [anns[0], bobs[0], cids[0], anns[1], bobs[1], anns[2], bobs[2]]


def test_a_request_for_a_game_waiting_in_anothers_queue_is_served_in_its_turn(
    app: Any, client: TestClient, clock: ManualClock, ann: Player
) -> None:
    """Bob asks for the same game as Ann's third: it is one job, and Bob's turn takes it."""
    roomy(app)
    bob = new_player(client, "Bob")
    anns = [job_of(app, r) for r in queue(client, ann, [151, 152, 153])]
    (bobs,) = [job_of(app, r) for r in queue(client, bob, [153])]
    assert bobs == anns[2] and count(app, AnalysisJob) == 3
    w = worker(app, clock)
    assert w.claim() == anns[0]
    clock.advance(1)
    assert w.claim() == anns[2]


def test_one_game_written_two_ways_is_analysed_once(
    app: Any, client: TestClient, clock: ManualClock, ann: Player, example: dict[str, Any]
) -> None:
    """The same game as another record: the deal's building start given instead of left to
    the event card, every option spelled out, each move's fields in another order."""
    bob = new_player(client, "Bob")
    other = copy.deepcopy(example)
    other["options"]["building_start"] = 30  # what the top event card of this deal gives
    other["moves"] = [
        {**m, "move": dict(reversed(list(m["move"].items())))} for m in other["moves"]
    ]
    assert game_key(other) == game_key(example)
    first, second = import_example(client, ann, example), import_example(client, bob, other)
    assert ask(client, first, ann).status_code == 200
    assert ask(client, second, bob).json()["status"] == "queued"
    assert (count(app, AnalysisJob), count(app, AnalysisRequest)) == (1, 2)
    w = worker(app, clock)
    job_id = w.claim()
    assert job_id is not None and w.claim() is None  # one job for both
    finish(app, w, job_id)
    mine = client.get(f"/api/replays/{first}/analysis", headers=ann.headers).json()
    theirs = client.get(f"/api/replays/{second}/analysis", headers=bob.headers).json()
    assert mine["status"] == theirs["status"] == "done"
    # A third copy asked for once it is done: answered at once, nothing queued or counted.
    cid = new_player(client, "Cid")
    third = import_example(client, cid, other)
    assert ask(client, third, cid).json()["status"] == "done"
    assert count(app, AnalysisRequest) == 2 and w.claim() is None


def test_a_game_key_follows_the_game_not_its_spelling(example: dict[str, Any]) -> None:
    spelled = copy.deepcopy(example)
    spelled["options"]["building_start"] = 30
    spelled["rules_version"] = "sha256:0000000000000000"  # a label: the server's rules count
    assert game_key(spelled) == game_key(example)
    moved = copy.deepcopy(example)
    moved["options"]["building_start"] = 31
    assert game_key(moved) != game_key(example)
    shorter = {**example, "moves": example["moves"][:-1]}
    assert game_key(shorter) != game_key(example)


def test_two_requests_at_once_never_pass_the_cap_together(
    app: Any, client: TestClient, ann: Player
) -> None:
    """One profile asks for two games at the same moment with room for one: one is queued."""
    app.state.analysis.max_pending_per_profile = 1
    ids = [import_example(client, ann, solo_game(seed)) for seed in (161, 162)]
    start = threading.Barrier(2)
    codes: list[int] = []

    def asker(rid: str) -> None:
        start.wait()
        codes.append(ask(client, rid, ann).status_code)

    threads = [threading.Thread(target=asker, args=(rid,)) for rid in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200, 429]
    assert count(app, AnalysisJob) == 1

"""Optimistic concurrency and idempotency against the database itself.

Two service instances on one database stand for two server processes: their in-process locks do
not know each other, so only the versioned UPDATE and the unique move_id keep the log straight.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models import GameTable, MoveRecord
from app.db.session import Database
from app.errors import StaleVersion
from app.realtime.hub import Hub
from app.tables import repository as repo
from app.tables.history import Missing
from app.tables.service import TableService
from app.tables.status import TableStatus
from tests.conftest import Player


def started_table(client: TestClient, ann: Player, bob: Player) -> str:
    t = client.post(
        "/api/tables", json={"seats": 2, "options": {"start_player": 0}}, headers=ann.headers
    ).json()
    client.post(
        f"/api/tables/{t['id']}/join", json={"invite_code": t["invite_code"]}, headers=bob.headers
    )
    assert client.post(f"/api/tables/{t['id']}/start", headers=ann.headers).status_code == 200
    return t["id"]  # type: ignore[no-any-return]


def race(calls: list[Any]) -> list[Any]:
    """Run the calls at the same moment in threads; results or exceptions, in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls[i]()
        except Exception as exc:
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


@pytest.fixture
def two_services(app: Any, database_url: str) -> Any:
    other = TableService(Database(database_url), Hub())
    yield app.state.service, other
    other.db.dispose()


def log_length(svc: TableService, table_id: str) -> int:
    with svc.db.session() as s:
        return int(s.scalar(select(func.count()).where(MoveRecord.table_id == table_id)) or 0)


def from_memory(svc: TableService, viewer: Any, since: int | None, force: bool) -> Any:
    """The full catch-up the process's memory makes (None: it cannot, the database is read)."""
    found = svc.history.remembered(viewer, since, force)
    return None if isinstance(found, Missing) else found


def read_through(svc: TableService, viewer: Any, since: int | None, force: bool) -> Any:
    """The full catch-up from memory, else read from the database (and remembered)."""
    found = from_memory(svc, viewer, since, force)
    return svc.feed.catch_up_db(viewer, since, force) if found is None else found


def test_two_writers_on_one_version_never_fork(
    client: TestClient, two_services: Any, ann: Player, bob: Player
) -> None:
    svc, other = two_services
    tid = started_table(client, ann, bob)

    def legal() -> list[Any]:
        return client.get(f"/api/tables/{tid}/game", headers=ann.headers).json()["legal_moves"]

    moves = legal()
    for version in range(3):  # one move lands per round
        a, b = moves[0], moves[-1]
        results = race(
            [
                lambda a=a, v=version: svc.play.submit_sync(
                    tid, 0, a, v, f"a{v}", profile_id=ann.id
                ),
                lambda b=b, v=version: other.play.submit_sync(
                    tid, 0, b, v, f"b{v}", profile_id=ann.id
                ),
            ]
        )
        wins = [r for r in results if isinstance(r, tuple)]
        losses = [r for r in results if isinstance(r, StaleVersion)]
        assert len(wins) == 1 and len(losses) == 1, results
        assert losses[0].extra["version"] == version + 1
        assert log_length(svc, tid) == version + 1
        moves = legal()
        if not moves:
            break
    with svc.db.session() as s:
        t = s.get(GameTable, tid)
        assert t is not None and t.version == log_length(svc, tid)
    assert svc.replay_matches(tid)


def test_the_same_move_id_twice_at_once_applies_once(
    client: TestClient, two_services: Any, ann: Player, bob: Player
) -> None:
    svc, other = two_services
    tid = started_table(client, ann, bob)
    move = client.get(f"/api/tables/{tid}/game", headers=ann.headers).json()["legal_moves"][0]
    results = race(
        [
            lambda: svc.play.submit_sync(tid, 0, move, 0, "only-once", profile_id=ann.id),
            lambda: other.play.submit_sync(tid, 0, move, 0, "only-once", profile_id=ann.id),
        ]
    )
    assert all(isinstance(r, tuple) for r in results), results
    (first, fresh1), (second, fresh2) = results
    assert first["version"] == second["version"] == 1
    assert first["events"] == second["events"]
    assert sorted([fresh1, fresh2]) == [False, True]
    assert log_length(svc, tid) == 1
    assert svc.replay_matches(tid)


def legal_at(client: TestClient, player: Player, tid: str) -> tuple[int, list[Any]]:
    game = client.get(f"/api/tables/{tid}/game", headers=player.headers).json()
    return game["version"], game["legal_moves"]


def test_a_remembered_state_never_outruns_the_database(
    client: TestClient, two_services: Any, ann: Player, bob: Player
) -> None:
    """A process remembers the state it committed and starts its next move from it; when
    another process has moved the table on meanwhile, that memory must not be used."""
    svc, other = two_services
    tid = started_table(client, ann, bob)
    _, moves = legal_at(client, ann, tid)
    svc.play.submit_sync(
        tid, 0, moves[0], 0, "first", profile_id=ann.id
    )  # svc now remembers version 1
    _, moves = legal_at(client, ann, tid)
    assert moves, "seat 0 still has to act after its first move"
    other.play.submit_sync(
        tid, 0, moves[0], 1, "second", profile_id=ann.id
    )  # the table is at 2; svc still remembers 1
    with pytest.raises(StaleVersion) as stale:
        svc.play.submit_sync(tid, 0, moves[-1], 1, "late", profile_id=ann.id)
    assert stale.value.extra["version"] == 2
    # An illegal move judged on the remembered state is reported as stale, not as illegal.
    with pytest.raises(StaleVersion):
        svc.play.submit_sync(tid, 0, {"kind": "no_such_move"}, 1, "late-illegal", profile_id=ann.id)
    version, moves = legal_at(client, ann, tid)
    assert version == 2
    seat = 0 if moves else 1
    mover = ann if moves else bob
    _, moves = legal_at(client, mover, tid)
    out, fresh = svc.play.submit_sync(tid, seat, moves[0], 2, "third", profile_id=mover.id)
    assert fresh and out["version"] == 3
    assert log_length(svc, tid) == 3
    assert svc.replay_matches(tid)


def test_a_move_id_sent_again_at_the_next_version_is_the_same_move(
    client: TestClient, two_services: Any, ann: Player, bob: Player
) -> None:
    """A client that resends an applied move with the version it has since seen gets the first
    result back; the table does not move twice."""
    svc, _ = two_services
    tid = started_table(client, ann, bob)
    _, moves = legal_at(client, ann, tid)
    first, fresh = svc.play.submit_sync(tid, 0, moves[0], 0, "once", profile_id=ann.id)
    assert fresh and first["version"] == 1
    _, moves = legal_at(client, ann, tid)
    again, fresh = svc.play.submit_sync(tid, 0, moves[0], 1, "once", profile_id=ann.id)
    assert not fresh and again["duplicate"] and again["version"] == 1
    assert log_length(svc, tid) == 1
    with svc.db.session() as s:
        t = s.get(GameTable, tid)
        assert t is not None and t.version == 1


@contextmanager
def heard_while_reading(svc: TableService, notice: Any) -> Iterator[None]:
    """Inside the block, a read of a table's seats (a move's, a catch-up's) is followed by the
    hub hearing ``notice``: a notice that comes while the read is under way."""
    real = repo.game_seats_and_holders

    def seats_then_notice(conn: Any, table_id: str) -> Any:
        out = real(conn, table_id)
        svc.hub.deliver(notice)
        return out

    repo.game_seats_and_holders = seats_then_notice  # type: ignore[assignment]
    try:
        yield
    finally:
        repo.game_seats_and_holders = real  # type: ignore[assignment]


def test_a_lobby_notice_makes_the_process_forget_the_table(
    client: TestClient, two_services: Any, ann: Player, bob: Player
) -> None:
    """Seats change only through the lobby: its notice (local, or relayed from another process)
    drops what the process remembered of the table, seats included."""
    from app.realtime.hub import Notice

    svc, _ = two_services
    tid = started_table(client, ann, bob)
    _, moves = legal_at(client, ann, tid)
    svc.play.submit_sync(tid, 0, moves[0], 0, "m1", profile_id=ann.id)
    assert tid in svc.cache.fresh
    svc.hub.deliver(Notice(tid, "lobby"))
    assert tid not in svc.cache.fresh
    # A move that overlaps a lobby notice remembers nothing of the table either.
    _, moves = legal_at(client, ann, tid)
    with heard_while_reading(svc, Notice(tid, "lobby")):
        out, fresh = svc.play.submit_sync(tid, 0, moves[0], 1, "m2", profile_id=ann.id)
    assert fresh and out["version"] == 2, (out, fresh)
    assert tid not in svc.cache.fresh


def test_a_lobby_notice_of_another_table_does_not_make_a_table_forget_its_moves(
    client: TestClient, two_services: Any, ann: Player, bob: Player
) -> None:
    """The seats a move was judged with can only be made stale by its own table's lobby: a
    table that starts or changes seats meanwhile does not make the others' moves forget their
    tables (at saturation that sent every table of a busy process back to the database each
    time another one started)."""
    from app.realtime.hub import Notice

    svc, _ = two_services
    tid = started_table(client, ann, bob)
    busy = started_table(client, ann, bob)
    _, moves = legal_at(client, ann, tid)
    with heard_while_reading(svc, Notice(busy, "lobby")):
        out, fresh = svc.play.submit_sync(tid, 0, moves[0], 0, "m1", profile_id=ann.id)
    assert fresh and out["version"] == 1, (out, fresh)
    assert svc.cache.fresh[tid].version == 1


def test_a_table_s_changes_forgotten_past_the_bound_still_forget_its_reads() -> None:
    """The last change heard is kept per table up to a bound: a read that began before a change
    no longer kept remembers nothing, whichever table it was for."""
    from app.realtime.hub import Notice
    from app.tables.cache import TableCache
    from app.tables.types import Fresh

    cache = TableCache()
    cache_kept = 3
    import app.tables.cache as cache_module

    def fresh(version: int) -> Fresh:
        return Fresh(version, {}, TableStatus.PLAYING, None, [], 0)

    original = cache_module.CHANGES_KEPT
    cache_module.CHANGES_KEPT = cache_kept
    try:
        start = cache.epoch
        for n in range(cache_kept + 1):
            cache.heard(Notice(f"t{n}", "lobby"))
        cache.remember("t-quiet", fresh(1), cache.epoch)  # began after them all: kept
        assert "t-quiet" in cache.fresh
        cache.remember("t1", fresh(1), start)  # its notice is kept, and came later
        assert "t1" not in cache.fresh
        cache.remember("t0", fresh(1), start)  # its notice is no longer kept: not trusted
        assert "t0" not in cache.fresh
        cache.remember("t-other", fresh(1), start)  # another table whose notice may be gone
        assert "t-other" not in cache.fresh
        cache.remember("t3", fresh(1), cache.epoch)  # its notice came before the read began
        assert cache.fresh["t3"].version == 1
    finally:
        cache_module.CHANGES_KEPT = original


def test_a_read_that_overlaps_a_move_made_elsewhere_remembers_nothing(
    client: TestClient, two_services: Any, ann: Player, bob: Player
) -> None:
    """A catch-up reads version 1 while the notice of version 2 (a move made by another
    process) is heard: remembering version 1 then would serve later hellos a game one move
    behind, with no notice left to bring them on. It remembers nothing; the notice of the
    version it holds (its own move's) changes nothing."""
    from app.realtime.hub import Notice
    from app.tables.service import Viewer

    svc, _ = two_services
    tid = started_table(client, ann, bob)
    _, moves = legal_at(client, ann, tid)
    svc.play.submit_sync(tid, 0, moves[0], 0, "m1", profile_id=ann.id)
    svc.hub.deliver(Notice(tid, "game", 1))  # its own notice: the memory stands
    assert svc.cache.fresh[tid].version == 1
    svc.cache.fresh.clear()
    with heard_while_reading(svc, Notice(tid, "game", 2)):
        frame = svc.feed.catch_up_db(Viewer(tid, 1, bob.id), 0, False)
    assert frame is not None and frame["version"] == 1
    assert tid not in svc.cache.fresh
    svc.feed.catch_up_db(Viewer(tid, 1, bob.id), 0, False)  # no notice meanwhile: remembered
    assert svc.cache.fresh[tid].version == 1


def test_the_sockets_of_a_game_that_starts_say_hello_from_one_read(
    client: TestClient, two_services: Any, ann: Player, bob: Player
) -> None:
    """A started game with no move yet is remembered by the first socket that reads it: the
    other sockets' hellos (a snapshot, or the empty update of a hello at the current version)
    are served from memory, the frames a read of the database gives, and the first move is
    judged from there. A game notice of a later version (a move elsewhere) makes the process
    forget the table."""
    import asyncio

    from app.realtime.hub import Notice
    from app.tables.service import Viewer

    svc, _ = two_services
    tid = started_table(client, ann, bob)
    assert tid not in svc.cache.fresh
    reads = []
    real = svc.history.read

    def counted(*args: Any) -> Any:
        reads.append(args)
        return real(*args)

    async def hellos() -> list[Any]:
        return list(
            await asyncio.gather(
                svc.catch_up(Viewer(tid, 0, ann.id), None, True),
                svc.catch_up(Viewer(tid, 1, bob.id), None, True),
                svc.catch_up(Viewer(tid, 1, bob.id), 0, True),
                svc.catch_up(Viewer(tid, None, None), None, True),
            )
        )

    svc.history.read = counted
    try:
        frames = asyncio.run(hellos())
    finally:
        svc.history.read = real
    assert len(reads) == 1
    assert svc.cache.fresh[tid].version == 0
    assert [f["type"] for f in frames] == ["snapshot", "snapshot", "update", "snapshot"]
    assert frames[2]["moves"] == []
    remembered = [
        from_memory(svc, Viewer(tid, seat, who), since, True)
        for seat, who, since in ((0, ann.id, None), (1, bob.id, 0), (None, None, None))
    ]
    svc.cache.fresh.clear()
    read = [
        svc.feed.catch_up_db(Viewer(tid, seat, who), since, True)
        for seat, who, since in ((0, ann.id, None), (1, bob.id, 0), (None, None, None))
    ]
    assert remembered == read
    assert from_memory(svc, Viewer(tid, 1, bob.id), 0, False) is None  # nothing to send
    out, fresh = svc.play.submit_sync(
        tid, 0, read[0]["legal_moves"][0], 0, "first", profile_id=ann.id
    )
    assert fresh and out["version"] == 1, (out, fresh)
    svc.hub.deliver(Notice(tid, "game", 1))  # this move's own notice: still current
    assert svc.cache.fresh[tid].version == 1
    svc.hub.deliver(Notice(tid, "game", 2))  # a move made elsewhere
    assert tid not in svc.cache.fresh
    assert from_memory(svc, Viewer(tid, 1, bob.id), 1, True) is None


def test_a_catch_up_read_from_the_database_serves_the_rest_of_the_process(
    client: TestClient, two_services: Any, ann: Player, bob: Player
) -> None:
    """A move committed by another process is read once: the reading process remembers the
    table, so its other sockets catch up from memory and its next move starts from there."""
    import asyncio

    from app.tables.service import Viewer

    svc, other = two_services
    tid = started_table(client, ann, bob)
    _, moves = legal_at(client, ann, tid)
    svc.play.submit_sync(
        tid, 0, moves[0], 0, "elsewhere", profile_id=ann.id
    )  # "another process" commits version 1
    assert tid not in other.cache.fresh

    async def both_seats() -> list[Any]:
        return list(
            await asyncio.gather(
                other.catch_up(Viewer(tid, 0, None), 0), other.catch_up(Viewer(tid, 1, None), 0)
            )
        )

    reads = []
    real = other.history.read

    def counted(*args: Any) -> Any:
        reads.append(args)
        return real(*args)

    other.history.read = counted
    try:
        frames = asyncio.run(both_seats())
    finally:
        other.history.read = real
    assert len(reads) == 1  # the second socket waited for the first one's read
    assert [f["version"] for f in frames] == [1, 1]
    assert [f["type"] for f in frames] == ["update", "update"]
    assert [m["version"] for f in frames for m in f["moves"]] == [1, 1]
    assert frames[0]["legal_moves"] and not frames[1]["legal_moves"]
    assert other.cache.fresh[tid].version == 1
    # Served from what was read: the same frame as a fresh read of the database gives.
    again = read_through(other, Viewer(tid, 1, None), 0, force=False)
    other.cache.fresh.clear()
    reread = read_through(other, Viewer(tid, 1, None), 0, force=False)
    assert again == reread
    # The next move here starts from the remembered state.
    asyncio.run(other.catch_up(Viewer(tid, 0, None), 0))
    out, fresh = other.play.submit_sync(
        tid, 0, frames[0]["legal_moves"][0], 1, "here", profile_id=ann.id
    )
    assert fresh and out["version"] == 2, (out, fresh)
    assert svc.replay_matches(tid)


def test_the_table_that_moved_least_recently_is_forgotten_first(
    client: TestClient, two_services: Any, ann: Player, bob: Player, monkeypatch: Any
) -> None:
    svc, _ = two_services
    monkeypatch.setattr(svc.cache, "size", 2)
    tables = [started_table(client, ann, bob) for _ in range(3)]
    for tid in tables[:2]:
        svc.play.submit_sync(
            tid, 0, legal_at(client, ann, tid)[1][0], 0, "first", profile_id=ann.id
        )
    svc.play.submit_sync(
        tables[0], 0, legal_at(client, ann, tables[0])[1][0], 1, "second", profile_id=ann.id
    )
    svc.play.submit_sync(
        tables[2], 0, legal_at(client, ann, tables[2])[1][0], 0, "first", profile_id=ann.id
    )
    assert list(svc.cache.fresh) == [tables[0], tables[2]]
    # The forgotten table moves on from the database.
    out, fresh = svc.play.submit_sync(
        tables[1], 0, legal_at(client, ann, tables[1])[1][0], 1, "second", profile_id=ann.id
    )
    assert fresh and out["version"] == 2, (out, fresh)
    assert all(svc.replay_matches(tid) for tid in tables)


def test_concurrent_creations_respect_the_table_limit_exactly(
    client: TestClient, app: Any, ann: Player
) -> None:
    """The per-profile creation limit is counted in the inserting transaction, after taking the
    profile's lock: 60 creations at once against a limit of 30 make exactly 30 tables."""
    from app.errors import RateLimited

    svc = app.state.service
    svc.table_create_limit = (30, 600.0)
    results = race([lambda: svc.lobbies.create_sync(ann.id, 2, {}) for _ in range(60)])
    made = [r for r in results if isinstance(r, str)]
    refused = [r for r in results if isinstance(r, RateLimited)]
    assert len(made) == 30, [r for r in results if not isinstance(r, str | RateLimited)]
    assert len(refused) == 30
    with svc.db.session() as s:
        n = s.scalar(
            select(func.count()).select_from(GameTable).where(GameTable.host_profile_id == ann.id)
        )
    assert n == 30


def test_a_seat_changed_elsewhere_is_judged_from_the_database(
    client: TestClient, app: Any, two_services: Any, ann: Player, bob: Player
) -> None:
    """A process that remembers the table (seats included) moves with the seats the database
    holds: a seat handed to a bot through another process binds its very next move, and taking
    it back lets the next move through, without any notice reaching the process."""
    from app.errors import BotPlaysSeat

    svc, other = two_services
    tid = started_table(client, ann, bob)
    version, moves = legal_at(client, ann, tid)
    while moves:  # Ann's turn, played through the other process: it remembers the table
        other.play.submit_sync(tid, 0, moves[0], version, f"a{version}", profile_id=ann.id)
        version, moves = legal_at(client, ann, tid)
    # Ann hands her seat to a bot (it is Bob's turn: the bot waits).
    r = client.post(f"/api/tables/{tid}/seats/0/bot", json={"level": "random"}, headers=ann.headers)
    assert r.status_code == 200, r.text
    client.portal.call(app.state.bots.idle)
    assert tid in other.cache.fresh and other.cache.fresh[tid].version == version
    with pytest.raises(BotPlaysSeat):
        other.play.submit_sync(tid, 0, {"kind": "end_turn"}, version, "ann-late", profile_id=ann.id)
    # The other process reads the table again (a socket's catch-up), bot seat included.
    from app.tables.service import Viewer

    read_through(other, Viewer(tid, 1, None), version - 1, False)
    assert other.cache.fresh[tid].seats_version == seats_version(other, tid)
    r = client.post(f"/api/tables/{tid}/seats/0/reclaim", headers=ann.headers)
    assert r.status_code == 200, r.text
    # The other process still remembers the seats it read; the database has moved on: the
    # move's conditional update refuses that memory and the move is judged again.
    assert other.cache.fresh[tid].seats_version < seats_version(other, tid)
    _, moves = legal_at(client, bob, tid)
    out, fresh = other.play.submit_sync(tid, 1, moves[0], version, "bob", profile_id=bob.id)
    assert fresh and out["version"] == version + 1
    assert other.cache.fresh[tid].seats_version == seats_version(other, tid)
    assert svc.replay_matches(tid)


def seats_version(svc: TableService, tid: str) -> int:
    with svc.db.session() as s:
        t = s.get(GameTable, tid)
        assert t is not None
        return t.seats_version


def test_a_move_id_is_unique_per_seat(
    client: TestClient, two_services: Any, ann: Player, bob: Player
) -> None:
    """One seat cannot spend another seat's (predictable) move_id: the same id played by the
    other seat is a move of its own; a retry by the same seat is the first result again."""
    svc, _ = two_services
    tid = started_table(client, ann, bob)
    version, moves = legal_at(client, ann, tid)
    while moves:
        out, fresh = svc.play.submit_sync(
            tid, 0, moves[0], version, f"m{version}", profile_id=ann.id
        )
        assert fresh
        version, moves = legal_at(client, ann, tid)
    _, moves = legal_at(client, bob, tid)
    out, fresh = svc.play.submit_sync(
        tid, 1, moves[0], version, "m0", profile_id=bob.id
    )  # Ann's first move's id
    assert fresh and not out["duplicate"] and out["version"] == version + 1
    again, fresh = svc.play.submit_sync(tid, 1, moves[0], version, "m0", profile_id=bob.id)
    assert not fresh and again["duplicate"] and again["version"] == version + 1
    first, fresh = svc.play.submit_sync(tid, 0, {"kind": "end_turn"}, 0, "m0", profile_id=ann.id)
    assert not fresh and first["duplicate"] and first["version"] == 1
    assert log_length(svc, tid) == version + 1


def test_a_move_is_written_by_the_store_and_reads_only_when_the_table_is_not_known(
    client: TestClient, two_services: Any, ann: Player, bob: Player
) -> None:
    """Every move is written by the database's move store (Postgres: one statement sent from
    the event loop; SQLite: the moves' writer thread), never through the engine's worker-thread
    connections: a cold move only reads there (the table, its seats), a move on a table the
    process knows sends nothing at all."""
    from sqlalchemy import event

    svc, _ = two_services
    tid = started_table(client, ann, bob)
    sent: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        sent.append(statement.split()[0].upper())

    event.listen(svc.db.engine, "before_cursor_execute", seen)
    try:
        _, moves = legal_at(client, ann, tid)
        sent.clear()
        svc.play.submit_sync(tid, 0, moves[0], 0, "cold", profile_id=ann.id)  # reads first
        cold = list(sent)
        _, moves = legal_at(client, ann, tid)
        sent.clear()
        svc.play.submit_sync(tid, 0, moves[0], 1, "known", profile_id=ann.id)
    finally:
        event.remove(svc.db.engine, "before_cursor_execute", seen)
    assert svc.db.postgres == (svc.db.engine.dialect.name == "postgresql")
    assert sent == []
    assert cold and set(cold) == {"SELECT"}  # read, then written by the store
    assert log_length(svc, tid) == 2 and svc.replay_matches(tid)


def stored(svc: TableService, tid: str, version: int) -> tuple[Any, ...]:
    """What the table holds and the move ``version`` left (as the database's own text)."""
    from sqlalchemy import text

    with svc.db.begin() as conn:
        table = conn.execute(
            text("SELECT CAST(clock AS TEXT), status, version FROM game_table WHERE id = :t"),
            {"t": tid},
        ).one()
        move = conn.execute(
            text("SELECT seat, CAST(move AS TEXT) FROM move WHERE table_id = :t AND version = :v"),
            {"t": tid, "v": version},
        ).one()
    return (*table, *move)


def test_a_known_table_s_move_is_judged_on_the_event_loop_and_stored_as_before(
    client: TestClient, app: Any, ann: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person's move on a table this process knows is judged on the event loop and written
    without a worker thread of its own (Postgres: app/tables/store_postgres.py; SQLite: the
    moves' writer thread, app/tables/writer.py); a cold move reads the table first in a worker
    thread, and both store the same text; the same move_id sent again is the same move."""
    import orjson

    from app import rules
    from app.tables import play

    svc = app.state.service
    tid = started_table(client, ann, bob)
    threaded: list[str] = []
    real = play.to_thread.run_sync

    async def counted(fn: Any, *args: Any, **kw: Any) -> Any:
        if getattr(fn, "__name__", "") == "_read":
            threaded.append(args[2])  # its move_id
        return await real(fn, *args, **kw)

    def move(move_id: str) -> tuple[Any, Any]:
        version, moves = legal_at(client, ann, tid)
        body = {"move": moves[0], "expected_version": version, "move_id": move_id}
        r = client.post(f"/api/tables/{tid}/moves", json=body, headers=ann.headers)
        assert r.status_code == 200, r.text
        return r.json(), rules.encode_move(rules.decode_move(moves[0]))

    monkeypatch.setattr(play.to_thread, "run_sync", counted)
    _, first = move("first")  # cold: the table is read first
    after_first = stored(svc, tid, 1)
    assert threaded == ["first"]
    out, second = move("second")
    assert out["version"] == 2 and not out["duplicate"]
    after_second = stored(svc, tid, 2)
    assert threaded == ["first"]
    # the same text either way: the clock's JSON null, the status, the move and its events
    assert after_first[:2] == after_second[:2] and after_second[2] == 2
    assert after_first[4] == orjson.dumps(first).decode()
    assert after_second[4] == orjson.dumps(second).decode()
    body = {"move": second, "expected_version": 1, "move_id": "second"}
    again = client.post(f"/api/tables/{tid}/moves", json=body, headers=ann.headers).json()
    assert again["duplicate"] and again["version"] == 2
    assert log_length(svc, tid) == 2 and svc.replay_matches(tid)


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
def test_a_write_whose_answer_is_lost_is_unavailable_and_its_retry_finds_it(
    client: TestClient, app: Any, ann: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection fails after the statement committed (the answer never came back): the
    move is answered ``unavailable`` (retryable), and the client's retry with its move_id finds
    it in the log — one move, once."""
    import psycopg

    svc = app.state.service
    assert svc.db.postgres
    tid = started_table(client, ann, bob)
    pool = svc.play.store.pool
    real = pool.count

    async def lost(*args: Any) -> int:
        await real(*args)
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    for n in range(2):
        version, moves = legal_at(client, ann, tid)
        body = {"move": moves[0], "expected_version": version, "move_id": f"m{n}"}
        if n == 1:
            monkeypatch.setattr(pool, "count", lost)
            r = client.post(f"/api/tables/{tid}/moves", json=body, headers=ann.headers)
            assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
            monkeypatch.undo()
        r = client.post(f"/api/tables/{tid}/moves", json=body, headers=ann.headers)
        assert r.status_code == 200 and r.json()["version"] == n + 1
    assert r.json()["duplicate"]  # the retry found the move the lost answer was for
    assert log_length(svc, tid) == 2 and svc.replay_matches(tid)


def test_a_socket_a_few_moves_behind_is_caught_up_from_memory_as_the_database_would(
    client: TestClient, app: Any, ann: Player, bob: Player
) -> None:
    """The process keeps the last log lines of a table it moved: a socket up to LINES_KEPT - 1
    moves behind gets its update (every missed move) without a read, the same frame a read of
    the database gives; further behind, it is read."""
    from app.tables.service import Viewer
    from app.tables.types import LINES_KEPT

    svc = app.state.service
    tid = started_table(client, ann, bob)
    for n in range(LINES_KEPT + 2):
        version, moves = legal_at(client, ann, tid)
        seat, who = (0, ann) if moves else (1, bob)
        _, moves = legal_at(client, who, tid)
        svc.play.submit_sync(tid, seat, moves[0], version, f"m{n}", profile_id=who.id)
    top = svc.cache.fresh[tid].version
    assert top == LINES_KEPT + 2
    viewer = Viewer(tid, 1, bob.id)
    kept = {since: from_memory(svc, viewer, since, False) for since in range(top)}
    svc.cache.fresh.clear()
    for since, frame in kept.items():
        if since < top - LINES_KEPT:
            assert frame is None, since
            continue
        read = svc.feed.catch_up_db(viewer, since, False)
        svc.cache.fresh.pop(tid, None)
        assert frame == read, since
        assert [m["version"] for m in frame["moves"]] == list(range(since + 1, top + 1))


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
def test_a_move_tells_the_other_processes_once_as_it_commits(
    client: TestClient,
    app: Any,
    ann: Player,
    bob: Player,
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Postgres with the relay: the hint of every move is sent by the move store's own
    statement (delivered when it commits) and not again by the relay; the start is hinted by
    the relay. Each version is hinted once."""
    import asyncio

    import psycopg

    from app.db.direct import libpq_dsn
    from app.realtime.notify import HubRelay, decode_hint

    svc = app.state.service
    assert svc.db.postgres
    relay = next(b for b in svc.hub.background if isinstance(b, HubRelay))
    channel = relay.notifier.channel
    listener = psycopg.connect(libpq_dsn(database_url), autocommit=True)

    def hinted(tid: str) -> list[int | None]:
        client.portal.call(asyncio.wait_for, relay.sent(), 60)  # type: ignore[union-attr]
        # Delivered in commit order: every hint sent before this one has arrived with it.
        listener.execute("SELECT pg_notify(%s, 'end')", (channel,))
        out: list[int | None] = []
        for note in listener.notifies(timeout=60):  # a bound, not a wait: "end" comes first
            if note.payload == "end":
                return out
            found = decode_hint(note.payload)
            if found is not None and found[0] == tid and found[3] == "game":
                out.append(found[1])
        raise AssertionError("the notifications ended")

    def play(tid: str, moves: int) -> None:
        for n in range(moves):
            version, legal = legal_at(client, ann, tid)
            body = {"move": legal[0], "expected_version": version, "move_id": f"m{n}"}
            r = client.post(f"/api/tables/{tid}/moves", json=body, headers=ann.headers)
            assert r.status_code == 200

    try:
        listener.execute(f'LISTEN "{channel}"')
        tid = started_table(client, ann, bob)
        play(tid, 3)
        # the start (0) by the relay, every move by its statement (the first, cold, too); none
        # twice
        assert sorted(hinted(tid)) == [0, 1, 2, 3]
        monkeypatch.setattr(relay, "offer", lambda notice: None)
        muted = started_table(client, ann, bob)
        play(muted, 3)
        assert sorted(hinted(muted)) == [1, 2, 3]  # the statements' own, with the relay silent
    finally:
        listener.close()

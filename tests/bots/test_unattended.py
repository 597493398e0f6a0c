"""Games bots play alone cost CPU for as long as they last: a profile may leave only so many of
its games to bots alone, and in each process such games take turns for a small number of
thinking slots (first come, first served), while games with a person at them never wait."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import Player, assert_replays, make_settings, new_player, wipe


def _table(c: TestClient, host: Player, seats: int = 2) -> str:
    r = c.post(
        "/api/tables", json={"seats": seats, "options": {"start_player": 0}}, headers=host.headers
    )
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _bot(c: TestClient, tid: str, seat: int, who: Player, level: str = "random") -> Any:
    return c.post(f"/api/tables/{tid}/seats/{seat}/bot", json={"level": level}, headers=who.headers)


def _vs_bot(c: TestClient, who: Player) -> str:
    """A started two-seat game: ``who`` in seat 0 (to act first), a bot in seat 1."""
    tid = _table(c, who)
    assert _bot(c, tid, 1, who).status_code == 200
    assert c.post(f"/api/tables/{tid}/start", headers=who.headers).status_code == 200
    return tid


def _version(c: TestClient, tid: str, who: Player) -> int:
    return int(c.get(f"/api/tables/{tid}/game", headers=who.headers).json()["version"])


@pytest.fixture
def make_app(database_url: str, tmp_path: Path) -> Iterator[Any]:
    from app.main import create_app

    apps: list[Any] = []

    def make(**extra: Any) -> Any:
        wipe(database_url)
        application = create_app(make_settings(database_url, tmp_path, **extra))
        apps.append(application)
        return application

    yield make
    for application in apps:
        assert_replays(application)
        application.state.db.dispose()


def test_a_profile_may_leave_only_so_many_games_to_bots_alone(make_app: Any) -> None:
    app = make_app(bot_unattended_per_profile=2)
    with TestClient(app) as c:
        ann = new_player(c, "Ann")
        games = [_vs_bot(c, ann) for _ in range(3)]
        # Hold the process's slot: the games left to bots stay in play while we count.
        c.portal.call(app.state.bots.unattended.acquire)
        try:
            for tid in games[:2]:
                assert _bot(c, tid, 0, ann).status_code == 200
            r = _bot(c, games[2], 0, ann)
            assert r.status_code == 409, r.text
            assert r.json()["error"] == {
                "code": "too_many_bot_tables",
                "message": r.json()["error"]["message"],
                "limit": 2,
            }
            lobby = c.get(f"/api/tables/{games[2]}", headers=ann.headers).json()
            assert lobby["seats"][0]["bot_level"] is None  # nothing changed
            # Another profile has its own allowance; a seat taken back frees one of Ann's.
            bob = new_player(c, "Bob")
            assert _bot(c, _vs_bot(c, bob), 0, bob).status_code == 200
            r = c.post(f"/api/tables/{games[0]}/seats/0/reclaim", headers=ann.headers)
            assert r.status_code == 200, r.text
            assert _bot(c, games[2], 0, ann).status_code == 200
        finally:
            app.state.bots.unattended.release()


def test_games_bots_play_alone_take_turns_and_never_hold_up_a_person(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app.bots.runner as runner_module

    app = make_app(bot_unattended_per_profile=5, bot_unattended_slots=1)
    runner = app.state.bots
    real = runner_module.choose_move
    lock = threading.Lock()
    thinking = {"now": 0, "most": 0}
    alone_moves: list[str] = []  # the table of each move of a game bots play alone
    enough = threading.Event()
    release = threading.Event()
    alone: set[str] = set()
    view_tables: dict[int, str] = {}

    def spy(view: Any, legal: Any, level: str, seed: int, budget: float) -> Any:
        table = view_tables.get(id(view), "")
        with lock:
            thinking["now"] += 1
            thinking["most"] = max(thinking["most"], thinking["now"])
        try:
            return real(view, legal, level, seed, budget)
        finally:
            with lock:
                thinking["now"] -= 1
            if table in alone:
                alone_moves.append(table)
                if len(alone_moves) >= 9:
                    enough.set()
                    release.wait(60)  # hold the slot until the test has looked

    real_think = runner.__class__._think

    async def think(self: Any, table_id: str, seat: int, level: str, view: Any, legal: Any) -> Any:
        view_tables[id(view)] = table_id
        return await real_think(self, table_id, seat, level, view, legal)

    monkeypatch.setattr(runner_module, "choose_move", spy)
    monkeypatch.setattr(runner.__class__, "_think", think)
    with TestClient(app) as c:
        ann, bob = new_player(c, "Ann"), new_player(c, "Bob")
        games = [_vs_bot(c, ann) for _ in range(3)]
        person = _vs_bot(c, bob)
        c.portal.call(runner.unattended.acquire)  # the slot is busy: the alone games wait
        try:
            for tid in games:
                alone.add(tid)
                assert _bot(c, tid, 0, ann).status_code == 200
            before = [_version(c, tid, ann) for tid in games]
            # Bob plays: his bot opponent answers at once, though every slot is taken.
            g = c.get(f"/api/tables/{person}/game", headers=bob.headers).json()
            while g["view"]["to_act"] == [0]:
                move = (
                    next(m for m in g["legal_moves"] if m["kind"] == "end_turn")
                    if any(m["kind"] == "end_turn" for m in g["legal_moves"])
                    else g["legal_moves"][0]
                )
                r = c.post(
                    f"/api/tables/{person}/moves",
                    json={
                        "move": move,
                        "expected_version": g["version"],
                        "move_id": f"b{g['version']}",
                    },
                    headers=bob.headers,
                )
                assert r.status_code == 200, r.text
                g = c.get(f"/api/tables/{person}/game", headers=bob.headers).json()
            mine = g["version"]
            c.portal.call(runner.inbox.drained)

            async def bots_at(tid: str) -> None:
                task = runner.tasks.get(tid)
                if task is not None:
                    await asyncio.shield(task)

            c.portal.call(bots_at, person)
            assert _version(c, person, bob) > mine  # the bot at Bob's game has moved
            assert [_version(c, tid, ann) for tid in games] == before  # the alone games waited
        finally:
            c.portal.call(runner.unattended.release)
        assert enough.wait(120)
        first = alone_moves[:9]
        release.set()
        # One slot: never two moves worked out at once; the games that waited for it are served
        # in turn, each one move before any has a second (first come, first served).
        assert thinking["most"] == 1
        assert sorted(first[:3]) == sorted(games), first
        assert set(first) == set(games)

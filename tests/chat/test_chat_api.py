"""Chat over HTTP (history for scripts, mutes) and presence expiry driven by the injected clock."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import Player


def table_of(client: TestClient, host: Player, *others: Player, **options: Any) -> dict[str, Any]:
    r = client.post(
        "/api/tables",
        json={"seats": 1 + len(others), "options": options},
        headers=host.headers,
    )
    assert r.status_code == 201, r.text
    t = r.json()
    for p in others:
        r = client.post(
            f"/api/tables/{t['id']}/join",
            json={"invite_code": t["invite_code"]},
            headers=p.headers,
        )
        assert r.status_code == 200, r.text
    return t  # type: ignore[no-any-return]


def post(app: Any, table_id: str, p: Player, seat: int | None, text: str, msg_id: str) -> Any:
    from app.tables.types import Viewer

    viewer = Viewer(table_id, seat, p.id)
    return asyncio.run(app.state.chat.post(viewer, text, msg_id))


def test_history_is_paged_newest_first_oldest_first_within_a_page_with_mutes(
    app: Any, client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    t = table_of(client, ann, bob)
    tid = t["id"]
    app.state.chat.rate, app.state.chat.burst = 1000.0, 1000
    for n in range(205):
        post(app, tid, ann if n % 2 else bob, n % 2 ^ 1, f"m{n} <b>x</b>", f"id{n}")
    r = client.get(f"/api/tables/{tid}/chat", headers=ann.headers)
    assert r.status_code == 200
    body = r.json()
    assert [m["text"] for m in body["messages"]] == [f"m{n} <b>x</b>" for n in range(155, 205)]
    assert body["muted"] == [] and body["more"] is True
    # Older pages, each ending where the one after it starts, back to the first message.
    seen = [m["text"] for m in body["messages"]]
    pages = 1
    while body["more"]:
        before = body["messages"][0]["id"]
        body = client.get(
            f"/api/tables/{tid}/chat", params={"before": before, "limit": 60}, headers=ann.headers
        ).json()
        assert 0 < len(body["messages"]) <= 60
        assert all(m["id"] < before for m in body["messages"])
        seen = [m["text"] for m in body["messages"]] + seen
        pages += 1
    assert seen == [f"m{n} <b>x</b>" for n in range(205)] and pages == 4
    big = client.get(f"/api/tables/{tid}/chat", params={"limit": 200}, headers=ann.headers)
    assert len(big.json()["messages"]) == 200
    for bad in ({"limit": 201}, {"limit": 0}, {"before": 0}, {"before": "x"}):
        r = client.get(f"/api/tables/{tid}/chat", params=bad, headers=ann.headers)
        assert r.status_code == 422, bad
    assert client.post(f"/api/tables/{tid}/mutes/1", headers=ann.headers).json() == {"muted": [1]}
    assert client.post(f"/api/tables/{tid}/mutes/1", headers=ann.headers).json() == {"muted": [1]}
    assert client.get(f"/api/tables/{tid}/chat", headers=ann.headers).json()["muted"] == [1]
    assert client.get(f"/api/tables/{tid}/chat", headers=bob.headers).json()["muted"] == []
    r = client.delete(f"/api/tables/{tid}/mutes/1", headers=ann.headers)
    assert r.json() == {"muted": []}
    # no such seat, a hostile seat, a stranger: typed errors, nothing stored
    assert client.post(f"/api/tables/{tid}/mutes/3", headers=ann.headers).status_code == 404
    assert client.post(f"/api/tables/{tid}/mutes/-1", headers=ann.headers).status_code == 422
    assert client.post(f"/api/tables/{tid}/mutes/1", headers=eve.headers).status_code == 404
    assert client.get(f"/api/tables/{tid}/chat", headers=eve.headers).status_code == 404
    assert client.get(f"/api/tables/{tid}/chat").status_code == 404  # no invite
    code = t["invite_code"]
    r = client.get(f"/api/tables/{tid}/chat?invite={code}", headers=eve.headers)
    assert r.status_code == 200 and len(r.json()["messages"]) == 50


def test_presence_rows_of_a_dead_instance_run_out_on_the_sweep(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    from datetime import timedelta

    from app.clock import ManualClock
    from app.presence.service import PresenceService

    t = table_of(client, ann, bob)
    tid = t["id"]
    clock = ManualClock()
    hub = app.state.hub
    heard: list[str] = []
    hub.watchers.append(lambda n: heard.append(n.kind))
    dead = PresenceService(app.state.db, hub, clock, "dead-instance", 30, 10)
    live = PresenceService(app.state.db, hub, clock, "live-instance", 30, 10)

    def seats() -> list[tuple[bool, str | None]]:
        lobby = client.get(f"/api/tables/{tid}", headers=ann.headers).json()
        return [(s["present"], s["last_seen"]) for s in lobby["seats"]]

    async def scenario() -> None:
        await dead.opened(tid, bob.id)
        await live.opened(tid, ann.id)
        assert [p for p, _ in seats()] == [True, True]
        # 25 s on: both refreshed by their own instance? only the live one is alive
        clock.advance(25)
        await live.refresh(clock.utcnow())
        assert await live.sweep(clock.utcnow()) == set()
        clock.advance(10)  # the dead instance's row ran out 30 s after it was written
        assert await live.sweep(clock.utcnow()) == {tid}
        state = seats()
        assert state[0] == (True, None)
        assert state[1][0] is False
        expected = (clock.utcnow() - timedelta(seconds=5)).isoformat()
        assert state[1][1] == expected  # last seen: when its row ran out
        # Ann's last socket closes: absent at once, last seen now
        await live.closed(tid, ann.id)
        assert seats()[0] == (False, clock.utcnow().isoformat())

    asyncio.run(scenario())
    assert heard.count("presence") >= 3


def test_last_seen_keeps_the_later_time_whatever_order_the_writes_come_in(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    """Ann's last socket here closed at +40 s; a row of hers on an instance that died ran out
    at +30 s and is swept after: her last seen stays +40 s (one upsert that keeps the later)."""
    from datetime import timedelta

    from app.clock import ManualClock
    from app.presence.service import PresenceService

    tid = table_of(client, ann, bob)["id"]
    clock = ManualClock()
    dead = PresenceService(app.state.db, app.state.hub, clock, "dead-instance", 30, 10)
    live = PresenceService(app.state.db, app.state.hub, clock, "live-instance", 30, 10)

    def ann_seen() -> tuple[bool, str | None]:
        lobby = client.get(f"/api/tables/{tid}", headers=ann.headers).json()
        return lobby["seats"][0]["present"], lobby["seats"][0]["last_seen"]

    async def scenario() -> None:
        start = clock.utcnow()
        await dead.opened(tid, ann.id)
        await live.opened(tid, ann.id)
        clock.advance(40)
        await live.closed(tid, ann.id)
        closed = clock.utcnow()
        assert ann_seen() == (True, None)  # the dead instance's row still counts
        assert await live.sweep(clock.utcnow()) == {tid}
        assert ann_seen() == (False, closed.isoformat())
        assert closed - timedelta(seconds=10) == start + timedelta(seconds=30)
        clock.advance(5)  # a later close moves it on
        await live.opened(tid, ann.id)
        await live.closed(tid, ann.id)
        assert ann_seen() == (False, clock.utcnow().isoformat())

    asyncio.run(scenario())


def test_the_sockets_of_a_table_woken_together_share_one_presence_read(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    """Callers that ask for a table's seat list while it is being read get that read; one who
    asks after a presence or seat change (a notice) gets a read of its own."""
    from app.realtime.hub import Notice, NoticeKind

    tid = table_of(client, ann, bob)["id"]
    presence = app.state.presence

    async def scenario() -> None:
        await presence.opened(tid, ann.id)
        before = presence.reads
        lists = await asyncio.gather(*(presence.seats(tid) for _ in range(4)))
        assert presence.reads == before + 1
        assert lists[0] == lists[3] and [s["present"] for s in lists[0]] == [True, False]
        first = asyncio.ensure_future(presence.seats(tid))
        await asyncio.sleep(0)  # its read is under way
        await presence.opened(tid, bob.id)  # a change: written, then announced
        second = await presence.seats(tid)
        assert presence.reads == before + 3
        assert [s["present"] for s in second] == [True, True]
        await first
        third = asyncio.ensure_future(presence.seats(tid))
        await asyncio.sleep(0)
        app.state.hub.publish(Notice(tid, NoticeKind.LOBBY))  # a seat change, too
        await asyncio.gather(third, presence.seats(tid))
        assert presence.reads == before + 5

    asyncio.run(scenario())

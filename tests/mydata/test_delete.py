"""Delete my profile: after a confirmation and with a recent proof; personal data, sessions and
ways in erased; the seats in finished games keep a neutral name so the other players' records
stay whole and replayable; a running game's seat goes to a bot; a lobby is left."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from app.db.models import ChatMessage, DeviceSession, Profile, Seat, TableInvitation
from app.mydata.erase import NEUTRAL_NAME
from app.tables.types import Viewer
from tests.conftest import Player, assert_records_round_trip, assert_replays, new_player
from tests.games import finish, open_table, start


def _code(r: Any) -> str:
    return str(r.json()["error"]["code"])


def _say(app: Any, who: Player, table_id: str, seat: int, text: str) -> None:
    asyncio.run(app.state.chat.post(Viewer(table_id, seat, who.id), text, f"m-{text}"))


def test_deleting_keeps_the_others_records_whole_and_hands_running_seats_to_bots(
    client: TestClient,
) -> None:
    app = client.app
    ann, bob, eve = (new_player(client, n) for n in ("Ann", "Bob", "Eve"))
    done = finish(client, [ann, bob], seed=11)
    running = open_table(client, [bob, ann])["id"]
    start(client, running, bob, seed=5)
    lobby = open_table(client, [ann, eve])["id"]
    _say(app, ann, running, 1, "Ann's words")
    _say(app, bob, running, 0, "Bob's words")
    before = client.get(f"/api/tables/{done}/record", headers=bob.headers).json()

    # The confirmation is required; so is a recent proof: without them nothing changes.
    r = client.post("/api/me/delete", json={}, headers=ann.headers)
    assert r.status_code == 422
    with app.state.db.session() as s:  # type: ignore[attr-defined]
        s.execute(
            update(DeviceSession)
            .where(DeviceSession.profile_id == ann.id)
            .values(proved_at=datetime(2020, 1, 1, tzinfo=UTC))
        )
    r = client.post("/api/me/delete", json={"confirm": True}, headers=ann.headers)
    assert r.status_code == 403 and _code(r) == "recent_proof_required"
    assert client.get("/api/profiles/me", headers=ann.headers).json()["name"] == "Ann"
    proved = client.post(
        "/api/profiles/me/confirm", json={"code": ann.recovery_code}, headers=ann.headers
    )
    assert proved.status_code == 200, proved.text

    r = client.post("/api/me/delete", json={"confirm": True}, headers=ann.headers)
    assert r.status_code == 200, r.text
    assert r.json() == {"id": ann.id, "tables_left": 2}
    assert "emara_token=" in r.headers["set-cookie"]
    client.cookies.clear()

    # Gone: the sessions, the recovery code, the name, the words.
    assert client.get("/api/profiles/me", headers=ann.headers).status_code == 401
    r = client.post("/api/profiles/recover", json={"code": ann.recovery_code})
    assert r.status_code == 404
    client.cookies.clear()
    with app.state.db.session() as s:  # type: ignore[attr-defined]
        p = s.get(Profile, ann.id)
        assert p is not None and p.name == NEUTRAL_NAME and p.deleted_at is not None
        assert s.scalar(select(func.count()).where(DeviceSession.profile_id == ann.id)) == 0
        words = s.scalars(select(ChatMessage.text).where(ChatMessage.table_id == running))
        assert list(words) == ["Bob's words"]
        seat = s.scalar(select(Seat).where(Seat.table_id == running, Seat.seat == 1))
        assert seat is not None and seat.bot_level is not None  # a bot plays Ann's seat on
        assert s.scalar(select(func.count()).where(Seat.table_id == lobby)) == 1

    # Bob's record of the finished game: whole, the seat named neutrally, still replayable.
    after = client.get(f"/api/tables/{done}/record", headers=bob.headers)
    assert after.status_code == 200, after.text
    assert after.json()["moves"] == before["moves"] and after.json()["seed"] == before["seed"]
    assert [p["name"] for p in after.json()["players"]] == [NEUTRAL_NAME, "Bob"]
    assert_replays(app)
    assert_records_round_trip(app)
    # Nobody is left to invite: Bob's people and his rematch leave the deleted profile out.
    people = client.get("/api/me/people", headers=bob.headers).json()["people"]
    assert ann.id not in [p["id"] for p in people]
    rematch = client.post(f"/api/tables/{done}/rematch", headers=bob.headers)
    assert rematch.status_code == 200, rematch.text
    with app.state.db.session() as s:  # type: ignore[attr-defined]
        invited = s.scalars(
            select(TableInvitation.profile_id).where(
                TableInvitation.table_id == rematch.json()["table_id"]
            )
        )
        assert list(invited) == []
    # Eve hosts the lobby Ann left.
    lob = client.get(f"/api/tables/{lobby}", headers=eve.headers).json()
    assert lob["host"] is True and lob["status"] == "lobby"
    assert [x["name"] for x in lob["seats"] if x["taken"]] == ["Eve"]

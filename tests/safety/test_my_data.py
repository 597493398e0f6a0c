"""What protecting oneself leaves in "my data": the download lists the people I blocked and the
reports I made (my words, not the reported ones); deleting my profile erases every block to or
from me and my removals from lobbies, deletes the reports about me, and keeps the reports I made
for the operator without my name."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import PersonBlock, Report, TableRemoval
from tests.conftest import Player
from tests.safety.helpers import report, say, table


def test_my_data_lists_my_blocks_and_reports_and_deletion_erases_them(
    app: Any, client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    t = table(client, ann, bob, eve)
    mid = say(app, t["id"], bob, 1, "Bob's rude words")
    assert report(client, t["id"], ann, message_id=mid, note="my words").status_code == 201
    assert report(client, t["id"], bob, seat=0, reason="spam").status_code == 201  # about Ann
    client.post("/api/me/blocks", json={"profile_id": bob.id}, headers=ann.headers)
    client.post("/api/me/blocks", json={"profile_id": ann.id}, headers=eve.headers)
    other = table(client, eve, ann)
    client.post(f"/api/tables/{other['id']}/seats/1/remove", headers=eve.headers)

    data = client.get("/api/me/data", headers=ann.headers).json()
    assert [b["name"] for b in data["blocked_people"]] == ["Bob"]
    (mine,) = data["reports"]
    assert mine["note"] == "my words" and mine["kind"] == "message" and mine["status"] == "open"
    assert "Bob's rude words" not in str(data) and "spam" not in str(data)

    r = client.post("/api/me/delete", json={"confirm": True}, headers=ann.headers)
    assert r.status_code == 200, r.text
    with app.state.db.session() as s:
        assert list(s.scalars(select(PersonBlock))) == []
        assert list(s.scalars(select(TableRemoval))) == []
        (kept,) = s.scalars(select(Report))
        assert kept.reported_id == bob.id and kept.reporter_id is None
        assert kept.message_text == "Bob's rude words" and kept.note == "my words"

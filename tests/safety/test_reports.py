"""Reports over HTTP: a person at a table reports a chat message or a seated person's name; the
report keeps the message and the name as they were, and the operator's queue holds it with the
reporter. Each refusal changes nothing: a stranger, oneself, a message of another table, a seat
without a person, the same report twice, past the open reports' cap, past the rate limit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models import Report
from app.safety import queue
from tests.conftest import Player, make_settings, new_player, wipe
from tests.safety.helpers import code, report, say, table

pytestmark = pytest.mark.both_databases


def reports(app: Any) -> list[Report]:
    with app.state.db.session() as s:
        return list(s.scalars(select(Report).order_by(Report.id)))


def test_a_message_reported_is_kept_as_written_for_the_operator(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    t = table(client, ann, bob)
    mid = say(app, t["id"], bob, 1, "you play like a <b>goat</b>")
    r = report(client, t["id"], ann, message_id=mid, reason="harassment", note="  again\x07  ")
    assert r.status_code == 201, r.text
    out = r.json()
    assert out["kind"] == "message" and out["status"] == "open" and out["name"] == "Bob"
    assert out["reason"] == "harassment" and set(out) == {
        "id", "kind", "reason", "status", "name", "created_at"
    }  # fmt: skip
    # Bob renames himself and his message goes (he deletes his profile's messages): the report
    # still holds both as they were.
    with app.state.db.session() as s:
        from app.db.models import ChatMessage, Profile

        s.get(Profile, bob.id).name = "Robert"  # type: ignore[union-attr]
        s.get(ChatMessage, mid).text = "edited"  # type: ignore[union-attr]
    with app.state.db.session() as s:
        (q,) = queue.find(s)
    assert q.message_text == "you play like a <b>goat</b>" and q.reported_name == "Bob"
    assert q.reported_name_now == "Robert" and q.reporter_id == ann.id
    assert q.reporter_name == "Ann" and q.note == "again" and q.table_id == t["id"]


def test_a_name_is_reported_by_seat_and_a_spectator_may_report_with_the_code(
    app: Any, client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    t = table(client, ann, bob)
    r = report(client, t["id"], ann, seat=1, reason="hate")
    assert r.status_code == 201, r.text
    assert r.json()["kind"] == "name" and r.json()["name"] == "Bob"
    # Eve watches with the invite code (spectators allowed by default)
    r = report(client, t["id"], eve, invite=t["invite_code"], seat=0, reason="other")
    assert r.status_code == 201, r.text
    (first, second) = reports(app)
    assert (first.kind, first.reported_id, first.reported_name) == ("name", bob.id, "Bob")
    assert first.message_text is None and second.reporter_id == eve.id


def test_who_may_not_report_what(
    app: Any, client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    t = table(client, ann, bob)
    other = table(client, eve, ann)
    mine = say(app, t["id"], ann, 0, "hello")
    elsewhere = say(app, other["id"], eve, 0, "hi")
    bobs = say(app, t["id"], bob, 1, "hey")
    refusals = [
        # a stranger without the code: as if there were no such table
        (report(client, t["id"], eve, message_id=bobs), 404, "not_found"),
        (report(client, t["id"], eve, invite="wrong", message_id=bobs), 404, "not_found"),
        # oneself, by message or by seat
        (report(client, t["id"], ann, message_id=mine), 422, "cannot_report_self"),
        (report(client, t["id"], ann, seat=0), 422, "cannot_report_self"),
        # a message of another table, a seat nobody holds, a seat out of the table
        (report(client, t["id"], ann, message_id=elsewhere), 404, "not_found"),
        (report(client, t["id"], ann, message_id=10**9), 404, "not_found"),
        (report(client, other["id"], eve, seat=3), 404, "not_found"),
        # the body: one subject exactly, a known reason, short words
        (report(client, t["id"], ann, seat=1, message_id=bobs), 422, "malformed"),
        (report(client, t["id"], ann), 422, "malformed"),
        (report(client, t["id"], ann, seat=1, reason="boring"), 422, "malformed"),
        (report(client, t["id"], ann, seat=1, note="x" * 501), 422, "malformed"),
        (report(client, t["id"], ann, seat="1"), 422, "malformed"),
    ]
    for r, status, want in refusals:
        assert (r.status_code, code(r)) == (status, want), r.text
    assert reports(app) == []
    # signed out: 401
    r = client.post(f"/api/tables/{t['id']}/reports", json={"seat": 1, "reason": "spam"})
    assert r.status_code == 401


def test_a_table_closed_to_spectators_refuses_their_report(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    t = table(client, ann, bob, spectators=False)
    r = report(client, t["id"], eve, invite=t["invite_code"], seat=1)
    assert (r.status_code, code(r)) == (403, "forbidden")


def test_the_same_report_twice_is_refused_and_a_new_name_can_be_reported(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    t = table(client, ann, bob)
    mid = say(app, t["id"], bob, 1, "spam spam")
    assert report(client, t["id"], ann, message_id=mid).status_code == 201
    again = report(client, t["id"], ann, message_id=mid, reason="spam")
    assert (again.status_code, code(again)) == (409, "already_reported")
    assert report(client, t["id"], ann, seat=1).status_code == 201
    twice = report(client, t["id"], ann, seat=1)
    assert (twice.status_code, code(twice)) == (409, "already_reported")
    assert len(reports(app)) == 2
    # Bob takes another name: that one is a new thing to report
    with app.state.db.session() as s:
        from app.db.models import Profile

        s.get(Profile, bob.id).name = "B0b"  # type: ignore[union-attr]
    assert report(client, t["id"], ann, seat=1).status_code == 201


def test_open_reports_are_capped_per_reporter_until_the_operator_closes_one(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    app.state.safety.open_per_reporter = 3
    t = table(client, ann, bob)
    ids = [say(app, t["id"], bob, 1, f"line {n}") for n in range(5)]
    for mid in ids[:3]:
        assert report(client, t["id"], ann, message_id=mid).status_code == 201
    r = report(client, t["id"], ann, message_id=ids[3])
    assert (r.status_code, code(r)) == (429, "too_many_open_reports")
    assert r.json()["error"]["limit"] == 3
    assert len(reports(app)) == 3
    # Bob's reports are his own count
    assert report(client, t["id"], bob, seat=0).status_code == 201
    with app.state.db.session() as s:
        first = queue.find(s)[0]
        queue.close(s, first.id, queue.ReportStatus.DISMISSED, "", app.state.clock.utcnow())
    assert report(client, t["id"], ann, message_id=ids[3]).status_code == 201


@pytest.fixture
def limited(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """An app whose reports are limited to 3 an hour per address and profile."""
    from app.main import create_app

    wipe(database_url)
    application = create_app(make_settings(database_url, tmp_path, rate_report="3/hour"))
    with TestClient(application) as c:
        yield c
    application.state.db.dispose()


def test_reports_past_the_rate_limit_are_refused(limited: TestClient) -> None:
    app: Any = limited.app
    ann, bob = new_player(limited, "Ann"), new_player(limited, "Bob")
    t = table(limited, ann, bob)
    ids = [say(app, t["id"], bob, 1, f"flood {n}") for n in range(5)]
    answers = [report(limited, t["id"], ann, message_id=m).status_code for m in ids]
    assert answers == [201, 201, 201, 429, 429]
    r = report(limited, t["id"], ann, message_id=ids[4])
    assert code(r) == "rate_limited" and int(r.headers["retry-after"]) >= 1
    with app.state.db.session() as s:
        assert s.scalar(select(func.count()).select_from(Report)) == 3

"""python -m app.admin reports: the queue of reports (oldest first), one report as it was made
(the message and the name as they were, who reported), resolved or dismissed with a note — once;
and the sweep that deletes closed reports once their keeping time has passed (open ones stay)."""

from __future__ import annotations

from datetime import UTC, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from app.clock import ManualClock
from app.db.models import Report
from app.safety.sweeper import ReportSweeper
from tests.admin.conftest import Admin
from tests.conftest import new_player
from tests.safety.helpers import report, say, table


def test_the_operator_works_through_the_queue(client: TestClient, admin: Admin) -> None:
    app: Any = client.app
    ann, bob, eve = new_player(client, "Ann"), new_player(client, "Bob"), new_player(client, "Eve")
    t = table(client, ann, bob, eve)
    mid = say(app, t["id"], bob, 1, "a rude\nmessage")
    first = report(client, t["id"], ann, message_id=mid, reason="harassment", note="he goes on")
    second = report(client, t["id"], eve, seat=1, reason="hate")
    assert first.status_code == second.status_code == 201

    queue = admin("reports", "list", "--json").json
    assert [r["id"] for r in queue] == [first.json()["id"], second.json()["id"]]  # oldest first
    top = queue[0]
    assert top["reporter_id"] == ann.id and top["reporter_name"] == "Ann"
    assert top["reported_id"] == bob.id and top["message_text"] == "a rude\nmessage"
    listed = admin("reports", "list")
    assert f"#{first.json()['id']}" in listed.stdout and '"a rude message"' in listed.stdout
    shown = admin("reports", "show", str(first.json()["id"]))
    assert "  | a rude" in shown.stdout and "  | message" in shown.stdout
    assert f"by:         Ann ({ann.id})" in shown.stdout and "he goes on" in shown.stdout

    done = admin("reports", "resolve", str(first.json()["id"]), "--note", "suspended", "--json")
    assert done.json["status"] == "resolved" and done.json["resolution"] == "suspended"
    again = admin("reports", "dismiss", str(first.json()["id"]), ok=False)
    assert again.exit_code == 1 and "report_closed" in again.stderr
    admin("reports", "dismiss", str(second.json()["id"]))
    assert admin("reports", "list", "--json").json == []
    assert admin("reports", "list").stdout.strip() == "no open report"
    closed = admin("reports", "list", "--status", "all", "--json").json
    assert [r["status"] for r in closed] == ["dismissed", "resolved"]  # newest first
    about = admin("reports", "list", "--status", "all", "--reported", eve.id, "--json").json
    assert about == []
    missing = admin("reports", "show", "999999", ok=False)
    assert missing.exit_code == 1 and "not_found" in missing.stderr
    wrong = admin("reports", "list", "--status", "later", ok=False)
    assert wrong.exit_code == 2


def test_closed_reports_go_after_their_keeping_time_and_open_ones_stay(
    client: TestClient, admin: Admin
) -> None:
    app: Any = client.app
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    t = table(client, ann, bob)
    ids = [say(app, t["id"], bob, 1, f"m{n}") for n in range(3)]
    made = [report(client, t["id"], ann, message_id=m).json()["id"] for m in ids]
    admin("reports", "resolve", str(made[0]))
    admin("reports", "dismiss", str(made[1]))
    with app.state.db.session() as s:
        closed_at = s.get(Report, made[0]).closed_at
    assert closed_at is not None
    clock = ManualClock(start=closed_at.replace(tzinfo=UTC).timestamp())  # (stored as UTC)
    sweeper = ReportSweeper(app.state.db, clock, keep_days=180, interval=0)
    clock.advance(timedelta(days=179).total_seconds())
    assert sweeper.sweep_once() == 0
    clock.advance(timedelta(days=2).total_seconds())
    assert sweeper.sweep_once() == 2
    with app.state.db.session() as s:
        assert list(s.scalars(select(Report.id))) == [made[2]]  # the open one stays

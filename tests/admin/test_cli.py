"""python -m app.admin: profiles and tables looked up (for a person and with --json for a
script), a table closed (its players told, as when a host closes it), and a request by mail
answered: a person's data exported, a profile deleted."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from app.db.models import EmailAddress
from tests.admin.conftest import Admin
from tests.conftest import assert_replays, new_player
from tests.games import finish, open_table, start


def test_profiles_are_found_by_id_name_and_address(client: TestClient, admin: Admin) -> None:
    ann, _ = new_player(client, "Annabel"), new_player(client, "Bob")
    with client.app.state.db.session() as s:  # type: ignore[attr-defined]
        s.add(EmailAddress(profile_id=ann.id, address="annabel@example.org"))
    everyone = admin("profiles", "list", "--json").json
    assert [p["name"] for p in everyone] == ["Bob", "Annabel"]  # newest first
    by_name = admin("profiles", "list", "--name", "anna", "--json").json
    assert [p["id"] for p in by_name] == [ann.id]
    by_mail = admin("profiles", "list", "--email", "ANNABEL@example.org", "--json").json
    assert [p["id"] for p in by_mail] == [ann.id] and by_mail[0]["email"] == "annabel@example.org"
    assert admin("profiles", "list", "--name", "%", "--json").json == []
    shown = admin("profiles", "show", ann.id)
    assert f"id:         {ann.id}" in shown.stdout and "annabel@example.org" in shown.stdout
    listed = admin("profiles", "list", "--name", "anna")
    assert ann.id in listed.stdout and "active" in listed.stdout
    missing = admin("profiles", "show", "nobody", ok=False)
    assert missing.exit_code == 1 and "not_found" in missing.stderr


def test_tables_are_found_and_closed_with_their_players_told(
    client: TestClient, admin: Admin
) -> None:
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    done = finish(client, [ann, bob], seed=2)
    running = open_table(client, [bob, ann])["id"]
    start(client, running, bob, seed=4)
    playing = admin("tables", "list", "--status", "playing", "--json").json
    assert [t["id"] for t in playing] == [running]
    assert [x["name"] for x in playing[0]["seats"]] == ["Bob", "Ann"]
    hosted = admin("tables", "list", "--host", ann.id, "--json").json
    assert [t["id"] for t in hosted] == [done]
    assert "status:   finished" in admin("tables", "show", done).stdout

    # Closing asks first; "no" changes nothing.
    no = admin("tables", "close", running, input="n\n", ok=False)
    assert no.exit_code == 1
    assert admin("tables", "show", running, "--json").json["status"] == "playing"
    out = admin("tables", "close", running, "--yes", "--json")
    assert out.json == {"id": running, "status": "closed"}
    r = client.get(f"/api/tables/{running}", headers=ann.headers)
    assert r.json()["status"] == "closed"
    again = admin("tables", "close", done, "--yes", "--json", ok=False)
    assert again.exit_code == 1 and again.json["error"]["code"] == "wrong_status"
    assert_replays(client.app)


def test_a_request_by_mail_export_then_delete(
    client: TestClient, admin: Admin, tmp_path: Path
) -> None:
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    done = finish(client, [ann, bob], seed=9)
    target = tmp_path / "ann.json"
    admin("profiles", "export", ann.id, "--output", str(target))
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["profile"]["id"] == ann.id and [g["table_id"] for g in data["games"]] == [done]
    # The same file the profile page gives (but for the time it was made).
    page = client.get("/api/me/data", headers=ann.headers).json()
    assert {**page, "exported_at": None} == {**data, "exported_at": None}

    no = admin("profiles", "delete", ann.id, input="n\n", ok=False)
    assert no.exit_code == 1
    assert client.get("/api/profiles/me", headers=ann.headers).status_code == 200
    out = admin("profiles", "delete", ann.id, input="y\n")
    assert "deleted" in out.stdout
    assert client.get("/api/profiles/me", headers=ann.headers).status_code == 401
    assert admin("profiles", "show", ann.id, "--json").json["deleted_at"] is not None
    again = admin("profiles", "delete", ann.id, "--yes", "--json", ok=False)
    assert again.json["error"]["code"] == "not_found"
    record = client.get(f"/api/tables/{done}/record", headers=bob.headers)
    assert record.status_code == 200
    assert_replays(client.app)


def test_an_id_that_begins_with_a_dash_is_an_id(client: TestClient, admin: Admin) -> None:
    # Ids are URL-safe base64: one in 64 begins with "-", which is not an unknown option here.
    for kind in ("tables", "profiles"):
        missing = admin(kind, "show", "-" + "x" * 11, ok=False)
        assert missing.exit_code == 1, (missing.stdout, missing.stderr)
        assert "No such option" not in missing.stderr

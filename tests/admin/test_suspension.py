"""A suspended profile: its sessions end; signed in again, it cannot open a table, a rematch,
or invite anyone (a typed ``403 suspended``, nothing changed) until the suspension is lifted."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models import GameTable, TableInvitation
from tests.admin.conftest import Admin
from tests.conftest import Player, new_player
from tests.games import finish


def _code(r: Any) -> str:
    return str(r.json()["error"]["code"])


def _count(client: TestClient, model: Any) -> int:
    with client.app.state.db.session() as s:  # type: ignore[attr-defined]
        return int(s.scalar(select(func.count()).select_from(model)) or 0)


def _recover(client: TestClient, who: Player) -> Player:
    r = client.post("/api/profiles/recover", json={"code": who.recovery_code})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    body = r.json()
    return Player(who.id, who.name, body["token"], body["recovery_code"])


def test_a_suspended_profile_cannot_open_tables_or_invite_until_lifted(
    client: TestClient, admin: Admin
) -> None:
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    done = finish(client, [ann, bob], seed=3)
    r = client.post("/api/tables", json={"seats": 2}, headers=ann.headers)
    assert r.status_code == 201, r.text
    lobby = r.json()["id"]

    out = admin("profiles", "suspend", ann.id, "--reason", "abusive chat", "--json")
    assert out.json["profile_id"] == ann.id and out.json["reason"] == "abusive chat"
    # Every session ended.
    assert client.get("/api/profiles/me", headers=ann.headers).status_code == 401
    ann = _recover(client, ann)  # signing in again is allowed; playing on is too
    tables, invitations = _count(client, GameTable), _count(client, TableInvitation)

    r = client.post("/api/tables", json={"seats": 2}, headers=ann.headers)
    assert r.status_code == 403 and _code(r) == "suspended"
    r = client.post(
        f"/api/tables/{lobby}/invitations", json={"profile_id": bob.id}, headers=ann.headers
    )
    assert r.status_code == 403 and _code(r) == "suspended"
    r = client.post(f"/api/tables/{done}/rematch", headers=ann.headers)
    assert r.status_code == 403 and _code(r) == "suspended"
    assert (_count(client, GameTable), _count(client, TableInvitation)) == (tables, invitations)
    # Bob is not suspended.
    assert client.post("/api/tables", json={"seats": 2}, headers=bob.headers).status_code == 201

    shown = admin("profiles", "show", ann.id)
    assert "suspended:  20" in shown.stdout and "(abusive chat)" in shown.stdout
    admin("profiles", "unsuspend", ann.id)
    assert client.post("/api/tables", json={"seats": 2}, headers=ann.headers).status_code == 201
    r = client.post(
        f"/api/tables/{lobby}/invitations", json={"profile_id": bob.id}, headers=ann.headers
    )
    assert r.status_code == 201, r.text


def test_suspending_nobody_is_a_clear_error(client: TestClient, admin: Admin) -> None:
    out = admin("profiles", "suspend", "nobody-here", "--json", ok=False)
    assert out.exit_code == 1 and out.json["error"]["code"] == "not_found"
    out = admin("profiles", "suspend", "nobody-here", ok=False)
    assert out.exit_code == 1 and "not_found" in out.stderr

"""Cross-site requests cannot act: every state-changing route, taken from the app's own routes
(a route added later is covered without anyone remembering it), refuses what a browser marks as
sent by another site or another origin of the same site; scripts with a Bearer token are judged
by the token alone. The session cookie is Secure over HTTPS, HttpOnly and SameSite=Lax."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import iter_route_contexts
from fastapi.testclient import TestClient

from app.web.origin import SAFE_METHODS
from tests.conftest import Player, assert_replays, make_settings, new_player, wipe

COOKIE = "emara_token"
# What a browser sends with a request another site (or another origin of this site) made.
FOREIGN: list[dict[str, str]] = [
    {"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"},
    {"Sec-Fetch-Site": "same-site", "Origin": "https://other.testserver"},
    {"Sec-Fetch-Site": "cross-site"},  # Origin may be missing (a form's navigation)
    {"Origin": "https://evil.example"},  # a browser without Sec-Fetch-Site
    {"Origin": "null"},  # a sandboxed frame, a redirect across origins
    {"Origin": "http://testserver.evil.example"},
]
OWN: list[dict[str, str]] = [
    {"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"},
    {"Origin": "http://testserver"},
    {},  # not a browser
]


def acting_routes(app: Any) -> list[tuple[str, str]]:
    """(method, path) of every route that can change state: any method but GET/HEAD/OPTIONS."""
    return sorted(
        (method, str(route.path))
        for route in iter_route_contexts(app.routes)
        for method in set(getattr(route, "methods", None) or ()) - SAFE_METHODS
    )


def concrete(path: str, table_id: str) -> str:
    values = {"table_id": table_id, "seat": "1"}
    return re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: values.get(m.group(1), "x"), path)


@pytest.fixture
def seated(client: TestClient) -> tuple[Player, str]:
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    t = client.post("/api/tables", json={"seats": 3}, headers=ann.headers).json()
    r = client.post(
        f"/api/tables/{t['id']}/join", json={"invite_code": t["invite_code"]}, headers=bob.headers
    )
    assert r.status_code == 200, r.text
    return ann, t["id"]


def test_the_enumeration_holds_every_state_changing_route(app: Any) -> None:
    routes = acting_routes(app)
    for needed in [
        ("POST", "/api/profiles/signout"),
        ("POST", "/api/profiles/signout-everywhere"),
        ("POST", "/api/tables/{table_id}/leave"),
        ("POST", "/api/tables/{table_id}/start"),
        ("POST", "/api/tables/{table_id}/clock/pause"),
        ("POST", "/api/tables/{table_id}/clock/resume"),
        ("POST", "/api/tables/{table_id}/mutes/{seat}"),
        ("DELETE", "/api/tables/{table_id}/mutes/{seat}"),
        ("DELETE", "/api/push/subscriptions"),
    ]:
        assert needed in routes
    assert any(path.endswith("/reclaim") for _, path in routes)
    assert len(routes) >= 20


def test_every_state_changing_route_refuses_a_cross_site_request(
    client: TestClient, app: Any, seated: tuple[Player, str]
) -> None:
    ann, table_id = seated
    for method, template in acting_routes(app):
        path = concrete(template, table_id)
        for headers in FOREIGN:
            client.cookies.set(COOKIE, ann.token)
            r = client.request(method, path, json={}, headers=headers)
            assert r.status_code == 403, (method, path, headers, r.text)
            assert r.json()["error"]["code"] == "cross_site", (method, path, headers)
            assert "set-cookie" not in r.headers  # no session was started, renewed or ended
        # A script with its own token and no cookie is judged by the token, wherever it runs.
        client.cookies.clear()
        r = client.request(method, path, json={}, headers={**FOREIGN[0], **ann.headers})
        assert r.status_code != 403 or r.json()["error"]["code"] != "cross_site", (method, path)
        # The site's own pages, and clients that are not browsers, act as before.
        for headers in OWN:
            client.cookies.set(COOKIE, ann.token)
            r = client.request(method, path, json={}, headers=headers)
            refused = r.status_code == 403 and r.json()["error"]["code"] == "cross_site"
            assert not refused, (method, path, headers)
    client.cookies.clear()


def test_a_refused_request_changes_nothing(client: TestClient, seated: tuple[Player, str]) -> None:
    ann, table_id = seated
    client.cookies.set(COOKIE, ann.token)
    evil = FOREIGN[0]
    assert client.post(f"/api/tables/{table_id}/leave", headers=evil).status_code == 403
    assert client.post("/api/profiles/signout-everywhere", headers=evil).status_code == 403
    assert client.post("/api/profiles/signout", headers=evil).status_code == 403
    assert client.post(f"/api/tables/{table_id}/mutes/1", headers=evil).status_code == 403
    lobby = client.get(f"/api/tables/{table_id}").json()
    assert [s["name"] for s in lobby["seats"] if s.get("name")] == ["Ann", "Bob"]
    assert client.get(f"/api/tables/{table_id}/chat").json()["muted"] == []
    assert client.get("/api/profiles/me", headers=ann.headers).status_code == 200  # token good
    # The same requests from the site's own page act.
    own = OWN[0]
    assert client.post(f"/api/tables/{table_id}/mutes/1", headers=own).json()["muted"] == [1]
    assert client.post(f"/api/tables/{table_id}/leave", headers=own).status_code == 200
    client.cookies.clear()


@pytest.fixture
def trusting(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    from app.main import create_app

    wipe(database_url)
    application = create_app(
        make_settings(database_url, tmp_path, allowed_origins=["https://play.example.org"])
    )
    with TestClient(application) as c:
        yield c
    assert_replays(application)
    application.state.db.dispose()


def test_allowed_origins_may_act(trusting: TestClient) -> None:
    ann = new_player(trusting, "Ann")
    trusting.cookies.set(COOKIE, ann.token)
    headers = {"Sec-Fetch-Site": "cross-site", "Origin": "https://play.example.org"}
    assert trusting.post("/api/tables", json={"seats": 2}, headers=headers).status_code == 201
    headers["Origin"] = "https://evil.example"
    assert trusting.post("/api/tables", json={"seats": 2}, headers=headers).status_code == 403
    trusting.cookies.clear()


def _cookie_line(response: Any) -> str:
    lines = [v for k, v in response.headers.multi_items() if k == "set-cookie"]
    assert len(lines) == 1, lines
    return str(lines[0]).lower()


@pytest.mark.parametrize(
    ("base", "setting", "secure"),
    [
        ("https://testserver", False, True),  # served over HTTPS: Secure without being told
        ("http://testserver", True, True),  # the setting (TLS ends at a proxy)
        ("http://testserver", False, False),  # plain local HTTP
    ],
)
def test_the_session_cookie_is_secure_over_https_and_always_httponly_and_samesite(
    database_url: str, tmp_path: Path, base: str, setting: bool, secure: bool
) -> None:
    from app.main import create_app

    wipe(database_url)
    application = create_app(make_settings(database_url, tmp_path, cookie_secure=setting))
    with TestClient(application, base_url=base) as c:
        created = c.post("/api/profiles", json={"name": "Ann"})
        ended = c.post("/api/profiles/signout")
    application.state.db.dispose()
    for line in (_cookie_line(created), _cookie_line(ended)):
        assert "httponly" in line and "samesite=lax" in line and "path=/" in line
        assert ("; secure" in line) is secure, line

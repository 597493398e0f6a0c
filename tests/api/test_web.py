"""The web client's routes and the security headers on every HTTP response."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.web.client import BadPath, check_page_path
from app.web.headers import CONTENT_SECURITY_POLICY, SecurityHeaders

EXPECTED = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


def assert_secured(response: Any) -> None:
    for name, value in EXPECTED.items():
        assert response.headers.get(name) == value, (name, response.headers.get(name))
    assert "camera=()" in response.headers["permissions-policy"]


def test_the_policy_is_the_strict_one() -> None:
    parts = dict(p.strip().split(" ", 1) for p in CONTENT_SECURITY_POLICY.split(";"))
    assert parts["default-src"] == "'self'"
    assert parts["script-src"] == "'self'"
    assert parts["style-src"] == "'self'"
    assert parts["connect-src"] == "'self'"
    assert parts["object-src"] == "'none'"
    assert parts["frame-ancestors"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/t/abc",
        "/r/AbC123dEf456",
        "/history",
        "/solo",
        "/records",
        "/js/dom.js",
        "/css/app.css",
        "/favicon.svg",
    ],
)
def test_pages_and_files_carry_the_headers(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200
    assert_secured(r)


def test_api_answers_and_errors_carry_the_headers(client: TestClient) -> None:
    ok = client.get("/api/health")
    assert ok.status_code == 200
    assert_secured(ok)
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
    assert_secured(missing)
    refused = client.get("/api/profiles/me")
    assert refused.status_code == 401
    assert_secured(refused)


def test_client_routes_serve_the_page_and_unknown_files_are_404(client: TestClient) -> None:
    for path in ("/t/AbC123", "/r/AbC123dEf456", "/r/AbC123dEf456?at=57", "/history"):
        page = client.get(path)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert '<script type="module" src="/v/' in page.text
    assert client.get("/js/no-such-module.js").status_code == 404
    assert client.get("/ws/nothing").status_code == 404


def test_the_docs_page_gets_the_same_strict_policy(client: TestClient) -> None:
    docs = client.get("/docs")
    assert docs.status_code == 200
    assert docs.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert docs.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize(
    "path",
    ["/%00", "/t/%00x", "/%2e%2e/etc/passwd", "/js/%2e%2e/%2e%2e/pyproject.toml", "/x%5C..%5Cy"],
)
def test_malformed_page_paths_are_refused_with_400(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 400, (path, r.status_code)
    assert r.json()["error"]["code"] == "bad_path"
    assert_secured(r)


def test_a_line_break_in_a_path_is_a_client_error(client: TestClient) -> None:
    # No route matches a path with a line break at all: still a JSON 4xx, never a 500.
    r = client.get("/a%0Ab")
    assert 400 <= r.status_code < 500
    assert "error" in r.json()
    assert_secured(r)


def test_the_path_check_accepts_real_routes() -> None:
    for ok in ("", "t/AbC-12_x", "js/dom.js", "i18n/cs.json", "records"):
        check_page_path(ok)
    for bad in ("\x00", "t/\x00x", "../etc", "js/./x", "a\\b", "a\x7fb"):
        with pytest.raises(BadPath):
            check_page_path(bad)


def test_an_unhandled_error_is_a_json_500_with_the_headers() -> None:
    from starlette.types import Receive, Scope, Send

    async def inner(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["path"] == "/boom":
            raise RuntimeError("broken")
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"x-frame-options", b"SAMEORIGIN")],
            }
        )
        await send({"type": "http.response.body", "body": b"ok"})

    c = TestClient(SecurityHeaders(inner), raise_server_exceptions=False)  # (no lifespan)
    r = c.get("/boom")
    assert r.status_code == 500
    assert r.json()["error"]["code"] == "internal_error"
    assert_secured(r)
    ok = c.get("/fine")
    assert ok.text == "ok"
    assert_secured(ok)  # the app's own weaker value is replaced, not doubled
    assert ok.headers.get_list("x-frame-options") == ["DENY"]
    with pytest.raises(RuntimeError):
        TestClient(SecurityHeaders(inner)).get("/boom")  # still raised, so that it is logged


def test_the_app_answers_an_unhandled_error_with_the_headers(app: Any) -> None:
    from starlette.requests import Request
    from starlette.routing import Route

    def broken(_: Request) -> None:
        raise RuntimeError("broken")

    # ahead of the client's catch-all route
    app.router.routes.insert(0, Route("/api/broken", broken))
    r = TestClient(app, raise_server_exceptions=False).get("/api/broken")
    assert r.status_code == 500
    assert r.json()["error"]["code"] == "internal_error"
    assert_secured(r)

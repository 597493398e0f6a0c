"""Passkey tests: one app per test on both databases, with a clock the test moves, and clients
that keep their own cookies (each a device)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests.conftest import Player, make_settings, new_player, wipe
from tests.passkeys.authenticator import Authenticator

# TestClient's requests go to http://testserver: the relying party and origin a browser there has.
ORIGIN = "http://testserver"

Device = Callable[..., TestClient]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(start=1_800_000_000.0)  # a minute boundary: rate windows start here


@pytest.fixture
def device(database_url: str, tmp_path: Path, clock: ManualClock) -> Iterator[Device]:
    """``device(address)``: a client of one app (each its own cookie jar), with settings the
    first call may change (``device(rate_passkey_signin="3/minute")``)."""
    from app.main import create_app

    wipe(database_url)
    apps: list[Any] = []
    clients: list[TestClient] = []

    def make(address: str = "10.0.0.1", **extra: Any) -> TestClient:
        if not apps:
            apps.append(create_app(make_settings(database_url, tmp_path, **extra), clock=clock))
        c = TestClient(apps[0], client=(address, 40000))
        c.__enter__()
        clients.append(c)
        return c

    yield make
    for c in clients:
        c.__exit__(None, None, None)
    for application in apps:
        application.state.db.dispose()


@pytest.fixture
def tc(device: Device) -> TestClient:
    return device()


@pytest.fixture
def ada(tc: TestClient) -> Player:
    return new_player(tc, "Ada")


@pytest.fixture
def key() -> Authenticator:
    return Authenticator(ORIGIN)


def add_passkey(
    tc: TestClient, who: Player, key: Authenticator, name: str | None = None
) -> dict[str, Any]:
    options = tc.post("/api/passkeys/register/options", headers=who.headers)
    assert options.status_code == 200, options.text
    body: dict[str, Any] = {"credential": key.create(options.json())}
    if name is not None:
        body["name"] = name
    r = tc.post("/api/passkeys/register", json=body, headers=who.headers)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def signin_options(tc: TestClient) -> dict[str, Any]:
    r = tc.post("/api/passkeys/signin/options")
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]

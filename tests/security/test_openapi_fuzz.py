"""Schemathesis against the app's own OpenAPI schema (in process, bounded): no 5xx anywhere.

Requests carry a real profile token, so the generated bodies reach the handlers behind the
authentication, and path ids are sometimes a real table's id."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from app.config import Settings
from app.db.migrate import upgrade
from app.main import create_app
from tests.conftest import SUITE_SECRET_KEY


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from fastapi.testclient import TestClient

    tmp: Path = tmp_path_factory.mktemp("openapi")
    url = f"sqlite:///{tmp / 'emara.db'}"
    upgrade(url)
    app = create_app(Settings(database_url=url, data_dir=tmp / "data", secret_key=SUITE_SECRET_KEY))
    with TestClient(app) as c:
        players = [c.post("/api/profiles", json={"name": f"P{i}"}).json() for i in range(2)]
        h = {"Authorization": f"Bearer {players[0]['token']}"}
        t = c.post("/api/tables", json={"seats": 2}, headers=h).json()
        c.post(
            f"/api/tables/{t['id']}/join",
            json={"invite_code": t["invite_code"]},
            headers={"Authorization": f"Bearer {players[1]['token']}"},
        )
        c.post(f"/api/tables/{t['id']}/start", headers=h)
    app.state.fuzz_headers = h
    app.state.fuzz_table = t["id"]
    yield app
    app.state.db.dispose()


def test_no_server_error_on_any_operation(fuzz_app: Any) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", fuzz_app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 8
    checked: dict[str, int] = {}

    for operation in operations:
        label = operation.label

        @given(case=operation.as_strategy())
        @settings(
            max_examples=25,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
        )
        def run(case: Any) -> None:
            params = case.path_parameters or {}
            # Half the time aim at the real table so the handlers get past the lookup.
            if "table_id" in params and len(repr(case.body)) % 2 == 0:
                params["table_id"] = fuzz_app.state.fuzz_table
            case.call_and_validate(headers=fuzz_app.state.fuzz_headers, checks=[not_a_server_error])
            checked[label] = checked.get(label, 0) + 1  # noqa: B023 - run() is called at once

        run()
    assert sum(checked.values()) >= 100, checked

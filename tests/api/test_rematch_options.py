"""A rematch copies the rules the same people play by again, never a choice a person makes for
one game: ``public_replay`` (anyone may see the record) starts off again."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.tables.schemas import TableOptions
from tests.conftest import Player
from tests.records.helpers import finish

PLAYED_AGAIN = {
    "building_start": 40,
    "random_locations": True,
    "full_selection": True,
    "undo": False,
    "idle_seconds": 300,
    "timeout_bot_level": "strong",
}


def test_a_rematch_does_not_copy_a_public_replay_but_copies_the_rules(
    app: Any, client: TestClient, ann: Player
) -> None:
    old = finish(app, client, [ann], 5, **PLAYED_AGAIN, public_replay=True)
    assert client.get(f"/api/tables/{old}").json()["error"]["code"] == "not_found"
    assert client.get(f"/api/tables/{old}/record").status_code == 200  # public: anyone sees it
    r = client.post(f"/api/tables/{old}/rematch", headers=ann.headers)
    assert r.status_code == 200, r.text
    new = r.json()["table_id"]
    options = client.get(f"/api/tables/{new}", headers=ann.headers).json()["options"]
    assert options["public_replay"] is False
    for key, value in PLAYED_AGAIN.items():
        assert options[key] == value, key


def test_only_the_options_chosen_again_start_again() -> None:
    from app.tables.lobby import CHOSEN_AGAIN, rematch_options

    options = TableOptions(public_replay=True, undo=False).model_dump()
    again = rematch_options(options)
    assert set(CHOSEN_AGAIN) <= set(TableOptions.model_fields)
    assert {k for k in options if again[k] != options[k]} == {"public_replay"}
    assert TableOptions.model_validate(again) == TableOptions(undo=False)

"""Download my data: one JSON file of everything stored about the person, and nothing of anyone
else's hidden information (another seat's hand, the deck, an unfinished game's seed, other
people's chat)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update

from app.db.models import GameTable
from app.tables.types import Viewer
from tests.conftest import Player, new_player
from tests.games import finish, open_table, start

SEED = 987_654_321_987  # recognisable: it must not appear in the file while the game runs
HAND_CANARY = "CANARY-BOBS-HIDDEN-HAND"
CHAT_CANARY = "CANARY-BOB-SAID-THIS"


def _say(app: Any, who: Player, table_id: str, seat: int, text: str) -> None:
    viewer = Viewer(table_id, seat, who.id)
    asyncio.run(app.state.chat.post(viewer, text, f"m-{who.id}-{len(text)}"))


def test_my_data_holds_mine_and_nothing_of_the_others_secrets(client: TestClient) -> None:
    app = client.app
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    done = finish(client, [ann, bob], seed=7)
    running = open_table(client, [ann, bob])["id"]
    start(client, running, ann, seed=SEED)
    # A recognisable secret in Bob's hidden hand, as the snapshot stores it.
    with app.state.db.session() as s:  # type: ignore[attr-defined]
        t = s.get(GameTable, running)
        state = dict(t.state)
        ps = [dict(p) for p in state["ps"]]
        ps[1]["hand_canary"] = HAND_CANARY
        state["ps"] = ps
        s.execute(update(GameTable).where(GameTable.id == running).values(state=state))
    _say(app, ann, running, 0, "good luck, Bob")
    _say(app, bob, running, 1, CHAT_CANARY)

    r = client.get("/api/me/data", headers=ann.headers)
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    assert r.headers["content-disposition"].startswith('attachment; filename="emara-my-data-')
    text = r.text
    for secret in (HAND_CANARY, CHAT_CANARY, str(SEED), "Bob's recovery"):
        assert secret not in text
    assert bob.recovery_code not in text and ann.recovery_code not in text
    assert bob.token not in text and ann.token not in text
    data = r.json()
    assert data["format"] == "emara-my-data" and data["profile"]["name"] == "Ann"
    assert [m["text"] for m in data["chat_messages"]] == ["good luck, Bob"]
    games = {g["table_id"]: g for g in data["games"]}
    assert games[running]["record"] is None and games[running]["status"] == "playing"
    assert games[running]["players"] == ["Ann", "Bob"]
    # A finished game comes with its record, the one the records feature exports.
    mine = client.get(f"/api/tables/{done}/record", headers=ann.headers)
    assert mine.status_code == 200, mine.text
    assert games[done]["record"] == mine.json()
    assert len(data["devices"]) == 1 and data["email"] is None and data["passkeys"] == []


def test_my_data_needs_a_session(client: TestClient) -> None:
    r = client.get("/api/me/data")
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthenticated"

"""Since you looked also counts the table chat: the messages others wrote after the person last
looked (GET /since ``chat_count`` and ``chat``), without their own and without muted seats."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from tests.api.test_game import game, post_move, started
from tests.api.test_seen import seen, since
from tests.chat.test_chat_api import post as chat
from tests.conftest import Player, pick_move


def play_one(client: TestClient, tid: str, players: list[Player], rng: random.Random) -> int:
    g = game(client, tid, players[0])
    seat = g["view"]["to_act"][0]
    legal = game(client, tid, players[seat])["legal_moves"]
    r = post_move(
        client, tid, players[seat], pick_move(legal, rng), g["version"], f"m{g['version']}"
    )
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


def test_messages_after_the_last_look_are_counted_and_listed_newest_last(
    client: TestClient, app: Any, ann: Player, bob: Player, eve: Player
) -> None:
    players = [ann, bob, eve]
    tid = started(client, players)["id"]
    rng = random.Random(5)
    chat(app, tid, bob, 1, "before anything", "b0")
    first = since(client, tid, ann)
    assert first["chat_count"] == 1 and first["last_seen_version"] == 0
    assert [m["text"] for m in first["chat"]] == ["before anything"]
    assert first["chat"][0]["seat"] == 1 and first["chat"][0]["name"] == bob.name

    v = play_one(client, tid, players, rng)
    assert seen(client, tid, ann, {"version": v}).status_code == 200
    # ann saw version v: what was written before it was played is behind her
    assert since(client, tid, ann)["chat_count"] == 0

    chat(app, tid, bob, 1, "your turn soon", "b1")
    chat(app, tid, ann, 0, "my own words", "a1")
    chat(app, tid, eve, 2, "hello all", "e1")
    out = since(client, tid, ann)
    # nothing new on the board, yet the chat is reported
    assert out["new_log_versions"] == [] and out["summary"] == []
    assert out["chat_count"] == 2
    assert [m["text"] for m in out["chat"]] == ["your turn soon", "hello all"]
    # a later move does not hide them while ann has not looked again
    play_one(client, tid, players, rng)
    assert since(client, tid, ann)["chat_count"] == 2
    # bob's own answer does not count bob's words
    assert [m["text"] for m in since(client, tid, bob)["chat"]] == ["my own words", "hello all"]
    # a muted seat's messages are not news
    assert client.post(f"/api/tables/{tid}/mutes/2", headers=ann.headers).status_code == 200
    muted = since(client, tid, ann)
    assert muted["chat_count"] == 1 and [m["text"] for m in muted["chat"]] == ["your turn soon"]


def test_many_messages_are_all_counted_and_the_newest_listed(
    client: TestClient, app: Any, ann: Player, bob: Player
) -> None:
    tid = started(client, [ann, bob])["id"]
    for n in range(25):
        app.state.chat.buckets.clear()  # past the chat's burst without waiting
        chat(app, tid, bob, 1, f"m{n}", f"id{n}")
    out = since(client, tid, ann)
    assert out["chat_count"] == 25
    assert [m["text"] for m in out["chat"]] == [f"m{n}" for n in range(5, 25)]

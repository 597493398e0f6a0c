"""The game log page by page: GET /game?log_tail= hands the newest lines (``log_more``), and
GET /log?before= the older ones, redacted for the caller's seat as the whole log is."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests import games
from tests.api.test_game import game, started
from tests.conftest import Player


def play(client: TestClient, tid: str, players: list[Player], moves: int) -> int:
    """``moves`` moves (mostly ending the turn) played in process; the table's version."""
    games.play_out(client, tid, seed=11, stop_after=moves)
    return int(game(client, tid, players[0])["version"])


def log(client: TestClient, tid: str, who: Player | None, query: str) -> Any:
    return client.get(f"/api/tables/{tid}/log?{query}", headers=who.headers if who else {})


def test_the_log_pages_back_to_the_first_move_with_the_same_lines_as_the_whole_log(
    client: TestClient, ann: Player, bob: Player
) -> None:
    t = started(client, [ann, bob])
    tid = t["id"]
    n = play(client, tid, [ann, bob], 25)
    whole = game(client, tid, bob)
    assert whole["log_more"] is False and len(whole["log"]) == n

    r = client.get(f"/api/tables/{tid}/game?log_tail=10", headers=bob.headers)
    assert r.status_code == 200, r.text
    tail = r.json()
    assert [e["version"] for e in tail["log"]] == list(range(n - 9, n + 1))
    assert tail["log_more"] is True and tail["view"] == whole["view"]

    pages: list[list[dict[str, Any]]] = [tail["log"]]
    before = tail["log"][0]["version"]
    while True:
        r = log(client, tid, bob, f"before={before}&limit=7")
        assert r.status_code == 200, r.text
        page = r.json()
        assert 0 < len(page["entries"]) <= 7
        pages.insert(0, page["entries"])
        before = page["entries"][0]["version"]
        if not page["more"]:
            break
    assert before == 1
    # the pages put together are the whole log, each line redacted for bob as it is there
    assert [e for p in pages for e in p] == whole["log"]
    # without a cursor: the newest lines; a whole log in one page has nothing older
    newest = log(client, tid, bob, "limit=3").json()
    assert [e["version"] for e in newest["entries"]] == [n - 2, n - 1, n]
    assert log(client, tid, bob, f"limit=200&before={n + 1}").json()["more"] is False
    # a spectator with the invite reads it too, in the public form
    spectator = log(client, tid, None, f"invite={t['invite_code']}&limit=200").json()
    assert [e["version"] for e in spectator["entries"]] == list(range(1, n + 1))


def test_page_sizes_are_bounded_and_strangers_and_lobbies_refused(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    tid = started(client, [ann, bob])["id"]
    for query in ("limit=0", "limit=201", "before=0", "before=x"):
        assert log(client, tid, ann, query).status_code == 422, query
    for tail in (0, 201):
        r = client.get(f"/api/tables/{tid}/game?log_tail={tail}", headers=ann.headers)
        assert r.status_code == 422
    assert log(client, tid, eve, "limit=5").status_code == 404
    lobby = client.post("/api/tables", json={"seats": 2, "options": {}}, headers=eve.headers).json()
    r = log(client, lobby["id"], eve, "limit=5")
    assert r.status_code == 409 and r.json()["error"]["code"] == "wrong_status"

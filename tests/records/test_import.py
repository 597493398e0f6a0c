"""Importing a record: one that replays exactly becomes a replay its importer owns; a hostile one
(wrong types, huge numbers, too many moves, a move for the wrong seat, a tampered outcome, an
unknown format) gets a typed error and changes nothing."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models import ImportedReplay
from app.main import create_app
from app.records.example import render as render_example
from app.records.schemas import MAX_MOVES
from tests.conftest import Player, make_settings, new_player, wipe

Record = dict[str, Any]


def _stored(app: Any) -> int:
    with app.state.service.db.session() as s:
        return int(s.scalar(select(func.count()).select_from(ImportedReplay)) or 0)


def _refused(
    client: TestClient, app: Any, player: Player, body: Any, status: int, code: str
) -> dict[str, Any]:
    before = _stored(app)
    r = client.post("/api/records", json=body, headers=player.headers)
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["code"] == code, error
    assert _stored(app) == before, "a refused record changed something"
    return dict(error)


def test_the_committed_example_is_current_and_replays_exactly(
    app: Any, client: TestClient, ann: Player, example: Record
) -> None:
    from tests.records.conftest import EXAMPLE

    assert EXAMPLE.read_text(encoding="utf-8") == render_example(), (
        "docs/records.example.json is stale: python -m app.records.example > it"
    )
    assert example["options"]["players"] == 3 and len(example["players"]) == 3
    assert not any(m["move"]["kind"] == "undo" for m in example["moves"])  # moves that stand
    r = client.post("/api/records", json=example, headers=ann.headers)
    assert r.status_code == 201, r.text
    assert r.json()["positions"] == len(example["moves"]) + 1
    assert _stored(app) == 1
    meta = client.get(f"/api/replays/{r.json()['replay_id']}", headers=ann.headers).json()
    assert meta["outcome"] == example["outcome"]
    assert [e["move"] for e in meta["log"]] == [m["move"] for m in example["moves"]]


def test_a_record_needs_a_signed_in_profile(client: TestClient, example: Record) -> None:
    r = client.post("/api/records", json=example)
    assert r.status_code == 401


def _set(path: str, value: Any) -> Callable[[Record], None]:
    def change(rec: Record) -> None:
        node: Any = rec
        keys = path.split(".")
        for key in keys[:-1]:
            node = node[int(key)] if isinstance(node, list) else node[key]
        last = keys[-1]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return change


def _drop(path: str) -> Callable[[Record], None]:
    def change(rec: Record) -> None:
        node: Any = rec
        keys = path.split(".")
        for key in keys[:-1]:
            node = node[key]
        del node[keys[-1]]

    return change


MALFORMED: dict[str, Callable[[Record], None]] = {
    "seed as text": _set("seed", "20261206"),
    "seed negative": _set("seed", -1),
    "seed huge": _set("seed", 10**40),
    "seed a float": _set("seed", 1.5),
    "moves not a list": _set("moves", {"0": 1}),
    "a move's seat as text": _set("moves.0.seat", "0"),
    "a move's seat out of range": _set("moves.0.seat", 7),
    "a move not an object": _set("moves.0.move", ["play_card"]),
    "a huge number in a move": _set("moves.0.move.slot", 10**30),
    "a bool in a move": _set("moves.0.move.slot", True),
    "a long word in a move": _set("moves.0.move.card", "x" * 5000),
    "a deep move": _set("moves.0.move.pay", {"a": {"b": {"c": 1}}}),
    "players as text": _set("options.players", "3"),
    "five players": _set("options.players", 5),
    "an unknown option": _set("options.fog", True),
    "an unknown field": _set("comment", "hi"),
    "a huge outcome score": _set("outcome.players.0.score", 10**20),
    "no outcome": _drop("outcome"),
    "no moves": _drop("moves"),
    "a long name": _set("players.0.name", "n" * 41),
    "a bad rules version": _set("rules_version", "v1"),
}


@pytest.mark.parametrize("change", list(MALFORMED), ids=list(MALFORMED))
def test_wrong_types_and_huge_numbers_are_malformed(
    app: Any, client: TestClient, ann: Player, example: Record, change: str
) -> None:
    rec = copy.deepcopy(example)
    MALFORMED[change](rec)
    error = _refused(client, app, ann, rec, 422, "malformed")
    assert error["details"], error


@pytest.mark.parametrize(
    "change",
    [
        _set("format_version", 2),
        _set("format_version", "1"),
        _set("format_version", True),
        _set("format", "pgn"),
        _drop("format"),
        _drop("format_version"),
    ],
)
def test_an_unknown_format_or_version(
    app: Any, client: TestClient, ann: Player, example: Record, change: Callable[[Record], None]
) -> None:
    rec = copy.deepcopy(example)
    change(rec)
    _refused(client, app, ann, rec, 422, "unsupported_format")


def test_not_a_record_at_all(app: Any, client: TestClient, ann: Player) -> None:
    for body in ([1, 2], "record", 5, None):
        before = _stored(app)
        r = client.post("/api/records", json=body, headers=ann.headers)
        assert r.status_code in (422, 415), r.text
        assert _stored(app) == before


def test_other_rules_data(app: Any, client: TestClient, ann: Player, example: Record) -> None:
    example["rules_version"] = "sha256:0123456789abcdef"
    _refused(client, app, ann, example, 422, "rules_mismatch")


def test_a_move_legal_but_for_the_wrong_seat(
    app: Any, client: TestClient, ann: Player, example: Record
) -> None:
    # The first move a seat makes right after another seat's: the same move, the other seat.
    i = next(
        i
        for i in range(1, len(example["moves"]))
        if example["moves"][i]["seat"] != example["moves"][i - 1]["seat"]
    )
    example["moves"][i]["seat"] = example["moves"][i - 1]["seat"]
    error = _refused(client, app, ann, example, 422, "bad_move")
    assert error["move_index"] == i and error["reason"] == "not_your_turn"


def test_an_illegal_move_names_its_index(
    app: Any, client: TestClient, ann: Player, example: Record
) -> None:
    i = len(example["moves"]) // 2
    example["moves"][i]["move"] = {"kind": "hire_advisor", "advisor": "nobody", "pay": {}}
    error = _refused(client, app, ann, example, 422, "bad_move")
    assert error["move_index"] == i and error["reason"]
    example["moves"][i]["move"] = {"kind": "teleport"}
    error = _refused(client, app, ann, example, 422, "bad_move")
    assert error["move_index"] == i and error["reason"] == "unknown_kind"


def test_moves_past_the_end_and_a_game_cut_short(
    app: Any, client: TestClient, ann: Player, example: Record
) -> None:
    longer = copy.deepcopy(example)
    longer["moves"].append({"seat": 0, "move": {"kind": "end_turn"}, "at": None})
    error = _refused(client, app, ann, longer, 422, "bad_move")
    assert error["move_index"] == len(example["moves"]) and error["reason"] == "game_over"
    shorter = copy.deepcopy(example)
    shorter["moves"].pop()
    _refused(client, app, ann, shorter, 422, "record_unfinished")


@pytest.mark.parametrize(
    "change",
    [
        _set("outcome.players.0.cp", 1),
        _set("outcome.players.0.rank", 3),
        _set("outcome.players.1.tiebreak", "shared"),
        _set("outcome.won", True),
    ],
)
def test_a_tampered_outcome(
    app: Any, client: TestClient, ann: Player, example: Record, change: Callable[[Record], None]
) -> None:
    change(example)
    _refused(client, app, ann, example, 422, "outcome_mismatch")


def test_a_record_whose_players_do_not_fit_its_options(
    app: Any, client: TestClient, ann: Player, example: Record
) -> None:
    two = copy.deepcopy(example)
    two["players"] = two["players"][:2]
    _refused(client, app, ann, two, 422, "bad_record")
    twice = copy.deepcopy(example)
    twice["players"][2]["seat"] = 1
    _refused(client, app, ann, twice, 422, "bad_record")
    late = copy.deepcopy(example)
    late["options"]["players"] = 2
    late["players"] = late["players"][:2]
    late["options"]["start_player"] = 3
    _refused(client, app, ann, late, 422, "bad_record")
    other_seed = copy.deepcopy(example)
    other_seed["seed"] += 1  # another deal: some move no longer replays
    _refused(client, app, ann, other_seed, 422, "bad_move")


def test_a_million_moves_and_one_move_too_many(
    app: Any, client: TestClient, ann: Player, example: Record
) -> None:
    huge = copy.deepcopy(example)
    huge["moves"] = [{"seat": 0, "move": {"kind": "end_turn"}}] * 10**6
    body = json.dumps(huge)
    before = _stored(app)
    r = client.post(
        "/api/records",
        content=body,
        headers={**ann.headers, "Content-Type": "application/json"},
    )
    assert r.status_code == 413 and r.json()["error"]["code"] == "body_too_large"
    assert _stored(app) == before
    many = copy.deepcopy(example)
    many["moves"] = [{"seat": 0, "move": {"kind": "end_turn"}}] * (MAX_MOVES + 1)
    assert len(json.dumps(many)) < app.state.settings.max_record_bytes
    _refused(client, app, ann, many, 422, "malformed")


def test_other_routes_keep_the_small_body_limit(client: TestClient, ann: Player) -> None:
    big = {"seats": 2, "options": {}, "pad": "x" * 100_000}
    r = client.post("/api/tables", json=big, headers=ann.headers)
    assert r.status_code == 413


def test_imports_are_rate_limited(database_url: str, tmp_path: Path, example: Record) -> None:
    wipe(database_url)
    app = create_app(make_settings(database_url, tmp_path, rate_record_import="2/minute"))
    try:
        with TestClient(app) as client:
            ann = new_player(client, "Ann")
            statuses = [
                client.post("/api/records", json=example, headers=ann.headers).status_code
                for _ in range(2)
            ]
            assert statuses == [201, 200]  # the same game again: the same replay
            r = client.post("/api/records", json=example, headers=ann.headers)
            assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
            assert int(r.headers["Retry-After"]) > 0
            assert _stored(app) == 1
    finally:
        app.state.db.dispose()

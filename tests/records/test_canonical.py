"""A record is canonical: the moves that stand (an export leaves out what an undo took back, an
import refuses ``undo``), no longer than a game of its seats can make, and one game imported
twice is one replay. A malformed or deeply nested body is a typed 422."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app import rules
from app.db.models import GameTable, ImportedReplay
from app.main import create_app
from app.records.bounds import RECORD_KINDS, max_record_moves
from app.records.canonical import standing_indexes
from app.records.intake import parse_record
from app.records.replay import verify
from app.rules import data
from tests.conftest import Player, make_settings, new_player, wipe
from tests.records.canonical_helpers import finish_table_in_process, play_with_undos
from tests.records.helpers import open_table, start

Record = dict[str, Any]


def _stored(app: Any) -> int:
    with app.state.db.session() as s:
        return int(s.scalar(select(func.count()).select_from(ImportedReplay)) or 0)


def _post(client: TestClient, who: Player, body: Record | bytes) -> Any:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.post(
        "/api/records",
        content=content,
        headers={**who.headers, "Content-Type": "application/json"},
    )


def _error(r: Any) -> dict[str, Any]:
    return dict(r.json()["error"])


def _padded(example: Record, pairs: int) -> Record:
    """``[first move, undo to 0]`` ``pairs`` times in front of the real game."""
    first = example["moves"][0]
    undo = {"seat": first["seat"], "move": {"kind": "undo", "to": 0}, "at": None}
    padded = copy.deepcopy(example)
    padded["moves"] = [first, undo] * pairs + example["moves"]
    return padded


def test_the_bound_is_the_rules_turns_times_the_kinds_of_move() -> None:
    turns = data.ROUNDS * data.HAND_SIZE
    assert "undo" not in RECORD_KINDS and len(RECORD_KINDS) == 24
    for players in range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1):
        bound = max_record_moves(players)
        assert turns * players * len(RECORD_KINDS) <= bound < 2 * turns * players * 24
    assert max_record_moves(4) == 1784  # docs/records.md names it
    with pytest.raises(ValueError):
        max_record_moves(5)


def test_a_padded_record_is_refused_and_stores_nothing(
    app: Any, client: TestClient, ann: Player, example: Record
) -> None:
    # 200 pairs: within the cap of any record, but it holds undo moves
    r = _post(client, ann, _padded(example, 200))
    assert r.status_code == 422, r.text
    assert _error(r)["code"] == "bad_move"
    assert _error(r)["reason"] == "undo_in_record" and _error(r)["move_index"] == 1
    # longer than a three-seat game can be, without any undo: refused before any replaying
    long = copy.deepcopy(example)
    limit = max_record_moves(3)
    long["moves"] = (example["moves"] * 10)[: limit + 1]
    r = _post(client, ann, long)
    assert r.status_code == 422 and _error(r)["code"] == "record_too_long", r.text
    assert _error(r)["limit"] == limit
    # the attack as it was found: 5,000 moves of which 90 play
    r = _post(client, ann, _padded(example, 2455))
    assert r.status_code == 422 and _error(r)["code"] == "malformed", r.text
    assert _stored(app) == 0


def test_an_undo_anywhere_in_an_imported_record_is_refused(
    app: Any, client: TestClient, ann: Player
) -> None:
    options = {"players": 2, "start_player": 0, "undo": True}
    played = play_with_undos(4242, options)
    index = next(i for i, (_, m, _) in enumerate(played) if m["kind"] == "undo")
    state = rules.replay(4242, options, [(seat, m) for seat, m, _ in played])
    record = {
        "format": "emara-record",
        "format_version": 1,
        "rules_version": parse_rules_version(),
        "options": options,
        "players": [{"seat": 0, "name": "A"}, {"seat": 1, "name": "B"}],
        "seed": 4242,
        "moves": [{"seat": seat, "move": m} for seat, m, _ in played],
        "outcome": rules.outcome(state),
    }
    r = _post(client, ann, record)
    assert r.status_code == 422, r.text
    assert _error(r)["reason"] == "undo_in_record" and _error(r)["move_index"] == index
    assert _stored(app) == 0
    # the same game without what was taken back is a record
    kept = standing_indexes((m, events) for _, m, events in played)
    record["moves"] = [record["moves"][i] for i in kept]
    assert _post(client, ann, record).status_code == 201
    assert _stored(app) == 1


def parse_rules_version() -> str:
    from app.records.version import rules_version

    return rules_version()


@pytest.fixture
def own_app(database_url: str, tmp_path: Path) -> Iterator[Any]:
    """An app of its own: its table's log holds undos written in process."""
    wipe(database_url)
    application = create_app(make_settings(database_url, tmp_path))
    yield application
    application.state.db.dispose()


def test_an_export_writes_the_moves_that_stand_and_imports_to_the_same_game(
    own_app: Any,
) -> None:
    with TestClient(own_app) as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        table_id = open_table(client, [ann, bob], {"undo": True})
        start(own_app, client, table_id, ann, 777)
        with own_app.state.db.session() as s:
            t = s.get(GameTable, table_id)
            assert t is not None
            seed, options = t.seed, dict(t.engine_options or {})
        assert seed is not None
        played = play_with_undos(seed, options)
        final = finish_table_in_process(own_app, table_id, played)
        undos = [m for _, m, _ in played if m["kind"] == "undo"]
        kept = standing_indexes((m, events) for _, m, events in played)
        assert undos and len(kept) < len(played) - len(undos)  # undos took moves back

        r = client.get(f"/api/tables/{table_id}/record", headers=ann.headers)
        assert r.status_code == 200, r.text
        exported = r.json()
        assert [m["move"] for m in exported["moves"]] == [played[i][1] for i in kept]
        assert not any(m["move"]["kind"] == "undo" for m in exported["moves"])
        done = verify(parse_record(exported))
        assert rules.encode_state(done.final) == rules.encode_state(final)
        from app.records.repository import standing_moves

        with own_app.state.db.session() as s:  # the round-trip audit's notion of the log
            t = s.get(GameTable, table_id)
            assert t is not None and rules.encode_state(done.final) == t.state
            logged = [m.events for m in standing_moves(s, table_id, t.version)]
        assert done.events == logged

        r = _post(client, ann, exported)
        assert r.status_code == 201, r.text
        assert r.json()["positions"] == len(kept) + 1
        replay = client.get(f"/api/replays/{r.json()['replay_id']}", headers=ann.headers).json()
        assert replay["outcome"] == rules.outcome(final)


def test_the_same_game_imported_twice_is_one_replay(
    app: Any, client: TestClient, ann: Player, bob: Player, example: Record
) -> None:
    first = _post(client, ann, example)
    assert first.status_code == 201, first.text
    other_names = copy.deepcopy(example)
    other_names["name"] = "Another name"
    other_names["players"][0]["name"] = "Zed"
    for m in other_names["moves"]:
        m["at"] = None
    again = _post(client, ann, other_names)
    assert again.status_code == 200, again.text
    assert again.json() == first.json()
    assert _stored(app) == 1
    # another person's import of the game is theirs, under another id
    theirs = _post(client, bob, example)
    assert theirs.status_code == 201 and theirs.json()["replay_id"] != first.json()["replay_id"]
    assert _stored(app) == 2
    # the same moves with another outcome are still refused
    wrong = copy.deepcopy(example)
    wrong["outcome"]["players"][0]["cp"] += 1
    r = _post(client, ann, wrong)
    assert r.status_code == 422 and _error(r)["code"] == "outcome_mismatch"


NESTED = {
    "a list a hundred thousand deep": b"[" * 100_000 + b"]" * 100_000,
    "an object a hundred thousand deep": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "a record whose moves nest": (
        b'{"format":"emara-record","format_version":1,"moves":'
        + b"[" * 50_000
        + b"]" * 50_000
        + b"}"
    ),
    "a record nested a little": (
        b'{"format":"emara-record","format_version":1,"rules_version":"x","moves":'
        + b"[" * 500
        + b"]" * 500
        + b"}"
    ),
    "not UTF-8": b'{"format": "\xff"}',
    "a huge number": b'{"seed": ' + b"9" * 10_000 + b"}",
}


@pytest.mark.parametrize("body", list(NESTED.values()), ids=list(NESTED))
def test_a_nested_or_malformed_body_is_a_typed_422(
    app: Any, client: TestClient, ann: Player, body: bytes
) -> None:
    r = _post(client, ann, body)
    assert r.status_code == 422, r.text
    assert _error(r)["code"] in {"malformed", "unsupported_format"}
    assert _stored(app) == 0

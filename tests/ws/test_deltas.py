"""Deltas on the table socket (docs/protocol.md, "Deltas"): a socket whose hello asks for them
gets, after its snapshot, each change as an RFC 6902 patch of the game it holds; applied to the
first view the patches give the full view at every version, for every seat and a spectator; a
lost or corrupted delta is noticed and healed by a snapshot."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import jsonpatch
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app import rules
from app.devtools.players import SeatSocket
from app.tables.delta import (
    DIGEST_EVERY,
    DOC_FIELDS,
    SharedDiffs,
    apply_patch,
    canonical,
    diff,
    digest,
)
from app.tables.render import render_all
from tests.conftest import LiveServer, SecretCanary, pick_move
from tests.ws.client import Http, Socket
from tests.ws.test_socket import run, setup_table

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text("ab/~", max_size=3),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text("ab/~", max_size=2), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(JSON, JSON)
def test_a_patch_turns_the_old_value_into_the_new_one_for_any_json_patch_reader(
    old: Any, new: Any
) -> None:
    ops = diff(old, new)
    assert jsonpatch.apply_patch(old, ops) == new
    assert apply_patch(old, ops) == new
    assert diff(new, new) == []


def test_a_patch_tells_json_types_apart_and_leaves_its_input_alone() -> None:
    old = {"a": 1, "b": [1, 2], "c": {"d": True, "e": 0}}
    new = {"a": True, "b": [1, 2, 3], "c": {"d": 1.0, "e": None}}
    ops = diff(old, new)
    assert {"op": "replace", "path": "/a", "value": True} in ops
    assert {"op": "add", "path": "/b/2", "value": 3} in ops
    assert {"op": "replace", "path": "/c/d", "value": 1.0} in ops
    before = {"a": 1, "b": [1, 2], "c": {"d": True, "e": 0}}
    assert apply_patch(old, ops) == new
    assert old == before  # copied on the way, never changed in place


def test_the_canonical_json_is_pythons_sorted_compact_json_at_every_version_of_a_game() -> None:
    seats: list[int | None] = [0, 1, 2, 3, None]
    state = rules.new_game(11, {"players": 4})
    rng = random.Random(11)
    versions = 0
    while rules.outcome(state) is None:
        for r in render_all(state, versions, seats).values():
            value = {"view": r["view"], "legal_moves": r["legal_moves"]}
            text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            assert canonical(value) == text.encode()
        seat = rules.to_act(state)[0]
        legal = [rules.encode_move(m) for m in rules.legal_moves(state, seat)]
        state = rules.apply_move(state, seat, pick_move(legal, rng)).state
        versions += 1
    assert versions > 100
    value = {"b": 'Žofie ✓ \u2028 "q" \\ \n\t', "a": [1, -2, None, True, {"y": {}, "x": []}]}
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical(value) == text.encode()


def test_the_seats_diff_what_they_share_once_and_get_what_diff_writes_over_a_whole_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``SharedDiffs``: every seat's patch is the one ``diff`` writes for its documents, op for
    op; the parts the seats share (the board, the players, the scores) are diffed once per
    version, not once per seat."""
    from app.tables import delta

    calls = {"n": 0}
    real = delta._diff

    def counted(*args: Any) -> None:
        calls["n"] += 1
        real(*args)

    monkeypatch.setattr(delta, "_diff", counted)
    seats: list[int | None] = [0, 1, 2, 3, None]
    state = rules.new_game(5, {"players": 4})
    rng = random.Random(5)
    earlier, before = None, None
    version = shared = alone = 0
    while rules.outcome(state) is None:
        renders = render_all(state, version, seats, earlier)
        docs = {
            seat: doc_of({**r, "status": "playing", "seats": [], "clock": None})
            for seat, r in renders.items()
        }
        if before is not None:
            diffs = SharedDiffs()
            calls["n"] = 0
            patches = {seat: diffs.diff(before[seat], docs[seat]) for seat in seats}
            shared += calls["n"]
            calls["n"] = 0
            for seat in seats:
                assert patches[seat] == diff(before[seat], docs[seat]), (version, seat)
                assert jsonpatch.apply_patch(before[seat], patches[seat]) == docs[seat]
            alone += calls["n"]
        earlier, before = (state, renders[None]["view"]), docs
        seat = rules.to_act(state)[0]
        legal = [rules.encode_move(m) for m in rules.legal_moves(state, seat)]
        state = rules.apply_move(state, seat, pick_move(legal, rng)).state
        version += 1
    assert version > 100
    assert shared < alone / 2, (shared, alone)


def sorted_bytes(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def doc_of(frame: dict[str, Any]) -> dict[str, Any]:
    return {k: frame[k] for k in DOC_FIELDS}


def test_deltas_rebuild_every_version_of_a_whole_game_for_every_seat_and_a_spectator(
    live: LiveServer,
) -> None:
    http = Http(live)
    t, players = setup_table(http, seats=3)
    watcher = http.profile("Eve")
    tid, code = t["id"], t["invite_code"]
    seats: list[int | None] = [0, 1, 2, None]
    tokens = [p["token"] for p in players] + [watcher["token"]]

    async def play() -> tuple[dict[int | None, list[Any]], int, int]:
        full: dict[int | None, Socket] = {}
        lean: dict[int | None, Socket] = {}
        for seat, token in zip(seats, tokens, strict=True):
            invite = code if seat is None else None
            full[seat] = await Socket.open(live, tid, f"full{seat}", token=token, invite=invite)
            lean[seat] = await Socket.open(live, tid, f"lean{seat}", token=token, invite=invite)
        for s in [*full.values(), *lean.values()]:
            await s.expect("welcome")
        for seat in seats:
            await full[seat].send({"type": "hello", "since": None})
            await lean[seat].send({"type": "hello", "since": None, "deltas": True})
            await full[seat].expect("lobby")
            await lean[seat].expect("lobby")
        http.call("POST", f"/api/tables/{tid}/start", players[0]["token"])
        latest: dict[int | None, dict[str, Any]] = {}
        held: dict[int | None, dict[str, Any]] = {}
        for seat in seats:
            latest[seat] = await full[seat].expect("snapshot")
            snap = await lean[seat].expect("snapshot")
            assert doc_of(snap) == doc_of(latest[seat])
            held[seat] = doc_of(snap)
        rng = random.Random(11)
        version, deltas, digests = 0, 0, 0
        while latest[None]["status"] == "playing":
            seat = latest[None]["view"]["to_act"][0]
            move = pick_move(latest[seat]["legal_moves"], rng)
            await full[seat].send(
                {
                    "type": "move",
                    "move": move,
                    "expected_version": version,
                    "move_id": f"m{version}",
                }
            )
            version += 1
            for who in seats:
                latest[who] = await full[who].expect("update", version=version)
                frame = await lean[who].expect_any(("delta", "update", "snapshot"))
                assert frame["version"] == version
                if frame["type"] == "delta":
                    deltas += 1
                    assert frame["since"] == version - 1 and frame["seat"] == who
                    assert frame["moves"] == latest[who]["moves"]
                    held[who] = jsonpatch.apply_patch(held[who], frame["patch"])
                    if version % DIGEST_EVERY == 0:
                        digests += 1
                        assert frame["digest"] == digest(held[who])  # type: ignore[arg-type]
                    else:
                        assert "digest" not in frame
                else:
                    held[who] = doc_of(frame)
                # byte for byte, not only as Python compares (True == 1)
                assert sorted_bytes(held[who]) == sorted_bytes(doc_of(latest[who])), (who, version)
            assert version < 3000
        assert latest[None]["view"]["outcome"] is not None
        frames = {seat: lean[seat].frames for seat in seats}
        for s in [*full.values(), *lean.values()]:
            await s.close()
        return frames, deltas, digests

    frames, deltas, digests = run(play())
    http.close()
    moves = len(frames[None])
    # Every change after the snapshot came as a delta (the feed remembered each document).
    assert deltas > 4 * 100 and digests > 4 * 10, (deltas, digests, moves)
    canary = SecretCanary(live.app, tid)
    for seat, received in frames.items():
        assert canary.check(seat, received) > 10


class Forgetful(SeatSocket):
    """A seat's socket that loses one delta (``drop_at``) or spoils its copy of the game just
    before a version whose delta carries a digest (``spoil_at``)."""

    def __init__(self, *args: Any, drop_at: int = -1, spoil_at: int = -1, **kw: Any) -> None:
        super().__init__(*args, deltas=True, **kw)
        self.drop_at, self.spoil_at = drop_at, spoil_at
        self.kinds: list[str] = []

    def _absorb(self, frame: dict[str, Any]) -> bool:
        kind = frame.get("type")
        if kind in ("snapshot", "update", "delta"):
            self.kinds.append(str(kind))
        if kind == "delta" and frame.get("version") == self.drop_at:
            return True  # never arrived
        if kind == "delta" and frame.get("version") == self.spoil_at and self.doc is not None:
            view = dict(self.doc["view"])
            view["spoiled"] = True  # a key no patch will touch
            self.doc = {**self.doc, "view": view}
        return super()._absorb(frame)


def test_a_lost_or_corrupted_delta_is_noticed_and_healed_by_a_snapshot(live: LiveServer) -> None:
    http = Http(live)
    t, players = setup_table(http, seats=2)
    http.call("POST", f"/api/tables/{t['id']}/start", players[0]["token"])
    ws_base = live.ws
    spoil = 3 * DIGEST_EVERY

    async def play() -> tuple[list[Forgetful], list[dict[str, Any]]]:
        lost = Forgetful(ws_base, t["id"], players[0]["token"], drop_at=5)
        spoiled = Forgetful(ws_base, t["id"], players[1]["token"], spoil_at=spoil)
        socks = [lost, spoiled]
        for s in socks:
            await s.connect()
        await asyncio.gather(*(s.wait_version(0, 30) for s in socks))
        rng = random.Random(4)
        version = 0
        while version < spoil + 4:
            # The moves go over HTTP: the socket that lost a delta cannot know it before the
            # next one arrives, so it may not be the one to wait for.
            game = http.call("GET", f"/api/tables/{t['id']}/game", players[0]["token"])
            seat = game["view"]["to_act"][0]
            mine = http.call("GET", f"/api/tables/{t['id']}/game", players[seat]["token"])
            move = pick_move(mine["legal_moves"], rng)
            body = {"move": move, "expected_version": version, "move_id": f"m{version}"}
            http.call("POST", f"/api/tables/{t['id']}/moves", players[seat]["token"], json=body)
            version += 1
            await asyncio.gather(
                *(s.wait_version(version, 30) for s in socks if s.drop_at != version)
            )
        games = [http.call("GET", f"/api/tables/{t['id']}/game", p["token"]) for p in players]
        for s in socks:
            await s.close()
        return socks, games

    (lost, spoiled), games = run(play())
    http.close()
    for sock, game in ((lost, games[0]), (spoiled, games[1])):
        assert sock.resyncs == 1, sock.kinds
        # the hello that healed it brought a snapshot; deltas went on after it
        assert sock.kinds.count("snapshot") == 2 and sock.kinds[-1] == "delta"
        assert sock.doc is not None
        assert sock.doc["view"] == game["view"]
        assert sock.doc["legal_moves"] == game["legal_moves"]

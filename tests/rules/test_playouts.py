"""Random complete games across player counts and variants, checking invariants throughout."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules import (
    GameState,
    apply_move,
    decode_state,
    encode_move,
    encode_state,
    legal_moves,
    new_game,
    outcome,
    replay,
    to_act,
    view_for,
)
from tests.conftest import examples

from .test_view import hide_shuffle


def check_counts(state: GameState) -> None:
    tree = state.tree
    for p in tree["ps"]:
        assert p["cp"] >= 0 and p["bp"] >= 0
        assert all(v >= 0 for v in p["res"].values()), p["res"]
        assert all(v >= 0 for v in p["goods"].values()), p["goods"]
        assert 0 <= p["craftsmen_left"] <= 4
        assert len(p["craftsmen"]) + p["craftsmen_left"] == 4
    for loc, huts in tree["huts"].items():
        for hut, occ in enumerate(huts):
            if occ is not None:
                assert [loc, hut] in tree["ps"][occ]["craftsmen"]
    tokens = list(tree["favor"]["pile"]) + list(tree["favor"]["discard"])
    for p in tree["ps"]:
        tokens += p["favor"]
    if tree["decision"] and tree["decision"]["kind"] == "keep_favor":
        tokens += tree["decision"]["tokens"]
    assert sorted(tokens) == list(range(12))


def playout(seed: int, options: dict[str, Any]) -> None:
    rng = random.Random(seed)
    state = new_game(seed, options)
    record: list[dict[str, Any]] = []
    played: Counter[int] = Counter()
    step = 0
    while to_act(state):
        seats = to_act(state)
        seat = seats[int(rng.random() * len(seats))]
        moves = legal_moves(state, seat)
        assert moves, "a seat to act always has a legal move"
        for other in range(state.players):
            if other not in seats:
                assert legal_moves(state, other) == []
        if step % 97 == 0:
            # every legal move applies; encode/decode round-trips; the view hides secrets
            blob = encode_state(state)
            for m in moves:
                apply_move(state, seat, m)
            assert encode_state(state) == blob
            assert decode_state(json.loads(json.dumps(blob))) == state
            viewer = step % state.players
            assert view_for(hide_shuffle(state, viewer, step), viewer) == view_for(state, viewer)
        move = moves[int(rng.random() * len(moves))]
        tr = apply_move(state, seat, move)
        for ev in tr.events:
            if ev["type"] == "card_played":
                played[ev["seat"]] += 1
        record.append({"seat": seat, "move": encode_move(move)})
        state = tr.state
        check_counts(state)
        step += 1
        assert step < 20000
    v = view_for(state, None)
    assert v["phase"] == "finished" and v["round"] == 6
    assert all(played[s] == 18 for s in range(state.players)), played
    out = outcome(state)
    assert out is not None and len(out["players"]) == state.players
    ranks = [p["rank"] for p in out["players"]]
    if out["victoria"] is not None:
        ranks.append(out["victoria"]["rank"])
    assert min(ranks) == 1
    assert replay(seed, options, record) == state
    assert decode_state(encode_state(state)) == state


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**31),
    players=st.integers(min_value=1, max_value=4),
    random_locations=st.booleans(),
    full_selection=st.booleans(),
)
def test_random_playouts(
    seed: int, players: int, random_locations: bool, full_selection: bool
) -> None:
    playout(
        seed,
        {
            "players": players,
            "random_locations": random_locations,
            "full_selection": full_selection,
        },
    )

"""Random complete games that interleave random undos: every invariant still holds."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules import (
    GameState,
    apply_move,
    decode_move,
    decode_state,
    encode_move,
    encode_state,
    legal_moves,
    new_game,
    outcome,
    replay,
    to_act,
    undo_points,
    view_for,
)
from tests.conftest import examples

from .test_playouts import check_counts

MAX_UNDOS_PER_TURN = 3


def turn_key(state: GameState) -> tuple[Any, ...] | None:
    tree = state.tree
    if tree["phase"] != "turns" or tree["turn"] is None:
        return None
    return (tree["round"], tree["turn_index"])


def undo_playout(seed: int, options: dict[str, Any], rate: float) -> int:
    """Play a random game, undoing at ``rate`` where possible; returns the number of undos."""
    rng = random.Random(seed)
    state = new_game(seed, options)
    record: list[dict[str, Any]] = []
    history: list[GameState] = [state]  # the states of the current turn, by step
    key = turn_key(state)
    undos = undos_this_turn = 0
    while to_act(state):
        seats = to_act(state)
        seat = seats[int(rng.random() * len(seats))]
        points = undo_points(state, seat)
        for other in range(state.players):
            if other != seat:
                assert undo_points(state, other) == []
        if points and undos_this_turn < MAX_UNDOS_PER_TURN and rng.random() < rate:
            point = points[int(rng.random() * len(points))]
            move: dict[str, Any] = {"kind": "undo", "to": point["to"]}
            tr = apply_move(state, seat, move)
            taken = {"type": "moves_taken_back", "seat": seat, "count": point["moves"]}
            assert tr.events == [taken]
            assert len(history) - 1 - point["to"] == point["moves"]
            history = history[: point["to"] + 1]
            target = history[-1]
            assert tr.state == target
            assert tr.state.tree["rng"] == target.tree["rng"]
            for viewer in (None, *range(state.players)):
                assert view_for(tr.state, viewer) == view_for(target, viewer)
            assert legal_moves(tr.state, seat) == legal_moves(target, seat)
            undos += 1
            undos_this_turn += 1
        else:
            moves = legal_moves(state, seat)
            assert all(m.kind != "undo" for m in moves)
            move = encode_move(moves[int(rng.random() * len(moves))])
            tr = apply_move(state, seat, move)
        assert decode_move(json.loads(json.dumps(move))) == decode_move(move)
        record.append({"seat": seat, "move": move})
        state = tr.state
        check_counts(state)
        new_key = turn_key(state)
        if move["kind"] != "undo":
            if new_key != key:
                history, key, undos_this_turn = [state], new_key, 0
            else:
                history.append(state)
        if len(record) % 53 == 0:
            blob = json.loads(json.dumps(encode_state(state)))
            assert decode_state(blob) == state
    out = outcome(state)
    assert out is not None and state.phase == "finished"
    assert replay(seed, options, record) == state
    return undos


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    players=st.integers(min_value=1, max_value=4),
    random_locations=st.booleans(),
    full_selection=st.booleans(),
)
def test_random_games_with_random_undos(
    seed: int, players: int, random_locations: bool, full_selection: bool
) -> None:
    options = {
        "players": players,
        "random_locations": random_locations,
        "full_selection": full_selection,
    }
    undo_playout(seed, options, 0.15)


def test_a_fixed_game_really_undoes() -> None:
    assert undo_playout(4, {"players": 3}, 0.2) > 20


def test_undo_from_a_state_read_back_from_json() -> None:
    state = new_game(9, {"players": 2, "start_player": 0})
    for _ in range(3):
        seat = to_act(state)[0]
        move = next(m for m in legal_moves(state, seat) if m.kind != "end_turn")
        state = apply_move(state, seat, move).state
    seat = to_act(state)[0]
    points = undo_points(state, seat)
    assert points
    stored = decode_state(json.loads(json.dumps(encode_state(state))))
    for point in points:
        a = apply_move(state, seat, {"kind": "undo", "to": point["to"]}).state
        b = apply_move(stored, seat, {"kind": "undo", "to": point["to"]}).state
        assert a == b

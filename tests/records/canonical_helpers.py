"""Records and finished tables built in process (the engine plays; nothing moves over HTTP)."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete

from app import rules
from app.db.models import GameTable, MoveRecord
from app.tables.status import TableStatus

Played = list[tuple[int, dict[str, Any], list[dict[str, Any]]]]  # (seat, move, events)


def play_with_undos(seed: int, options: dict[str, Any], undo_rate: float = 0.3) -> Played:
    """A whole game of random legal moves, taking moves back now and then (undo on)."""
    rng = random.Random(seed)
    state = rules.new_game(seed, options)
    played: Played = []
    while rules.outcome(state) is None:
        seat = rules.to_act(state)[0]
        points = rules.undo_points(state, seat)
        if points and rng.random() < undo_rate:
            move: dict[str, Any] = {"kind": "undo", "to": rng.choice(points)["to"]}
        else:
            legal = rules.legal_moves(state, seat)
            move = rules.encode_move(rng.choice(legal))
        step = rules.apply_move(state, seat, move)
        played.append((seat, move, step.events))
        state = step.state
    return played


def finish_table_in_process(app: Any, table_id: str, played: Played) -> rules.GameState:
    """Write ``played`` as the move log of the started table ``table_id`` (from its own seed
    and options) and finish it with the final state: as if its players had played it."""
    with app.state.db.session() as s:
        t = s.get(GameTable, table_id)
        assert t is not None and t.seed is not None
        state = rules.new_game(t.seed, t.engine_options or {})
        s.execute(delete(MoveRecord).where(MoveRecord.table_id == table_id))
        for version, (seat, move, _) in enumerate(played, start=1):
            step = rules.apply_move(state, seat, move)
            state = step.state
            s.add(
                MoveRecord(
                    table_id=table_id,
                    version=version,
                    seat=seat,
                    move=move,
                    events=step.events,
                    move_id=f"m{version}",
                    created_at=datetime(2026, 12, 6, 18, 0, tzinfo=UTC),
                )
            )
        t.state = rules.encode_state(state)
        t.version = len(played)
        t.status = TableStatus.FINISHED
    return state

"""The example record of docs/records.example.json: a real three-player game the engine's greedy
players play from a fixed seed. They take a move back now and then; the record, like every
record, holds only the moves that stand (app/records/canonical.py).

``python -m app.records.example > docs/records.example.json`` writes it; a test imports the
committed copy and replays it exactly.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from app import rules
from app.records.canonical import standing_indexes
from app.records.schemas import FORMAT, FORMAT_VERSION, GameRecord
from app.records.shapes import RecordDoc
from app.records.version import rules_version
from app.rules.simulate import play_greedy
from app.tables.options import EngineOptions

SEED = 20261206
OPTIONS: EngineOptions = {
    "players": 3,
    "start_player": 1,
    "random_locations": False,
    "full_selection": False,
    "undo": True,
}
NAMES = ("Ann", "Bob", "Cid")
START = datetime(2026, 12, 6, 18, 0, tzinfo=UTC)


def standing(seed: int, options: EngineOptions, played: list[dict[str, Any]]) -> list[Any]:
    """The moves of ``played`` (as made, undos too) that stand."""
    state = rules.new_game(seed, options)
    log = []
    for m in played:
        step = rules.apply_move(state, m["seat"], m["move"])
        log.append((m["move"], step.events))
        state = step.state
    return [played[i] for i in standing_indexes(log)]


def example_record() -> RecordDoc:
    state, played, _ = play_greedy(SEED, dict(OPTIONS), undo_rate=0.05)
    moves = standing(SEED, OPTIONS, played)
    outcome = rules.outcome(state)
    record = GameRecord.model_validate(
        {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "rules_version": rules_version(),
            "options": OPTIONS,
            "players": [
                {"seat": n, "name": name, "bot_level": "greedy"} for n, name in enumerate(NAMES)
            ],
            "seed": SEED,
            "moves": [
                {**m, "at": (START + timedelta(seconds=9 * (i + 1))).isoformat()}
                for i, m in enumerate(moves)
            ],
            "outcome": outcome,
            "name": "An example game",
            "finished_at": (START + timedelta(seconds=9 * len(moves))).isoformat(),
        },
        strict=False,
    )
    return cast(RecordDoc, record.model_dump(mode="json"))  # checked by GameRecord just now


def render() -> str:
    return json.dumps(example_record(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    print(render(), end="")

"""Golden game records: replay each frozen game exactly and compare the final scores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.rules import apply_move, encode_move, legal_moves, new_game, outcome, to_act

GOLDEN = sorted((Path(__file__).resolve().parent / "golden").glob("*.json"))


def test_enough_golden_records() -> None:
    names = [p.stem for p in GOLDEN]
    assert len(names) >= 6
    options = [json.loads(p.read_text())["options"] for p in GOLDEN]
    assert {o["players"] for o in options} == {1, 2, 3, 4}
    assert any(o.get("random_locations") for o in options)
    assert any(o.get("full_selection") for o in options)


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_replay(path: Path) -> None:
    blob: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    state = new_game(blob["seed"], blob["options"])
    legal_total = 0
    for entry in blob["moves"]:
        seat, move = entry["seat"], entry["move"]
        assert seat in to_act(state)
        legal = [encode_move(m) for m in legal_moves(state, seat)]
        legal_total += len(legal)
        assert move in legal
        state = apply_move(state, seat, move).state
    assert to_act(state) == []
    out = outcome(state)
    assert out is not None
    expected = blob["expected"]
    assert len(blob["moves"]) == expected["move_count"]
    got = [{k: p[k] for k in ("seat", "cp", "bp", "score", "rank")} for p in out["players"]]
    assert got == expected["players"]
    assert [{"cp": p["cp"], "bp": p["bp"]} for p in state.tree["ps"]] == expected[
        "tracks_before_leftover"
    ]
    assert out["victoria"] == expected["victoria"]
    assert out["won"] == expected["won"]
    assert legal_total == expected["legal_move_total"]

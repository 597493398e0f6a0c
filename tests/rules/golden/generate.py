"""Regenerate the golden game records (run once, then check the numbers by hand and freeze).

.venv/bin/python -m tests.rules.golden.generate
"""

from __future__ import annotations

import json
from pathlib import Path

from app.rules import legal_moves, new_game, outcome
from app.rules.simulate import play_greedy

HERE = Path(__file__).resolve().parent

GAMES = [
    ("solo", 101, {"players": 1, "start_player": 0}),
    ("two_players", 202, {"players": 2, "start_player": 0}),
    ("three_players", 303, {"players": 3, "start_player": 1}),
    ("four_players", 404, {"players": 4, "start_player": None}),
    ("two_players_random_locations", 505, {"players": 2, "random_locations": True}),
    ("three_players_full_selection", 606, {"players": 3, "full_selection": True}),
    (
        "four_players_both_variants",
        707,
        {"players": 4, "random_locations": True, "full_selection": True, "building_start": 30},
    ),
    ("solo_random_locations", 808, {"players": 1, "random_locations": True}),
]


def legal_total(seed: int, options: dict[str, object], record: list[dict[str, object]]) -> int:
    """Perft-style count: the number of legal moves summed over every position of the game."""
    from app.rules import apply_move

    state = new_game(seed, options)
    total = 0
    for entry in record:
        seat = entry["seat"]
        assert isinstance(seat, int)
        total += len(legal_moves(state, seat))
        state = apply_move(state, seat, entry["move"]).state  # type: ignore[arg-type]
    return total


def main() -> None:
    for name, seed, options in GAMES:
        state, record, _log = play_greedy(seed, options)
        out = outcome(state)
        assert out is not None
        blob: dict[str, object] = {
            "name": name,
            "seed": seed,
            "options": options,
            "moves": record,
            "expected": {
                "move_count": len(record),
                "players": [
                    {k: p[k] for k in ("seat", "cp", "bp", "score", "rank")} for p in out["players"]
                ],
                "tracks_before_leftover": [
                    {"cp": p["cp"], "bp": p["bp"]} for p in state.tree["ps"]
                ],
                "victoria": out["victoria"],
                "won": out["won"],
                "legal_move_total": legal_total(seed, options, record),
            },
        }
        (HERE / f"{name}.json").write_text(json.dumps(blob, indent=1) + "\n", encoding="utf-8")
        print(name, len(record), blob["expected"]["players"], out["victoria"])


if __name__ == "__main__":
    main()

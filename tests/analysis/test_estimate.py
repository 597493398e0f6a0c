"""The bot's estimate of a position: deterministic for a record and bot version, one seed for
every position of a game, the final position's scores are the outcome's."""

from __future__ import annotations

from typing import Any

from app.analysis.bot import StrongBot
from app.analysis.compute import (
    estimate_position,
    estimate_seed,
    preferred_at,
    seed_for,
)
from app.analysis.key import game_key
from app.analysis.source import replay_of


def test_the_same_record_and_bot_give_the_same_numbers(example: dict[str, Any]) -> None:
    done = replay_of(example)
    key = game_key(example)
    last = done.positions - 1
    picks = [last - 9, last - 4, last - 1]  # near the end: the playouts are short
    first = [estimate_position(done, n, StrongBot(2), key) for n in picks]
    again = [estimate_position(done, n, StrongBot(2), key) for n in reversed(picks)][::-1]
    assert first == again
    assert all(len(e.expected) == 3 and e.seat is not None for e in first)
    final = estimate_position(done, last, StrongBot(2), key)
    scores = {p["seat"]: float(p["score"]) for p in example["outcome"]["players"]}
    assert final.seat is None and final.expected == [scores[s] for s in range(3)]
    # another budget is another bot version: other seeds, never mixed up with these numbers
    assert StrongBot(3).version != StrongBot(2).version
    assert seed_for(key, "a", 5, "preferred") != seed_for(key, "a", 6, "preferred")
    # every position's estimate draws from one stream (common random numbers), per bot version
    assert estimate_seed(key, "a") == estimate_seed(key, "a") != estimate_seed(key, "b")
    seat = first[-1].seat
    assert seat is not None
    assert preferred_at(done, picks[-1], seat, StrongBot(1), key) == preferred_at(
        done, picks[-1], seat, StrongBot(1), key
    )


def test_a_game_key_ignores_names_and_times(example: dict[str, Any]) -> None:
    renamed = {
        **example,
        "name": "another name",
        "players": [{**p, "name": "X"} for p in example["players"]],
        "moves": [{**m, "at": None} for m in example["moves"]],
    }
    assert game_key(renamed) == game_key(example)
    assert game_key({**example, "seed": example["seed"] + 1}) != game_key(example)

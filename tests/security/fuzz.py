"""Seeded generators of hostile HTTP bodies and socket frames (no valid request among them)."""

from __future__ import annotations

import json
import random
from typing import Any

KINDS = [
    "play_card", "card_action", "move", "raise_title", "hire_craftsman", "hire_advisor",
    "use_advisor", "end_turn", "harvest", "castle_gift", "castle_book", "cathedral_donation",
    "deliver_stone", "deliver_bread", "deliver_wood", "market_gold", "market_books",
    "cash_favor", "end_visit", "keep_favor", "choose_event_option", "choose_resource",
    "place_councilor",
]  # fmt: skip
FIELDS = [
    "card", "slot", "councilor", "location", "hut", "pay", "advisor", "resource", "count",
    "token", "extra", "hire", "option", "kind", "seat", "version",
]  # fmt: skip


def scalar(rng: random.Random) -> Any:
    return rng.choice(
        [
            None,
            True,
            False,
            0,
            -1,
            1,
            3,
            2**63,
            -(2**70),
            1.5,
            float("1e308"),
            "",
            "x",
            "wood",
            "castle",
            "end_turn",
            "\x00",
            "\u202e\ufeff",
            "💥" * 10,
            "<script>alert(1)</script>",
            "'; DROP TABLE move; --",
            "../../etc/passwd",
            "%s%n",
            "A" * rng.choice([100, 5000]),
        ]
    )


def value(rng: random.Random, depth: int = 0) -> Any:
    r = rng.random()
    if depth > 3 or r < 0.5:
        return scalar(rng)
    if r < 0.75:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {
        rng.choice([*FIELDS, "", "__proto__", "$where"]): value(rng, depth + 1)
        for _ in range(rng.randint(0, 4))
    }


def deep(n: int) -> str:
    return "[" * n + "]" * n


def garbage_bytes(rng: random.Random) -> bytes:
    choices = [
        b"",
        b"{",
        b"}",
        b"null",
        b"[]",
        b'{"a":',
        b"\xff\xfe\x00",
        bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 200))),
        b"NaN",
        b'{"name": NaN}',
        b'{"name": Infinity}',
        deep(rng.choice([50, 500, 5000])).encode(),
        b'{"name":"' + b"\xc3\x28" + b'"}',
        b"{" + b'"k":1,' * 2000 + b'"k":2}',
    ]
    return rng.choice(choices)


def bad_move(rng: random.Random) -> Any:
    """Something in the place of a move that no engine would accept."""
    r = rng.random()
    if r < 0.15:
        return value(rng)  # wrong type altogether (or a dict without a kind)
    move: dict[str, Any] = {"kind": rng.choice([*KINDS, "", "teleport", "win_game", 7, None])}
    for _ in range(rng.randint(0, 4)):
        move[rng.choice(FIELDS)] = value(rng)
    return move


def as_body(rng: random.Random, obj: Any) -> bytes:
    try:
        return json.dumps(obj).encode()
    except (TypeError, ValueError):
        return b"{}"

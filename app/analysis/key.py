"""What makes two records the same game for the analysis: a digest of what the engine is given.

The analysis replays a record through the engine and nothing else, so its key is made of the
engine's input in the engine's own canonical form: the rules data this server runs, the deal
(``new_game`` of the seed and options: options left out, at their default, or resolved from the
seed all give the same deal), and every move as the engine judges it (``encode_move`` of
``decode_move``: key order and fields at their default do not count). Names, times, the record's
own labels and how its JSON is laid out never change the key; a seed, an option the engine
takes, or a move does. Two replays of one game (a table and an imported copy, or the same file
imported twice) share one analysis.
"""

from __future__ import annotations

import hashlib
import json

from app import rules
from app.records.shapes import RecordDoc
from app.records.version import rules_version


def game_key(record: RecordDoc) -> str:
    """SHA-256 of the canonical JSON of the engine's input for ``record`` (a record that
    replays: its options make a game and its moves decode)."""
    options = {k: v for k, v in record["options"].items() if v is not None}
    seed = int(record["seed"])
    deal = rules.state_blob(rules.new_game(seed, options))
    moves = [
        [int(m["seat"]), rules.encode_move(rules.decode_move(m["move"]))] for m in record["moves"]
    ]
    core = {"rules": rules_version(), "seed": seed, "deal": deal, "moves": moves}
    text = json.dumps(core, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()

"""A record is canonical: the moves that stand, no more than a real game can make, and one
digest for one game.

- **Standing moves**: an ``undo`` takes moves of the current turn back; the game is the moves
  that were not taken back, so an export writes only those (``standing_indexes``) and an import
  refuses an ``undo`` (``check_canonical``). Replaying the standing moves from the seed gives
  exactly the game the table ended with: an undo restores the state before the moves it takes
  back, and it never crosses a draw or a reveal (app/rules/undo.py).
- **Bounded**: no record is longer than ``bounds.max_record_moves`` for its seats.
- **One game, one digest** (``game_digest``): the rules data, the seed, the options and the
  standing moves. Names, times and the table's name do not make another game. An import of a
  game its importer already keeps is that replay (``imported_replay_id``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.records.bounds import max_record_moves
from app.records.errors import BadMove, RecordTooLong
from app.records.schemas import GameRecord

UNDO = "undo"
TAKEN_BACK = "moves_taken_back"


def standing_indexes(
    log: Iterable[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]],
) -> list[int]:
    """The indexes of the moves of ``log`` (each its wire move and its events, in order) that
    stand: an ``undo`` and the moves its ``moves_taken_back`` event counts are dropped."""
    kept: list[int] = []
    for i, (move, events) in enumerate(log):
        if move.get("kind") != UNDO:
            kept.append(i)
            continue
        count = sum(int(ev.get("count", 0)) for ev in events if ev.get("type") == TAKEN_BACK)
        del kept[max(0, len(kept) - count) :]
    return kept


def check_canonical(record: GameRecord) -> None:
    """A record holds no ``undo`` (``bad_move``, reason ``undo_in_record``) and no more moves
    than a game of its seats can make (``record_too_long``). Cheap: no move is replayed."""
    limit = max_record_moves(record.options.players)
    if len(record.moves) > limit:
        raise RecordTooLong(
            f"a game of {record.options.players} seats makes at most {limit} moves",
            limit=limit,
        )
    for i, m in enumerate(record.moves):
        if m.move.get("kind") == UNDO:
            raise BadMove(
                f"move {i} is an undo: a record holds only the moves that stand",
                move_index=i,
                reason="undo_in_record",
            )


def game_digest(record: GameRecord) -> str:
    """SHA-256 (hex) of the game itself in canonical JSON: the rules version, the seed, the
    options as the engine takes them and every move (seat and wire move)."""
    game = {
        "rules_version": record.rules_version,
        "seed": record.seed,
        "options": record.options.engine(),
        "moves": [[m.seat, m.move] for m in record.moves],
    }
    text = json.dumps(game, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def imported_replay_id(key: str, owner: str, digest: str) -> str:
    """The id of ``owner``'s replay of the game ``digest``: 24 URL-safe characters (144 bits)
    of an HMAC under the server's secret key, so the same game imported again by the same
    person is the same replay, and nobody without the key can work out anyone's id."""
    mac = hmac.new(key.encode("utf-8"), f"imported-replay\0{owner}\0{digest}".encode(), "sha256")
    return base64.urlsafe_b64encode(mac.digest()[:18]).decode("ascii")

"""A record replayed through the engine: pure functions, no database.

``replay_record`` plays every move with ``rules.apply_move`` (the one judge of legality) and keeps
what a viewer steps through: each move's raw events, both score tracks of every player at every
position, and a state every ``CHECKPOINT`` positions, so any position is at most
``CHECKPOINT - 1`` moves from a kept state (memory stays small, stepping stays cheap).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from app import rules
from app.records.canonical import check_canonical
from app.records.errors import BadMove, BadRecord, OutcomeMismatch, RecordUnfinished
from app.records.schemas import GameRecord
from app.records.shapes import RecordDoc
from app.tables.answers import ScoreLine
from app.tables.options import EngineOptions
from app.tables.render import scores_of

CHECKPOINT = 16


@dataclass(frozen=True)
class Source:
    """A replay's record (JSON form) and where it comes from."""

    kind: Literal["table", "import"]
    table_id: str | None
    record: RecordDoc


# One move of a record: (seat, the move in wire form, when it was made).
Played = tuple[int, rules.EncodedMove, str | None]


@dataclass(frozen=True)
class Replayed:
    """A finished game, replayed. Position 0 is the deal; position ``n`` follows move ``n``."""

    seed: int
    options: EngineOptions
    moves: list[Played]
    events: list[list[rules.EngineEvent]]  # raw engine events of each move
    tracks: list[list[ScoreLine]]  # scores_of(public view) at each position
    checkpoints: dict[int, rules.GameState]
    final: rules.GameState

    @property
    def positions(self) -> int:
        return len(self.moves) + 1

    def state_at(self, n: int) -> rules.GameState:
        """The game at position ``n`` (0 <= n < positions)."""
        base = n - n % CHECKPOINT
        state = self.checkpoints[base]
        for seat, move, _ in self.moves[base:n]:
            state = rules.apply_move(state, seat, move).state
        return state


def stored_record(stored: Mapping[str, Any]) -> RecordDoc:
    """A record as stored: checked by ``GameRecord`` at its import, kept in its JSON form."""
    return cast(RecordDoc, dict(stored))


def engine_options(record: RecordDoc) -> EngineOptions:
    """The record's options as the engine takes them: those left null left out."""
    return cast(EngineOptions, {k: v for k, v in record["options"].items() if v is not None})


def played(record: RecordDoc) -> list[Played]:
    """The record's moves as ``replay_record`` takes them."""
    return [(m["seat"], m["move"], m.get("at")) for m in record["moves"]]


def replay_of(record: RecordDoc) -> Replayed:
    """The record replayed (the caller holds a checked record)."""
    return replay_record(int(record["seed"]), engine_options(record), played(record))


def _tracks(state: rules.GameState) -> list[ScoreLine]:
    return scores_of(rules.view_for(state, None))


def replay_record(seed: int, options: EngineOptions, moves: list[Played]) -> Replayed:
    """Replay ``moves`` from the deal of ``seed`` and ``options``. A move the engine refuses is
    ``BadMove`` naming its index; options the engine refuses are ``BadRecord``."""
    try:
        state = rules.new_game(seed, options)
    except rules.BadOptionsError as exc:
        raise BadRecord(f"the options make no game: {exc}") from exc
    checkpoints = {0: state}
    events: list[list[rules.EngineEvent]] = []
    tracks = [_tracks(state)]
    for i, (seat, move, _) in enumerate(moves):
        try:
            step = rules.apply_move(state, seat, move)
        except rules.IllegalMoveError as exc:
            raise BadMove(
                f"move {i} does not replay: {exc.message}", move_index=i, reason=exc.code
            ) from exc
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            # The engine refuses with IllegalMoveError; anything else is a move it cannot read.
            raise BadMove(
                f"move {i} does not replay", move_index=i, reason="malformed_move"
            ) from exc
        state = step.state
        events.append(cast(list[rules.EngineEvent], step.events))  # the engine's own shape
        tracks.append(_tracks(state))
        if (i + 1) % CHECKPOINT == 0:
            checkpoints[i + 1] = state
    return Replayed(seed, EngineOptions(**options), list(moves), events, tracks, checkpoints, state)


def verify(record: GameRecord) -> Replayed:
    """A record that replays exactly: canonical (no ``undo``, not longer than a game of its
    seats), its seats match its options, every move replays in order,
    the game ends with the last move, and its outcome is the replayed outcome."""
    check_canonical(record)
    options = record.options.engine()
    n = record.options.players
    if sorted(p.seat for p in record.players) != list(range(n)):
        raise BadRecord(f"players must name seats 0 to {n - 1}, each once")
    if record.options.start_player >= n:
        raise BadRecord("start_player must be a seat of the game")
    moves: list[Played] = [
        (m.seat, cast(rules.EncodedMove, dict(m.move)), m.at) for m in record.moves
    ]
    done = replay_record(record.seed, options, moves)
    outcome = rules.outcome(done.final)
    if outcome is None:
        raise RecordUnfinished(
            f"the game is not over after the record's {len(moves)} moves", moves=len(moves)
        )
    if record.outcome.model_dump() != dict(outcome):
        raise OutcomeMismatch("the record's outcome is not the outcome its moves make")
    return done

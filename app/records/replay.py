"""A record replayed through the engine: pure functions, no database.

``replay_record`` plays every move with ``rules.apply_move`` (the one judge of legality) and keeps
what a viewer steps through: each move's raw events, both score tracks of every player at every
position, and a state every ``CHECKPOINT`` positions, so any position is at most
``CHECKPOINT - 1`` moves from a kept state (memory stays small, stepping stays cheap).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app import rules
from app.records.canonical import check_canonical
from app.records.errors import BadMove, BadRecord, OutcomeMismatch, RecordUnfinished
from app.records.schemas import GameRecord
from app.tables.answers import ScoreLine
from app.tables.render import scores_of

CHECKPOINT = 16


@dataclass(frozen=True)
class Source:
    """A replay's record (JSON form) and where it comes from."""

    kind: str  # "table" | "import"
    table_id: str | None
    record: dict[str, Any]


@dataclass(frozen=True)
class Replayed:
    """A finished game, replayed. Position 0 is the deal; position ``n`` follows move ``n``."""

    seed: int
    options: dict[str, Any]
    moves: list[tuple[int, dict[str, Any], str | None]]  # (seat, move, at)
    events: list[list[dict[str, Any]]]  # raw engine events of each move
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


def _tracks(state: rules.GameState) -> list[ScoreLine]:
    return scores_of(rules.view_for(state, None))


def replay_record(
    seed: int, options: dict[str, Any], moves: list[tuple[int, dict[str, Any], str | None]]
) -> Replayed:
    """Replay ``moves`` from the deal of ``seed`` and ``options``. A move the engine refuses is
    ``BadMove`` naming its index; options the engine refuses are ``BadRecord``."""
    try:
        state = rules.new_game(seed, options)
    except rules.BadOptionsError as exc:
        raise BadRecord(f"the options make no game: {exc}") from exc
    checkpoints = {0: state}
    events: list[list[dict[str, Any]]] = []
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
        events.append(step.events)
        tracks.append(_tracks(state))
        if (i + 1) % CHECKPOINT == 0:
            checkpoints[i + 1] = state
    return Replayed(seed, dict(options), list(moves), events, tracks, checkpoints, state)


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
    moves = [(m.seat, dict(m.move), m.at) for m in record.moves]
    done = replay_record(record.seed, options, moves)
    outcome = rules.outcome(done.final)
    if outcome is None:
        raise RecordUnfinished(
            f"the game is not over after the record's {len(moves)} moves", moves=len(moves)
        )
    if record.outcome.model_dump() != dict(outcome):
        raise OutcomeMismatch("the record's outcome is not the outcome its moves make")
    return done

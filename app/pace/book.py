"""The pace of the hot path: the clock a move leaves behind, computed in the move's transaction.

The move's own conditional UPDATE writes the new clock blob and the table's earliest deadline
(``repository.ADVANCE``): no extra statement when the clock at the version the move starts from
is known, which it is whenever the snapshot came from the database (the SNAPSHOT read carries
the clock) or from this process's memory of the table (kept here, keyed by ``version`` and
``seats_version``: every clock change outside a move bumps ``seats_version``). Only when the
memory misses is the clock read, one primary-key SELECT.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any, Final, TypedDict, cast

from sqlalchemy import Connection

from app import rules
from app.clock import Clock, SystemClock
from app.pace import clock as pc
from app.pace.repository import clock_of
from app.pace.schemas import ClockOut, PaceOptions


class _Unknown:
    pass


UNKNOWN: Final = _Unknown()
Stored = pc.ClockBlob | None | _Unknown
REMEMBERED = 4000


class SeatHolding(TypedDict):
    """Who plays a seat, as far as its clock goes: a bot (its level), or a person (None). The
    seats a table hands on (``GameSeat``, with the name) are these too."""

    seat: int
    bot_level: str | None


def humans_of(seats: Iterable[SeatHolding]) -> set[int]:
    """The seats a person plays (no bot level)."""
    return {int(x["seat"]) for x in seats if not x.get("bot_level")}


class PaceBook:
    def __init__(self, clock: Clock | None = None, size: int = REMEMBERED) -> None:
        self.clock: Clock = clock or SystemClock()
        self.size = size
        # table -> (version, seats_version, clock at that point)
        self.memory: OrderedDict[str, tuple[int, int, pc.ClockBlob | None]] = OrderedDict()
        # table -> (version, seats_version, the public clock): rendered once for every socket
        self.shown: dict[str, tuple[int, int, ClockOut | None]] = {}

    # ------------------------------------------------------------------ memory
    def remember(
        self, table_id: str, version: int, seats_version: int, blob: pc.ClockBlob | None
    ) -> None:
        known = self.memory.get(table_id)
        if known is not None and (known[0], known[1]) > (version, seats_version):
            return
        self.memory[table_id] = (version, seats_version, blob)
        self.memory.move_to_end(table_id)
        self.shown.pop(table_id, None)
        while len(self.memory) > self.size:
            gone, _ = self.memory.popitem(last=False)
            self.shown.pop(gone, None)

    def known(self, table_id: str, version: int, seats_version: int) -> Stored:
        found = self.memory.get(table_id)
        if found is None or found[0] != version or found[1] != seats_version:
            return UNKNOWN
        return found[2]

    # ------------------------------------------------------------------ hot path
    def on_start(
        self, pace: PaceOptions | None, seat_count: int, state: Any, seats: Sequence[SeatHolding]
    ) -> tuple[pc.ClockBlob | None, float | None]:
        """The clock of a game dealt now (the table's ``pace`` option), and its deadline."""
        blob = pc.initial(pace, seat_count, rules.to_act(state), self.clock.now())
        return blob, pc.table_deadline(blob, humans_of(seats))

    def on_move(
        self,
        conn: Connection,
        table_id: str,
        expected: int,
        seen: int,
        stored: Stored,
        state: Any,
        seats: Sequence[SeatHolding],
    ) -> tuple[pc.ClockBlob | None, float | None]:
        """The clock and the table deadline after a move that left ``state``."""
        if isinstance(stored, _Unknown):
            stored = self.known(table_id, expected, seen)
        if isinstance(stored, _Unknown):
            stored = cast(pc.ClockBlob | None, clock_of(conn, table_id))
        return self.after_move(stored, state, seats)

    def after_move(
        self, stored: pc.ClockBlob | None, state: Any, seats: Sequence[SeatHolding]
    ) -> tuple[pc.ClockBlob | None, float | None]:
        """The clock and the table deadline after a move that left ``state``, from the clock
        before it (None: the table has no clock)."""
        if stored is None:
            return None, None
        blob = pc.after_move(stored, rules.to_act(state), self.clock.now())
        return blob, pc.table_deadline(blob, humans_of(seats))

    # ------------------------------------------------------------------ views
    def public(self, blob: Any, seats: Sequence[SeatHolding]) -> ClockOut | None:
        return pc.public(cast(pc.ClockBlob | None, blob), humans_of(seats))

    def public_known(
        self, table_id: str, version: int, seats_version: int, seats: Sequence[SeatHolding]
    ) -> ClockOut | _Unknown | None:
        shown = self.shown.get(table_id)
        if shown is not None and shown[0] == version and shown[1] == seats_version:
            return shown[2]
        found = self.known(table_id, version, seats_version)
        if isinstance(found, _Unknown):
            return found
        out = self.public(found, seats)
        self.shown[table_id] = (version, seats_version, out)
        return out

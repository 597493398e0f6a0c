"""What a replay shows: the log, a position through one seat's eyes or everyone's. Pure.

Only finished games are replayed, so everything the game hid may be shown. Even so, a view is
built from the engine's allow-lists: ``eyes`` = a seat is exactly the view that seat had
(``rules.view_for``); ``eyes`` = ``all`` is the spectators' view plus each seat's own ``me``
(its hand and its decision) taken from that seat's view. No deck order, pile order, seed or RNG
state is ever in a view: a viewer needs none of them.
"""

from __future__ import annotations

from typing import cast

from app import rules
from app.records.errors import BadEyes, NoSuchPosition
from app.records.replay import Replayed
from app.records.shapes import LogEntryDoc, OpenHandDoc, PageDoc, PositionPart

ALL = "all"


def parse_eyes(eyes: str, players: int) -> int | None:
    """``all`` → None (everyone's eyes); a seat number of the game → that seat."""
    if eyes == ALL:
        return None
    if eyes.isdigit() and len(eyes) == 1 and int(eyes) < players:
        return int(eyes)
    raise BadEyes(f"eyes must be 'all' or a seat from 0 to {players - 1}")


def _events(events: list[rules.EngineEvent], seat: int | None) -> list[rules.EngineEvent]:
    if seat is None:  # everyone's eyes: every event whole (``private`` names whose it was)
        return [rules.EngineEvent(**ev) for ev in events]
    return rules.events_for(cast(list[dict[str, object]], events), seat)


def log_entry(done: Replayed, index: int, seat: int | None) -> LogEntryDoc:
    """Move ``index`` (0-based), leading to position ``index + 1``, as the table's log shows it,
    with the engine's words-ready summary of it."""
    mover, move, at = done.moves[index]
    events = _events(done.events[index], seat)
    entry: rules.LogEntry = {
        "version": index + 1,
        "seat": mover,
        "move": dict(move),
        "events": events,
    }
    return {
        "position": index + 1,
        "seat": mover,
        "move": rules.EncodedMove(**move),
        "events": events,
        "at": at,
        "summary": rules.summarize([entry], None),
    }


def page(done: Replayed, seat: int | None, offset: int, limit: int) -> PageDoc:
    """The positions ``offset`` to ``offset + limit - 1`` (those the game has): the log entry
    of each but the deal, both tracks at each, and where the next page starts (None: none)."""
    if not 0 <= offset < done.positions:
        raise NoSuchPosition(f"positions run from 0 to {done.positions - 1}")
    end = min(done.positions, offset + limit)
    return {
        "offset": offset,
        "limit": limit,
        "next_offset": end if end < done.positions else None,
        "log": [log_entry(done, p - 1, seat) for p in range(max(offset, 1), end)],
        "tracks": done.tracks[offset:end],
    }


def position(done: Replayed, n: int, seat: int | None) -> PositionPart:
    """The game at position ``n`` through ``seat``'s eyes (None: everyone's)."""
    if not 0 <= n < done.positions:
        raise NoSuchPosition(f"positions run from 0 to {done.positions - 1}")
    state = done.state_at(n)
    view = rules.view_for(state, seat)
    hands: list[OpenHandDoc] | None = None
    if seat is None:
        hands = []
        for s in range(len(view["players_state"])):
            me = rules.view_for(state, s)["me"]
            assert me is not None
            hands.append({"seat": s, "hand": list(me["hand"]), "decision": me["decision"]})
    return {
        "position": n,
        "positions": done.positions,
        "view": view,
        "hands": hands,
        "scores": done.tracks[n],
        "move": log_entry(done, n - 1, seat) if n > 0 else None,
    }

"""The frame since-you-looked sends on the table socket: the answer to a ``seen`` frame
(app/seen/feed.py; docs/frames.schema.json lists every frame)."""

from __future__ import annotations

from typing import Literal

from app.realtime.frames import Ref, Sent


class SeenMarked(Sent):
    """The direct answer to a ``seen`` frame: the seat's mark after it (never lower than
    before), as ``POST /api/tables/{id}/seen`` answers."""

    type: Literal["seen_marked"] = "seen_marked"
    last_seen_version: int
    ref: Ref | None = None

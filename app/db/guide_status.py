"""Where a profile stands with the guided first game (stored on the profile, migration 0875)."""

from __future__ import annotations

from enum import StrEnum


class GuideStatus(StrEnum):
    FINISHED = "finished"  # the first round of a guided game ended
    DISMISSED = "dismissed"  # the person skipped the tutorial

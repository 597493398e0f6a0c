"""The contracts of reports and of blocks at a table: requests strict (one subject: a chat
message or a seat), answers allow-lists — a report's answer never names who else reported, and
nothing here is ever shown to the reported person."""

from __future__ import annotations

import re
import unicodedata
from enum import StrEnum
from typing import Self

from pydantic import BaseModel, Field, field_validator, model_validator

from app.strict import Strict

NOTE_MAX = 500
_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")
_BLANKS = re.compile(r"\n{3,}")


class Reason(StrEnum):
    SPAM = "spam"
    HARASSMENT = "harassment"
    HATE = "hate"
    SEXUAL = "sexual"
    OTHER = "other"


class ReportKind(StrEnum):
    MESSAGE = "message"  # a chat message, kept as it was written
    NAME = "name"  # a seated person's name, kept as it was


class ReportStatus(StrEnum):
    OPEN = "open"
    RESOLVED = "resolved"  # the operator acted on it
    DISMISSED = "dismissed"  # the operator found nothing to act on


class SubjectIn(Strict):
    """Who at the table: the writer of chat message ``message_id``, or the person at ``seat``.
    Exactly one of the two."""

    message_id: int | None = Field(default=None, ge=1, le=2**62)
    seat: int | None = Field(default=None, ge=0, le=3)

    @model_validator(mode="after")
    def _one(self) -> Self:
        if (self.message_id is None) == (self.seat is None):
            raise ValueError("name exactly one of message_id and seat")
        return self


def clean_note(raw: str) -> str | None:
    """A report's optional words as plain text: control characters and bidirectional overrides
    stripped (line feeds kept), blank runs squeezed, ends trimmed; empty is none."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(
        c for c in text if c == "\n" or (unicodedata.category(c) != "Cc" and c not in _BIDI)
    )
    text = _BLANKS.sub("\n\n", text).strip()
    return text or None


class ReportIn(SubjectIn):
    """A report: a chat message (``message_id``) or the name of the person at ``seat``, why,
    and optional words for the operator (at most 500 characters)."""

    reason: Reason = Field(strict=False)  # its value as JSON text (an enum: never coerced)
    note: str | None = Field(default=None, max_length=2000)

    @field_validator("note")
    @classmethod
    def _note(cls, v: str | None) -> str | None:
        if v is None:
            return None
        cleaned = clean_note(v)
        if cleaned is not None and len(cleaned) > NOTE_MAX:
            raise ValueError(f"a note holds at most {NOTE_MAX} characters")
        return cleaned


class ReportOut(BaseModel):
    """The report as stored: what was reported, why, and where it stands in the queue."""

    id: int
    kind: ReportKind
    reason: Reason
    status: ReportStatus
    name: str  # the reported person's name, as reported
    created_at: str | None

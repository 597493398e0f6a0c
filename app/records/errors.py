"""The typed errors of records and replays (app/errors.py renders them)."""

from __future__ import annotations

from app.errors import AppError


class NotFinished(AppError):
    """A game that is still running (or never started) has no record and no replay yet."""

    status = 409
    code = "not_finished"


class UnsupportedFormat(AppError):
    """Not a record of a format this server reads (``format`` / ``format_version``)."""

    status = 422
    code = "unsupported_format"


class RulesMismatch(AppError):
    """The record was played with other printed numbers (``rules_version``)."""

    status = 422
    code = "rules_mismatch"


class BadRecord(AppError):
    """The record's options and players do not make a game (``message`` says why)."""

    status = 422
    code = "bad_record"


class BadMove(AppError):
    """Move ``move_index`` (0-based) of the record does not replay: ``reason`` is the engine's
    code (``not_your_turn``, ``illegal_move``, ``game_over`` …)."""

    status = 422
    code = "bad_move"


class RecordUnfinished(AppError):
    """Every move replays, but the game they make is not over."""

    status = 422
    code = "record_unfinished"


class OutcomeMismatch(AppError):
    """The record's ``outcome`` is not the outcome its moves make."""

    status = 422
    code = "outcome_mismatch"


class BadEyes(AppError):
    """``eyes`` is ``all`` or the number of a seat of the game."""

    status = 422
    code = "bad_eyes"


class NoSuchPosition(AppError):
    status = 404
    code = "no_such_position"


class RecordTooLong(AppError):
    """More moves than a game of the record's seats can make (``limit`` names the most)."""

    status = 422
    code = "record_too_long"

"""The typed errors of play-again (app/errors.py renders them)."""

from __future__ import annotations

from app.errors import AppError


class AlreadySeated(AppError):
    status = 409
    code = "already_seated"


class NoFreeSeat(AppError):
    status = 409
    code = "table_full"


class AlreadyAnswered(AppError):
    status = 409
    code = "invitation_answered"


class NotWanted(AppError):
    """The person declined this inviter's invitation lately, or takes none from them: one answer
    for both, so a block is not told apart from the "no" the inviter already saw."""

    status = 409
    code = "invitation_not_wanted"


class HostBlocked(AppError):
    """The invited person blocked the table's host or their inviter (app/blocks)."""

    status = 409
    code = "host_blocked"

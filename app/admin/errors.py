"""What an admin command reports when it cannot do its work: a message for the operator and the
exit status the command ends with."""

from __future__ import annotations


class AdminError(Exception):
    """A refusal or failure the operator can act on: said on stderr, exit status ``status``."""

    status = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InUse(AdminError):
    """The database to overwrite is open in a running server (restore without ``--force``)."""

    status = 3


class ToolFailed(AdminError):
    """``pg_dump`` or ``pg_restore`` is missing or ended with an error."""

    status = 4


class NotABackup(AdminError):
    """The file is not a backup this command made for this kind of database."""

    status = 5

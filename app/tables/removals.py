"""Who a host removed from a table's lobby (``table_removal``): such a person cannot join the
table again with its link, nor look at it, until the host invites them again. Read where a
look or a join is judged (app/tables/visibility.py, lobby.py), written by the host's removal
(app/tables/host.py) and forgotten by a new invitation (app/invitations)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection, bindparam, delete, select
from sqlalchemy.orm import Session

from app.db.models import TableRemoval
from app.errors import AppError

REMOVED = select(TableRemoval.profile_id).where(
    TableRemoval.table_id == bindparam("p_table"), TableRemoval.profile_id == bindparam("p_profile")
)
# People removed from one table that My games should still wake (their list loses the table).
REMOVED_FROM = (
    select(TableRemoval.profile_id)
    .where(TableRemoval.table_id == bindparam("p_table"))
    .order_by(TableRemoval.removed_at.desc())
    .limit(20)
)


class RemovedFromTable(AppError):
    """The host removed this person from the table: no look, no join (until invited again)."""

    status = 403
    code = "removed_from_table"


def removed(conn: Session | Connection, table_id: str, profile_id: str | None) -> bool:
    if profile_id is None:
        return False
    found = conn.execute(REMOVED, {"p_table": table_id, "p_profile": profile_id}).first()
    return found is not None


def refuse_removed(conn: Session | Connection, table_id: str, profile_id: str | None) -> None:
    if removed(conn, table_id, profile_id):
        raise RemovedFromTable("the host removed you from this table")


def remember(s: Session, table_id: str, profile_id: str, at: datetime) -> None:
    """The person was removed (in the host's transaction; removed again: the later moment)."""
    row = s.get(TableRemoval, (table_id, profile_id))
    if row is None:
        s.add(TableRemoval(table_id=table_id, profile_id=profile_id, removed_at=at))
    else:
        row.removed_at = at


def forget(s: Session, table_id: str, profile_id: str) -> None:
    """The host invited the person again: the removal no longer holds."""
    s.execute(
        delete(TableRemoval).where(
            TableRemoval.table_id == table_id, TableRemoval.profile_id == profile_id
        )
    )


def removed_from(conn: Session | Connection, table_id: str) -> list[str]:
    """The latest people removed from the table (at most 20)."""
    return [str(p) for p in conn.execute(REMOVED_FROM, {"p_table": table_id}).scalars()]

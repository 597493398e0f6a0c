"""All the SQL of play-again: invitations, the people one plays with, the rows My games shows
(read straight into their response models, moments as ISO text)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, not_, or_, select, update
from sqlalchemy.orm import Session, aliased

from app.blocks.checks import kept_apart
from app.db.models import GameTable, InvitationBlock, Profile, Seat, TableInvitation
from app.invitations.schemas import (
    BlockedPerson,
    InvitationKind,
    InvitationStatus,
    MyInvitation,
    Person,
)
from app.isotime import iso
from app.tables.status import TableStatus

PEOPLE_LIMIT = 50
MY_INVITATIONS_LIMIT = 50
TABLE_INVITATIONS_LIMIT = 20
# "People I play with" looks at this many of one's latest tables (a bounded read).
PEOPLE_TABLES_LOOKED_AT = 500
# The list of profiles one takes no invitations from shows this many (latest first).
BLOCKS_LIMIT = 200


def people(s: Session, profile_id: str, limit: int = PEOPLE_LIMIT) -> list[Person]:
    """The people ``profile_id`` shared a table with (latest first), from its latest tables."""
    mine = (
        select(Seat.table_id)
        .join(GameTable, GameTable.id == Seat.table_id)
        .where(Seat.profile_id == profile_id, GameTable.status != TableStatus.CLOSED)
        .order_by(GameTable.updated_at.desc())
        .limit(PEOPLE_TABLES_LOOKED_AT)
        .subquery()
    )
    other = aliased(Seat)
    last = func.max(GameTable.updated_at)
    rows = s.execute(
        select(Profile.id, Profile.name, func.count(func.distinct(other.table_id)), last)
        .select_from(other)
        .join(mine, mine.c.table_id == other.table_id)
        .join(GameTable, GameTable.id == other.table_id)
        .join(Profile, Profile.id == other.profile_id)
        .where(
            other.profile_id.is_not(None),
            other.profile_id != profile_id,
            Profile.deleted_at.is_(None),  # a deleted profile is nobody to invite
            not_(kept_apart(profile_id, Profile.id)),  # a block hides them from each other
        )
        .group_by(Profile.id, Profile.name)
        .order_by(last.desc(), Profile.id)
        .limit(limit)
    ).all()
    return [Person(id=i, name=n, tables=int(c), last_played=iso(at)) for i, n, c, at in rows]


def shared_a_table(s: Session, profile_id: str, other_id: str) -> bool:
    return any(p.id == other_id for p in people(s, profile_id, PEOPLE_LIMIT))


def deleted(s: Session, profile_id: str) -> bool:
    """The person deleted their profile: nobody is left to invite."""
    return s.scalar(select(Profile.deleted_at).where(Profile.id == profile_id)) is not None


def name_of(s: Session, profile_id: str) -> str:
    return str(s.scalar(select(Profile.name).where(Profile.id == profile_id)) or "?")


def rematch_of(s: Session, table_id: str) -> list[str]:
    """The finished table whose rematch ``table_id`` is (its end screens follow the answers)."""
    return [str(x) for x in s.scalars(select(GameTable.id).where(GameTable.rematch_id == table_id))]


def invitation(s: Session, invitation_id: int) -> TableInvitation | None:
    return s.get(TableInvitation, invitation_id)


def invitation_of(s: Session, table_id: str, profile_id: str) -> TableInvitation | None:
    return s.scalar(
        select(TableInvitation).where(
            TableInvitation.table_id == table_id, TableInvitation.profile_id == profile_id
        )
    )


def of_table(s: Session, table_id: str) -> list[tuple[TableInvitation, str, str]]:
    """Invitations of the table with the names of the invited person and of who invited."""
    inviter = aliased(Profile)
    rows = s.execute(
        select(TableInvitation, Profile.name, inviter.name)
        .join(Profile, Profile.id == TableInvitation.profile_id)
        .join(inviter, inviter.id == TableInvitation.inviter_id)
        .where(TableInvitation.table_id == table_id)
        .order_by(TableInvitation.id)
        .limit(TABLE_INVITATIONS_LIMIT)
    ).all()
    return [(inv, name, by) for inv, name, by in rows]


def invitees(s: Session, table_id: str) -> list[str]:
    """Everyone invited to the table (whatever their answer): they hear of its changes."""
    return [
        str(pid)
        for pid in s.scalars(
            select(TableInvitation.profile_id)
            .where(TableInvitation.table_id == table_id)
            .limit(TABLE_INVITATIONS_LIMIT)
        )
    ]


def answer(s: Session, invitation_id: int, status: InvitationStatus, at: datetime) -> bool:
    """pending -> ``status``; False when it was answered (or taken back) already."""
    n = s.execute(
        update(TableInvitation)
        .where(
            TableInvitation.id == invitation_id,
            TableInvitation.status == InvitationStatus.PENDING,
        )
        .values(status=status, answered_at=at),
        execution_options={"synchronize_session": False},
    )
    return int(n.rowcount) == 1  # type: ignore[attr-defined]


def pending_for(s: Session, profile_id: str) -> list[MyInvitation]:
    """The invitations waiting for ``profile_id``, newest first, with what My games shows."""
    inviter = aliased(Profile)
    rows = s.execute(
        select(TableInvitation, GameTable, inviter.name)
        .join(GameTable, GameTable.id == TableInvitation.table_id)
        .join(inviter, inviter.id == TableInvitation.inviter_id)
        .where(
            TableInvitation.profile_id == profile_id,
            TableInvitation.status == InvitationStatus.PENDING,
            GameTable.status == TableStatus.LOBBY,
            # none from, or to a table of, someone either of us blocked (app/blocks)
            not_(kept_apart(profile_id, TableInvitation.inviter_id)),
            not_(kept_apart(profile_id, GameTable.host_profile_id)),
        )
        .order_by(TableInvitation.id.desc())
        .limit(MY_INVITATIONS_LIMIT)
    ).all()
    ids = [t.id for _, t, _ in rows]
    seated: dict[str, list[tuple[int, str | None, str | None]]] = {}
    if ids:
        for line in s.execute(
            select(Seat.table_id, Seat.seat, Profile.name, Profile.id)
            .outerjoin(Profile, Profile.id == Seat.profile_id)
            .where(Seat.table_id.in_(ids))
        ):
            seated.setdefault(line[0], []).append((line[1], line[2], line[3]))
    rematch_of: dict[str | None, str] = (
        dict(
            s.execute(
                select(GameTable.rematch_id, GameTable.id).where(GameTable.rematch_id.in_(ids))
            ).all()
        )
        if ids
        else {}
    )
    out: list[MyInvitation] = []
    for inv, t, inviter_name in rows:
        names: list[str | None] = [None] * t.seat_count
        host: str | None = None
        for seat, who, pid in seated.get(t.id, []):
            if 0 <= seat < t.seat_count:
                names[seat] = who
            if pid == t.host_profile_id:
                host = who
        out.append(
            MyInvitation(
                id=inv.id,
                kind=InvitationKind(inv.kind),
                table_id=t.id,
                table_name=t.name,
                table_status=t.status,
                host_name=host,
                inviter_name=inviter_name,
                seat=inv.seat,
                seat_count=t.seat_count,
                names=names,
                pace=(t.options or {}).get("pace", {"mode": "live", "clock": "none"}),
                rematch_of=rematch_of.get(t.id),
                created_at=iso(inv.created_at),
            )
        )
    return out


# ------------------------------------------------------------------------------ who takes them
def blocked(s: Session, profile_id: str, inviter_id: str) -> bool:
    """``profile_id`` takes no invitations from ``inviter_id``."""
    key = (profile_id, inviter_id)
    return s.get(InvitationBlock, key) is not None


def declined_since(s: Session, profile_id: str, inviter_id: str, since: datetime) -> bool:
    """``profile_id`` declined an invitation from ``inviter_id`` after ``since``."""
    found = s.scalar(
        select(TableInvitation.id)
        .where(
            TableInvitation.profile_id == profile_id,
            TableInvitation.inviter_id == inviter_id,
            TableInvitation.status == InvitationStatus.DECLINED,
            TableInvitation.answered_at > since,
        )
        .limit(1)
    )
    return found is not None


def block(s: Session, profile_id: str, inviter_id: str, at: datetime) -> None:
    if s.get(InvitationBlock, (profile_id, inviter_id)) is None:
        s.add(InvitationBlock(profile_id=profile_id, blocked_id=inviter_id, created_at=at))
        s.flush()


def unblock(s: Session, profile_id: str, inviter_id: str) -> None:
    s.execute(
        delete(InvitationBlock).where(
            InvitationBlock.profile_id == profile_id, InvitationBlock.blocked_id == inviter_id
        )
    )


def blocks_of(s: Session, profile_id: str, limit: int = BLOCKS_LIMIT) -> list[BlockedPerson]:
    """The profiles ``profile_id`` takes no invitations from, latest first."""
    rows = s.execute(
        select(Profile.id, Profile.name, InvitationBlock.created_at)
        .join(InvitationBlock, InvitationBlock.blocked_id == Profile.id)
        .where(InvitationBlock.profile_id == profile_id)
        .order_by(InvitationBlock.created_at.desc(), Profile.id)
        .limit(limit)
    ).all()
    return [BlockedPerson(id=i, name=n, since=iso(at)) for i, n, at in rows]


def pending_from(s: Session, profile_id: str, inviter_id: str) -> list[TableInvitation]:
    """The invitations from ``inviter_id`` still waiting for ``profile_id``'s answer."""
    return list(
        s.scalars(
            select(TableInvitation)
            .where(
                TableInvitation.profile_id == profile_id,
                TableInvitation.inviter_id == inviter_id,
                TableInvitation.status == InvitationStatus.PENDING,
            )
            .limit(MY_INVITATIONS_LIMIT)
        )
    )


def pending_between(s: Session, a: str, b: str) -> list[tuple[int, str, str]]:
    """The invitations still waiting between two people: to one of them, from the other or to
    a table the other hosts — (id, table, invited person)."""

    def one_way(invitee: str, other: str) -> Any:
        return and_(
            TableInvitation.profile_id == invitee,
            or_(TableInvitation.inviter_id == other, GameTable.host_profile_id == other),
        )

    rows = s.execute(
        select(TableInvitation.id, TableInvitation.table_id, TableInvitation.profile_id)
        .join(GameTable, GameTable.id == TableInvitation.table_id)
        .where(
            TableInvitation.status == InvitationStatus.PENDING, or_(one_way(a, b), one_way(b, a))
        )
        .order_by(TableInvitation.id)
        .limit(MY_INVITATIONS_LIMIT)
    ).all()
    return [(int(i), str(t), str(p)) for i, t, p in rows]

"""Everything stored about one person, in one JSON document, read in one transaction.

Only what is theirs: their profile, devices, address, passkeys' names, the games they sat in
(a finished game with its record — what any of its players may download; a game still open
without its seed, hands or deck), the chat messages they wrote (not the others'), their solo
results, the records they imported, the people they blocked and the reports they made (their
own words, not the reported ones). Nothing of another person's hidden information."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import (
    ChatMessage,
    DeviceSession,
    EmailAddress,
    GameTable,
    ImportedReplay,
    Passkey,
    PersonBlock,
    Profile,
    PushSubscription,
    Report,
    Seat,
)
from app.errors import NotFound
from app.isotime import aware
from app.mydata.schemas import FORMAT, FORMAT_VERSION, MyDataOut, MyGameOut
from app.records.service import table_record
from app.solo.models import SoloGame
from app.tables.status import TableStatus


def _at(moment: datetime | None) -> datetime | None:
    return None if moment is None else aware(moment)


def my_data(s: Session, profile_id: str, now: datetime) -> MyDataOut:
    p = s.get(Profile, profile_id)
    if p is None or p.deleted_at is not None:
        raise NotFound("no such profile")
    out: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": now,
        "profile": {
            "id": p.id,
            "name": p.name,
            "created_at": aware(p.created_at),
            "guide": p.guide,
            "suspended_at": _at(p.suspended_at),
        },
        "devices": [
            {
                "device": d.device,
                "how": d.how,
                "created_at": aware(d.created_at),
                "last_used_at": aware(d.last_used_at),
                "signed_out_at": _at(d.revoked_at),
            }
            for d in s.scalars(
                select(DeviceSession)
                .where(DeviceSession.profile_id == profile_id)
                .order_by(DeviceSession.created_at)
            )
        ],
        "email": None,
        "passkeys": [
            {"name": k.name, "created_at": aware(k.created_at), "last_used_at": _at(k.last_used_at)}
            for k in s.scalars(
                select(Passkey).where(Passkey.profile_id == profile_id).order_by(Passkey.created_at)
            )
        ],
        "push_subscriptions": [
            {"lang": x.lang, "active": x.active, "created_at": aware(x.created_at)}
            for x in s.scalars(
                select(PushSubscription)
                .where(PushSubscription.profile_id == profile_id)
                .order_by(PushSubscription.id)
            )
        ],
        "games": _games(s, profile_id),
        "chat_messages": [
            {"table_id": m.table_id, "seat": m.seat, "text": m.text, "at": aware(m.created_at)}
            for m in s.scalars(
                select(ChatMessage)
                .where(ChatMessage.profile_id == profile_id)
                .order_by(ChatMessage.id)
            )
        ],
        "solo_results": [
            {
                "table_id": g.table_id,
                "mode": g.mode,
                "building_start": g.building_start,
                "started_at": aware(g.created_at),
                "finished_at": _at(g.finished_at),
                "cp": g.cp,
                "bp": g.bp,
                "score": g.score,
            }
            for g in s.scalars(
                select(SoloGame)
                .where(SoloGame.profile_id == profile_id)
                .order_by(SoloGame.created_at)
            )
        ],
        "imported_records": [
            {"id": r.id, "created_at": aware(r.created_at), "record": r.record}
            for r in s.scalars(
                select(ImportedReplay)
                .where(ImportedReplay.owner_profile_id == profile_id)
                .order_by(ImportedReplay.created_at)
            )
        ],
    }
    out["blocked_people"] = [
        {"name": name, "since": aware(at)}
        for name, at in s.execute(
            select(Profile.name, PersonBlock.created_at)
            .join(PersonBlock, PersonBlock.blocked_id == Profile.id)
            .where(PersonBlock.profile_id == profile_id)
            .order_by(PersonBlock.created_at)
        )
    ]
    out["reports"] = [
        {
            "table_id": r.table_id,
            "kind": r.kind,
            "reason": r.reason,
            "note": r.note,
            "status": r.status,
            "created_at": aware(r.created_at),
        }
        for r in s.scalars(
            select(Report).where(Report.reporter_id == profile_id).order_by(Report.id)
        )
    ]
    address = s.get(EmailAddress, profile_id)
    if address is not None:
        out["email"] = {
            "address": address.address,
            "lang": address.lang,
            "notify": address.notify,
            "confirmed_at": aware(address.confirmed_at),
        }
    return MyDataOut.model_validate(out)


def _games(s: Session, profile_id: str) -> list[MyGameOut]:
    mine = s.execute(
        select(Seat.table_id, Seat.seat)
        .where(Seat.profile_id == profile_id)
        .order_by(Seat.joined_at, Seat.table_id)
    ).all()
    games: list[MyGameOut] = []
    for table_id, seat in mine:
        t = s.get(GameTable, table_id)
        if t is None:  # pragma: no cover - a seat has its table
            continue
        names = s.execute(
            select(Seat.seat, Seat.bot_level, Profile.name)
            .outerjoin(Profile, Profile.id == Seat.profile_id)
            .where(Seat.table_id == table_id)
            .order_by(Seat.seat)
        ).all()
        finished = t.status == TableStatus.FINISHED and t.state is not None and t.seed is not None
        games.append(
            MyGameOut(
                table_id=t.id,
                name=t.name,
                status=TableStatus(t.status),
                seat=seat,
                players=[n.name or f"bot ({n.bot_level})" for n in names],
                created_at=aware(t.created_at),
                record=table_record(s, t) if finished else None,
            )
        )
    return games

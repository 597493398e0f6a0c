"""What an operator's command works with: the database the server uses (the same settings,
``EMARA_*``), and a hub whose notices reach the running servers — on Postgres through the relay
(LISTEN/NOTIFY), so a suspended profile's sockets close and a closed table's players are told on
every instance. On the embedded SQLite database there is no relay: the change is stored, the
server's sessions are refused at once, and open sockets learn of it when they next reconnect."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, is_dataclass
from datetime import datetime
from enum import Enum
from typing import Any

import typer

from app.clock import Clock, SystemClock
from app.config import Settings
from app.db.session import Database
from app.errors import AppError
from app.realtime.hub import Hub
from app.realtime.notify import relay_for

# Ids are URL-safe base64, so an id may begin with "-": a word the command does not know as an
# option is then taken as the id it is, not refused as an unknown option ("-- ID" works too).
IDS_MAY_START_WITH_A_DASH: dict[str, Any] = {"ignore_unknown_options": True}


@dataclass
class Kit:
    db: Database
    hub: Hub
    clock: Clock
    relayed: bool  # the running servers hear this process's notices


@asynccontextmanager
async def kit(settings: Settings | None = None) -> AsyncIterator[Kit]:
    settings = settings or Settings()
    db = Database(settings.effective_database_url, pool_size=2, max_overflow=0)
    hub = Hub()
    relay = relay_for(hub, settings.effective_database_url, settings.notify_channel)
    if relay is not None:
        await relay.start()
    try:
        yield Kit(db, hub, SystemClock(), relay is not None)
    finally:
        if relay is not None:
            await relay.sent()  # every notice reached Postgres before the process ends
            await relay.stop()
        if db.direct is not None:
            await db.direct.close()
        db.dispose()


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    raise TypeError(type(value).__name__)


def as_json(value: Any) -> str:
    if is_dataclass(value) and not isinstance(value, type):
        value = asdict(value)
    elif isinstance(value, list):
        value = [asdict(v) if is_dataclass(v) and not isinstance(v, type) else v for v in value]
    return json.dumps(value, default=_plain, ensure_ascii=False, indent=2)


def when(at: datetime | None) -> str:
    return "-" if at is None else at.strftime("%Y-%m-%d %H:%M UTC")


def fail(exc: AppError, as_json_output: bool) -> None:
    """Say what went wrong (the service's typed error) and end with status 1."""
    if as_json_output:
        typer.echo(json.dumps({"error": exc.to_dict()}))
    else:
        typer.echo(f"error: {exc.code}: {exc.message}", err=True)
    raise typer.Exit(1)


def relay_note(k: Kit) -> None:
    if not k.relayed:
        print(
            "note: embedded SQLite database: open sockets learn of this when they reconnect",
            file=sys.stderr,
        )

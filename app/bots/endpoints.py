"""Bot seats over HTTP (see ``app.bots.service`` for who may do what when).

- `POST /api/tables/{id}/seats/{seat}/bot {"level"}` — a bot takes the seat.
- `DELETE /api/tables/{id}/seats/{seat}/bot` — before the start, the host frees a bot's seat.
- `POST /api/tables/{id}/seats/{seat}/reclaim` — the seat's player takes it back from the bot.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from app.bots.runner import BotRunner
from app.bots.schemas import BotIn
from app.bots.service import BotSeats
from app.parts import provided
from app.profiles.deps import ProfileId
from app.tables.answers import LobbyAnswer
from app.tables.schemas import LobbyOut, SeatPath, TableIdPath

router = APIRouter(prefix="/api/tables", tags=["bots"])


bot_seats = provided(BotSeats)


bot_runner = provided(BotRunner)


Seats = Annotated[BotSeats, Depends(bot_seats)]
Runner = Annotated[BotRunner, Depends(bot_runner)]


@router.post("/{table_id}/seats/{seat}/bot", response_model=LobbyOut)
async def put_bot(
    table_id: TableIdPath,
    seat: SeatPath,
    body: BotIn,
    profile_id: ProfileId,
    seats: Seats,
    runner: Runner,
) -> LobbyAnswer:
    """A bot of the chosen level takes the seat."""
    out = await seats.put(profile_id, table_id, int(seat), body.level)
    runner.kick(table_id)
    return out


@router.delete("/{table_id}/seats/{seat}/bot", response_model=LobbyOut)
async def remove_bot(
    table_id: TableIdPath, seat: SeatPath, profile_id: ProfileId, seats: Seats
) -> LobbyAnswer:
    """Before the start: the host frees a seat a bot holds."""
    return await seats.remove(profile_id, table_id, int(seat))


@router.post("/{table_id}/seats/{seat}/reclaim", response_model=LobbyOut)
async def reclaim(
    table_id: TableIdPath, seat: SeatPath, profile_id: ProfileId, seats: Seats
) -> LobbyAnswer:
    """The seat's player takes the seat back from the bot playing it."""
    return await seats.reclaim(profile_id, table_id, int(seat))

"""The guided first game over HTTP.

- `POST /api/tutorial` — open a guided game (the caller in seat 0, two easy bots), started.
- `GET /api/tables/{id}/hint` — the next step of the game for the caller's seat.
- `PUT /api/profiles/me/guide` — the person finished or dismissed the guided game.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from app.parts import provided
from app.profiles.deps import ProfileId
from app.profiles.limit import limit
from app.ratelimit import LimitName
from app.tables.answers import LobbyAnswer
from app.tables.deps import Invite
from app.tables.schemas import LobbyOut, TableIdPath
from app.tutorial.schemas import GuideIn, GuideOut, HintOut
from app.tutorial.service import Tutorial
from app.tutorial.status import GuideStatus

router = APIRouter(tags=["tutorial"])


tutorial = provided(Tutorial)


Guide = Annotated[Tutorial, Depends(tutorial)]


@router.post(
    "/api/tutorial",
    status_code=201,
    response_model=LobbyOut,
    dependencies=[Depends(limit(LimitName.TABLE_CREATE))],
)
async def start(profile_id: ProfileId, guide: Guide) -> LobbyAnswer:
    """Open a guided first game: a real table with the caller in seat 0 and two `greedy` bots,
    started at once (the caller moves first). Its lobby has `options.guided: true`."""
    return await guide.start(profile_id)


@router.get("/api/tables/{table_id}/hint", response_model=HintOut)
async def hint(
    table_id: TableIdPath, profile_id: ProfileId, guide: Guide, invite: Invite
) -> HintOut:
    """What to do next and why, for the caller's seat at a guided table, from that seat's view
    and legal moves (until the game is over; then `step: "done"`, which also records the guided
    game as finished on the profile). Errors: `not_found` (404) without a seat or the invite,
    `not_your_seat` (403) for a spectator, `not_guided` (409) at another table,
    `wrong_status` (409) before the start."""
    h, version, seat = await guide.hint(profile_id, table_id, invite)
    return HintOut(
        table_id=table_id,
        version=version,
        seat=seat,
        step=h.step,
        key=h.key,
        params=h.params,
        targets=list(h.targets),
        move=h.move,
        rules=h.rules,
        turn=h.turn,
    )


@router.put("/api/profiles/me/guide", response_model=GuideOut)
async def record(body: GuideIn, profile_id: ProfileId, guide: Guide) -> GuideOut:
    """Remember that the person finished the guided game or dismissed it (shown in
    `/api/profiles/me` as `guide`). A finished guide stays finished."""
    return GuideOut(guide=await guide.record(profile_id, GuideStatus(body.status)))

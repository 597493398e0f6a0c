"""My blocks: block a person by their profile id, list the people I blocked, lift a block.
(Blocking the person behind a seat or a chat message at a table: app/safety.)"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Response

from app.blocks.schemas import BlockedIdPath, BlockIn, BlockOut, BlocksOut
from app.blocks.service import Blocks
from app.parts import provided
from app.profiles.deps import ProfileId
from app.profiles.limit import limit
from app.ratelimit import LimitName

router = APIRouter(prefix="/api/me/blocks", tags=["protect yourself"])


blocks = provided(Blocks)


Service = Annotated[Blocks, Depends(blocks)]
BLOCK_LIMIT = [Depends(limit(LimitName.BLOCK))]


@router.get("", response_model=BlocksOut)
async def my_blocks(profile_id: ProfileId, svc: Service, response: Response) -> BlocksOut:
    """The people I blocked, latest first (at most 200)."""
    response.headers["Cache-Control"] = "private, no-store"
    return BlocksOut(blocked=await svc.of(profile_id))


@router.post("", response_model=BlockOut, status_code=201, dependencies=BLOCK_LIMIT)
async def block(body: BlockIn, profile_id: ProfileId, svc: Service, response: Response) -> BlockOut:
    """Block a person: they cannot invite me or find me among the people they play with, and
    their chat is hidden from me at every table. They are not told. `201`; `200` when I had
    blocked them already (the same block)."""
    out = await svc.block(profile_id, body.profile_id)
    if not out.created:
        response.status_code = 200
    return out.out()


@router.delete("/{other_id}", status_code=204)
async def unblock(other_id: BlockedIdPath, profile_id: ProfileId, svc: Service) -> Response:
    """Lift my block of this person (`204` whether or not I had blocked them)."""
    await svc.unblock(profile_id, other_id)
    return Response(status_code=204)

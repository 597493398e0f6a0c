"""Routes of a person's own data: download it (``GET /api/me/data``) and delete the profile
(``POST /api/me/delete``, after a confirmation and with a recent proof)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from app.mydata.schemas import DeletedOut, DeleteProfileIn, MyDataOut
from app.mydata.service import MyData
from app.parts import provided
from app.profiles.deps import NO_STORE, ProfileId, ProvenSession, clear_session_cookie

router = APIRouter(tags=["my data"])


my_data_service = provided(MyData)


Service = Annotated[MyData, Depends(my_data_service)]


@router.get("/api/me/data")
async def download(profile_id: ProfileId, response: Response, svc: Service) -> MyDataOut:
    """Everything stored about the signed-in person, as one JSON file (a download): profile,
    devices, e-mail address, passkeys' names, every game with its record once finished, the
    chat messages they wrote, solo results and imported records. Nothing of anyone else's
    hidden information: an unfinished game has no seed, hand or deck in it."""
    out = await svc.export(profile_id)
    response.headers["Cache-Control"] = NO_STORE
    day = out.exported_at.date().isoformat()
    response.headers["Content-Disposition"] = f'attachment; filename="emara-my-data-{day}.json"'
    return out


@router.post("/api/me/delete")
async def delete_profile(
    body: DeleteProfileIn,
    profile_id: ProfileId,
    _proven: ProvenSession,
    request: Request,
    response: Response,
    svc: Service,
) -> DeletedOut:
    """Delete the signed-in profile for good (``confirm``: true). Needs a recent proof on this
    device (`403 recent_proof_required`, nothing done). Personal data, sessions, passkeys, the
    address and push subscriptions are erased; the seats in finished games keep a neutral name
    so the other players' records stay whole; a running game's seat goes to a bot; every device
    is signed out (this one's cookie is cleared)."""
    left = await svc.delete(profile_id)
    clear_session_cookie(request, response)
    response.headers["Cache-Control"] = NO_STORE
    return DeletedOut(id=profile_id, tables_left=left)

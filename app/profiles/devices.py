"""Routes of My devices: the profile's signed-in devices (each its own session), signing one
out, a short code (with its link and QR code) that adds a device, and spending that code on the
new device. Codes and links are single-use and short-lived; the code rides in the link's
fragment, so no server or proxy log ever holds it."""

from __future__ import annotations

import segno
from fastapi import APIRouter, Depends, Request, Response

from app.profiles.deps import (
    NO_STORE,
    MaybeProfileId,
    ProfileId,
    Profiles,
    ProvenSession,
    SessionId,
    settings_of,
)
from app.profiles.device_name import device_name
from app.profiles.handover import sign_in_here
from app.profiles.limit import limit
from app.profiles.schemas import (
    DeviceCodeIn,
    DeviceCodeOut,
    DeviceNameIn,
    DeviceOut,
    DevicesOut,
    SessionOut,
)
from app.ratelimit import LimitName

router = APIRouter(prefix="/api/profiles", tags=["devices"])


def qr_svg(link: str) -> str:
    """The link as a QR code: an SVG image in a data: URL (the page shows it as an <img>)."""
    return str(segno.make(link, error="m").svg_data_uri(scale=4, border=2))


@router.get("/me/devices")
async def my_devices(
    profile_id: ProfileId, session_id: SessionId, response: Response, svc: Profiles
) -> DevicesOut:
    """Every device signed in to this profile, most recently used first."""
    response.headers["Cache-Control"] = NO_STORE
    rows = await svc.devices(profile_id)
    return DevicesOut(
        devices=[
            DeviceOut(
                id=d.id,
                device=d.device,
                how=d.how,
                name=d.name,
                created_at=d.created_at,
                last_used_at=d.last_used_at,
                current=d.id == session_id,
            )
            for d in rows
        ]
    )


@router.delete("/me/devices/{device_id}", status_code=204)
async def sign_out_device(device_id: str, profile_id: ProfileId, svc: Profiles) -> Response:
    """Sign one device out: its tokens stop working and its open table sockets close, on every
    instance. (This device too, if it is the one named.)"""
    await svc.sign_out_device(profile_id, device_id[:64])
    return Response(status_code=204)


@router.put("/me/devices/{device_id}/name", status_code=204)
async def name_device(
    device_id: str, body: DeviceNameIn, profile_id: ProfileId, svc: Profiles
) -> Response:
    """Name one of this profile's signed-in devices ("Kitchen tablet"), shown in My devices
    beside its browser's name; an empty or null name forgets it. Another profile's device, or
    one signed out: `404`."""
    await svc.rename_device(profile_id, device_id[:64], body.name)
    return Response(status_code=204)


@router.post("/me/devices/acknowledge", status_code=204)
async def acknowledge(session_id: SessionId, svc: Profiles) -> Response:
    """ "That was me": this device stops telling of the recoveries so far."""
    await svc.acknowledge(session_id)
    return Response(status_code=204)


@router.post(
    "/me/devices/code",
    status_code=201,
    dependencies=[Depends(limit(LimitName.HOST_ACTS))],
)
async def device_code(
    profile_id: ProfileId,
    proven: ProvenSession,
    request: Request,
    response: Response,
    svc: Profiles,
) -> DeviceCodeOut:
    """A code that adds one device to this profile, for 10 minutes, once: type it on the new
    device, open the link there, or scan the QR code. The device it adds is signed in (a fresh
    proof there), so asking for one needs a recent proof here (`403 recent_proof_required`):
    a token borrowed for a moment does not become a device of its own."""
    response.headers["Cache-Control"] = NO_STORE
    code, expires = await svc.device_code(profile_id)
    base = settings_of(request).public_url.rstrip("/") or str(request.base_url).rstrip("/")
    link = f"{base}/add-device#{code}"
    return DeviceCodeOut(code=code, link=link, qr_svg=qr_svg(link), expires_at=expires)


@router.post("/devices/add", dependencies=[Depends(limit(LimitName.DEVICE_CODE))])
async def add_device(
    body: DeviceCodeIn,
    request: Request,
    response: Response,
    svc: Profiles,
    current: MaybeProfileId,
) -> SessionOut:
    """Spend a device code on this device: it is signed in with a session of its own, and the
    device that showed the code stays signed in. A wrong, used or expired code:
    `404 bad_device_code` (and counts toward the 429, in a count apart from recovery codes).
    Where another profile is signed in on this device: `409 signed_in_as_other` (both names; the
    code is not spent) unless `switch` is true."""
    device = device_name(request.headers.get("user-agent"))
    out = await svc.add_device(body.code, device, current, body.switch)
    sign_in_here(request, response, out.token)
    return SessionOut(id=out.id, name=out.name, token=out.token)

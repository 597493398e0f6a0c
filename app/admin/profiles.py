"""``python -m app.admin profiles``: look profiles up, suspend and lift, and answer a person's
request by mail (export their data, delete their profile)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer

from app.admin.kit import IDS_MAY_START_WITH_A_DASH, as_json, fail, kit, relay_note, when
from app.errors import AppError, NotFound
from app.mydata.service import MyData
from app.profiles import lookup
from app.profiles.lookup import ProfileSummary
from app.profiles.suspension import Suspensions

app = typer.Typer(help="Profiles: look up, suspend, lift, export a person's data, delete.")

Json = Annotated[bool, typer.Option("--json", help="Machine-readable output (JSON).")]
ProfileArg = Annotated[str, typer.Argument(help="The profile's id.")]


def _line(p: ProfileSummary) -> str:
    state = "deleted" if p.deleted_at else "suspended" if p.suspended_at else "active"
    return f"{p.id}  {p.name:<24}  {p.email or '-':<30}  {state:<9}  since {when(p.created_at)}"


def _details(p: ProfileSummary) -> str:
    lines = [
        f"id:         {p.id}",
        f"name:       {p.name}",
        f"created:    {when(p.created_at)}",
        f"e-mail:     {p.email or '-'}",
        f"suspended:  {when(p.suspended_at)}"
        + (f" ({p.suspended_reason})" if p.suspended_reason else ""),
    ]
    if p.deleted_at:
        lines.append(f"deleted:    {when(p.deleted_at)}")
    return "\n".join(lines)


async def _find(**filters: object) -> list[ProfileSummary]:
    async with kit() as k:
        with k.db.session() as s:
            return lookup.find(s, **filters)  # type: ignore[arg-type]


def _one(profile_id: str) -> ProfileSummary:
    found = asyncio.run(_find(profile_id=profile_id))
    if not found:
        raise NotFound(f"no profile {profile_id}")
    return found[0]


@app.command("list")
def list_profiles(
    name: Annotated[str | None, typer.Option(help="Names that begin with this (any case).")] = None,
    email: Annotated[str | None, typer.Option(help="The profile with this address.")] = None,
    suspended: Annotated[bool, typer.Option(help="Only suspended profiles.")] = False,
    limit: Annotated[int, typer.Option(min=1, max=1000)] = lookup.LIMIT,
    json: Json = False,
) -> None:
    """List profiles, newest first, or find them by name or e-mail address."""
    found = asyncio.run(_find(name=name, email=email, suspended=suspended, limit=limit))
    if json:
        typer.echo(as_json(found))
    elif not found:
        typer.echo("no profile matches")
    else:
        for p in found:
            typer.echo(_line(p))


@app.command("show", context_settings=IDS_MAY_START_WITH_A_DASH)
def show(profile_id: ProfileArg, json: Json = False) -> None:
    """One profile, by its id."""
    try:
        p = _one(profile_id)
    except AppError as exc:
        fail(exc, json)
        return
    typer.echo(as_json(p) if json else _details(p))


@app.command("suspend", context_settings=IDS_MAY_START_WITH_A_DASH)
def suspend(
    profile_id: ProfileArg,
    reason: Annotated[str, typer.Option(help="Why (kept with the suspension).")] = "",
    json: Json = False,
) -> None:
    """Suspend a profile: its sessions end on every device and instance, and until lifted it
    cannot open tables or invite (403 suspended)."""

    async def run() -> object:
        async with kit() as k:
            out = Suspensions(k.db, k.clock, k.hub.signed_out).suspend(profile_id, reason)
            relay_note(k)
            return out

    try:
        out = asyncio.run(run())
    except AppError as exc:
        fail(exc, json)
        return
    typer.echo(as_json(out) if json else f"suspended {profile_id}; its sessions have ended")


@app.command("unsuspend", context_settings=IDS_MAY_START_WITH_A_DASH)
def unsuspend(profile_id: ProfileArg, json: Json = False) -> None:
    """Lift a profile's suspension."""

    async def run() -> object:
        async with kit() as k:
            return Suspensions(k.db, k.clock, k.hub.signed_out).lift(profile_id)

    try:
        out = asyncio.run(run())
    except AppError as exc:
        fail(exc, json)
        return
    typer.echo(as_json(out) if json else f"lifted the suspension of {profile_id}")


@app.command("export", context_settings=IDS_MAY_START_WITH_A_DASH)
def export(
    profile_id: ProfileArg,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file (else stdout).")
    ] = None,
) -> None:
    """A person's data, as the profile page's "download my data" gives it (JSON)."""

    async def run() -> str:
        async with kit() as k:
            data = await MyData(k.db, k.hub, k.clock).export(profile_id)
            return data.model_dump_json(indent=2)

    try:
        text = asyncio.run(run())
    except AppError as exc:
        fail(exc, False)
        return
    if output is None:
        typer.echo(text)
    else:
        output.write_text(text + "\n", encoding="utf-8")
        typer.echo(f"wrote {output}")


@app.command("delete", context_settings=IDS_MAY_START_WITH_A_DASH)
def delete(
    profile_id: ProfileArg,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation.")] = False,
    json: Json = False,
) -> None:
    """Delete a profile for good, as "delete my profile" does: personal data erased, seats in
    finished games keep a neutral name, running games' seats go to a bot."""
    if not yes:
        try:
            p = _one(profile_id)
        except AppError as exc:
            fail(exc, json)
            return
        typer.confirm(f"Delete the profile {p.id} ({p.name}) for good?", abort=True)

    async def run() -> int:
        async with kit() as k:
            left = await MyData(k.db, k.hub, k.clock).delete(profile_id)
            relay_note(k)
            return left

    try:
        left = asyncio.run(run())
    except AppError as exc:
        fail(exc, json)
        return
    if json:
        typer.echo(as_json({"id": profile_id, "tables_left": left}))
    else:
        typer.echo(f"deleted {profile_id}; taken out of {left} open table(s)")

"""``python -m app.admin tables``: look tables up and close one."""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer

from app.admin.kit import IDS_MAY_START_WITH_A_DASH, as_json, fail, kit, relay_note, when
from app.errors import AppError, NotFound
from app.realtime.hub import Notice, NoticeKind
from app.tables import operator
from app.tables.operator import TableSummary
from app.tables.status import TableStatus

app = typer.Typer(help="Tables: look up and close.")

Json = Annotated[bool, typer.Option("--json", help="Machine-readable output (JSON).")]
TableArg = Annotated[str, typer.Argument(help="The table's id.")]


def _line(t: TableSummary) -> str:
    return (
        f"{t.id}  {t.status.value:<8}  host {t.host_name} ({t.host_profile_id})  "
        f"{len(t.seats)}/{t.seat_count}  {when(t.updated_at)}  {t.name or ''}"
    ).rstrip()


def _details(t: TableSummary) -> str:
    lines = [
        f"id:       {t.id}",
        f"name:     {t.name or '-'}",
        f"status:   {t.status.value}",
        f"host:     {t.host_name} ({t.host_profile_id})",
        f"version:  {t.version}",
        f"created:  {when(t.created_at)}",
        f"changed:  {when(t.updated_at)}",
        "seats:",
    ]
    for x in t.seats:
        who = f"bot ({x.bot_level})" if x.profile_id is None else f"{x.name} ({x.profile_id})"
        if x.profile_id is not None and x.bot_level is not None:
            who += f", played by a bot ({x.bot_level})"
        lines.append(f"  {x.seat}: {who}")
    return "\n".join(lines)


async def _find(**filters: object) -> list[TableSummary]:
    async with kit() as k:
        with k.db.session() as s:
            return operator.find(s, **filters)  # type: ignore[arg-type]


@app.command("list")
def list_tables(
    host: Annotated[str | None, typer.Option(help="Tables this profile hosts (its id).")] = None,
    status: Annotated[TableStatus | None, typer.Option(help="Tables with this status.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=1000)] = operator.LIMIT,
    json: Json = False,
) -> None:
    """List tables, newest first, by host or status."""
    found = asyncio.run(_find(host=host, status=status, limit=limit))
    if json:
        typer.echo(as_json(found))
    elif not found:
        typer.echo("no table matches")
    else:
        for t in found:
            typer.echo(_line(t))


@app.command("show", context_settings=IDS_MAY_START_WITH_A_DASH)
def show(table_id: TableArg, json: Json = False) -> None:
    """One table, by its id, with its seats."""
    found = asyncio.run(_find(table_id=table_id))
    if not found:
        fail(NotFound(f"no table {table_id}"), json)
        return
    typer.echo(as_json(found[0]) if json else _details(found[0]))


@app.command("close", context_settings=IDS_MAY_START_WITH_A_DASH)
def close(
    table_id: TableArg,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation.")] = False,
    json: Json = False,
) -> None:
    """Close a table in the lobby or in play: its players are told, as when a host closes it."""
    if not yes:
        typer.confirm(f"Close the table {table_id}?", abort=True)

    async def run() -> None:
        async with kit() as k:
            with k.db.session() as s:
                changed = operator.close(s, table_id)
            k.hub.publish(Notice(changed.table_id, NoticeKind.LOBBY))
            relay_note(k)

    try:
        asyncio.run(run())
    except AppError as exc:
        fail(exc, json)
        return
    typer.echo(as_json({"id": table_id, "status": "closed"}) if json else f"closed {table_id}")

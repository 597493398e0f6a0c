"""``python -m app.admin reports``: the queue of reports people made at their tables — list it,
look at one, resolve or dismiss it (docs/operations.md "Reports"). Acting on a report (suspend
the reported profile, close a table) is done with the profiles and tables commands."""

from __future__ import annotations

import asyncio
from enum import StrEnum
from typing import Annotated

import typer

from app.admin.kit import IDS_MAY_START_WITH_A_DASH, as_json, fail, kit, when
from app.errors import AppError
from app.safety import queue
from app.safety.queue import Queued
from app.safety.schemas import ReportStatus

app = typer.Typer(help="Reports: the queue, one report, resolve or dismiss.")

Json = Annotated[bool, typer.Option("--json", help="Machine-readable output (JSON).")]
ReportArg = Annotated[int, typer.Argument(help="The report's number.", min=1)]
Note = Annotated[str, typer.Option(help="What was done, or why not (kept with the report).")]


class Shown(StrEnum):
    """Which reports ``list`` shows."""

    OPEN = "open"
    RESOLVED = "resolved"
    DISMISSED = "dismissed"
    ALL = "all"


def _short(text: str | None, width: int = 48) -> str:
    if not text:
        return ""
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"


def _line(r: Queued) -> str:
    what = f'"{_short(r.message_text)}"' if r.kind == "message" else "(name)"
    return (
        f"#{r.id:<5} {r.status.value:<9} {when(r.created_at)}  {r.reason:<10} "
        f"{r.reported_name} ({r.reported_id})  {what}"
    )


def _details(r: Queued) -> str:
    reporter = f"{r.reporter_name} ({r.reporter_id})" if r.reporter_id else "(deleted profile)"
    now = r.reported_name_now if r.reported_name_now != r.reported_name else None
    lines = [
        f"report:     #{r.id} ({r.status.value})",
        f"made:       {when(r.created_at)}",
        f"kind:       {r.kind}",
        f"reason:     {r.reason}",
        f"reported:   {r.reported_name} ({r.reported_id})" + (f", called {now} now" if now else ""),
        f"by:         {reporter}",
        f"table:      {r.table_id or '-'}",
    ]
    if r.kind == "message":
        lines.append(f"written:    {when(r.message_at)} (message {r.message_id})")
        lines.append("message:")
        lines += [f"  | {line}" for line in (r.message_text or "").splitlines() or [""]]
    if r.note:
        lines.append("note:")
        lines += [f"  | {line}" for line in r.note.splitlines()]
    if r.closed_at is not None:
        lines.append(f"closed:     {when(r.closed_at)}")
        if r.resolution:
            lines.append(f"resolution: {r.resolution}")
    return "\n".join(lines)


async def _run_find(status: ReportStatus | None, reported: str | None, limit: int) -> list[Queued]:
    async with kit() as k:
        with k.db.session() as s:
            return queue.find(s, status, reported, limit)


async def _run_one(report_id: int) -> Queued:
    async with kit() as k:
        with k.db.session() as s:
            return queue.one(s, report_id)


async def _run_close(report_id: int, status: ReportStatus, note: str) -> Queued:
    async with kit() as k:
        with k.db.session() as s:
            return queue.close(s, report_id, status, note, k.clock.utcnow())


@app.command("list")
def list_reports(
    status: Annotated[
        Shown, typer.Option(help="open: the queue, oldest first; the others newest first.")
    ] = Shown.OPEN,
    reported: Annotated[
        str | None, typer.Option(help="Only reports about this profile (its id).")
    ] = None,
    limit: Annotated[int, typer.Option(min=1, max=1000)] = queue.QUEUE_LIMIT,
    json: Json = False,
) -> None:
    """The reports waiting for the operator, oldest first (or the closed ones, newest first)."""
    chosen = None if status == Shown.ALL else ReportStatus(status.value)
    found = asyncio.run(_run_find(chosen, reported, limit))
    if json:
        typer.echo(as_json(found))
    elif not found:
        typer.echo("no report" if chosen is None else f"no {chosen.value} report")
    else:
        for r in found:
            typer.echo(_line(r))


@app.command("show", context_settings=IDS_MAY_START_WITH_A_DASH)
def show(report_id: ReportArg, json: Json = False) -> None:
    """One report: what was reported, as it was, by whom, why."""
    try:
        r = asyncio.run(_run_one(report_id))
    except AppError as exc:
        fail(exc, json)
        return
    typer.echo(as_json(r) if json else _details(r))


def _close(report_id: int, status: ReportStatus, note: str, json: bool) -> None:
    try:
        r = asyncio.run(_run_close(report_id, status, note))
    except AppError as exc:
        fail(exc, json)
        return
    typer.echo(as_json(r) if json else f"report #{r.id} {status.value}")


@app.command("resolve", context_settings=IDS_MAY_START_WITH_A_DASH)
def resolve(report_id: ReportArg, note: Note = "", json: Json = False) -> None:
    """Close a report as acted upon (e.g. after suspending the reported profile)."""
    _close(report_id, ReportStatus.RESOLVED, note, json)


@app.command("dismiss", context_settings=IDS_MAY_START_WITH_A_DASH)
def dismiss(report_id: ReportArg, note: Note = "", json: Json = False) -> None:
    """Close a report as needing nothing done."""
    _close(report_id, ReportStatus.DISMISSED, note, json)

"""The browser client's files and page routes.

Files of ``static/`` are served as they are; any other page path is a client route and gets
``index.html``. ``/api`` and ``/ws`` paths that no router answered are JSON 404s. A page path with
a NUL or another control character, a backslash, or a ``.``/``..`` segment is refused with 400
before it reaches the file system.

Some files get their own treatment (app/web/build.py names the client's version):
``index.html`` goes out with its stylesheets and first module under ``/v/<version>/``, and
``/v/<version>/js/…`` and ``/v/<version>/css/…`` are the files of ``js/`` and ``css/`` that the
browser keeps for good; ``/sw.js`` (the service worker, revalidated on every check) goes out with
its ``BUILD`` line: the version and the list of files the installed app keeps (so any change of a
file is a new worker with a new cache); ``/manifest.webmanifest`` with the manifest's content
type.
"""

from __future__ import annotations

from pathlib import Path

from anyio import to_thread
from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response

from app.errors import AppError, NotFound
from app.web import build

PLACEHOLDER = "<!doctype html><title>Emara</title><p>The browser client is not built yet.</p>"


class BadPath(AppError):
    status = 400
    code = "bad_path"


def check_page_path(path: str) -> None:
    """Raise BadPath for a path no client file or route can have."""
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in path) or "\\" in path:
        raise BadPath("the path holds a character no page has")
    if any(part in (".", "..") for part in path.split("/")):
        raise BadPath("the path climbs out of the site")


def client_router(static_dir: Path) -> APIRouter:
    """The catch-all route of the browser client, reading files under ``static_dir``."""
    root = static_dir.resolve()
    router = APIRouter()

    @router.get("/{path:path}", include_in_schema=False)
    async def client(path: str) -> Response:
        """Files of the browser client; any other page path is a client route → index.html."""
        if path.startswith(("api/", "ws/")) or path in ("api", "ws"):
            raise NotFound("no such endpoint")
        check_page_path(path)
        if path.startswith("v/"):
            return await _versioned_file(root, path)
        if path == "sw.js" and (root / "sw.js").is_file():
            worker = (await to_thread.run_sync(build.current, root)).worker
            assert worker is not None
            return Response(
                worker, media_type="text/javascript", headers={"Cache-Control": "no-cache"}
            )
        if path == "manifest.webmanifest" and (root / path).is_file():
            return FileResponse(root / path, media_type="application/manifest+json")
        if path:
            candidate = (root / path).resolve()
            if candidate.is_relative_to(root) and candidate.is_file():
                return FileResponse(candidate)
            if "." in path.rsplit("/", 1)[-1]:
                raise NotFound("no such file")
        page = (await to_thread.run_sync(build.current, root)).index
        if page is not None:
            return HTMLResponse(page, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(PLACEHOLDER)

    return router


async def _versioned_file(root: Path, path: str) -> Response:
    """``/v/<version>/js/…`` or ``/v/<version>/css/…``: the file, kept for good by the browser
    when the version is the current one. A page of an older version (loaded before the files
    changed) gets the current file, not to be kept under the old name."""
    _, version, rest = [*path.split("/", 2), "", ""][:3]
    if rest.split("/", 1)[0] not in build.VERSIONED_DIRS:
        raise NotFound("no such file")
    candidate = (root / rest).resolve()
    if not (candidate.is_relative_to(root) and candidate.is_file()):
        raise NotFound("no such file")
    now = build.last(root)
    if version != now.version:
        now = await to_thread.run_sync(build.current, root)
    policy = build.IMMUTABLE if version == now.version else "no-cache"
    return FileResponse(candidate, headers={"Cache-Control": policy})

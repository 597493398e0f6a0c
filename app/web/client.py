"""The browser client's files and page routes.

Files of ``static/`` are served as they are; any other page path is a client route and gets
``index.html``. ``/api`` and ``/ws`` paths that no router answered are JSON 404s. A page path with
a NUL or another control character, a backslash, or a ``.``/``..`` segment is refused with 400
before it reaches the file system.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response

from app.errors import AppError, NotFound

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
        if path:
            candidate = (root / path).resolve()
            if candidate.is_relative_to(root) and candidate.is_file():
                return FileResponse(candidate)
            if "." in path.rsplit("/", 1)[-1]:
                raise NotFound("no such file")
        index = root / "index.html"
        if index.is_file():
            return FileResponse(index, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(PLACEHOLDER)

    return router

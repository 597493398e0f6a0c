"""The browser client's files and page routes.

Files of ``static/`` are served as they are; any other page path is a client route and gets
``index.html``. ``/api`` and ``/ws`` paths that no router answered are JSON 404s. A page path with
a NUL or another control character, a backslash, or a ``.``/``..`` segment is refused with 400
before it reaches the file system.

Two files get their own treatment: ``/sw.js`` (the service worker, revalidated on every check)
goes out with its ``BUILD`` line written here: a hash of the static files and the list of those
the installed app keeps (so any change of a file is a new worker with a new cache), and
``/manifest.webmanifest`` with the manifest's content type.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from anyio import to_thread
from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response

from app.errors import AppError, NotFound

PLACEHOLDER = "<!doctype html><title>Emara</title><p>The browser client is not built yet.</p>"


SW_BUILD_LINE = 'const BUILD = { version: "dev", files: [] }; // replaced by the server'
# What the installed app keeps (static/sw.js caches them on install); the HTML shell is "/".
KEPT_DIRS = ("js", "css", "i18n", "icons")
KEPT_FILES = ("favicon.svg", "favicon-turn.svg", "manifest.webmanifest")


# The built worker per static directory, with the (path, mtime, size) of every file it was
# built from: a file changed on disk is a new build, an unchanged tree is not read again.
_SW_CACHE: dict[Path, tuple[tuple[tuple[Path, int, int], ...], str]] = {}


class BadPath(AppError):
    status = 400
    code = "bad_path"


def check_page_path(path: str) -> None:
    """Raise BadPath for a path no client file or route can have."""
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in path) or "\\" in path:
        raise BadPath("the path holds a character no page has")
    if any(part in (".", "..") for part in path.split("/")):
        raise BadPath("the path climbs out of the site")


def service_worker(root: Path) -> str:
    """static/sw.js with its BUILD line: the static files' hash and the files it keeps."""
    files = sorted(p for p in root.rglob("*") if p.is_file())
    signature = tuple((f, f.stat().st_mtime_ns, f.stat().st_size) for f in files)
    cached = _SW_CACHE.get(root)
    if cached is not None and cached[0] == signature:
        return cached[1]
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    kept = [
        "/" + f.relative_to(root).as_posix()
        for d in KEPT_DIRS
        for f in sorted((root / d).rglob("*"))
        if f.is_file()
    ] + ["/" + name for name in KEPT_FILES if (root / name).is_file()]
    build = json.dumps({"version": digest.hexdigest()[:16], "files": kept})
    text = (root / "sw.js").read_text().replace(SW_BUILD_LINE, f"const BUILD = {build};")
    _SW_CACHE[root] = (signature, text)
    return text


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
        if path == "sw.js" and (root / "sw.js").is_file():
            return Response(
                await to_thread.run_sync(service_worker, root),
                media_type="text/javascript",
                headers={"Cache-Control": "no-cache"},
            )
        if path == "manifest.webmanifest" and (root / path).is_file():
            return FileResponse(root / path, media_type="application/manifest+json")
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

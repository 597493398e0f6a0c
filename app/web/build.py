"""The client's build: one hash of ``static/`` names every version of the browser client.

The page (``index.html``) loads its stylesheets and its first module from ``/v/<version>/…``.
Those files never change under that name, so a browser keeps them for a year without asking
again (``immutable``); the modules import each other by relative paths, so the whole module graph
stays under the same version. A change of any static file is a new version, so the next page
load asks for new names. ``/sw.js`` carries the same version and the file list the installed app
keeps (static/sw.js).

The build is made again only when a file of ``static/`` changed (its path, modification time or
size): the page and the worker check that on each request; a versioned file only when it names a
version other than the last one built.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

# Files the page names under its version (the module graph and the stylesheets).
VERSIONED_DIRS = ("js", "css")
# What the installed app keeps (static/sw.js caches them on install); the HTML shell is "/".
KEPT_DIRS = ("js", "css", "i18n", "icons")
KEPT_FILES = ("favicon.svg", "favicon-turn.svg", "manifest.webmanifest")
# A versioned file's cache policy: the name changes with the content.
IMMUTABLE = "public, max-age=31536000, immutable"

SW_BUILD_LINE = 'const BUILD = { version: "dev", files: [] }; // replaced by the server'

Signature = tuple[tuple[str, int, int], ...]


@dataclass(frozen=True)
class Build:
    """One version of the client: its name, the page and the worker that go with it."""

    version: str
    index: str | None  # index.html with its files under /v/<version>/ (None: no index.html)
    worker: str | None  # sw.js with its BUILD line (None: no sw.js)


# The last build per static directory, with the signature of the files it was made from.
_BUILDS: dict[Path, tuple[Signature, Build]] = {}


def versioned(version: str, path: str) -> str:
    """The name of a static file (``/js/x.js``) in one version of the client."""
    return f"/v/{version}{path}"


def current(root: Path) -> Build:
    """The build of the files under ``root`` now (made again only if a file changed)."""
    signature = tuple(sorted(_signature(str(root))))
    cached = _BUILDS.get(root)
    if cached is not None and cached[0] == signature:
        return cached[1]
    build = _make(root, [Path(path) for path, _, _ in signature])
    _BUILDS[root] = (signature, build)
    return build


def _signature(folder: str) -> Iterator[tuple[str, int, int]]:
    """Every file under ``folder``: its path, modification time and size (one stat a file)."""
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=True):
                yield from _signature(entry.path)
            elif entry.is_file(follow_symlinks=True):
                st = entry.stat()
                yield entry.path, st.st_mtime_ns, st.st_size


def last(root: Path) -> Build:
    """The last build made of ``root`` (made now if there is none): no file is looked at."""
    cached = _BUILDS.get(root)
    return cached[1] if cached is not None else current(root)


def _make(root: Path, files: list[Path]) -> Build:
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    version = digest.hexdigest()[:16]
    index = root / "index.html"
    page = None
    if index.is_file():
        page = index.read_text()
        for d in VERSIONED_DIRS:
            for attr in ("href", "src"):
                page = page.replace(f'{attr}="/{d}/', f'{attr}="{versioned(version, "/" + d)}/')
    sw = root / "sw.js"
    worker = None
    if sw.is_file():
        kept = [
            _kept_name(version, "/" + f.relative_to(root).as_posix())
            for d in KEPT_DIRS
            for f in sorted((root / d).rglob("*"))
            if f.is_file()
        ] + ["/" + name for name in KEPT_FILES if (root / name).is_file()]
        line = json.dumps({"version": version, "files": kept})
        worker = sw.read_text().replace(SW_BUILD_LINE, f"const BUILD = {line};")
    return Build(version, page, worker)


def _kept_name(version: str, path: str) -> str:
    """The name the page asks for: versioned for the module graph and the stylesheets."""
    if path.split("/")[1] in VERSIONED_DIRS:
        return versioned(version, path)
    return path

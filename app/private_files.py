"""Files only the server's own user may read: the signing key, the VAPID key, the SQLite database.

Each is created with mode 0600 by the ``open`` call that creates it (``O_CREAT | O_EXCL``), so no
other user can read a byte of it at any moment: nothing is written first and narrowed by a
``chmod`` afterwards. The directory that holds them is created 0700. The process's umask can only
narrow these modes further. Files that exist already are left as they are.
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import make_url

FILE_MODE = 0o600
DIR_MODE = 0o700


def private_dir(path: Path) -> Path:
    """``path`` (and missing parents) created owner-only; an existing directory is kept as is."""
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    return path


def create_private(path: Path, data: bytes) -> bool:
    """Write ``data`` to a new file ``path``, mode 0600 from its creation. False (and nothing
    written) when the file exists already: another process of the same deployment made it first,
    and the caller reads that one."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return False
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)
    return True


def sqlite_file(url: str) -> None:
    """For a SQLite URL naming a file: create the (empty) file 0600 before SQLite opens it, so
    the database, and its ``-wal`` and ``-shm`` files that SQLite makes with the database's mode,
    are the owner's only. Other URLs (Postgres, ``:memory:``) are left alone."""
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite"):
        return
    name = parsed.database or ""
    if not name or name == ":memory:" or name.startswith("file:"):
        return
    path = Path(name)
    if path.exists():
        return
    private_dir(path.parent)
    create_private(path, b"")

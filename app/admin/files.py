"""Files an admin command writes: beside their destination, owner-only, synced, then renamed
into place, so that a command that failed leaves no file that looks complete."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from app.private_files import FILE_MODE


def _fresh(path: Path) -> Path:
    """A new owner-only file beside ``path`` to write into, removed if anything fails."""
    tmp = path.with_name(f".{path.name}.partial-{os.getpid()}")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    return tmp


@contextlib.contextmanager
def written(path: Path) -> Iterator[Path]:
    tmp = _fresh(path)
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise

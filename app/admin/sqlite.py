"""SQLite backups with the online backup API, and their restore.

A backup reads one snapshot of the database in a single read transaction (``BEGIN`` then
``Connection.backup``, which copies within the transaction it finds open): in WAL mode the server
keeps writing meanwhile, and what the copy holds is the database as it stood when the snapshot
was taken, every move committed before it and none half-written. The copy is written beside its
destination, owner-only, checked, synced and then renamed into place: a backup that failed
leaves no file that looks like one.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from app.admin.errors import AdminError, InUse, NotABackup
from app.admin.files import written

MAGIC = b"SQLite format 3\x00"
# SQLite's unix VFS: every connection to a WAL database holds a shared lock on this byte of the
# ``-shm`` file while it is open (the "dead man switch"); a write lock on it fails while any
# other process has the database open.
SHM_DMS_BYTE = 128

# Called once the snapshot is taken, before its pages are copied (tests make moves there).
Hook = Callable[[], None]


def check(path: Path) -> None:
    """The file is a sound SQLite database of this server (NotABackup otherwise)."""
    try:
        head = path.open("rb").read(len(MAGIC))
    except OSError as exc:
        raise NotABackup(f"cannot read {path}: {exc.strerror}") from None
    if head != MAGIC:
        raise NotABackup(f"{path} is not a SQLite backup")
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        ok = conn.execute("PRAGMA quick_check").fetchone()
        if ok is None or ok[0] != "ok":
            raise NotABackup(f"{path} is damaged: {ok[0] if ok else 'no answer'}")
        has = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
        ).fetchone()
        if has is None:
            raise NotABackup(f"{path} holds no Emara database (no schema version)")
    except sqlite3.DatabaseError as exc:
        raise NotABackup(f"{path} is not a readable SQLite database: {exc}") from None
    finally:
        conn.close()


def backup(source: Path, dest: Path, snapshot_taken: Hook | None = None) -> None:
    """Copy the database ``source`` (in use or not) to ``dest`` as one consistent snapshot."""
    if not source.is_file() or source.stat().st_size == 0:
        raise AdminError(f"no database at {source}")
    if dest.resolve() == source.resolve():
        raise AdminError("the backup cannot overwrite the database itself")
    src = sqlite3.connect(source, isolation_level=None, timeout=30)
    try:
        src.execute("BEGIN")
        try:
            src.execute("SELECT version_num FROM alembic_version").fetchall()
        except sqlite3.OperationalError:
            raise AdminError(f"{source} holds no Emara database (no schema version)") from None
        if snapshot_taken is not None:
            snapshot_taken()
        with written(dest) as tmp:
            dst = sqlite3.connect(tmp, isolation_level=None)
            try:
                src.backup(dst)  # all pages in one step, from the transaction's snapshot
                dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            finally:
                dst.close()
            check(tmp)
        src.execute("COMMIT")
    finally:
        src.close()


def in_use(database: Path) -> bool:
    """Another process has the WAL database open (a server running on it)."""
    shm = database.with_name(database.name + "-shm")
    try:
        fd = os.open(shm, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, SHM_DMS_BYTE)
        except OSError:
            return True
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, SHM_DMS_BYTE)
        return False
    finally:
        os.close(fd)


def restore(backup_file: Path, database: Path, force: bool = False) -> None:
    """Put the backup in place of ``database``. Refused while a server has it open unless
    ``force`` (then that server must be restarted: it still writes to the file it opened)."""
    check(backup_file)
    if database.exists() and backup_file.resolve() == database.resolve():
        raise AdminError("the backup is the database itself")
    if not force and in_use(database):
        raise InUse(
            f"{database} is in use by a running server: stop it first "
            "(or pass --force and restart it right after)"
        )
    database.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with written(database) as tmp:
        with tmp.open("wb") as out, backup_file.open("rb") as src:
            while chunk := src.read(1 << 20):
                out.write(chunk)
        check(tmp)
        # The old database's log must not be replayed onto the restored file.
        for suffix in ("-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                database.with_name(database.name + suffix).unlink()

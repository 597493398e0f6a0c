"""What a test or benchmark run leaves behind when it is stopped, and how the next run sweeps it.

Every database a run creates is named ``emara_<kind>_<pid>_<hex>``, with the process id of the
process that owns it; every server process it starts gets SIGTERM from the kernel when the
thread that started it dies (``PR_SET_PDEATHSIG``), however its owner ended (Ctrl-C, SIGTERM,
SIGKILL, a timeout). A run's databases are dropped by the run itself; those of a run that was
killed are dropped by ``sweep_databases`` at the start of the next one, which drops the
databases whose owner is no longer alive and keeps those of runs still going.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import secrets
import signal
from collections.abc import Callable

# emara_<kind>_<owner pid>_<hex>
OWNED = re.compile(r"^emara_[a-z0-9]+_(\d+)_[0-9a-f]+$")
PR_SET_PDEATHSIG = 1


def owned_name(kind: str) -> str:
    """A new database name owned by this process."""
    if not re.fullmatch(r"[a-z0-9]+", kind):
        raise ValueError(f"a database kind is lower-case letters and digits: {kind!r}")
    return f"emara_{kind}_{os.getpid()}_{secrets.token_hex(5)}"


def owner_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def abandoned(names: list[str]) -> list[str]:
    """The names among ``names`` of databases whose owning process is gone."""
    out = []
    for name in names:
        m = OWNED.match(name)
        if m is not None and not owner_alive(int(m.group(1))):
            out.append(name)
    return out


def sweep_databases(admin_dsn: str) -> list[str]:
    """Drop the databases of runs that ended without dropping them; their names."""
    import psycopg

    with psycopg.connect(admin_dsn, autocommit=True, connect_timeout=3) as conn:
        names = [
            r[0]
            for r in conn.execute("SELECT datname FROM pg_database WHERE datname LIKE 'emara\\_%'")
        ]
        gone = abandoned(names)
        for name in gone:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return gone


def die_with_parent() -> Callable[[], None]:
    """A ``preexec_fn`` for a child process: the kernel sends it SIGTERM when its parent dies."""
    libc = ctypes.CDLL(None, use_errno=True)

    def arm() -> None:
        with contextlib.suppress(Exception):
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)

    return arm

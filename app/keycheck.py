"""The signing keys a server may start with.

A key anyone can read signs tokens anyone can forge: the server refuses to start (``UnsafeKey``)
with a signing key, current or previous, that

- appears in a file of this repository (an example copied from the compose file, the docs or the
  tests): the files shipped with the server are searched for it at start-up; the keys published
  in files a deployment may not ship (the compose file, the docs) are known by their digests;
- is shorter than ``MIN_KEY_CHARS`` characters (a word a person typed, not a random key).

A key generated into the data directory (no key configured) is random, and passes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path

MIN_KEY_CHARS = 32
ROOT = Path(__file__).resolve().parent.parent
# Where the repository keeps files a key could be copied from; the ones present are searched.
SEARCHED_DIRS = ("app", "docs", "tests", "bench", "migrations", "static", "requirements")
SEARCHED_FILES = (
    "docker-compose.yml",
    "Dockerfile",
    "Makefile",
    "README.md",
    ".env.example",
    "alembic.ini",
    "pyproject.toml",
)
SKIPPED_DIRS = frozenset({"__pycache__", "node_modules"})
LARGEST_SEARCHED = 4 << 20
# Keys this repository has published in files a deployment may not ship (the compose file's old
# default, examples of the docs and tests): refused wherever the server runs.
PUBLISHED_KEYS = frozenset(
    {
        "change-me-in-production",
        "test-secret-key",
        "test-secret-key-for-the-stack-0123456789",
        "openapi-document-only",
        "fuzz-key",
    }
)


class UnsafeKey(RuntimeError):
    """The server must not start with this key (the message says why, never the key)."""


def repository_files(root: Path = ROOT) -> Iterator[Path]:
    for name in SEARCHED_FILES:
        path = root / name
        if path.is_file():
            yield path
    for top in SEARCHED_DIRS:
        base = root / top
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            if path.is_file() and not SKIPPED_DIRS.intersection(path.relative_to(root).parts):
                yield path


def published_in(keys: Iterable[str], files: Iterable[Path]) -> set[str]:
    """The ``keys`` that occur in any of ``files`` (byte for byte)."""
    wanted = {k: k.encode() for k in keys}
    found: set[str] = set()
    for path in files:
        if len(found) == len(wanted):
            break
        try:
            if path.stat().st_size > LARGEST_SEARCHED:
                continue
            data = path.read_bytes()
        except OSError:
            continue
        found.update(k for k, raw in wanted.items() if k not in found and raw in data)
    return found


@lru_cache(maxsize=8)
def _published(keys: tuple[str, ...], root: Path) -> bool:
    """Searched once per process and keys (the files do not change under a running server)."""
    return bool(published_in(keys, repository_files(root)))


def refuse_unsafe(keys: Sequence[str], root: Path = ROOT) -> None:
    """Raise ``UnsafeKey`` unless every key of ``keys`` (the signing key first, then the
    previous keys) is long and unpublished."""
    for n, key in enumerate(keys):
        which = "EMARA_SECRET_KEY" if n == 0 else "a key of EMARA_PREVIOUS_SECRET_KEYS"
        if len(key) < MIN_KEY_CHARS:
            raise UnsafeKey(
                f"{which} is shorter than {MIN_KEY_CHARS} characters: use a random key "
                "(see .env.example)"
            )
        if key in PUBLISHED_KEYS:
            raise UnsafeKey(f"{which} is a published example key: use a random key of your own")
    if _published(tuple(keys), root):
        raise UnsafeKey(
            "a signing key appears in the repository's files: anyone can read it. "
            "Use a random key of your own (see .env.example)"
        )

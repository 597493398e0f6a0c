"""VAPID keys: the configured private key, or one generated once into the data directory."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02, b64urlencode

from app.private_files import create_private, private_dir

KEY_FILE = "vapid_private.pem"


def load_vapid(configured: str, data_dir: Path) -> Vapid02:
    """``configured``: a PEM, or the base64url key py_vapid reads; empty: the data dir's key
    file, created owner-only (mode 0600 from its first byte) on first use."""
    raw = configured.strip()
    if raw:
        if "BEGIN" in raw:
            return Vapid02.from_pem(raw.encode())
        return Vapid02.from_string(raw)
    path = private_dir(data_dir) / KEY_FILE
    if not path.exists():
        vapid = Vapid02()
        vapid.generate_keys()
        # 0600 from creation; a process that lost the race reads the winner's key.
        create_private(path, vapid.private_pem())
    return Vapid02.from_file(str(path))


def public_key(vapid: Vapid02) -> str:
    """The application server key a browser subscribes with: the uncompressed P-256 point,
    base64url without padding."""
    point = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return str(b64urlencode(point))


@dataclass(frozen=True)
class PublicKey:
    """The VAPID public key as a browser subscribes with it (``public_key``)."""

    text: str

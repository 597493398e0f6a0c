"""VAPID keys: the configured private key, or one generated once into the data directory."""

from __future__ import annotations

from pathlib import Path

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02, b64urlencode

KEY_FILE = "vapid_private.pem"


def load_vapid(configured: str, data_dir: Path) -> Vapid02:
    """``configured``: a PEM, or the base64url key py_vapid reads; empty: the data dir's key
    file, created (mode 0600) on first use."""
    raw = configured.strip()
    if raw:
        if "BEGIN" in raw:
            return Vapid02.from_pem(raw.encode())
        return Vapid02.from_string(raw)
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / KEY_FILE
    if not path.exists():
        vapid = Vapid02()
        vapid.generate_keys()
        vapid.save_key(str(path))
        path.chmod(0o600)
    return Vapid02.from_file(str(path))


def public_key(vapid: Vapid02) -> str:
    """The application server key a browser subscribes with: the uncompressed P-256 point,
    base64url without padding."""
    point = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return str(b64urlencode(point))

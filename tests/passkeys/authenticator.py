"""A software WebAuthn authenticator for the tests: ECDSA P-256 keys, attestation "none", and
assertions signed over authenticator data + the client data's hash, as a browser and a platform
authenticator would answer ``navigator.credentials.create()`` and ``.get()`` (as JSON)."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Credential:
    id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    sign_count: int = 0


@dataclass
class Authenticator:
    """Holds discoverable credentials; ``origin`` is what the "browser" writes in client data."""

    origin: str
    credentials: list[Credential] = field(default_factory=list)

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": origin or self.origin,
             "crossOrigin": False},
            separators=(",", ":"),
        ).encode()  # fmt: skip

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """Answer creation options: a new P-256 credential for ``options['rp']['id']``."""
        rp_id = options["rp"]["id"]
        excluded = {d["id"] for d in options.get("excludeCredentials", [])}
        assert not any(b64url(c.id) in excluded for c in self.credentials if c.rp_id == rp_id)
        key = ec.generate_private_key(ec.SECP256R1())
        cred = Credential(secrets.token_bytes(16), key, rp_id, unb64url(options["user"]["id"]))
        numbers = key.public_key().public_numbers()
        cose = cbor2.dumps(
            {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
             -3: numbers.y.to_bytes(32, "big")}
        )  # fmt: skip
        auth_data = (
            hashlib.sha256(rp_id.encode()).digest()
            + bytes([UP | UV | AT])
            + struct.pack(">I", cred.sign_count)
            + bytes(16)  # AAGUID
            + struct.pack(">H", len(cred.id))
            + cred.id
            + cose
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        self.credentials.append(cred)
        return {
            "id": b64url(cred.id),
            "rawId": b64url(cred.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(attestation),
                "transports": ["internal"],
            },
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
        }

    def get(
        self,
        options: dict[str, Any],
        origin: str | None = None,
        sign_count: int | None = None,
        credential: Credential | None = None,
    ) -> dict[str, Any]:
        """Answer request options with the (first) credential for ``options['rpId']``; the
        counter goes up by one unless ``sign_count`` says what to send."""
        cred = credential or next(c for c in self.credentials if c.rp_id == options["rpId"])
        cred.sign_count = cred.sign_count + 1 if sign_count is None else sign_count
        auth_data = (
            hashlib.sha256(options["rpId"].encode()).digest()
            + bytes([UP | UV])
            + struct.pack(">I", cred.sign_count)
        )
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = cred.key.sign(
            auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return {
            "id": b64url(cred.id),
            "rawId": b64url(cred.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
                "userHandle": b64url(cred.user_handle),
            },
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
        }

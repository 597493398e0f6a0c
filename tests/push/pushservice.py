"""A tiny Web Push service on loopback for the tests: checks the VAPID JWT (ES256 with the
server's public key, aud = this origin, exp in the future), decrypts the aes128gcm payload
(RFC 8291) with the test subscription's private key and auth secret, and records it."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@dataclass
class Browser:
    """A browser's subscription: its key pair and auth secret (the push service's endpoint)."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, lang: str = "en") -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64e(point), "auth": b64e(self.auth)},
            "expirationTime": None,
            "lang": lang,
        }


@dataclass
class PushService:
    origin: str
    server_key: str = ""  # the app's VAPID public key, base64url
    browsers: dict[str, Browser] = field(default_factory=dict)
    received: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)  # statuses to answer first, then 201
    refused: list[str] = field(default_factory=list)  # why a request was refused

    def browser(self, name: str) -> Browser:
        b = Browser(f"{self.origin}/push/{name}")
        self.browsers[name] = b
        return b

    def check_jwt(self, authorization: str) -> None:
        assert authorization.startswith("vapid "), authorization
        parts = dict(p.strip().split("=", 1) for p in authorization[6:].split(","))
        assert parts["k"] == self.server_key, "the JWT's key is not the server's public key"
        head, body, sig = parts["t"].split(".")
        raw = b64d(sig)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(self.server_key))
        public.verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if bad
        assert json.loads(b64d(head))["alg"] == "ES256"
        claims = json.loads(b64d(body))
        assert claims["aud"] == self.origin, claims
        assert claims["exp"] > time.time(), claims
        assert claims["sub"].startswith("mailto:"), claims

    def handle(self, path: str, headers: Any, body: bytes) -> int:
        name = path.rsplit("/", 1)[-1]
        browser = self.browsers[name]
        self.check_jwt(headers["Authorization"])
        assert headers["Content-Encoding"] == "aes128gcm"
        assert int(headers["TTL"]) > 0
        plain = http_ece.decrypt(
            body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm"
        )
        if self.answers:
            return self.answers.pop(0)
        self.received.append((name, json.loads(plain)))
        return 201


@contextmanager
def push_service() -> Iterator[PushService]:
    holder: dict[str, PushService] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            service = holder["s"]
            try:
                status = service.handle(self.path, self.headers, body)
            except Exception as exc:
                service.refused.append(repr(exc))
                status = 400
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    holder["s"] = PushService(f"http://127.0.0.1:{server.server_address[1]}")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield holder["s"]
    finally:
        server.shutdown()
        server.server_close()

"""Who may read ``/metrics``: a client on this machine (loopback, and not a request a proxy
forwarded), or anyone presenting the operator's token (``EMARA_METRICS_TOKEN``) as a bearer
token, compared in constant time. Anyone else is answered 404 ``not_found``, as for a path the
server does not have."""

from __future__ import annotations

import hmac
import ipaddress

from starlette.requests import Request

from app.bearer import token_from
from app.errors import NotFound

# Headers a reverse proxy adds: such a request came from elsewhere, whatever its socket says.
FORWARDED = ("forwarded", "x-forwarded-for", "x-real-ip")


def loopback(request: Request) -> bool:
    host = request.client.host if request.client else ""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
    if not (mapped or ip).is_loopback:
        return False
    return not any(h in request.headers for h in FORWARDED)


def token_matches(request: Request, expected: str) -> bool:
    if not expected:
        return False
    given = token_from(request.headers.get("authorization"), None) or ""
    return hmac.compare_digest(given.encode(), expected.encode())


def allow(request: Request, token: str) -> None:
    """NotFound unless ``request`` may read the metrics."""
    if not (loopback(request) or token_matches(request, token)):
        raise NotFound("not found")

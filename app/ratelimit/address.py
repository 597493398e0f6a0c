"""The one key every per-address limit and cap counts a client under.

An IPv6 client is handed a whole /64 by its provider (2^64 addresses it may send from), so
counting per exact address would give it 2^64 allowances: an IPv6 address counts as its /64. An
IPv4-mapped IPv6 address (``::ffff:192.0.2.7``, what a dual-stack socket reports for an IPv4
client) counts as its IPv4 address. Which address a request has is uvicorn's ``client.host``:
behind a reverse proxy, the one the trusted proxy names (``--forwarded-allow-ips``,
docs/operations.md "Limits")."""

from __future__ import annotations

import ipaddress

from starlette.requests import HTTPConnection

# The prefix of an IPv6 network one subscriber holds (RFC 6177: a site gets at least a /64).
IPV6_PREFIX = 64


def address_key(host: str) -> str:
    """``host`` as every per-address limit counts it: an IPv4 address as written, an IPv6
    address as its /64 (``2001:db8:1:2::/64``), an IPv4-mapped one as its IPv4 address; a
    host that is no IP address (a test client's name, a Unix socket) as given."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])  # a zone (``fe80::1%eth0``) dropped
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)


def client_address(connection: HTTPConnection) -> str:
    """The per-address key of a request or a socket (``address_key`` of its client host)."""
    return address_key(connection.client.host if connection.client else "unknown")

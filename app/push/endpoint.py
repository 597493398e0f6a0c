"""Where a push message may go: a subscription's endpoint, judged when it is stored and again
before every message (a name's addresses can change between the two).

An endpoint is accepted only as ``https`` on port 443, to a host that

- is a DNS name, written plainly (letters, digits, hyphens; its last label a name, never a
  number), not a special-use name (``localhost``, ``.local``, ``.internal``, ``.arpa``, …), and,
  while the allow-list is on (the default), one of the known push services; or an IP address in
  its usual form that is public, when the allow-list is off;
- resolves to public addresses only: loopback, private, shared (CGNAT), link-local, multicast,
  reserved, documentation and unspecified ranges of IPv4 and IPv6 are refused, as are IPv6
  addresses that carry one of those IPv4 addresses inside (mapped, 6to4, NAT64, Teredo).

A host a browser would read as a number is read the same way here (WHATWG URL: decimal,
octal ``0177.0.0.1``, hexadecimal ``0x7f.1``, short forms ``127.1``, one number ``2130706433``),
so no spelling of an inner address gets through as a "name".

``allow_loopback_http`` (tests only) admits ``http://127.0.0.1:<port>`` and
``http://localhost:<port>``: a push service the tests run on this machine.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from app.config import DEFAULT_PUSH_HOSTS
from app.errors import AppError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
# (host, port) -> the addresses the name resolves to, as text (blocking: run it in the push pool)
Resolver = Callable[[str, int], Sequence[str]]

LOOPBACK_TEST_HOSTS: Final = frozenset({"127.0.0.1", "localhost"})
SPECIAL_USE_SUFFIXES: Final = (
    "localhost",
    "local",
    "internal",
    "arpa",
    "invalid",
    "test",
    "onion",
    "lan",
    "home",
    "corp",
    "intranet",
    "private",
)
LABEL: Final = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
TOP_LABEL: Final = re.compile(r"^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$")
NAT64: Final = (
    ipaddress.IPv6Network("64:ff9b::/96"),
    ipaddress.IPv6Network("64:ff9b:1::/48"),
)
MAX_URL_CHARS: Final = 1024


class BadPushEndpoint(AppError):
    status = 422
    code = "bad_push_endpoint"


class Unresolvable(Exception):
    """The name did not resolve now (no such name, or the resolver failed): try again later."""


@dataclass(frozen=True)
class PushPolicy:
    # Host names a push may go to ("name" or "*.suffix"); empty: any public host.
    allowed_hosts: tuple[str, ...] = DEFAULT_PUSH_HOSTS
    # Tests only: http://127.0.0.1:<port> and http://localhost:<port>.
    allow_loopback_http: bool = False


@dataclass(frozen=True)
class Endpoint:
    url: str
    scheme: str  # "https" ("http" only for the loopback test service)
    host: str  # lower case; an IPv6 address without brackets
    port: int
    target: str  # path and query: the request line's target
    address: IPAddress | None  # the host when it is written as an address

    @property
    def authority(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"

    @property
    def origin(self) -> str:
        return f"{self.scheme}://{self.authority}"

    @property
    def loopback_test(self) -> bool:
        return self.scheme == "http"


# ---------------------------------------------------------------------------- addresses
def _embedded_ipv4(addr: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if addr.ipv4_mapped is not None:
        return addr.ipv4_mapped
    if addr.sixtofour is not None:
        return addr.sixtofour
    if addr.teredo is not None:
        return addr.teredo[1]
    if any(addr in net for net in NAT64):
        return ipaddress.IPv4Address(int(addr) & 0xFFFFFFFF)
    return None


def is_public(addr: IPAddress) -> bool:
    """A globally routable unicast address, nothing inside carrying an inner one."""
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.scope_id:
            return False
        inner = _embedded_ipv4(addr)
        if inner is not None and not is_public(inner):
            return False
        if addr.is_site_local:
            return False
    return addr.is_global and not (
        addr.is_multicast
        or addr.is_private
        or addr.is_reserved
        or addr.is_loopback
        or addr.is_link_local
        or addr.is_unspecified
    )


def _number(part: str) -> int | None:
    """One part of a WHATWG IPv4 host: decimal, ``0x`` hexadecimal or ``0`` octal."""
    if part[:2] in ("0x", "0X"):
        digits, base = part[2:], 16
    elif len(part) > 1 and part.startswith("0"):
        digits, base = part[1:], 8
    else:
        digits, base = part, 10
    if digits == "":
        return 0 if base == 16 else None
    try:
        return int(digits, base) if digits.isalnum() and digits.isascii() else None
    except ValueError:
        return None


def _ends_in_number(labels: list[str]) -> bool:
    last = labels[-1]
    if last.isascii() and last.isdigit():
        return True
    return last[:2] in ("0x", "0X") and all(c in "0123456789abcdefABCDEF" for c in last[2:])


def numeric_host(host: str) -> IPAddress | None:
    """The address a browser reads ``host`` as, if it reads it as one; BadPushEndpoint when it
    is a number that is no address (a browser refuses it too)."""
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host)
        except ValueError:
            raise BadPushEndpoint("the push endpoint's host is not an address") from None
    labels = host.split(".")
    if len(labels) > 1 and labels[-1] == "":
        labels.pop()
    if not labels or not labels[-1] or not _ends_in_number(labels):
        return None
    numbers = [_number(part) for part in labels]
    if len(labels) > 4 or any(n is None for n in numbers):
        raise BadPushEndpoint("the push endpoint's host is not an address")
    values = [n for n in numbers if n is not None]
    if any(n > 255 for n in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        raise BadPushEndpoint("the push endpoint's host is not an address")
    total = values[-1]
    for i, n in enumerate(values[:-1]):
        total += n * 256 ** (3 - i)
    return ipaddress.IPv4Address(total)


# ---------------------------------------------------------------------------- the URL
def host_allowed(host: str, allowed: Sequence[str]) -> bool:
    for pattern in allowed:
        pattern = pattern.strip().lower()
        if pattern.startswith("*."):
            if host.endswith(pattern[1:]) and len(host) > len(pattern) - 1:
                return True
        elif host == pattern:
            return True
    return False


def parse(url: str, policy: PushPolicy) -> Endpoint:
    """The endpoint ``url`` names, or BadPushEndpoint: every check that needs no resolver."""
    if len(url) > MAX_URL_CHARS or not url.isascii() or not url.isprintable():
        raise BadPushEndpoint("the push endpoint is not a plain URL")
    if any(c in url for c in ' \\"<>^`{|}'):
        raise BadPushEndpoint("the push endpoint is not a plain URL")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise BadPushEndpoint("the push endpoint is not a URL") from exc
    host = (parts.hostname or "").lower()
    if parts.username is not None or parts.password is not None or not host or parts.fragment:
        raise BadPushEndpoint("the push endpoint is not a plain URL")
    if "%" in host:
        raise BadPushEndpoint("the push endpoint is not a plain URL")
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    scheme = parts.scheme.lower()
    if scheme == "http" and policy.allow_loopback_http and host in LOOPBACK_TEST_HOSTS:
        loopback = ipaddress.IPv4Address("127.0.0.1") if host == "127.0.0.1" else None
        return Endpoint(url, "http", host, port or 80, target, loopback)
    if scheme != "https":
        raise BadPushEndpoint("a push endpoint must be an https URL")
    if port not in (None, 443):
        raise BadPushEndpoint("a push endpoint must use the https port (443)")
    address = numeric_host(host)
    if address is not None:
        if not is_public(address):
            raise BadPushEndpoint("a push endpoint must be a public host")
        if policy.allowed_hosts:
            raise BadPushEndpoint("the push endpoint is not a known push service")
        if host not in (str(address), f"{address}."):
            raise BadPushEndpoint("write the push endpoint's address in its usual form")
        return Endpoint(url, "https", str(address), 443, target, address)
    name = host.removesuffix(".")
    labels = name.split(".")
    if (
        len(name) > 253
        or len(labels) < 2
        or not all(LABEL.match(label) for label in labels)
        or not TOP_LABEL.match(labels[-1])
    ):
        raise BadPushEndpoint("the push endpoint's host is not a host name")
    if labels[-1] in SPECIAL_USE_SUFFIXES:
        raise BadPushEndpoint("a push endpoint must be a public host")
    if policy.allowed_hosts and not host_allowed(name, policy.allowed_hosts):
        raise BadPushEndpoint("the push endpoint is not a known push service")
    return Endpoint(url, "https", name, 443, target, None)


# ---------------------------------------------------------------------------- its addresses
def system_resolver(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return [str(info[4][0]) for info in infos]


def addresses(endpoint: Endpoint, resolve: Resolver) -> list[IPAddress]:
    """The addresses to connect to, every one of them public (blocking: DNS). BadPushEndpoint
    when the name resolves to any inner address (the endpoint is refused, or dropped);
    Unresolvable when it does not resolve now."""
    if endpoint.address is not None:
        return [endpoint.address]
    try:
        found = list(resolve(endpoint.host, endpoint.port))
    except (OSError, UnicodeError) as exc:
        raise Unresolvable(type(exc).__name__) from exc
    out: list[IPAddress] = []
    for text in found:
        try:
            addr = ipaddress.ip_address(text)
        except ValueError as exc:
            raise BadPushEndpoint("the push endpoint's host resolves to no address") from exc
        if endpoint.loopback_test:
            if not addr.is_loopback:
                raise BadPushEndpoint("the test push service must be on loopback")
        elif not is_public(addr):
            raise BadPushEndpoint("the push endpoint's host resolves to an inner address")
        if addr not in out:
            out.append(addr)
    if not out:
        raise Unresolvable("no address")
    return out

"""One push message on the wire: an HTTP/1.1 POST to an address already checked.

The connection goes to one of the addresses ``app.push.endpoint.addresses`` judged public (never
to the name again: a second look-up could answer otherwise); TLS still verifies the certificate
for the endpoint's host name. Only the status line and headers of the reply are read, at most
``max_reply`` bytes of them (a longer head is a failure, a body is never read), redirects are
never followed (a 3xx is a refusal like any other), and the caller bounds the whole exchange by
one deadline (``asyncio.timeout``): a push service that answers slowly, a byte at a time or
never costs one send slot for that long, and nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Final

from app.push.endpoint import Endpoint, IPAddress

# Opens a connection to (address, port) for an endpoint: TLS for https (the tests hand in their
# own to watch where it connects).
Connector = Callable[
    [IPAddress, Endpoint, int], Awaitable[tuple[asyncio.StreamReader, asyncio.StreamWriter]]
]
TLS: Final = ssl.create_default_context()


class BadReply(Exception):
    """No usable status line: cut short, too long, or not HTTP."""


async def open_stream(
    address: IPAddress, endpoint: Endpoint, max_reply: int
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    if endpoint.scheme == "https":
        return await asyncio.open_connection(
            str(address),
            endpoint.port,
            ssl=TLS,
            server_hostname=endpoint.host,
            limit=max_reply,
        )
    return await asyncio.open_connection(str(address), endpoint.port, limit=max_reply)


def request_head(endpoint: Endpoint, headers: Mapping[str, str], length: int) -> bytes:
    lines = [
        f"POST {endpoint.target} HTTP/1.1",
        f"Host: {endpoint.authority}",
        f"Content-Length: {length}",
        "Connection: close",
        *(f"{name}: {value}" for name, value in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii")


def status_of(head: bytes) -> int:
    line = head.split(b"\r\n", 1)[0]
    parts = line.split(b" ", 2)
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit():
        raise BadReply("not an HTTP/1.x status line")
    status = int(parts[1])
    if not 100 <= status <= 599:
        raise BadReply("no such status")
    return status


async def post(
    endpoint: Endpoint,
    addresses: Sequence[IPAddress],
    headers: Mapping[str, str],
    body: bytes,
    max_reply: int,
    connect: Connector = open_stream,
) -> int:
    """POST ``body`` to the first of ``addresses`` that takes the connection; the reply's status.
    OSError when none connects, BadReply for a reply that is no HTTP status. The caller sets the
    deadline."""
    last: OSError | None = None
    for address in addresses:
        try:
            reader, writer = await connect(address, endpoint, max_reply)
        except OSError as exc:
            last = exc
            continue
        try:
            writer.write(request_head(endpoint, headers, len(body)) + body)
            await writer.drain()
            # Final replies only: a "100 Continue" or other 1xx is skipped, within the same cap.
            read = 0
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except asyncio.LimitOverrunError as exc:
                    raise BadReply(f"a reply head over {max_reply} bytes") from exc
                except asyncio.IncompleteReadError as exc:
                    raise BadReply("the reply was cut short") from exc
                read += len(head)
                if read > max_reply:
                    raise BadReply(f"reply heads over {max_reply} bytes")
                status = status_of(head)
                if status >= 200:
                    return status
        finally:
            writer.transport.abort()  # no TLS goodbye to wait for
            with contextlib.suppress(Exception):
                await writer.wait_closed()
    raise last or OSError("no address to connect to")

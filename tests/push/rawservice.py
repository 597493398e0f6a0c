"""A hostile or odd "push service" on loopback for the tests: it answers fixed bytes, drips them
one at a time, or takes the connection and never answers. It records every request head and
how many connections it holds at once."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class RawService:
    port: int
    mode: str = "answer"  # answer | drip | blackhole
    reply: bytes = b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n"
    heads: list[bytes] = field(default_factory=list)
    connections: int = 0
    open_now: int = 0
    most_open: int = 0
    cond: threading.Condition = field(default_factory=threading.Condition)
    stopping: threading.Event = field(default_factory=threading.Event)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_for_open(self, n: int, timeout: float = 60.0) -> None:
        """Until ``n`` connections are held at once (a safety bound, not a measurement)."""
        with self.cond:
            assert self.cond.wait_for(lambda: self.open_now >= n, timeout), self.open_now

    def serve(self, conn: socket.socket) -> None:
        with self.cond:
            self.connections += 1
            self.open_now += 1
            self.most_open = max(self.most_open, self.open_now)
            self.cond.notify_all()
        try:
            if self.mode == "blackhole":
                self.stopping.wait()  # takes the connection, reads nothing, answers nothing
                return
            conn.settimeout(30)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            with self.cond:
                self.heads.append(data.split(b"\r\n\r\n", 1)[0])
            if self.mode == "drip":
                for byte in self.reply:  # one byte at a time, until the client gives up
                    if self.stopping.wait(0.05):
                        return
                    conn.sendall(bytes([byte]))
                self.stopping.wait()
                return
            conn.sendall(self.reply)
        except OSError:
            pass
        finally:
            with self.cond:
                self.open_now -= 1
                self.cond.notify_all()
            conn.close()


@contextmanager
def raw_service(mode: str = "answer", reply: bytes | None = None) -> Iterator[RawService]:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(256)
    service = RawService(listener.getsockname()[1], mode)
    if reply is not None:
        service.reply = reply

    def accept() -> None:
        while not service.stopping.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=service.serve, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        service.stopping.set()
        with contextlib.suppress(OSError):
            listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        listener.close()
        deadline = time.monotonic() + 10
        with service.cond:
            service.cond.wait_for(
                lambda: service.open_now == 0, max(0.0, deadline - time.monotonic())
            )

"""Hear the process being asked to stop (SIGINT: Ctrl+C; SIGTERM: ``kill``, a supervisor) before
the server's graceful shutdown begins waiting for the open responses to finish.

uvicorn runs the lifespan's shutdown only after every open response has ended (or its
``--timeout-graceful-shutdown`` ran out): a response that ends only when the lifespan says so (an
event stream) would hold the shutdown until that timeout, or forever without one. So the part
that owns such responses chains a callback in front of the server's own signal handler: the
callback runs on the event loop, and the server's handler runs as before.

Signal handlers belong to the main thread: elsewhere (an app in a test client's thread) nothing
is installed and ``chain`` returns ``None``.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable
from types import FrameType

EXIT_SIGNALS = (signal.SIGINT, signal.SIGTERM)

Handler = Callable[[int, FrameType | None], object]


class ExitHook:
    """The installed chain; ``remove`` puts back the handlers it found (if still its own)."""

    def __init__(self, callback: Callable[[], None], loop: asyncio.AbstractEventLoop) -> None:
        self.callback = callback
        self.loop = loop
        self.previous: dict[int, Handler] = {}

    def handle(self, sig: int, frame: FrameType | None) -> None:
        self.loop.call_soon_threadsafe(self.callback)
        self.previous[sig](sig, frame)

    def remove(self) -> None:
        for sig, previous in self.previous.items():
            if signal.getsignal(sig) == self.handle:
                signal.signal(sig, previous)
        self.previous.clear()


def chain(callback: Callable[[], None]) -> ExitHook | None:
    """Run ``callback`` on the running loop when SIGINT or SIGTERM arrives, then the handler that
    was there. Only a signal handled in Python is chained (a signal left to the system's default
    keeps it). ``None`` outside the main thread (no signal handlers can be set there)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    hook = ExitHook(callback, asyncio.get_running_loop())
    for sig in EXIT_SIGNALS:
        previous = signal.getsignal(sig)
        if callable(previous):
            hook.previous[sig] = previous
            signal.signal(sig, hook.handle)
    return hook

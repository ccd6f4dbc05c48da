"""What a handler knows about its call: the deadline, cancellation, the transport, the trace."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Literal

from hookd_plugin.points import PointName

Transport = Literal["unary", "stream", "test"]
CancelReason = Literal["cancelled", "deadline"]


class Context:
    """One call's context. ``cancelled`` turns true when the daemon stops waiting for the call
    (a cancel frame, the unary call cancelled, the stream ended) or its deadline passes; an async
    handler is also cancelled (``asyncio.CancelledError`` at its next await). Sync handlers run in
    a worker thread and should check ``cancelled`` or ``time_remaining()`` in long loops."""

    def __init__(
        self,
        point: PointName,
        *,
        plugin_name: str,
        deadline: float | None,
        transport: Transport,
        traceparent: str = "",
        metadata: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.point: PointName = point
        #: The name the daemon's config gives the plugin (the manifest's name until Describe).
        self.plugin_name = plugin_name
        #: When the call's deadline passes, on the ``time.monotonic()`` clock; None for none.
        self.deadline = deadline
        self.transport: Transport = transport
        #: The W3C trace context of the daemon's span for this call; "" when tracing is off.
        self.traceparent = traceparent
        self.metadata = metadata
        self._reason: CancelReason | None = None
        self._event = threading.Event()
        self._callbacks: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def time_remaining(self) -> float | None:
        """Seconds left before the deadline (0 once it passed); None when there is no deadline."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    @property
    def cancelled(self) -> bool:
        return self._event.is_set() or self.time_remaining() == 0.0

    @property
    def cancel_reason(self) -> CancelReason | None:
        """"cancelled" (the daemon stopped waiting) or "deadline"; None while the call is live."""
        if self._reason is None and self.time_remaining() == 0.0:
            return "deadline"
        return self._reason

    def wait(self, timeout: float | None = None) -> bool:
        """Blocks (a sync handler) until the call is over or ``timeout`` seconds passed. True
        when the call is over (cancelled, or its deadline passed)."""
        end = None if timeout is None else time.monotonic() + timeout
        while not self.cancelled:
            left = [t for t in (self.time_remaining(),
                                None if end is None else end - time.monotonic()) if t is not None]
            if left and min(left) <= 0:
                break
            self._event.wait(min(left) if left else None)
        return self.cancelled

    async def until_cancelled(self) -> CancelReason:
        """Returns once the call is over: for an async handler that waits on something of its own
        (the handler itself is also cancelled then, so this is for tasks it spawned)."""
        loop = asyncio.get_running_loop()
        over = asyncio.Event()

        def wake() -> None:
            loop.call_soon_threadsafe(over.set)

        self._on_cancel(wake)
        try:
            await asyncio.wait_for(over.wait(), self.time_remaining())
        except TimeoutError:
            pass  # the deadline passed with nobody to cancel the call (the test harness)
        return self.cancel_reason or "deadline"

    def _cancel(self, reason: CancelReason) -> None:
        """Marks the call over and runs the cancel callbacks once (thread-safe)."""
        with self._lock:
            if self._reason is not None:
                return
            self._reason = reason
            callbacks, self._callbacks = self._callbacks, []
        self._event.set()
        for callback in callbacks:
            callback()

    def _on_cancel(self, callback: Callable[[], None]) -> None:
        with self._lock:
            if self._reason is None:
                self._callbacks.append(callback)
                return
        callback()

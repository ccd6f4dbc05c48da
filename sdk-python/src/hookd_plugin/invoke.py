"""Runs one call's handler, sync (in a worker thread) or async (on the loop), under its deadline
and cancellation, and turns its answer or its failure into what goes on the wire."""

from __future__ import annotations

import asyncio
import contextvars
import functools
from concurrent.futures import Executor
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import cast

import grpc

from hookd_plugin.context import Context
from hookd_plugin.encode import InvalidAnswer, encode
from hookd_plugin.plugin import Registered


#: How close to its deadline a cancelled unary call counts as having missed it.
_DEADLINE_SLACK_S = 0.1


@dataclass(frozen=True)
class RawAnswer:
    """Bytes sent as the response exactly as given, for testing a daemon against faulty answers
    (``hookd_plugin.testing``). On the Attach stream they go in the reply field of ``point_value``
    (a hookd.v1.Point), by default the call's own point."""

    data: bytes
    point_value: int | None = None


class CallFailed(Exception):
    """The call ends with this gRPC status (a CallError on the stream)."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class CallCancelled(Exception):
    """The daemon stopped waiting for the call: it is not answered."""


async def invoke(
    entry: Registered, event: object, ctx: Context, executor: Executor
) -> bytes | RawAnswer:
    """The serialized response of the call; raises CallFailed or CallCancelled."""
    loop = asyncio.get_running_loop()
    where = f"plugin {ctx.plugin_name} at {entry.spec.name}"
    if entry.is_async:
        coroutine = cast(Coroutine[object, object, object], entry.handler(event, ctx))
        pending: asyncio.Future[object] = asyncio.ensure_future(coroutine)
    else:
        run = functools.partial(contextvars.copy_context().run, entry.handler, event, ctx)
        pending = asyncio.wrap_future(executor.submit(run), loop=loop)

    def cancel_pending() -> None:
        loop.call_soon_threadsafe(pending.cancel)

    ctx._on_cancel(cancel_pending)
    remaining = ctx.time_remaining()
    timer = None if remaining is None else loop.call_later(remaining, ctx._cancel, "deadline")
    try:
        # Shielded: when the RPC itself is cancelled, the context says why before the handler's
        # task is cancelled (through the callback above).
        answer = await asyncio.shield(pending)
        if asyncio.iscoroutine(answer) or isinstance(answer, asyncio.Future):
            answer = await answer  # a sync callable that returned an awaitable
    except asyncio.CancelledError:
        if ctx.cancel_reason == "deadline":
            raise CallFailed(grpc.StatusCode.DEADLINE_EXCEEDED, f"{where}: the deadline passed")
        if ctx.cancel_reason is None:  # the RPC itself was cancelled
            # gRPC's own deadline timer ends a unary call a hair before ours would fire.
            remaining = ctx.time_remaining()
            expired = remaining is not None and remaining < _DEADLINE_SLACK_S
            ctx._cancel("deadline" if expired else "cancelled")
            raise
        raise CallCancelled() from None
    except Exception as error:  # the handler failed: the daemon gets a status, the plugin lives
        if ctx.cancel_reason == "deadline":  # e.g. it gave up at its deadline
            raise CallFailed(grpc.StatusCode.DEADLINE_EXCEEDED,
                             f"{where}: the deadline passed ({error})") from error
        raise CallFailed(
            grpc.StatusCode.UNKNOWN, f"{where} raised {type(error).__name__}: {error}"
        ) from error
    finally:
        if timer is not None:
            timer.cancel()
    if ctx.cancel_reason == "cancelled":
        raise CallCancelled()
    if ctx.cancel_reason == "deadline":  # answered, but too late to count
        raise CallFailed(grpc.StatusCode.DEADLINE_EXCEEDED, f"{where}: the deadline passed")
    if isinstance(answer, RawAnswer):
        return answer
    try:
        return encode(entry.spec, answer, ctx.plugin_name).SerializeToString()
    except (InvalidAnswer, ValueError, TypeError) as error:
        raise CallFailed(grpc.StatusCode.UNKNOWN, f"{where}: {error}") from error

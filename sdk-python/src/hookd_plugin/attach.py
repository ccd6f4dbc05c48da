"""HookPlugin.Attach served by the same handlers as the unary RPCs (docs/streams.md): each call
frame runs its point's handler at once, so calls run concurrently and are answered as they finish,
in any order. A cancel frame, the frame's deadline or the stream ending cancels the handler's
context; a call the daemon cancelled is not answered. Failures are answered with the CallError of
the status the unary RPC would have ended with."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

import grpc

from hookd_plugin._gen.hookd.v1 import plugin_pb2 as plugin_pb
from hookd_plugin._gen.hookd.v1 import types_pb2 as types
from hookd_plugin.context import Context
from hookd_plugin.invoke import CallCancelled, CallFailed, RawAnswer, invoke
from hookd_plugin.points import ATTACH_FIELD_OFFSET, BY_ATTACH_FIELD

if TYPE_CHECKING:
    from hookd_plugin.service import PluginService

T = TypeVar("T")
AttachContext = grpc.aio.ServicerContext[plugin_pb.AttachRequest, bytes]
AttachHandler = Callable[[AsyncIterator[plugin_pb.AttachRequest], AttachContext], Awaitable[None]]


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def response_frame(call_id: int, field_number: int, response: bytes) -> bytes:
    """An AttachResponse with ``response`` (already encoded) in reply field ``field_number``."""
    return (
        _varint(1 << 3) + _varint(call_id)
        + _varint(field_number << 3 | 2) + _varint(len(response)) + response
    )


def error_frame(call_id: int, code: grpc.StatusCode, message: str) -> bytes:
    error = types.CallError(code=code.value[0], message=message)
    return plugin_pb.AttachResponse(call_id=call_id, error=error).SerializeToString()


def _forget(running: dict[int, T], call_id: int) -> Callable[[object], None]:
    def forget(_: object) -> None:
        running.pop(call_id, None)

    return forget


def attach_handler(service: PluginService) -> AttachHandler:
    async def attach(requests: AsyncIterator[plugin_pb.AttachRequest], context: AttachContext) -> None:
        lock = asyncio.Lock()
        running: dict[int, tuple[asyncio.Task[None], Context]] = {}
        window = 0

        async def send(frame: bytes) -> None:
            async with lock:  # one write at a time on the stream
                try:
                    await context.write(frame)
                except Exception:  # noqa: BLE001 - the stream is gone: the daemon failed the call
                    pass

        async def run(call: plugin_pb.AttachCall, ctx: Context, field: str) -> None:
            spec = BY_ATTACH_FIELD[field]
            entry = service.plugin.handlers.get(spec.name)
            if entry is None:
                await send(error_frame(call.call_id, grpc.StatusCode.UNIMPLEMENTED,
                                       f"the plugin does not handle {spec.name}"))
                return
            try:
                answer = await invoke(entry, getattr(getattr(call, field), "event"), ctx,
                                      service.executor)
            except CallCancelled:
                return
            except CallFailed as failed:
                await send(error_frame(call.call_id, failed.code, failed.message))
                return
            if isinstance(answer, RawAnswer):
                point = spec.value if answer.point_value is None else answer.point_value
                await send(response_frame(call.call_id, ATTACH_FIELD_OFFSET + point, answer.data))
            else:
                await send(response_frame(call.call_id, ATTACH_FIELD_OFFSET + spec.value, answer))

        opened = False
        try:
            async for frame in requests:
                kind = frame.WhichOneof("frame")
                if kind == "open":
                    opened = True
                    window = frame.open.window
                    if frame.open.plugin_name:
                        service.configured_name = frame.open.plugin_name
                elif kind == "cancel":
                    found = running.get(frame.cancel.call_id)
                    if found is not None:
                        found[1]._cancel("cancelled")
                elif kind == "call":
                    call = frame.call
                    if not opened:
                        await context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                                            "frame: the first frame of an Attach stream must be open")
                    field = call.WhichOneof("request")
                    if call.call_id in running:
                        await send(error_frame(call.call_id, grpc.StatusCode.INVALID_ARGUMENT,
                                               f"call.call_id: {call.call_id} is already in flight"))
                    elif field is None or field not in BY_ATTACH_FIELD:
                        await send(error_frame(call.call_id, grpc.StatusCode.UNIMPLEMENTED,
                                               "call.request: a point this plugin does not know"))
                    elif window and len(running) >= window:
                        await send(error_frame(call.call_id, grpc.StatusCode.RESOURCE_EXHAUSTED,
                                               f"more than the window ({window}) in flight"))
                    else:
                        ctx = Context(
                            BY_ATTACH_FIELD[field].name,
                            plugin_name=service.configured_name,
                            deadline=time.monotonic() + call.deadline_ms / 1000
                            if call.deadline_ms else None,
                            transport="stream",
                            traceparent=call.traceparent,
                        )
                        task = asyncio.create_task(run(call, ctx, field))
                        running[call.call_id] = (task, ctx)
                        task.add_done_callback(_forget(running, call.call_id))
                # a frame of a kind this SDK does not know (a newer daemon's) is ignored
            # The daemon half-closed: answer what is still running, then end the stream.
            await asyncio.gather(*(task for task, _ in list(running.values())),
                                 return_exceptions=True)
        finally:
            for _, ctx in list(running.values()):
                ctx._cancel("cancelled")

    return attach

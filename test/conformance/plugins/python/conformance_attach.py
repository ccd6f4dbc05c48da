"""HookPlugin.Attach for the raw conformance plugin (conformance_plugin.py), with grpcio alone.

Owns the stream's side of docs/streams.md: the open frame, one thread per call frame running the
same point method as the unary RPC, answers written by call id in whatever order they finish
(the threads put them on a queue the response generator drains), cancel frames and the frame's
deadline_ms handed to the method as its context, and the stream's end. Answers are hand-encoded
AttachResponse frames, so raw bytes (garbage) and another point's response (wrong-variant) reach
the daemon exactly as the unary RPC would carry them. The stream-only scenarios live here too:
answer-twice sends a second answer for the same call id, end-stream ends the stream.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Iterator
from typing import Callable, NoReturn, Protocol, Union

import grpc
from google.protobuf.message import Message as ProtoMessage

from hookd_plugin.stubs import plugin_pb2, points_pb2, types_pb2

Answer = Union[ProtoMessage, bytes]

ATTACH_FIELD_OFFSET = 10
# The reply field of each point's response message, from the AttachResponse oneof itself.
REPLY_FIELDS: dict[str, int] = {
    field.message_type.full_name: field.number
    for field in plugin_pb2.AttachResponse.DESCRIPTOR.oneofs_by_name["reply"].fields
    if field.number > ATTACH_FIELD_OFFSET and field.message_type is not None
}

class CallAborted(Exception):
    """A point method ended its call with a status, as context.abort does on unary."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self.code = code
        self.details = details


class StreamCall:
    """One call frame's context: what a point method uses of grpc.ServicerContext on unary. It is
    over once the daemon cancels it (cancel frame) or the stream ends."""

    def __init__(self, call_id: int, deadline_ms: int) -> None:
        self.call_id = call_id
        self._deadline = time.monotonic() + deadline_ms / 1000 if deadline_ms else None
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] | None = []  # None once over

    def time_remaining(self) -> float | None:
        return None if self._deadline is None else max(0.0, self._deadline - time.monotonic())

    def add_callback(self, callback: Callable[[], None]) -> bool:
        """As grpc's: False (and never called) when the call is already over."""
        with self._lock:
            if self._callbacks is None:
                return False
            self._callbacks.append(callback)
            return True

    def abort(self, code: grpc.StatusCode, details: str) -> NoReturn:
        raise CallAborted(code, details)

    @property
    def cancelled(self) -> bool:
        return self._callbacks is None

    def cancel(self) -> None:
        with self._lock:
            callbacks, self._callbacks = self._callbacks, None
        for callback in callbacks or []:
            callback()


class Plugin(Protocol):
    """What the stream needs of conformance_plugin.Conformance."""

    def call(self, point: int, request: ProtoMessage, context: StreamCall) -> Answer: ...

    def answered(self, point: int, request: ProtoMessage) -> None: ...

    def contract_scenario(self, point: int, request: ProtoMessage) -> tuple[str, str]: ...

    def wait_for_hang(self, pair: str, context: StreamCall) -> bool: ...


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        if not value:
            out.append(low)
            return bytes(out)
        out.append(low | 0x80)


def response_frame(call_id: int, field: int, response: bytes) -> bytes:
    """AttachResponse{call_id, <field>: response}, by hand: the response bytes go in unparsed."""
    return _varint(1 << 3) + _varint(call_id) + _varint(field << 3 | 2) + _varint(len(response)) + response


def error_frame(call_id: int, code: grpc.StatusCode, message: str) -> bytes:
    error = types_pb2.CallError(code=code.value[0], message=message)
    return plugin_pb2.AttachResponse(call_id=call_id, error=error).SerializeToString()


def _answer_frame(call_id: int, point: int, answer: Answer) -> bytes:
    """Raw bytes answer in the call's own point's field; a message in the field of the point whose
    response it is (wrong-variant: another point's)."""
    if isinstance(answer, bytes):
        return response_frame(call_id, ATTACH_FIELD_OFFSET + point, answer)
    return response_frame(call_id, REPLY_FIELDS[answer.DESCRIPTOR.full_name], answer.SerializeToString())


_END = object()


class AttachSession:
    """One Attach stream. `answers` is the response iterator grpcio sends from; the requests are
    read on a thread of their own, so answers go out while frames keep arriving."""

    def __init__(self, plugin: Plugin, context: grpc.ServicerContext) -> None:
        self._plugin = plugin
        self._context = context
        self._out: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._running: dict[int, StreamCall] = {}
        self._opened = False
        self._half_closed = False
        self._over = False

    def answers(self, requests: Iterator[plugin_pb2.AttachRequest]) -> Iterator[bytes]:
        # The daemon cancelling the stream (or its connection dropping) ends every call on it.
        self._context.add_callback(lambda: self._end())
        threading.Thread(target=self._read, args=(requests,), daemon=True).start()
        while True:
            item = self._out.get()
            if item is _END:
                return  # the generator's end is the stream's end: status OK
            if isinstance(item, CallAborted):
                self._context.abort(item.code, item.details)
            assert isinstance(item, bytes)
            yield item

    def _read(self, requests: Iterator[plugin_pb2.AttachRequest]) -> None:
        try:
            for frame in requests:
                kind = frame.WhichOneof("frame")
                if kind == "open":
                    self._opened = True
                elif kind == "cancel":
                    with self._lock:
                        found = self._running.get(frame.cancel.call_id)
                    if found is not None:
                        found.cancel()
                elif kind == "call":
                    self._start(frame.call)
                # a frame of a kind this plugin does not know (a newer daemon's) is ignored
        except grpc.RpcError:
            pass  # the stream was cancelled: _end runs from the context's callback
        with self._lock:
            self._half_closed = True
            idle = not self._running
        if idle:  # the daemon half-closed: every call is answered, end the stream
            self._end()

    def _start(self, call: plugin_pb2.AttachCall) -> None:
        if not self._opened:
            self._out.put(CallAborted(grpc.StatusCode.INVALID_ARGUMENT, "frame: the first frame of an Attach stream must be open"))
            return
        field = call.WhichOneof("request")
        if field is None:
            self._out.put(error_frame(call.call_id, grpc.StatusCode.INVALID_ARGUMENT, "call.request: required"))
            return
        point = call.DESCRIPTOR.fields_by_name[field].number - ATTACH_FIELD_OFFSET
        context = StreamCall(call.call_id, call.deadline_ms)
        with self._lock:
            duplicate = call.call_id in self._running
            if not duplicate:
                self._running[call.call_id] = context
        if duplicate:
            self._out.put(error_frame(call.call_id, grpc.StatusCode.INVALID_ARGUMENT, f"call.call_id: {call.call_id} is already in flight"))
            return
        request = getattr(call, field)
        threading.Thread(target=self._run, args=(context, point, request), daemon=True).start()

    def _run(self, context: StreamCall, point: int, request: ProtoMessage) -> None:
        try:
            self._answer(context, point, request)
        finally:
            with self._lock:
                self._running.pop(context.call_id, None)
                idle = self._half_closed and not self._running
            if idle:
                self._end()

    def _answer(self, context: StreamCall, point: int, request: ProtoMessage) -> None:
        scenario, pair = self._plugin.contract_scenario(point, request)
        try:
            if scenario == "end-stream":
                # Only once the pair's hang call is in flight, so ending the stream fails both.
                if not self._plugin.wait_for_hang(pair, context):
                    context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, f"the hang call of pair {pair!r} never came")
                self._end()
                return
            answer = self._plugin.call(point, request, context)
        except CallAborted as aborted:
            self._reply(context, error_frame(context.call_id, aborted.code, aborted.details))
            return
        except Exception as error:  # noqa: BLE001 - a bug of the plugin: UNKNOWN, as grpcio's unary would
            sys.stderr.write(f"Attach call {context.call_id} failed: {error!r}\n")
            self._reply(context, error_frame(context.call_id, grpc.StatusCode.UNKNOWN, f"{type(error).__name__}: {error}"))
            return
        self._reply(context, _answer_frame(context.call_id, point, answer))
        self._plugin.answered(point, request)
        if scenario == "answer-twice":  # a protocol mistake on purpose: the daemon must refuse it
            again = plugin_pb2.ApproveResponse(decision=points_pb2.ApprovalDecision(approve=points_pb2.Approve()))
            self._out.put(_answer_frame(context.call_id, point, again))

    def _reply(self, context: StreamCall, frame: bytes) -> None:
        """A call the daemon cancelled is not answered (docs/streams.md)."""
        if not context.cancelled:
            self._out.put(frame)

    def _end(self) -> None:
        """Ends the stream once: the calls still on it are over, the generator returns."""
        with self._lock:
            if self._over:
                return
            self._over = True
            running = list(self._running.values())
        for call in running:
            call.cancel()
        self._out.put(_END)


def attach_handler(plugin: Plugin) -> grpc.RpcMethodHandler:
    """HookPlugin.Attach: each stream a session of its own; the frames going out are bytes."""

    def attach(requests: Iterator[plugin_pb2.AttachRequest], context: grpc.ServicerContext) -> Iterator[bytes]:
        return AttachSession(plugin, context).answers(requests)

    return grpc.stream_stream_rpc_method_handler(
        attach, request_deserializer=plugin_pb2.AttachRequest.FromString, response_serializer=lambda frame: frame
    )

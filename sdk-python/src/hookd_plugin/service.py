"""The HookPlugin service over grpc.aio: Describe, the unary RPC of every handled point, and
Attach (attach.py). Points without a handler are not registered, so gRPC answers UNIMPLEMENTED."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor

import grpc
from google.protobuf.message import Message as ProtoMessage

from hookd_plugin._gen.hookd.v1 import plugin_pb2 as plugin_pb
from hookd_plugin.attach import attach_handler
from hookd_plugin.context import Context
from hookd_plugin.invoke import CallCancelled, CallFailed, RawAnswer, invoke
from hookd_plugin.plugin import Plugin, Registered

SERVICE = "hookd.v1.HookPlugin"
Unary = Callable[[ProtoMessage, grpc.aio.ServicerContext[ProtoMessage, bytes]], Awaitable[bytes]]


def _identity(data: object) -> bytes:
    """Responses are encoded by the SDK (and raw test answers pass as they are)."""
    assert isinstance(data, bytes)
    return data


class PluginService:
    """Serves one Plugin; remembers the name the daemon's config gives it (Describe, Attach open)."""

    def __init__(self, plugin: Plugin, executor: Executor) -> None:
        self.plugin = plugin
        self.manifest = plugin.manifest()  # refuses an empty plugin before anything listens
        self.executor = executor
        self.configured_name = plugin.name

    def generic_handler(self) -> grpc.GenericRpcHandler:
        methods: dict[str, grpc.RpcMethodHandler[object, object]] = {
            "Describe": grpc.unary_unary_rpc_method_handler(
                self._describe,
                request_deserializer=plugin_pb.DescribeRequest.FromString,
                response_serializer=_identity,
            ),
            "Attach": grpc.stream_stream_rpc_method_handler(
                attach_handler(self),
                request_deserializer=plugin_pb.AttachRequest.FromString,
                response_serializer=_identity,
            ),
        }
        for entry in self.plugin.handlers.values():
            methods[entry.spec.rpc] = grpc.unary_unary_rpc_method_handler(
                self._unary(entry),
                request_deserializer=entry.spec.request.FromString,
                response_serializer=_identity,
            )
        return grpc.method_handlers_generic_handler(SERVICE, methods)

    async def _describe(
        self, request: plugin_pb.DescribeRequest, context: grpc.aio.ServicerContext[object, bytes]
    ) -> bytes:
        if request.plugin_name:
            self.configured_name = request.plugin_name
        return plugin_pb.DescribeResponse(manifest=self.manifest).SerializeToString()

    def _unary(self, entry: Registered) -> Unary:
        async def call(
            request: ProtoMessage, context: grpc.aio.ServicerContext[ProtoMessage, bytes]
        ) -> bytes:
            remaining = context.time_remaining()
            metadata = tuple((str(k), str(v)) for k, v in (context.invocation_metadata() or ()))
            ctx = Context(
                entry.spec.name,
                plugin_name=self.configured_name,
                deadline=None if remaining is None else time.monotonic() + remaining,
                transport="unary",
                traceparent=next((v for k, v in metadata if k == "traceparent"), ""),
                metadata=metadata,
            )
            try:
                answer = await invoke(entry, getattr(request, "event"), ctx, self.executor)
            except CallFailed as failed:
                await context.abort(failed.code, failed.message)
            except CallCancelled:
                await context.abort(grpc.StatusCode.CANCELLED, "the call was cancelled")
            return answer.data if isinstance(answer, RawAnswer) else answer

        return call

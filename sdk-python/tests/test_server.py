"""The SDK's server over real gRPC on a Unix socket: health, Describe, unary calls, deadlines and
cancellation as the handler sees them, and failures as statuses."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from hookd_plugin import Context, Plugin, arguments, deny, passes, pb
from hookd_plugin.decisions import PostToolAnswer, PreToolAnswer
from hookd_plugin.testing import decision_of, events

P = pb.plugin
HANG_GUARD_S = 60  # waits for events that happen at once; only a broken SDK reaches this


def deny_rm() -> tuple[Plugin, dict[str, Any]]:
    plugin = Plugin("deny-rm")
    seen: dict[str, Any] = {"done": threading.Event(), "started": threading.Event()}

    @plugin.pre_tool(tools=["Bash"])
    def pre(event: pb.PreToolEvent, ctx: Context) -> PreToolAnswer:
        command = arguments(event.call).get("command")
        seen.update(plugin_name=ctx.plugin_name, transport=ctx.transport)
        if command == "raise":
            raise RuntimeError("boom")
        if command == "hold":
            seen["remaining"] = ctx.time_remaining()
            ctx.wait()
            seen["reason"] = ctx.cancel_reason
            seen["done"].set()
            return passes()
        return deny("no rm") if command == "rm" else passes()

    @plugin.post_tool
    async def post(event: pb.PostToolEvent, ctx: Context) -> PostToolAnswer:
        seen["started"].set()
        try:
            await asyncio.sleep(HANG_GUARD_S)
        except asyncio.CancelledError:
            seen["async_reason"] = ctx.cancel_reason
            seen["done"].set()
            raise
        return passes()

    return plugin, seen


def pre_tool(command: str) -> P.PreToolRequest:
    return P.PreToolRequest(event=events.pre_tool("Bash", {"command": command}))


def test_health_serves_the_names_the_daemon_checks(serve_plugin: Any) -> None:
    served = serve_plugin(deny_rm()[0])
    health = health_pb2_grpc.HealthStub(served.channel)
    for name in ("hookd.v1.HookPlugin", ""):
        status = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=10).status
        assert status == health_pb2.HealthCheckResponse.SERVING
    with pytest.raises(grpc.RpcError) as missing:
        health.Check(health_pb2.HealthCheckRequest(service="other"), timeout=10)
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND


def test_describe_and_unary_decisions(serve_plugin: Any) -> None:
    plugin, seen = deny_rm()
    served = serve_plugin(plugin)
    manifest = served.unary("Describe", P.DescribeRequest(plugin_name="configured"),
                            P.DescribeResponse, timeout=10).manifest
    assert manifest == plugin.manifest()
    assert decision_of(served.unary("PreTool", pre_tool("rm"), P.PreToolResponse, timeout=10)) \
        == deny("no rm")
    answer = served.unary("PreTool", pre_tool("ls"), P.PreToolResponse, timeout=10)
    assert answer.decision.WhichOneof("decision") == "pass"
    assert (seen["plugin_name"], seen["transport"]) == ("configured", "unary")


def test_failures_are_statuses_and_the_plugin_lives_on(serve_plugin: Any) -> None:
    served = serve_plugin(deny_rm()[0])
    with pytest.raises(grpc.RpcError) as raised:
        served.unary("PreTool", pre_tool("raise"), P.PreToolResponse, timeout=10)
    assert raised.value.code() == grpc.StatusCode.UNKNOWN
    assert "plugin deny-rm at pre-tool raised RuntimeError: boom" in str(raised.value.details())
    with pytest.raises(grpc.RpcError) as unhandled:
        served.unary("PreStep", P.PreStepRequest(), P.PreStepResponse, timeout=10)
    assert unhandled.value.code() == grpc.StatusCode.UNIMPLEMENTED
    assert decision_of(served.unary("PreTool", pre_tool("rm"), P.PreToolResponse, timeout=10)) \
        == deny("no rm")


def test_an_invalid_answer_is_an_error_status(serve_plugin: Any) -> None:
    plugin = Plugin("wrong")
    plugin.pre_tool(lambda event, ctx: "allow")  # type: ignore[arg-type,return-value]
    served = serve_plugin(plugin)
    with pytest.raises(grpc.RpcError) as raised:
        served.unary("PreTool", pre_tool("x"), P.PreToolResponse, timeout=10)
    assert raised.value.code() == grpc.StatusCode.UNKNOWN
    assert "pre-tool takes Pass, Allow, Deny, Ask; the handler answered str" in str(
        raised.value.details())


def test_a_sync_handler_sees_its_deadline_pass(serve_plugin: Any) -> None:
    plugin, seen = deny_rm()
    served = serve_plugin(plugin)
    with pytest.raises(grpc.RpcError) as raised:
        served.unary("PreTool", pre_tool("hold"), P.PreToolResponse, timeout=3)
    assert raised.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert seen["done"].wait(HANG_GUARD_S)
    assert seen["reason"] == "deadline"
    # gRPC rounds the deadline it sends up a little; the handler saw a positive, bounded one.
    assert 0 < seen["remaining"] <= 3.1


def test_an_async_handler_is_cancelled_with_its_call(serve_plugin: Any) -> None:
    plugin, seen = deny_rm()
    served = serve_plugin(plugin)
    rpc = served.channel.unary_unary("/hookd.v1.HookPlugin/PostTool",
                                     request_serializer=lambda m: m.SerializeToString(),
                                     response_deserializer=P.PostToolResponse.FromString)
    call = rpc.future(P.PostToolRequest(event=events.post_tool()), timeout=HANG_GUARD_S)
    assert seen["started"].wait(HANG_GUARD_S)
    assert call.cancel()
    assert seen["done"].wait(HANG_GUARD_S)
    assert seen["async_reason"] == "cancelled"

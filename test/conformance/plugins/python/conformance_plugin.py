"""conformance-python: the hookd conformance plugin, in Python with plain grpcio.

Every conformance plugin (TypeScript, Python, Go) behaves the same way, so one scenario table in
test/conformance/conformance.test.ts runs against each of them through a real daemon. The
scenario is read from the event:

- pre-tool and post-tool: the tool call's arguments JSON field "scenario";
- pre-step: the text of the first message (``inject…`` and ``reject…`` match by prefix).

Scenarios at every subscribed point:
    pass           answer Pass
    hang           never answer; wait until the call is cancelled (deadline or caller)
    crash          the process exits abruptly in the middle of the call (os._exit(1))
    garbage        answer bytes that do not parse: a varint where the decision message belongs
    wrong-variant  answer another point's response (pre-tool: a PostToolResponse; others: a
                   PreToolResponse)
pre-tool:  allow, deny, ask
post-tool: block, replace (content), value (canonical value), context (additional context),
           invalid (Accept with BOTH content and value_json: an invalid combination)
pre-step:  inject… (enter the same messages plus one context message), reject…

Anything else answers Pass. The manifest subscribes to pre-step, pre-tool and post-tool (every
tool), fail-closed unless $HOOKD_CONFORMANCE_FAILURE_POLICY says "fail-open"; the daemon's config
may override that per point. The service is registered through one generic handler whose
response serializer passes raw bytes through and serializes any message it is given, so the
faulty answers travel exactly as written. Health reports SERVING for "" and hookd.v1.HookPlugin.

Run: ``PYTHONPATH=hooks-examples/python python conformance_plugin.py`` with
$HOOKD_PLUGIN_SOCKET set (or ``--listen ADDRESS``).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from concurrent import futures
from typing import Callable, Union

import grpc
from google.protobuf.message import Message as ProtoMessage
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from hookd.v1 import plugin_pb2, points_pb2, types_pb2

LANG = "python"
NAME = f"conformance-{LANG}"
SERVICE = "hookd.v1.HookPlugin"
SOCKET_ENV = "HOOKD_PLUGIN_SOCKET"
POLICY_ENV = "HOOKD_CONFORMANCE_FAILURE_POLICY"
GRACE_SECONDS = 2.0

Answer = Union[ProtoMessage, bytes]


def _policy() -> int:
    value = os.environ.get(POLICY_ENV, "fail-closed")
    if value == "fail-open":
        return types_pb2.FAILURE_POLICY_FAIL_OPEN
    if value == "fail-closed":
        return types_pb2.FAILURE_POLICY_FAIL_CLOSED
    raise SystemExit(f"{NAME}: ${POLICY_ENV} must be fail-closed or fail-open, got {value!r}")


def _context_message() -> types_pb2.Message:
    return types_pb2.Message(
        role=types_pb2.ROLE_USER,
        content=[types_pb2.ContentBlock(text=f"conformance: context from {LANG}")],
        source=types_pb2.MessageSource(plugin=types_pb2.PluginSource(name=NAME)),
    )


def _garbage(point: int) -> bytes:
    """A varint (wire type 0) in the decision's field, which is a message (wire type 2)."""
    return bytes([(point << 3) | 0, 1])


def _hang(context: grpc.ServicerContext) -> None:
    """Blocks until the call is over (its deadline passed or the caller cancelled)."""
    over = threading.Event()
    if context.add_callback(over.set):
        over.wait()


def _crash() -> None:
    sys.stderr.write(f"{NAME} {os.getpid()}: crashing mid-call\n")
    sys.stderr.flush()
    os._exit(1)


def _check_deadline(context: grpc.ServicerContext) -> None:
    remaining = context.time_remaining()
    if remaining is not None and remaining <= 0:
        context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "the deadline passed before the answer")


def _scenario_of_call(call: types_pb2.ToolCall) -> str:
    try:
        arguments = json.loads(call.arguments_json)
    except ValueError:
        return ""
    scenario = arguments.get("scenario") if isinstance(arguments, dict) else None
    return scenario if isinstance(scenario, str) else ""


def _first_text(messages) -> str:  # type: ignore[no-untyped-def]
    if not messages:
        return ""
    return "\n".join(block.text for block in messages[0].content if block.WhichOneof("block") == "text")


def _pre_tool(decision: points_pb2.PreToolDecision) -> plugin_pb2.PreToolResponse:
    return plugin_pb2.PreToolResponse(decision=decision)


def _post_tool(decision: points_pb2.PostToolDecision) -> plugin_pb2.PostToolResponse:
    return plugin_pb2.PostToolResponse(decision=decision)


def _pre_step(decision: points_pb2.PreStepDecision) -> plugin_pb2.PreStepResponse:
    return plugin_pb2.PreStepResponse(decision=decision)


def _pass(decision_type):  # type: ignore[no-untyped-def]
    decision = decision_type()
    getattr(decision, "pass").SetInParent()  # `pass` is a Python keyword
    return decision


def _common(scenario: str, point: int, context: grpc.ServicerContext) -> Answer | None:
    """The fault scenarios every point shares; None when the scenario is point-specific."""
    if scenario == "hang":
        _hang(context)
        context.abort(grpc.StatusCode.CANCELLED, "the call ended before an answer")
    if scenario == "crash":
        _crash()
    if scenario == "garbage":
        return _garbage(point)
    if scenario == "wrong-variant":
        if point == types_pb2.POINT_PRE_TOOL:
            return plugin_pb2.PostToolResponse(
                decision=points_pb2.PostToolDecision(accept=points_pb2.Accept())
            )
        return plugin_pb2.PreToolResponse(decision=points_pb2.PreToolDecision(allow=points_pb2.Allow()))
    return None


class Conformance:
    """The HookPlugin methods; each returns a response message or raw bytes."""

    def __init__(self, failure_policy: int) -> None:
        self._failure_policy = failure_policy

    def Describe(self, request: plugin_pb2.DescribeRequest, context: grpc.ServicerContext) -> Answer:
        subscriptions = [
            plugin_pb2.Subscription(point=point, tools=[], failure_policy=self._failure_policy)
            for point in (types_pb2.POINT_PRE_STEP, types_pb2.POINT_PRE_TOOL, types_pb2.POINT_POST_TOOL)
        ]
        return plugin_pb2.DescribeResponse(
            manifest=plugin_pb2.PluginManifest(name=NAME, version="1.0.0", subscriptions=subscriptions)
        )

    def PreTool(self, request: plugin_pb2.PreToolRequest, context: grpc.ServicerContext) -> Answer:
        scenario = _scenario_of_call(request.event.call)
        common = _common(scenario, types_pb2.POINT_PRE_TOOL, context)
        if common is not None:
            return common
        _check_deadline(context)
        if scenario == "allow":
            return _pre_tool(points_pb2.PreToolDecision(allow=points_pb2.Allow()))
        if scenario == "deny":
            return _pre_tool(points_pb2.PreToolDecision(deny=points_pb2.Deny(reason=f"conformance: denied by {LANG}")))
        if scenario == "ask":
            return _pre_tool(points_pb2.PreToolDecision(ask=points_pb2.Ask(reason=f"conformance: asked by {LANG}")))
        return _pre_tool(_pass(points_pb2.PreToolDecision))

    def PostTool(self, request: plugin_pb2.PostToolRequest, context: grpc.ServicerContext) -> Answer:
        scenario = _scenario_of_call(request.event.call)
        common = _common(scenario, types_pb2.POINT_POST_TOOL, context)
        if common is not None:
            return common
        _check_deadline(context)
        replacement = points_pb2.ContentReplacement(
            blocks=[types_pb2.ContentBlock(text=f"conformance: replaced by {LANG}")]
        )
        value_json = json.dumps({"replacedBy": LANG})
        if scenario == "block":
            return _post_tool(points_pb2.PostToolDecision(block=points_pb2.Block(feedback=f"conformance: blocked by {LANG}")))
        if scenario == "replace":
            return _post_tool(points_pb2.PostToolDecision(accept=points_pb2.Accept(content=replacement)))
        if scenario == "value":
            return _post_tool(points_pb2.PostToolDecision(accept=points_pb2.Accept(value_json=value_json)))
        if scenario == "context":
            accept = points_pb2.Accept(additional_contexts=[_context_message()])
            return _post_tool(points_pb2.PostToolDecision(accept=accept))
        if scenario == "invalid":
            accept = points_pb2.Accept(content=replacement, value_json=value_json)
            return _post_tool(points_pb2.PostToolDecision(accept=accept))
        return _post_tool(_pass(points_pb2.PostToolDecision))

    def PreStep(self, request: plugin_pb2.PreStepRequest, context: grpc.ServicerContext) -> Answer:
        text = _first_text(request.event.messages)
        common = _common(text, types_pb2.POINT_PRE_STEP, context)
        if common is not None:
            return common
        _check_deadline(context)
        if text.startswith("inject"):
            messages = list(request.event.messages) + [_context_message()]
            return _pre_step(points_pb2.PreStepDecision(enter=points_pb2.Enter(messages=messages)))
        if text.startswith("reject"):
            return _pre_step(points_pb2.PreStepDecision(reject=points_pb2.Reject(reason=f"conformance: rejected by {LANG}")))
        return _pre_step(_pass(points_pb2.PreStepDecision))


def _serialize(answer: Answer) -> bytes:
    """Raw bytes go out as they are; any message (even another RPC's response) is serialized."""
    return answer if isinstance(answer, bytes) else answer.SerializeToString()


def _service(plugin: Conformance) -> grpc.GenericRpcHandler:
    methods: dict[str, tuple[Callable[..., Answer], Callable[[bytes], ProtoMessage]]] = {
        "Describe": (plugin.Describe, plugin_pb2.DescribeRequest.FromString),
        "PreStep": (plugin.PreStep, plugin_pb2.PreStepRequest.FromString),
        "PreTool": (plugin.PreTool, plugin_pb2.PreToolRequest.FromString),
        "PostTool": (plugin.PostTool, plugin_pb2.PostToolRequest.FromString),
    }
    return grpc.method_handlers_generic_handler(
        SERVICE,
        {
            name: grpc.unary_unary_rpc_method_handler(
                behaviour, request_deserializer=deserialize, response_serializer=_serialize
            )
            for name, (behaviour, deserialize) in methods.items()
        },
    )


def serve(address: str) -> None:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    server.add_generic_rpc_handlers((_service(Conformance(_policy())),))
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for service in ("", SERVICE):
        health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    server.add_insecure_port(address)

    stopping = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.set())
    server.start()
    sys.stderr.write(f"{NAME} {os.getpid()}: serving on {address}\n")
    sys.stderr.flush()
    stopping.wait()
    health_servicer.enter_graceful_shutdown()
    server.stop(GRACE_SECONDS).wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="conformance_plugin.py", description=__doc__.splitlines()[0])
    parser.add_argument("--listen", metavar="ADDRESS", help=f"unix:PATH or HOST:PORT (default: unix:${SOCKET_ENV})")
    args = parser.parse_args(argv)
    address = args.listen or (f"unix:{path}" if (path := os.environ.get(SOCKET_ENV)) else None)
    if address is None:
        parser.error(f"no address: pass --listen or set {SOCKET_ENV}")
    serve(address)
    return 0


if __name__ == "__main__":
    sys.exit(main())

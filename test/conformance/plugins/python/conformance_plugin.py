"""conformance-python: the hookd conformance plugin, in Python with plain grpcio.

Every conformance plugin (TypeScript, Python, Go) behaves the same way, so one scenario table in
test/conformance/suite.ts runs against each of them through a real daemon. The
scenario is read from the event:

- pre-tool, post-tool, rewrite and approval: the tool call's arguments JSON field "scenario";
- pre-step: the text of the first message (``inject…``, ``reject…``, ``redact…``, ``rewrite…``
  and ``forge…`` match by prefix);
- turn-stopping: the text of the last assistant message.

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
           forge-context (an additional context that claims the user as its source)
pre-step:  inject… (enter the same messages plus one context message), reject…,
           redact… (enter the batch with "SECRET-1234" in the first message redacted),
           rewrite… (enter the first message with its text replaced),
           forge… (enter the batch plus a message sourced to another plugin)
rewrite:   replace (new arguments), patch (an RFC 7386 merge patch), non-object (replace with a
           JSON array), patch-non-object (a patch whose result is a string), invalid-json
           (arguments_json that does not parse), big-int (replace with the arguments re-emitted
           plus one key: its integers must survive digit for digit)
approval:  approve, reject
turn-stopping: steer (steer with a message sourced to this plugin), forge-steer (steer with a
           message that claims the user as its source)
session-end, turn-end: record the event as JSON in $HOOKD_CONFORMANCE_RECORDS/<point>.<session
           id>.json (written before the answer, so it is there when the evaluation returns)
agent-event: subscribed with the matcher "Conformance*"; records the dialect, the event name and
           the payload's JSON text the same way

The stream contract (the rows suite.ts runs for every flavour served over Attach),
at approval, whose deadline the test makes long since these rows wait on steps of its own; a
call pairs with another through the arguments field "pair":
    slow           once the fast call of the same pair has been answered, answer
                   Reject("conformance: slow, answered after fast by <lang>"): two calls in
                   flight, answered in the reverse of the order they were sent
    fast           once the slow call of the same pair is in flight, answer
                   Reject("conformance: fast, answered before slow by <lang>")
    await-cancel   record the arrival as $HOOKD_CONFORMANCE_RECORDS/received.<session id>.json,
                   wait until the call is over, record why in cancel.<session id>.json
                   ("reason": "cancelled" when the daemon cancelled it, "deadline" when its
                   deadline passed) and answer nothing
    answer-twice   (this plugin only) answer Reject("conformance: first answer by <lang>"), then,
                   on the stream, answer the same call id again with Approve
    end-stream     (this plugin only) once the hang call of the same pair is in flight, end the
                   Attach stream without answering (unary: fail the call UNAVAILABLE)
The SDK plugins answer every call once and cannot end their stream, so the last two are this
plugin's alone (conformance_attach.py serves them on the stream).

Anything else answers Pass. The manifest subscribes to the points $HOOKD_CONFORMANCE_POINTS names
(comma-separated; every point this plugin serves when unset), every tool, fail-closed unless
$HOOKD_CONFORMANCE_FAILURE_POLICY says "fail-open"; the daemon's config may override that per
point. With $HOOKD_CONFORMANCE_UNREACHABLE set the process exits before it serves (the
unreachable-plugin rows). The service is registered through one generic handler whose
response serializer passes raw bytes through and serializes any message it is given, so the
faulty answers travel exactly as written. Health reports SERVING for "" and hookd.v1.HookPlugin.

Environment besides those:
    HOOKD_CONFORMANCE_TRANSPORT       "stream": serve HookPlugin.Attach too (conformance_attach.py)
                                      and ask for the stream in the manifest; unset or "unary":
                                      Attach answers UNIMPLEMENTED, so the daemon calls unary
    HOOKD_CONFORMANCE_NOT_SERVING_MS  health answers NOT_SERVING for this many milliseconds after
                                      the server starts listening, then SERVING (default 0), e.g.
                                      to hold off a daemon's re-admission of a restarted plugin
Any other value of either is refused with a message naming it.

Run: ``PYTHONPATH=sdk-python/src python conformance_plugin.py`` with
$HOOKD_PLUGIN_SOCKET set (a managed plugin), or ``--listen ADDRESS`` (unix:PATH or HOST:PORT;
e.g. a remote plugin killed and started again on the same address).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import signal
import sys
import threading
from concurrent import futures
from typing import Callable, NoReturn, Protocol, Union

import grpc
from google.protobuf.message import Message as ProtoMessage
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from hookd_plugin.stubs import plugin_pb2, points_pb2, types_pb2

import conformance_attach

LANG = "python"
NAME = f"conformance-{LANG}"
SERVICE = "hookd.v1.HookPlugin"
SOCKET_ENV = "HOOKD_PLUGIN_SOCKET"
POLICY_ENV = "HOOKD_CONFORMANCE_FAILURE_POLICY"
POINTS_ENV = "HOOKD_CONFORMANCE_POINTS"
RECORDS_ENV = "HOOKD_CONFORMANCE_RECORDS"
UNREACHABLE_ENV = "HOOKD_CONFORMANCE_UNREACHABLE"
TRANSPORT_ENV = "HOOKD_CONFORMANCE_TRANSPORT"
NOT_SERVING_ENV = "HOOKD_CONFORMANCE_NOT_SERVING_MS"
SECRET = "SECRET-1234"
GRACE_SECONDS = 2.0

Answer = Union[ProtoMessage, bytes]


class CallContext(Protocol):
    """What the point methods use of their call: a grpc.ServicerContext on unary, a
    conformance_attach.StreamCall on the stream."""

    def time_remaining(self) -> float | None: ...

    def add_callback(self, callback: Callable[[], None]) -> bool: ...

    def abort(self, code: grpc.StatusCode, details: str) -> NoReturn: ...


def _policy() -> int:
    value = os.environ.get(POLICY_ENV, "fail-closed")
    if value == "fail-open":
        return types_pb2.FAILURE_POLICY_FAIL_OPEN
    if value == "fail-closed":
        return types_pb2.FAILURE_POLICY_FAIL_CLOSED
    raise SystemExit(f"{NAME}: ${POLICY_ENV} must be fail-closed or fail-open, got {value!r}")


def _stream() -> bool:
    """True when $HOOKD_CONFORMANCE_TRANSPORT asks for the stream."""
    value = os.environ.get(TRANSPORT_ENV, "")
    if value not in ("", "unary", "stream"):
        raise SystemExit(f"{NAME}: ${TRANSPORT_ENV} must be unary or stream, got {value!r}")
    return value == "stream"


def _not_serving_seconds() -> float:
    value = os.environ.get(NOT_SERVING_ENV, "0")
    if not value.isdigit():
        raise SystemExit(f"{NAME}: ${NOT_SERVING_ENV} must be a whole number of milliseconds, got {value!r}")
    return int(value) / 1000


# The points this plugin serves, by the daemon's names.
POINTS = {
    "pre-step": types_pb2.POINT_PRE_STEP,
    "pre-tool": types_pb2.POINT_PRE_TOOL,
    "post-tool": types_pb2.POINT_POST_TOOL,
    "turn-stopping": types_pb2.POINT_TURN_STOPPING,
    "rewrite": types_pb2.POINT_REWRITE,
    "approval": types_pb2.POINT_APPROVAL,
    "session-end": types_pb2.POINT_SESSION_END,
    "turn-end": types_pb2.POINT_TURN_END,
    "agent-event": types_pb2.POINT_AGENT_EVENT,
}

# The event names this plugin observes at agent-event (a whole-name glob the daemon applies).
AGENT_EVENT_MATCHERS = ["Conformance*"]


def _points() -> list[int]:
    value = os.environ.get(POINTS_ENV)
    if value is None:
        return list(POINTS.values())
    names = [name for name in value.split(",") if name]
    unknown = [name for name in names if name not in POINTS]
    if unknown:
        raise SystemExit(f"{NAME}: ${POINTS_ENV} names points this plugin does not serve: {unknown}")
    return [POINTS[name] for name in names]


def _message(text: str, source: types_pb2.MessageSource) -> types_pb2.Message:
    return types_pb2.Message(role=types_pb2.ROLE_USER, content=[types_pb2.ContentBlock(text=text)], source=source)


def _plugin_source(name: str = NAME) -> types_pb2.MessageSource:
    return types_pb2.MessageSource(plugin=types_pb2.PluginSource(name=name))


def _user_source() -> types_pb2.MessageSource:
    return types_pb2.MessageSource(user=types_pb2.UserSource())


def _context_message() -> types_pb2.Message:
    return _message(f"conformance: context from {LANG}", _plugin_source())


def _enum_name(value: str, prefix: str) -> str:
    """SESSION_END_REASON_DAEMON_STOPPING -> daemon-stopping: the record's language-neutral form."""
    return value.removeprefix(prefix).lower().replace("_", "-")


def _record(point: str, session: types_pb2.SessionInfo, fields: dict[str, object], name: str = "") -> None:
    """Writes what a call received, atomically, where the test reads it: <name>.<session id>.json
    (the name is the point's unless given)."""
    directory = os.environ.get(RECORDS_ENV)
    if not directory:
        return
    record = {
        "point": point,
        "sessionId": session.session_id,
        "agentId": session.agent_id,
        "parentSessionId": session.parent_session_id,
        "agentType": session.agent_type,
        **fields,
    }
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".record-")
    with os.fdopen(handle, "w") as out:
        json.dump(record, out)
    os.replace(temporary, os.path.join(directory, f"{name or point}.{session.session_id}.json"))


def _garbage(point: int) -> bytes:
    """A varint (wire type 0) in the decision's field, which is a message (wire type 2)."""
    return bytes([(point << 3) | 0, 1])


def _hang(context: CallContext) -> None:
    """Blocks until the call is over (its deadline passed or the caller cancelled)."""
    over = threading.Event()
    if context.add_callback(over.set):
        over.wait()


def _crash() -> None:
    sys.stderr.write(f"{NAME} {os.getpid()}: crashing mid-call\n")
    sys.stderr.flush()
    os._exit(1)


def _check_deadline(context: CallContext) -> None:
    remaining = context.time_remaining()
    if remaining is not None and remaining <= 0:
        context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "the deadline passed before the answer")


def _argument(call: types_pb2.ToolCall, key: str) -> str:
    """A string field of the call's arguments; "" when absent, not a string, or not JSON."""
    try:
        arguments = json.loads(call.arguments_json)
    except ValueError:
        return ""
    value = arguments.get(key) if isinstance(arguments, dict) else None
    return value if isinstance(value, str) else ""


def _scenario_of_call(call: types_pb2.ToolCall) -> str:
    return _argument(call, "scenario")


def _message_text(message: types_pb2.Message) -> str:
    return "\n".join(block.text for block in message.content if block.WhichOneof("block") == "text")


def _first_text(messages) -> str:  # type: ignore[no-untyped-def]
    return _message_text(messages[0]) if messages else ""


def _with_text(message: types_pb2.Message, text: str) -> types_pb2.Message:
    """The same message (role, id, the source the plugin saw) with its content replaced by text."""
    changed = types_pb2.Message()
    changed.CopyFrom(message)
    del changed.content[:]
    changed.content.append(types_pb2.ContentBlock(text=text))
    return changed


def _pre_tool(decision: points_pb2.PreToolDecision) -> plugin_pb2.PreToolResponse:
    return plugin_pb2.PreToolResponse(decision=decision)


def _post_tool(decision: points_pb2.PostToolDecision) -> plugin_pb2.PostToolResponse:
    return plugin_pb2.PostToolResponse(decision=decision)


def _pre_step(decision: points_pb2.PreStepDecision) -> plugin_pb2.PreStepResponse:
    return plugin_pb2.PreStepResponse(decision=decision)


def _rewrite(decision: points_pb2.RewriteDecision) -> plugin_pb2.RewriteResponse:
    return plugin_pb2.RewriteResponse(decision=decision)


def _approve(decision: points_pb2.ApprovalDecision) -> plugin_pb2.ApproveResponse:
    return plugin_pb2.ApproveResponse(decision=decision)


def _turn_stopping(decision: points_pb2.TurnStoppingDecision) -> plugin_pb2.TurnStoppingResponse:
    return plugin_pb2.TurnStoppingResponse(decision=decision)


def _replace(arguments_json: str) -> plugin_pb2.RewriteResponse:
    return _rewrite(points_pb2.RewriteDecision(replace=points_pb2.Replace(arguments_json=arguments_json)))


def _patch(merge_patch_json: str) -> plugin_pb2.RewriteResponse:
    return _rewrite(points_pb2.RewriteDecision(patch=points_pb2.Patch(merge_patch_json=merge_patch_json)))


def _pass(decision_type):  # type: ignore[no-untyped-def]
    decision = decision_type()
    getattr(decision, "pass").SetInParent()  # `pass` is a Python keyword
    return decision


def _common(scenario: str, point: int, context: CallContext) -> Answer | None:
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


class Rendezvous:
    """Moments of paired calls (the arguments' "pair"), so that one call can wait for another:
    fast for the slow call to be in flight, slow for fast's answer, end-stream for its hang call."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._moments: dict[tuple[str, str], threading.Event] = {}

    def _moment(self, pair: str, moment: str) -> threading.Event:
        with self._lock:
            return self._moments.setdefault((pair, moment), threading.Event())

    def reached(self, pair: str, moment: str) -> None:
        self._moment(pair, moment).set()

    def wait(self, pair: str, moment: str, context: CallContext) -> bool:
        """Blocks until the moment is reached (True) or the call's deadline passed (False)."""
        return self._moment(pair, moment).wait(context.time_remaining())


SLOW_IN_FLIGHT = "slow in flight"
FAST_ANSWERED = "fast answered"
HANG_IN_FLIGHT = "hang in flight"

# The point methods by Point value (also the AttachCall field: 10 + that value).
POINT_METHODS: dict[int, tuple[str, Callable[[bytes], ProtoMessage]]] = {
    types_pb2.POINT_PRE_STEP: ("PreStep", plugin_pb2.PreStepRequest.FromString),
    types_pb2.POINT_PRE_TOOL: ("PreTool", plugin_pb2.PreToolRequest.FromString),
    types_pb2.POINT_POST_TOOL: ("PostTool", plugin_pb2.PostToolRequest.FromString),
    types_pb2.POINT_TURN_STOPPING: ("TurnStopping", plugin_pb2.TurnStoppingRequest.FromString),
    types_pb2.POINT_REWRITE: ("Rewrite", plugin_pb2.RewriteRequest.FromString),
    types_pb2.POINT_APPROVAL: ("Approve", plugin_pb2.ApproveRequest.FromString),
    types_pb2.POINT_SESSION_END: ("SessionEnd", plugin_pb2.SessionEndRequest.FromString),
    types_pb2.POINT_TURN_END: ("TurnEnd", plugin_pb2.TurnEndRequest.FromString),
    types_pb2.POINT_AGENT_EVENT: ("AgentEvent", plugin_pb2.AgentEventRequest.FromString),
}


class Conformance:
    """The HookPlugin methods; each returns a response message or raw bytes."""

    def __init__(self, failure_policy: int, points: list[int], stream: bool) -> None:
        self._failure_policy = failure_policy
        self._points = points
        self._stream = stream
        self._pairs = Rendezvous()

    # ---- what both transports call besides the RPCs ----

    def call(self, point: int, request: ProtoMessage, context: CallContext) -> Answer:
        method: Callable[[ProtoMessage, CallContext], Answer] = getattr(self, POINT_METHODS[point][0])
        return method(request, context)

    def contract_scenario(self, point: int, request: ProtoMessage) -> tuple[str, str]:
        """The scenario and pair of an approval call (the stream contract's point); ("", "")
        at every other point."""
        if not isinstance(request, plugin_pb2.ApproveRequest):
            return "", ""
        return _scenario_of_call(request.event.call), _argument(request.event.call, "pair")

    def answered(self, point: int, request: ProtoMessage) -> None:
        """The answer to request went out (returned on unary; queued, in order, on the stream)."""
        scenario, pair = self.contract_scenario(point, request)
        if scenario == "fast" and pair:
            self._pairs.reached(pair, FAST_ANSWERED)

    def wait_for_hang(self, pair: str, context: CallContext) -> bool:
        """Blocks until the hang call of pair is in flight (True) or the deadline passed."""
        return self._pairs.wait(pair, HANG_IN_FLIGHT, context)

    def _stream_contract(self, request: plugin_pb2.ApproveRequest, context: CallContext) -> Answer | None:
        """The stream-contract scenarios (see the module's docstring); None for any other."""
        scenario, pair = self.contract_scenario(types_pb2.POINT_APPROVAL, request)
        session = request.event.session
        if scenario == "slow":
            self._pairs.reached(pair, SLOW_IN_FLIGHT)
            if not self._pairs.wait(pair, FAST_ANSWERED, context):
                context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, f"the fast call of pair {pair!r} was not answered in time")
            return _approve(points_pb2.ApprovalDecision(reject=points_pb2.Reject(reason=f"conformance: slow, answered after fast by {LANG}")))
        if scenario == "fast":
            if not self._pairs.wait(pair, SLOW_IN_FLIGHT, context):
                context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, f"the slow call of pair {pair!r} never came")
            return _approve(points_pb2.ApprovalDecision(reject=points_pb2.Reject(reason=f"conformance: fast, answered before slow by {LANG}")))
        if scenario == "await-cancel":
            _record("approval", session, {}, name="received")
            _hang(context)
            reason = "deadline" if context.time_remaining() == 0 else "cancelled"
            _record("approval", session, {"reason": reason}, name="cancel")
            context.abort(grpc.StatusCode.CANCELLED, "the call ended before an answer")
        if scenario == "answer-twice":  # the second answer is the stream's (conformance_attach.py)
            return _approve(points_pb2.ApprovalDecision(reject=points_pb2.Reject(reason=f"conformance: first answer by {LANG}")))
        if scenario == "end-stream":  # on the stream it never gets here (conformance_attach.py)
            context.abort(grpc.StatusCode.UNAVAILABLE, "end-stream: a unary call has no stream to end")
        if scenario == "hang" and pair:
            self._pairs.reached(pair, HANG_IN_FLIGHT)
        return None

    # ---- the RPCs ----

    def Describe(self, request: plugin_pb2.DescribeRequest, context: CallContext) -> Answer:
        subscriptions = [
            plugin_pb2.Subscription(
                point=point,
                tools=AGENT_EVENT_MATCHERS if point == types_pb2.POINT_AGENT_EVENT else [],
                failure_policy=self._failure_policy,
            )
            for point in self._points
        ]
        # Unary leaves the transport unset, as a plugin written before streams does.
        transport = plugin_pb2.PLUGIN_TRANSPORT_STREAM if self._stream else plugin_pb2.PLUGIN_TRANSPORT_UNSPECIFIED
        manifest = plugin_pb2.PluginManifest(name=NAME, version="1.0.0", subscriptions=subscriptions, transport=transport)
        return plugin_pb2.DescribeResponse(manifest=manifest)

    def PreTool(self, request: plugin_pb2.PreToolRequest, context: CallContext) -> Answer:
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

    def PostTool(self, request: plugin_pb2.PostToolRequest, context: CallContext) -> Answer:
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
        if scenario == "forge-context":
            forged = _message(f"conformance: forged by {LANG}", _user_source())
            return _post_tool(points_pb2.PostToolDecision(accept=points_pb2.Accept(additional_contexts=[forged])))
        return _post_tool(_pass(points_pb2.PostToolDecision))

    def PreStep(self, request: plugin_pb2.PreStepRequest, context: CallContext) -> Answer:
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
        messages = list(request.event.messages)
        if text.startswith("redact"):
            # Prompt redaction: the whole batch goes back, the first message with the secret removed.
            messages[0] = _with_text(messages[0], text.replace(SECRET, "[redacted]"))
            return _pre_step(points_pb2.PreStepDecision(enter=points_pb2.Enter(messages=messages)))
        if text.startswith("rewrite"):
            messages[0] = _with_text(messages[0], f"conformance: prompt rewritten by {LANG}")
            return _pre_step(points_pb2.PreStepDecision(enter=points_pb2.Enter(messages=messages)))
        if text.startswith("forge"):
            forged = _message(f"conformance: forged by {LANG}", _plugin_source("someone-else"))
            return _pre_step(points_pb2.PreStepDecision(enter=points_pb2.Enter(messages=messages + [forged])))
        return _pre_step(_pass(points_pb2.PreStepDecision))

    def Rewrite(self, request: plugin_pb2.RewriteRequest, context: CallContext) -> Answer:
        call = request.event.call
        scenario = _scenario_of_call(call)
        common = _common(scenario, types_pb2.POINT_REWRITE, context)
        if common is not None:
            return common
        _check_deadline(context)
        if scenario == "replace":
            return _replace(json.dumps({"scenario": "replace", "rewrittenBy": LANG}))
        if scenario == "patch":
            return _patch(json.dumps({"patchedBy": LANG, "drop": None, "nested": {"added": True}}))
        if scenario == "non-object":
            return _replace(json.dumps(["not", "an", "object"]))
        if scenario == "patch-non-object":
            return _patch(json.dumps("not an object"))
        if scenario == "invalid-json":
            return _replace('{"scenario": ')
        if scenario == "big-int":
            # json parses integers as exact ints and writes them back digit for digit; a float
            # would round, so this plugin never turns one into a float.
            arguments = json.loads(call.arguments_json)
            arguments["rewrittenBy"] = LANG
            return _replace(json.dumps(arguments))
        return _rewrite(_pass(points_pb2.RewriteDecision))

    def Approve(self, request: plugin_pb2.ApproveRequest, context: CallContext) -> Answer:
        scenario = _scenario_of_call(request.event.call)
        contract = self._stream_contract(request, context)
        if contract is not None:
            return contract
        common = _common(scenario, types_pb2.POINT_APPROVAL, context)
        if common is not None:
            return common
        _check_deadline(context)
        if scenario == "approve":
            return _approve(points_pb2.ApprovalDecision(approve=points_pb2.Approve()))
        if scenario == "reject":
            return _approve(points_pb2.ApprovalDecision(reject=points_pb2.Reject(reason=f"conformance: rejected by {LANG}")))
        return _approve(_pass(points_pb2.ApprovalDecision))

    def TurnStopping(self, request: plugin_pb2.TurnStoppingRequest, context: CallContext) -> Answer:
        event = request.event
        text = _message_text(event.last_assistant_message) if event.HasField("last_assistant_message") else ""
        common = _common(text, types_pb2.POINT_TURN_STOPPING, context)
        if common is not None:
            return common
        _check_deadline(context)
        if text == "steer":
            steering = _message(f"conformance: steered by {LANG}", _plugin_source())
            return _turn_stopping(points_pb2.TurnStoppingDecision(steer=points_pb2.Steer(messages=[steering])))
        if text == "forge-steer":
            forged = _message(f"conformance: steered by {LANG}", _user_source())
            return _turn_stopping(points_pb2.TurnStoppingDecision(steer=points_pb2.Steer(messages=[forged])))
        return _turn_stopping(_pass(points_pb2.TurnStoppingDecision))

    def SessionEnd(self, request: plugin_pb2.SessionEndRequest, context: CallContext) -> Answer:
        event = request.event
        reason = _enum_name(types_pb2.SessionEndReason.Name(event.reason), "SESSION_END_REASON_")
        _record("session-end", event.session, {"reason": reason, "detail": event.detail, "turns": event.turns})
        return plugin_pb2.SessionEndResponse()

    def TurnEnd(self, request: plugin_pb2.TurnEndRequest, context: CallContext) -> Answer:
        event = request.event
        outcome = _enum_name(points_pb2.TurnEndOutcome.Name(event.outcome), "TURN_END_OUTCOME_")
        _record("turn-end", event.session, {"turn": event.turn, "outcome": outcome, "detail": event.detail, "steps": event.steps})
        return plugin_pb2.TurnEndResponse()

    def AgentEvent(self, request: plugin_pb2.AgentEventRequest, context: CallContext) -> Answer:
        event = request.event
        dialect = _enum_name(types_pb2.AgentDialect.Name(event.dialect), "AGENT_DIALECT_")
        # The payload's JSON text exactly as the daemon sent it (its canonical form).
        _record("agent-event", event.session, {"dialect": dialect, "eventName": event.event_name, "payloadJson": event.payload_json})
        return plugin_pb2.AgentEventResponse()


def _serialize(answer: Answer) -> bytes:
    """Raw bytes go out as they are; any message (even another RPC's response) is serialized."""
    return answer if isinstance(answer, bytes) else answer.SerializeToString()


def _unary(plugin: Conformance, point: int) -> Callable[[ProtoMessage, CallContext], Answer]:
    def answer(request: ProtoMessage, context: CallContext) -> Answer:
        answered = plugin.call(point, request, context)
        plugin.answered(point, request)
        return answered

    return answer


def _service(plugin: Conformance, stream: bool) -> grpc.GenericRpcHandler:
    """The unary RPCs, and Attach when serving the stream (without it grpcio answers
    UNIMPLEMENTED, which makes the daemon call unary)."""
    handlers: dict[str, grpc.RpcMethodHandler] = {
        "Describe": grpc.unary_unary_rpc_method_handler(
            plugin.Describe, request_deserializer=plugin_pb2.DescribeRequest.FromString, response_serializer=_serialize
        ),
    }
    for point, (name, deserialize) in POINT_METHODS.items():
        handlers[name] = grpc.unary_unary_rpc_method_handler(
            _unary(plugin, point), request_deserializer=deserialize, response_serializer=_serialize
        )
    if stream:
        handlers["Attach"] = conformance_attach.attach_handler(plugin)
    return grpc.method_handlers_generic_handler(SERVICE, handlers)


def serve(address: str, stream: bool, not_serving_seconds: float) -> None:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    server.add_generic_rpc_handlers((_service(Conformance(_policy(), _points(), stream), stream),))
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)

    def set_health(status: int) -> None:
        for service in ("", SERVICE):
            health_servicer.set(service, status)

    set_health(health_pb2.HealthCheckResponse.NOT_SERVING if not_serving_seconds else health_pb2.HealthCheckResponse.SERVING)
    server.add_insecure_port(address)

    stopping = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.set())
    server.start()
    if not_serving_seconds:
        serving = threading.Timer(not_serving_seconds, set_health, (health_pb2.HealthCheckResponse.SERVING,))
        serving.daemon = True
        serving.start()
    sys.stderr.write(f"{NAME} {os.getpid()}: serving on {address}\n")
    sys.stderr.flush()
    stopping.wait()
    health_servicer.enter_graceful_shutdown()
    server.stop(GRACE_SECONDS).wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="conformance_plugin.py", description=__doc__.splitlines()[0])
    parser.add_argument("--listen", metavar="ADDRESS", help=f"unix:PATH or HOST:PORT (default: unix:${SOCKET_ENV})")
    args = parser.parse_args(argv)
    if os.environ.get(UNREACHABLE_ENV):
        sys.stderr.write(f"{NAME} {os.getpid()}: ${UNREACHABLE_ENV} is set: exiting before serving\n")
        return 3
    stream, not_serving_seconds = _stream(), _not_serving_seconds()  # bad values fail before serving
    address = args.listen or (f"unix:{path}" if (path := os.environ.get(SOCKET_ENV)) else None)
    if address is None:
        parser.error(f"no address: pass --listen or set {SOCKET_ENV}")
    serve(address, stream, not_serving_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""conformance-python (SDK flavour): the hookd conformance plugin, written on the Python SDK (hookd_plugin).

It behaves exactly like the raw-stub conformance plugins (../python/conformance_plugin.py lists
the scenarios, read from the event the same way), so the same table in suite.ts runs
against it, once over each transport: $HOOKD_CONFORMANCE_TRANSPORT=unary makes the manifest ask
for unary, anything else leaves the daemon the Attach stream. Sync and async handlers are mixed on
purpose (pre-tool, post-tool, pre-step and approval are plain functions run in worker threads;
rewrite, turn-stopping and the observers are coroutines), so both paths of the SDK are held to
the table.

The stream-contract scenarios at approval (slow, fast, await-cancel; see the raw plugin's
docstring) run in the approval handler's worker thread: fast marks itself answered as its
handler returns, just before the SDK writes the answer, so slow's answer is written after it in
practice (the row's assertion holds in either order).

The answers no valid decision can express (garbage, wrong-variant, post-tool invalid, rewrite's
non-object, patch-non-object and invalid-json) go out as ``RawAnswer`` bytes, which the SDK sends
as they are: as the unary response, or in the reply field of the Attach frame (wrong-variant: in
the field of the point whose response it is). Everything else is the SDK's typed decisions.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading

from hookd_plugin import (
    Context, JsonValue, Plugin, accept, allow, approve, arguments, ask, block, deny, enter, main,
    message_text, passes, patch, pb, reject, replace, steer,
)
from hookd_plugin.testing import RawAnswer

# Named as the raw-stub Python plugin: two flavours of one language answer identically.
LANG = "python"
NAME = f"conformance-{LANG}"
SECRET = "SECRET-1234"
T = pb.types
P = pb.plugin
POINTS = ("pre-step", "pre-tool", "post-tool", "turn-stopping", "rewrite", "approval",
          "session-end", "turn-end", "agent-event")


def _env_points() -> list[str]:
    value = os.environ.get("HOOKD_CONFORMANCE_POINTS")
    names = list(POINTS) if value is None else [name for name in value.split(",") if name]
    unknown = [name for name in names if name not in POINTS]
    if unknown:
        raise SystemExit(f"{NAME}: $HOOKD_CONFORMANCE_POINTS names points it does not serve: {unknown}")
    return names


POLICY = "fail-open" if os.environ.get("HOOKD_CONFORMANCE_FAILURE_POLICY") == "fail-open" else "fail-closed"
SUBSCRIBED = _env_points()
plugin = Plugin(NAME, version="1.0.0",
                transport="unary" if os.environ.get("HOOKD_CONFORMANCE_TRANSPORT") == "unary" else "auto")


def on(point: str, **options: object):  # type: ignore[no-untyped-def]
    """Registers the handler only for the subscribed points (the manifest lists exactly those)."""
    def register(handler):  # type: ignore[no-untyped-def]
        if point in SUBSCRIBED:
            plugin.add(point, handler, failure_policy=POLICY, **options)  # type: ignore[arg-type]
        return handler
    return register


def message(text: str, source: pb.types.MessageSource | None = None) -> pb.Message:
    built = pb.Message(role=T.ROLE_USER, content=[pb.ContentBlock(text=text)])
    built.source.CopyFrom(source or T.MessageSource(plugin=T.PluginSource(name=NAME)))
    return built


USER = T.MessageSource(user=T.UserSource())


def scenario_of(call: pb.ToolCall) -> str:
    try:
        value = arguments(call).get("scenario")
    except ValueError:
        return ""
    return value if isinstance(value, str) else ""


def common(scenario: str, point: int, ctx: Context) -> object | None:
    """The fault scenarios every point shares; None when the scenario is the point's own."""
    if scenario == "hang":
        ctx.wait()  # until the daemon stops waiting; a cancelled call is never answered
        raise TimeoutError("the call ended before an answer")
    if scenario == "crash":
        sys.stderr.write(f"{NAME} {os.getpid()}: crashing mid-call\n")
        sys.stderr.flush()
        os._exit(1)
    if scenario == "garbage":  # a varint (wire type 0) where the decision message belongs
        return RawAnswer(bytes([(point << 3) | 0, 1]))
    if scenario == "wrong-variant":
        if point == T.POINT_PRE_TOOL:
            wrong = P.PostToolResponse(decision=pb.points.PostToolDecision(accept=pb.points.Accept()))
            return RawAnswer(wrong.SerializeToString(), T.POINT_POST_TOOL)
        other = P.PreToolResponse(decision=pb.points.PreToolDecision(allow=pb.points.Allow()))
        return RawAnswer(other.SerializeToString(), T.POINT_PRE_TOOL)
    return None


async def common_async(scenario: str, point: int, ctx: Context) -> object | None:
    if scenario == "hang":
        await ctx.until_cancelled()
        raise TimeoutError("the call ended before an answer")
    return common(scenario, point, ctx)


@on("pre-tool")
def pre_tool(event: pb.PreToolEvent, ctx: Context) -> object:
    scenario = scenario_of(event.call)
    fault = common(scenario, T.POINT_PRE_TOOL, ctx)
    if fault is not None:
        return fault
    answers = {"allow": allow, "deny": lambda: deny(f"conformance: denied by {LANG}"),
               "ask": lambda: ask(f"conformance: asked by {LANG}")}
    return answers.get(scenario, passes)()


@on("post-tool")
def post_tool(event: pb.PostToolEvent, ctx: Context) -> object:
    scenario = scenario_of(event.call)
    fault = common(scenario, T.POINT_POST_TOOL, ctx)
    if fault is not None:
        return fault
    replaced = f"conformance: replaced by {LANG}"
    if scenario == "block":
        return block(f"conformance: blocked by {LANG}")
    if scenario == "replace":
        return accept(content=replaced)
    if scenario == "value":
        return accept(value={"replacedBy": LANG})
    if scenario == "context":
        return accept(contexts=[message(f"conformance: context from {LANG}")])
    if scenario == "forge-context":
        return accept(contexts=[message(f"conformance: forged by {LANG}", USER)])
    if scenario == "invalid":  # content AND value: no constructor builds it
        both = pb.points.Accept(content=pb.points.ContentReplacement(blocks=[pb.ContentBlock(text=replaced)]),
                                value_json=json.dumps({"replacedBy": LANG}))
        return RawAnswer(P.PostToolResponse(decision=pb.points.PostToolDecision(accept=both)).SerializeToString())
    return passes()


def with_text(original: pb.Message, text: str) -> pb.Message:
    changed = pb.Message()
    changed.CopyFrom(original)
    del changed.content[:]
    changed.content.append(pb.ContentBlock(text=text))
    return changed


@on("pre-step")
def pre_step(event: pb.PreStepEvent, ctx: Context) -> object:
    batch = list(event.messages)
    text = message_text(batch[0]) if batch else ""
    fault = common(text, T.POINT_PRE_STEP, ctx)
    if fault is not None:
        return fault
    if text.startswith("inject"):
        return enter([*batch, message(f"conformance: context from {LANG}")])
    if text.startswith("reject"):
        return reject(f"conformance: rejected by {LANG}")
    if text.startswith("redact"):
        return enter([with_text(batch[0], text.replace(SECRET, "[redacted]")), *batch[1:]])
    if text.startswith("rewrite"):
        return enter([with_text(batch[0], f"conformance: prompt rewritten by {LANG}"), *batch[1:]])
    if text.startswith("forge"):
        forged = message(f"conformance: forged by {LANG}", T.MessageSource(plugin=T.PluginSource(name="someone-else")))
        return enter([*batch, forged])
    return passes()


def raw_rewrite(decision: pb.points.RewriteDecision) -> RawAnswer:
    return RawAnswer(P.RewriteResponse(decision=decision).SerializeToString())


@on("rewrite")
async def rewrite(event: pb.RewriteEvent, ctx: Context) -> object:
    scenario = scenario_of(event.call)
    fault = await common_async(scenario, T.POINT_REWRITE, ctx)
    if fault is not None:
        return fault
    if scenario == "replace":
        return replace({"scenario": "replace", "rewrittenBy": LANG})
    if scenario == "patch":
        return patch({"patchedBy": LANG, "drop": None, "nested": {"added": True}})
    if scenario == "big-int":  # re-emitted by the SDK's JSON: integers digit for digit
        return replace({**arguments(event.call), "rewrittenBy": LANG})
    bad = {"non-object": ("replace", json.dumps(["not", "an", "object"])),
           "patch-non-object": ("patch", json.dumps("not an object")),
           "invalid-json": ("replace", '{"scenario": ')}
    if scenario in bad:
        kind, text = bad[scenario]
        if kind == "replace":
            return raw_rewrite(pb.points.RewriteDecision(replace=pb.points.Replace(arguments_json=text)))
        return raw_rewrite(pb.points.RewriteDecision(patch=pb.points.Patch(merge_patch_json=text)))
    return passes()


class Rendezvous:
    """Moments of paired calls (the arguments' "pair"): one call reaches one, another waits."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._moments: dict[tuple[str, str], threading.Event] = {}

    def _moment(self, pair: str, name: str) -> threading.Event:
        with self._lock:
            return self._moments.setdefault((pair, name), threading.Event())

    def reach(self, pair: str, name: str) -> None:
        self._moment(pair, name).set()

    def wait(self, pair: str, name: str, ctx: Context) -> None:
        """Returns once the moment is reached; raises as hang does when the deadline passes first."""
        if not self._moment(pair, name).wait(ctx.time_remaining()):
            raise TimeoutError(f"{name} never came for pair {pair!r}")


PAIRS = Rendezvous()


def stream_contract(scenario: str, event: pb.ApprovalEvent, ctx: Context) -> object | None:
    """The stream-contract scenarios; None for every other scenario."""
    pair = arguments(event.call).get("pair") if scenario in ("slow", "fast") else None
    if isinstance(pair, str):
        if scenario == "slow":
            PAIRS.reach(pair, "slow in flight")
            PAIRS.wait(pair, "fast answered", ctx)
            return reject(f"conformance: slow, answered after fast by {LANG}")
        PAIRS.wait(pair, "slow in flight", ctx)
        PAIRS.reach(pair, "fast answered")
        return reject(f"conformance: fast, answered before slow by {LANG}")
    if scenario == "await-cancel":
        record("approval", event.session, {}, name="received")
        ctx.wait()  # until the daemon stops waiting; a cancelled call is never answered
        record("approval", event.session, {"reason": ctx.cancel_reason or "cancelled"}, name="cancel")
        raise TimeoutError("the call ended before an answer")
    return None


@on("approval")
def approval(event: pb.ApprovalEvent, ctx: Context) -> object:
    scenario = scenario_of(event.call)
    contract = stream_contract(scenario, event, ctx)
    if contract is not None:
        return contract
    fault = common(scenario, T.POINT_APPROVAL, ctx)
    if fault is not None:
        return fault
    if scenario == "approve":
        return approve()
    if scenario == "reject":
        return reject(f"conformance: rejected by {LANG}")
    return passes()


@on("turn-stopping")
async def turn_stopping(event: pb.TurnStoppingEvent, ctx: Context) -> object:
    text = message_text(event.last_assistant_message) if event.HasField("last_assistant_message") else ""
    fault = await common_async(text, T.POINT_TURN_STOPPING, ctx)
    if fault is not None:
        return fault
    if text == "steer":
        return steer(message(f"conformance: steered by {LANG}"))
    if text == "forge-steer":
        return steer(message(f"conformance: steered by {LANG}", USER))
    return passes()


def enum_name(value: str, prefix: str) -> str:
    return value.removeprefix(prefix).lower().replace("_", "-")


def record(point: str, session: pb.SessionInfo, fields: dict[str, JsonValue], name: str = "") -> None:
    """Writes what a call received, atomically, where the test reads it: <name>.<session
    id>.json (the point's name unless given)."""
    directory = os.environ.get("HOOKD_CONFORMANCE_RECORDS")
    if not directory:
        return
    document = {"point": point, "sessionId": session.session_id, "agentId": session.agent_id,
                "parentSessionId": session.parent_session_id, "agentType": session.agent_type, **fields}
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".record-")
    with os.fdopen(handle, "w") as out:
        json.dump(document, out)
    os.replace(temporary, os.path.join(directory, f"{name or point}.{session.session_id}.json"))


@on("session-end")
async def session_end(event: pb.SessionEndEvent, ctx: Context) -> None:
    reason = enum_name(T.SessionEndReason.Name(event.reason), "SESSION_END_REASON_")
    record("session-end", event.session, {"reason": reason, "detail": event.detail, "turns": event.turns})


@on("turn-end")
async def turn_end(event: pb.TurnEndEvent, ctx: Context) -> None:
    outcome = enum_name(pb.points.TurnEndOutcome.Name(event.outcome), "TURN_END_OUTCOME_")
    record("turn-end", event.session, {"turn": event.turn, "outcome": outcome, "detail": event.detail,
                                       "steps": event.steps})


@on("agent-event", tools=["Conformance*"])
async def agent_event(event: pb.AgentEventEvent, ctx: Context) -> None:
    dialect = enum_name(T.AgentDialect.Name(event.dialect), "AGENT_DIALECT_")
    record("agent-event", event.session, {"dialect": dialect, "eventName": event.event_name,
                                          "payloadJson": event.payload_json})


if __name__ == "__main__":
    if os.environ.get("HOOKD_CONFORMANCE_UNREACHABLE"):
        sys.stderr.write(f"{NAME} {os.getpid()}: $HOOKD_CONFORMANCE_UNREACHABLE is set: exiting before serving\n")
        sys.exit(3)
    sys.exit(main(plugin))

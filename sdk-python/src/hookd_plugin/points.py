"""The extension points: their names, proto values, RPCs, request and response messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from google.protobuf.message import Message as ProtoMessage

from hookd_plugin._gen.hookd.v1 import plugin_pb2 as plugin
from hookd_plugin._gen.hookd.v1 import types_pb2 as types

PointName = Literal[
    "session-start", "pre-step", "pre-tool", "guard", "execute", "post-tool", "tool-result",
    "turn-stopping", "rewrite", "approval", "session-end", "turn-end", "agent-event",
]

#: The offset of a point's request/response field in the Attach frames (10 + its Point value).
ATTACH_FIELD_OFFSET = 10


@dataclass(frozen=True)
class PointSpec:
    name: PointName
    value: int  # hookd.v1.Point
    rpc: str  # the HookPlugin method
    request: type[ProtoMessage]
    response: type[ProtoMessage]
    #: The field name of this point in AttachCall.request and AttachResponse.reply.
    attach_field: str
    #: Notification points whose response is empty: the handler returns None.
    observer: bool = False
    #: Points whose subscription may carry matchers (tool names, or event names at agent-event).
    matchers: bool = False


POINTS: tuple[PointSpec, ...] = (
    PointSpec("session-start", types.POINT_SESSION_START, "SessionStart",
              plugin.SessionStartRequest, plugin.SessionStartResponse, "session_start"),
    PointSpec("pre-step", types.POINT_PRE_STEP, "PreStep",
              plugin.PreStepRequest, plugin.PreStepResponse, "pre_step"),
    PointSpec("pre-tool", types.POINT_PRE_TOOL, "PreTool",
              plugin.PreToolRequest, plugin.PreToolResponse, "pre_tool", matchers=True),
    PointSpec("guard", types.POINT_GUARD, "Guard",
              plugin.GuardRequest, plugin.GuardResponse, "guard", matchers=True),
    PointSpec("execute", types.POINT_EXECUTE, "Execute",
              plugin.ExecuteRequest, plugin.ExecuteResponse, "execute", matchers=True),
    PointSpec("post-tool", types.POINT_POST_TOOL, "PostTool",
              plugin.PostToolRequest, plugin.PostToolResponse, "post_tool", matchers=True),
    PointSpec("tool-result", types.POINT_TOOL_RESULT, "ToolResult",
              plugin.ToolResultRequest, plugin.ToolResultResponse, "tool_result",
              observer=True, matchers=True),
    PointSpec("turn-stopping", types.POINT_TURN_STOPPING, "TurnStopping",
              plugin.TurnStoppingRequest, plugin.TurnStoppingResponse, "turn_stopping"),
    PointSpec("rewrite", types.POINT_REWRITE, "Rewrite",
              plugin.RewriteRequest, plugin.RewriteResponse, "rewrite", matchers=True),
    PointSpec("approval", types.POINT_APPROVAL, "Approve",
              plugin.ApproveRequest, plugin.ApproveResponse, "approve", matchers=True),
    PointSpec("session-end", types.POINT_SESSION_END, "SessionEnd",
              plugin.SessionEndRequest, plugin.SessionEndResponse, "session_end", observer=True),
    PointSpec("turn-end", types.POINT_TURN_END, "TurnEnd",
              plugin.TurnEndRequest, plugin.TurnEndResponse, "turn_end", observer=True),
    PointSpec("agent-event", types.POINT_AGENT_EVENT, "AgentEvent",
              plugin.AgentEventRequest, plugin.AgentEventResponse, "agent_event",
              observer=True, matchers=True),
)

BY_NAME: dict[str, PointSpec] = {spec.name: spec for spec in POINTS}
BY_ATTACH_FIELD: dict[str, PointSpec] = {spec.attach_field: spec for spec in POINTS}
BY_VALUE: dict[int, PointSpec] = {spec.value: spec for spec in POINTS}

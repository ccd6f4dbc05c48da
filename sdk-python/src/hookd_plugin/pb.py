"""The generated protobuf messages of the hookd contract (proto/hookd/v1), for typed events.

Handlers receive these messages as events (``pb.PreToolEvent``, ``pb.PostToolEvent``, ...); the
decision constructors in :mod:`hookd_plugin.decisions` build the answers, so a plugin never has to
set a decision oneof (or the ``pass`` field, a Python keyword) by hand.
"""

from hookd_plugin._gen.hookd.v1 import plugin_pb2 as plugin
from hookd_plugin._gen.hookd.v1 import points_pb2 as points
from hookd_plugin._gen.hookd.v1 import types_pb2 as types
from hookd_plugin._gen.hookd.v1.points_pb2 import (
    AgentEventEvent,
    ApprovalEvent,
    ExecuteEvent,
    GuardEvent,
    PostToolEvent,
    PreStepEvent,
    PreToolEvent,
    RewriteEvent,
    SessionEndEvent,
    SessionStartEvent,
    ToolResultEvent,
    TurnEndEvent,
    TurnStoppingEvent,
)
from hookd_plugin._gen.hookd.v1.types_pb2 import (
    ContentBlock,
    ImageRef,
    Message,
    SessionInfo,
    ToolCall,
    ToolResult,
)

__all__ = [
    "AgentEventEvent",
    "ApprovalEvent",
    "ContentBlock",
    "ExecuteEvent",
    "GuardEvent",
    "ImageRef",
    "Message",
    "PostToolEvent",
    "PreStepEvent",
    "PreToolEvent",
    "RewriteEvent",
    "SessionEndEvent",
    "SessionInfo",
    "SessionStartEvent",
    "ToolCall",
    "ToolResult",
    "ToolResultEvent",
    "TurnEndEvent",
    "TurnStoppingEvent",
    "plugin",
    "points",
    "types",
]

from hookd_plugin._gen.hookd.v1 import points_pb2 as _points_pb2
from hookd_plugin._gen.hookd.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PluginTransport(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PLUGIN_TRANSPORT_UNSPECIFIED: _ClassVar[PluginTransport]
    PLUGIN_TRANSPORT_UNARY: _ClassVar[PluginTransport]
    PLUGIN_TRANSPORT_STREAM: _ClassVar[PluginTransport]
PLUGIN_TRANSPORT_UNSPECIFIED: PluginTransport
PLUGIN_TRANSPORT_UNARY: PluginTransport
PLUGIN_TRANSPORT_STREAM: PluginTransport

class DescribeRequest(_message.Message):
    __slots__ = ("daemon_version", "plugin_name")
    DAEMON_VERSION_FIELD_NUMBER: _ClassVar[int]
    PLUGIN_NAME_FIELD_NUMBER: _ClassVar[int]
    daemon_version: str
    plugin_name: str
    def __init__(self, daemon_version: _Optional[str] = ..., plugin_name: _Optional[str] = ...) -> None: ...

class DescribeResponse(_message.Message):
    __slots__ = ("manifest",)
    MANIFEST_FIELD_NUMBER: _ClassVar[int]
    manifest: PluginManifest
    def __init__(self, manifest: _Optional[_Union[PluginManifest, _Mapping]] = ...) -> None: ...

class PluginManifest(_message.Message):
    __slots__ = ("name", "version", "subscriptions", "side_effect_free", "transport")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIPTIONS_FIELD_NUMBER: _ClassVar[int]
    SIDE_EFFECT_FREE_FIELD_NUMBER: _ClassVar[int]
    TRANSPORT_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    subscriptions: _containers.RepeatedCompositeFieldContainer[Subscription]
    side_effect_free: bool
    transport: PluginTransport
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., subscriptions: _Optional[_Iterable[_Union[Subscription, _Mapping]]] = ..., side_effect_free: _Optional[bool] = ..., transport: _Optional[_Union[PluginTransport, str]] = ...) -> None: ...

class Subscription(_message.Message):
    __slots__ = ("point", "tools", "priority", "deadline_ms", "failure_policy")
    POINT_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    FAILURE_POLICY_FIELD_NUMBER: _ClassVar[int]
    point: _types_pb2.Point
    tools: _containers.RepeatedScalarFieldContainer[str]
    priority: int
    deadline_ms: int
    failure_policy: _types_pb2.FailurePolicy
    def __init__(self, point: _Optional[_Union[_types_pb2.Point, str]] = ..., tools: _Optional[_Iterable[str]] = ..., priority: _Optional[int] = ..., deadline_ms: _Optional[int] = ..., failure_policy: _Optional[_Union[_types_pb2.FailurePolicy, str]] = ...) -> None: ...

class SessionStartRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.SessionStartEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.SessionStartEvent, _Mapping]] = ...) -> None: ...

class SessionStartResponse(_message.Message):
    __slots__ = ("decision",)
    DECISION_FIELD_NUMBER: _ClassVar[int]
    decision: _points_pb2.SessionStartDecision
    def __init__(self, decision: _Optional[_Union[_points_pb2.SessionStartDecision, _Mapping]] = ...) -> None: ...

class PreStepRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.PreStepEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.PreStepEvent, _Mapping]] = ...) -> None: ...

class PreStepResponse(_message.Message):
    __slots__ = ("decision",)
    DECISION_FIELD_NUMBER: _ClassVar[int]
    decision: _points_pb2.PreStepDecision
    def __init__(self, decision: _Optional[_Union[_points_pb2.PreStepDecision, _Mapping]] = ...) -> None: ...

class PreToolRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.PreToolEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.PreToolEvent, _Mapping]] = ...) -> None: ...

class PreToolResponse(_message.Message):
    __slots__ = ("decision",)
    DECISION_FIELD_NUMBER: _ClassVar[int]
    decision: _points_pb2.PreToolDecision
    def __init__(self, decision: _Optional[_Union[_points_pb2.PreToolDecision, _Mapping]] = ...) -> None: ...

class GuardRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.GuardEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.GuardEvent, _Mapping]] = ...) -> None: ...

class GuardResponse(_message.Message):
    __slots__ = ("decision",)
    DECISION_FIELD_NUMBER: _ClassVar[int]
    decision: _points_pb2.GuardDecision
    def __init__(self, decision: _Optional[_Union[_points_pb2.GuardDecision, _Mapping]] = ...) -> None: ...

class ExecuteRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.ExecuteEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.ExecuteEvent, _Mapping]] = ...) -> None: ...

class ExecuteResponse(_message.Message):
    __slots__ = ("decision",)
    DECISION_FIELD_NUMBER: _ClassVar[int]
    decision: _points_pb2.ExecuteDecision
    def __init__(self, decision: _Optional[_Union[_points_pb2.ExecuteDecision, _Mapping]] = ...) -> None: ...

class PostToolRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.PostToolEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.PostToolEvent, _Mapping]] = ...) -> None: ...

class PostToolResponse(_message.Message):
    __slots__ = ("decision",)
    DECISION_FIELD_NUMBER: _ClassVar[int]
    decision: _points_pb2.PostToolDecision
    def __init__(self, decision: _Optional[_Union[_points_pb2.PostToolDecision, _Mapping]] = ...) -> None: ...

class ToolResultRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.ToolResultEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.ToolResultEvent, _Mapping]] = ...) -> None: ...

class ToolResultResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TurnStoppingRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.TurnStoppingEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.TurnStoppingEvent, _Mapping]] = ...) -> None: ...

class TurnStoppingResponse(_message.Message):
    __slots__ = ("decision",)
    DECISION_FIELD_NUMBER: _ClassVar[int]
    decision: _points_pb2.TurnStoppingDecision
    def __init__(self, decision: _Optional[_Union[_points_pb2.TurnStoppingDecision, _Mapping]] = ...) -> None: ...

class RewriteRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.RewriteEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.RewriteEvent, _Mapping]] = ...) -> None: ...

class RewriteResponse(_message.Message):
    __slots__ = ("decision",)
    DECISION_FIELD_NUMBER: _ClassVar[int]
    decision: _points_pb2.RewriteDecision
    def __init__(self, decision: _Optional[_Union[_points_pb2.RewriteDecision, _Mapping]] = ...) -> None: ...

class ApproveRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.ApprovalEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.ApprovalEvent, _Mapping]] = ...) -> None: ...

class ApproveResponse(_message.Message):
    __slots__ = ("decision",)
    DECISION_FIELD_NUMBER: _ClassVar[int]
    decision: _points_pb2.ApprovalDecision
    def __init__(self, decision: _Optional[_Union[_points_pb2.ApprovalDecision, _Mapping]] = ...) -> None: ...

class SessionEndRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.SessionEndEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.SessionEndEvent, _Mapping]] = ...) -> None: ...

class SessionEndResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TurnEndRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.TurnEndEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.TurnEndEvent, _Mapping]] = ...) -> None: ...

class TurnEndResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AgentEventRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.AgentEventEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.AgentEventEvent, _Mapping]] = ...) -> None: ...

class AgentEventResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AttachRequest(_message.Message):
    __slots__ = ("open", "call", "cancel")
    OPEN_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    CANCEL_FIELD_NUMBER: _ClassVar[int]
    open: AttachOpen
    call: AttachCall
    cancel: AttachCancel
    def __init__(self, open: _Optional[_Union[AttachOpen, _Mapping]] = ..., call: _Optional[_Union[AttachCall, _Mapping]] = ..., cancel: _Optional[_Union[AttachCancel, _Mapping]] = ...) -> None: ...

class AttachOpen(_message.Message):
    __slots__ = ("daemon_version", "plugin_name", "window")
    DAEMON_VERSION_FIELD_NUMBER: _ClassVar[int]
    PLUGIN_NAME_FIELD_NUMBER: _ClassVar[int]
    WINDOW_FIELD_NUMBER: _ClassVar[int]
    daemon_version: str
    plugin_name: str
    window: int
    def __init__(self, daemon_version: _Optional[str] = ..., plugin_name: _Optional[str] = ..., window: _Optional[int] = ...) -> None: ...

class AttachCall(_message.Message):
    __slots__ = ("call_id", "deadline_ms", "traceparent", "session_start", "pre_step", "pre_tool", "guard", "execute", "post_tool", "tool_result", "turn_stopping", "rewrite", "approve", "session_end", "turn_end", "agent_event")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    TRACEPARENT_FIELD_NUMBER: _ClassVar[int]
    SESSION_START_FIELD_NUMBER: _ClassVar[int]
    PRE_STEP_FIELD_NUMBER: _ClassVar[int]
    PRE_TOOL_FIELD_NUMBER: _ClassVar[int]
    GUARD_FIELD_NUMBER: _ClassVar[int]
    EXECUTE_FIELD_NUMBER: _ClassVar[int]
    POST_TOOL_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESULT_FIELD_NUMBER: _ClassVar[int]
    TURN_STOPPING_FIELD_NUMBER: _ClassVar[int]
    REWRITE_FIELD_NUMBER: _ClassVar[int]
    APPROVE_FIELD_NUMBER: _ClassVar[int]
    SESSION_END_FIELD_NUMBER: _ClassVar[int]
    TURN_END_FIELD_NUMBER: _ClassVar[int]
    AGENT_EVENT_FIELD_NUMBER: _ClassVar[int]
    call_id: int
    deadline_ms: int
    traceparent: str
    session_start: SessionStartRequest
    pre_step: PreStepRequest
    pre_tool: PreToolRequest
    guard: GuardRequest
    execute: ExecuteRequest
    post_tool: PostToolRequest
    tool_result: ToolResultRequest
    turn_stopping: TurnStoppingRequest
    rewrite: RewriteRequest
    approve: ApproveRequest
    session_end: SessionEndRequest
    turn_end: TurnEndRequest
    agent_event: AgentEventRequest
    def __init__(self, call_id: _Optional[int] = ..., deadline_ms: _Optional[int] = ..., traceparent: _Optional[str] = ..., session_start: _Optional[_Union[SessionStartRequest, _Mapping]] = ..., pre_step: _Optional[_Union[PreStepRequest, _Mapping]] = ..., pre_tool: _Optional[_Union[PreToolRequest, _Mapping]] = ..., guard: _Optional[_Union[GuardRequest, _Mapping]] = ..., execute: _Optional[_Union[ExecuteRequest, _Mapping]] = ..., post_tool: _Optional[_Union[PostToolRequest, _Mapping]] = ..., tool_result: _Optional[_Union[ToolResultRequest, _Mapping]] = ..., turn_stopping: _Optional[_Union[TurnStoppingRequest, _Mapping]] = ..., rewrite: _Optional[_Union[RewriteRequest, _Mapping]] = ..., approve: _Optional[_Union[ApproveRequest, _Mapping]] = ..., session_end: _Optional[_Union[SessionEndRequest, _Mapping]] = ..., turn_end: _Optional[_Union[TurnEndRequest, _Mapping]] = ..., agent_event: _Optional[_Union[AgentEventRequest, _Mapping]] = ...) -> None: ...

class AttachCancel(_message.Message):
    __slots__ = ("call_id",)
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    call_id: int
    def __init__(self, call_id: _Optional[int] = ...) -> None: ...

class AttachResponse(_message.Message):
    __slots__ = ("call_id", "error", "session_start", "pre_step", "pre_tool", "guard", "execute", "post_tool", "tool_result", "turn_stopping", "rewrite", "approve", "session_end", "turn_end", "agent_event")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    SESSION_START_FIELD_NUMBER: _ClassVar[int]
    PRE_STEP_FIELD_NUMBER: _ClassVar[int]
    PRE_TOOL_FIELD_NUMBER: _ClassVar[int]
    GUARD_FIELD_NUMBER: _ClassVar[int]
    EXECUTE_FIELD_NUMBER: _ClassVar[int]
    POST_TOOL_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESULT_FIELD_NUMBER: _ClassVar[int]
    TURN_STOPPING_FIELD_NUMBER: _ClassVar[int]
    REWRITE_FIELD_NUMBER: _ClassVar[int]
    APPROVE_FIELD_NUMBER: _ClassVar[int]
    SESSION_END_FIELD_NUMBER: _ClassVar[int]
    TURN_END_FIELD_NUMBER: _ClassVar[int]
    AGENT_EVENT_FIELD_NUMBER: _ClassVar[int]
    call_id: int
    error: _types_pb2.CallError
    session_start: SessionStartResponse
    pre_step: PreStepResponse
    pre_tool: PreToolResponse
    guard: GuardResponse
    execute: ExecuteResponse
    post_tool: PostToolResponse
    tool_result: ToolResultResponse
    turn_stopping: TurnStoppingResponse
    rewrite: RewriteResponse
    approve: ApproveResponse
    session_end: SessionEndResponse
    turn_end: TurnEndResponse
    agent_event: AgentEventResponse
    def __init__(self, call_id: _Optional[int] = ..., error: _Optional[_Union[_types_pb2.CallError, _Mapping]] = ..., session_start: _Optional[_Union[SessionStartResponse, _Mapping]] = ..., pre_step: _Optional[_Union[PreStepResponse, _Mapping]] = ..., pre_tool: _Optional[_Union[PreToolResponse, _Mapping]] = ..., guard: _Optional[_Union[GuardResponse, _Mapping]] = ..., execute: _Optional[_Union[ExecuteResponse, _Mapping]] = ..., post_tool: _Optional[_Union[PostToolResponse, _Mapping]] = ..., tool_result: _Optional[_Union[ToolResultResponse, _Mapping]] = ..., turn_stopping: _Optional[_Union[TurnStoppingResponse, _Mapping]] = ..., rewrite: _Optional[_Union[RewriteResponse, _Mapping]] = ..., approve: _Optional[_Union[ApproveResponse, _Mapping]] = ..., session_end: _Optional[_Union[SessionEndResponse, _Mapping]] = ..., turn_end: _Optional[_Union[TurnEndResponse, _Mapping]] = ..., agent_event: _Optional[_Union[AgentEventResponse, _Mapping]] = ...) -> None: ...

from hookd.v1 import points_pb2 as _points_pb2
from hookd.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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
    __slots__ = ("name", "version", "subscriptions", "side_effect_free")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIPTIONS_FIELD_NUMBER: _ClassVar[int]
    SIDE_EFFECT_FREE_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    subscriptions: _containers.RepeatedCompositeFieldContainer[Subscription]
    side_effect_free: bool
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., subscriptions: _Optional[_Iterable[_Union[Subscription, _Mapping]]] = ..., side_effect_free: _Optional[bool] = ...) -> None: ...

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

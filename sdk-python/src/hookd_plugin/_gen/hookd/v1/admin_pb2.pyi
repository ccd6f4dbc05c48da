from hookd_plugin._gen.hookd.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PluginHealth(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PLUGIN_HEALTH_UNSPECIFIED: _ClassVar[PluginHealth]
    PLUGIN_HEALTH_SERVING: _ClassVar[PluginHealth]
    PLUGIN_HEALTH_STARTING: _ClassVar[PluginHealth]
    PLUGIN_HEALTH_EJECTED: _ClassVar[PluginHealth]
    PLUGIN_HEALTH_UNAVAILABLE: _ClassVar[PluginHealth]
    PLUGIN_HEALTH_CONNECTING: _ClassVar[PluginHealth]
PLUGIN_HEALTH_UNSPECIFIED: PluginHealth
PLUGIN_HEALTH_SERVING: PluginHealth
PLUGIN_HEALTH_STARTING: PluginHealth
PLUGIN_HEALTH_EJECTED: PluginHealth
PLUGIN_HEALTH_UNAVAILABLE: PluginHealth
PLUGIN_HEALTH_CONNECTING: PluginHealth

class GetStatusRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetStatusResponse(_message.Message):
    __slots__ = ("version", "pid", "uptime_ms", "agents_connected", "sessions_open", "listeners", "config_path", "config_generation", "instance_id", "config_version")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    PID_FIELD_NUMBER: _ClassVar[int]
    UPTIME_MS_FIELD_NUMBER: _ClassVar[int]
    AGENTS_CONNECTED_FIELD_NUMBER: _ClassVar[int]
    SESSIONS_OPEN_FIELD_NUMBER: _ClassVar[int]
    LISTENERS_FIELD_NUMBER: _ClassVar[int]
    CONFIG_PATH_FIELD_NUMBER: _ClassVar[int]
    CONFIG_GENERATION_FIELD_NUMBER: _ClassVar[int]
    INSTANCE_ID_FIELD_NUMBER: _ClassVar[int]
    CONFIG_VERSION_FIELD_NUMBER: _ClassVar[int]
    version: str
    pid: int
    uptime_ms: int
    agents_connected: int
    sessions_open: int
    listeners: _containers.RepeatedScalarFieldContainer[str]
    config_path: str
    config_generation: int
    instance_id: str
    config_version: str
    def __init__(self, version: _Optional[str] = ..., pid: _Optional[int] = ..., uptime_ms: _Optional[int] = ..., agents_connected: _Optional[int] = ..., sessions_open: _Optional[int] = ..., listeners: _Optional[_Iterable[str]] = ..., config_path: _Optional[str] = ..., config_generation: _Optional[int] = ..., instance_id: _Optional[str] = ..., config_version: _Optional[str] = ...) -> None: ...

class ListPluginsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListPluginsResponse(_message.Message):
    __slots__ = ("plugins",)
    PLUGINS_FIELD_NUMBER: _ClassVar[int]
    plugins: _containers.RepeatedCompositeFieldContainer[PluginStatus]
    def __init__(self, plugins: _Optional[_Iterable[_Union[PluginStatus, _Mapping]]] = ...) -> None: ...

class PluginStatus(_message.Message):
    __slots__ = ("name", "kind", "target", "health", "points", "calls", "failures", "latency_p50_us", "latency_p99_us", "restarts", "last_error", "subscriptions", "transport", "refused_answers")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    HEALTH_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    CALLS_FIELD_NUMBER: _ClassVar[int]
    FAILURES_FIELD_NUMBER: _ClassVar[int]
    LATENCY_P50_US_FIELD_NUMBER: _ClassVar[int]
    LATENCY_P99_US_FIELD_NUMBER: _ClassVar[int]
    RESTARTS_FIELD_NUMBER: _ClassVar[int]
    LAST_ERROR_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIPTIONS_FIELD_NUMBER: _ClassVar[int]
    TRANSPORT_FIELD_NUMBER: _ClassVar[int]
    REFUSED_ANSWERS_FIELD_NUMBER: _ClassVar[int]
    name: str
    kind: str
    target: str
    health: PluginHealth
    points: _containers.RepeatedScalarFieldContainer[_types_pb2.Point]
    calls: int
    failures: int
    latency_p50_us: int
    latency_p99_us: int
    restarts: int
    last_error: str
    subscriptions: str
    transport: str
    refused_answers: int
    def __init__(self, name: _Optional[str] = ..., kind: _Optional[str] = ..., target: _Optional[str] = ..., health: _Optional[_Union[PluginHealth, str]] = ..., points: _Optional[_Iterable[_Union[_types_pb2.Point, str]]] = ..., calls: _Optional[int] = ..., failures: _Optional[int] = ..., latency_p50_us: _Optional[int] = ..., latency_p99_us: _Optional[int] = ..., restarts: _Optional[int] = ..., last_error: _Optional[str] = ..., subscriptions: _Optional[str] = ..., transport: _Optional[str] = ..., refused_answers: _Optional[int] = ...) -> None: ...

class ReloadRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ReloadResponse(_message.Message):
    __slots__ = ("applied", "error", "config_generation")
    APPLIED_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    CONFIG_GENERATION_FIELD_NUMBER: _ClassVar[int]
    applied: bool
    error: str
    config_generation: int
    def __init__(self, applied: _Optional[bool] = ..., error: _Optional[str] = ..., config_generation: _Optional[int] = ...) -> None: ...

class TailAuditRequest(_message.Message):
    __slots__ = ("session_id", "plugin", "point")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    PLUGIN_FIELD_NUMBER: _ClassVar[int]
    POINT_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    plugin: str
    point: _types_pb2.Point
    def __init__(self, session_id: _Optional[str] = ..., plugin: _Optional[str] = ..., point: _Optional[_Union[_types_pb2.Point, str]] = ...) -> None: ...

class TailAuditResponse(_message.Message):
    __slots__ = ("record",)
    RECORD_FIELD_NUMBER: _ClassVar[int]
    record: AuditRecord
    def __init__(self, record: _Optional[_Union[AuditRecord, _Mapping]] = ...) -> None: ...

class AuditRecord(_message.Message):
    __slots__ = ("time", "kind", "agent_id", "session_id", "turn", "step", "call_id", "plugin", "point", "decision", "reason", "cause", "duration_us", "outcome", "arguments_json", "original_arguments_json", "rewritten_by", "event_name", "instance_id", "trace_id", "config_version", "retry", "rule", "user_message", "stop_agent")
    TIME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    PLUGIN_FIELD_NUMBER: _ClassVar[int]
    POINT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CAUSE_FIELD_NUMBER: _ClassVar[int]
    DURATION_US_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_JSON_FIELD_NUMBER: _ClassVar[int]
    ORIGINAL_ARGUMENTS_JSON_FIELD_NUMBER: _ClassVar[int]
    REWRITTEN_BY_FIELD_NUMBER: _ClassVar[int]
    EVENT_NAME_FIELD_NUMBER: _ClassVar[int]
    INSTANCE_ID_FIELD_NUMBER: _ClassVar[int]
    TRACE_ID_FIELD_NUMBER: _ClassVar[int]
    CONFIG_VERSION_FIELD_NUMBER: _ClassVar[int]
    RETRY_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    USER_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    STOP_AGENT_FIELD_NUMBER: _ClassVar[int]
    time: str
    kind: str
    agent_id: str
    session_id: str
    turn: int
    step: int
    call_id: str
    plugin: str
    point: _types_pb2.Point
    decision: str
    reason: str
    cause: str
    duration_us: int
    outcome: str
    arguments_json: str
    original_arguments_json: str
    rewritten_by: _containers.RepeatedScalarFieldContainer[str]
    event_name: str
    instance_id: str
    trace_id: str
    config_version: str
    retry: bool
    rule: str
    user_message: str
    stop_agent: str
    def __init__(self, time: _Optional[str] = ..., kind: _Optional[str] = ..., agent_id: _Optional[str] = ..., session_id: _Optional[str] = ..., turn: _Optional[int] = ..., step: _Optional[int] = ..., call_id: _Optional[str] = ..., plugin: _Optional[str] = ..., point: _Optional[_Union[_types_pb2.Point, str]] = ..., decision: _Optional[str] = ..., reason: _Optional[str] = ..., cause: _Optional[str] = ..., duration_us: _Optional[int] = ..., outcome: _Optional[str] = ..., arguments_json: _Optional[str] = ..., original_arguments_json: _Optional[str] = ..., rewritten_by: _Optional[_Iterable[str]] = ..., event_name: _Optional[str] = ..., instance_id: _Optional[str] = ..., trace_id: _Optional[str] = ..., config_version: _Optional[str] = ..., retry: _Optional[bool] = ..., rule: _Optional[str] = ..., user_message: _Optional[str] = ..., stop_agent: _Optional[str] = ...) -> None: ...

from hookd_plugin._gen.hookd.v1 import point_options_pb2 as _point_options_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Point(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    POINT_UNSPECIFIED: _ClassVar[Point]
    POINT_SESSION_START: _ClassVar[Point]
    POINT_PRE_STEP: _ClassVar[Point]
    POINT_PRE_TOOL: _ClassVar[Point]
    POINT_GUARD: _ClassVar[Point]
    POINT_EXECUTE: _ClassVar[Point]
    POINT_POST_TOOL: _ClassVar[Point]
    POINT_TOOL_RESULT: _ClassVar[Point]
    POINT_TURN_STOPPING: _ClassVar[Point]
    POINT_REWRITE: _ClassVar[Point]
    POINT_APPROVAL: _ClassVar[Point]
    POINT_SESSION_END: _ClassVar[Point]
    POINT_TURN_END: _ClassVar[Point]
    POINT_AGENT_EVENT: _ClassVar[Point]

class AgentDialect(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AGENT_DIALECT_UNSPECIFIED: _ClassVar[AgentDialect]
    AGENT_DIALECT_CLAUDE_CODE: _ClassVar[AgentDialect]
    AGENT_DIALECT_CODEX: _ClassVar[AgentDialect]
    AGENT_DIALECT_GEMINI: _ClassVar[AgentDialect]
    AGENT_DIALECT_QWEN_CODE: _ClassVar[AgentDialect]
    AGENT_DIALECT_COPILOT_CLI: _ClassVar[AgentDialect]
    AGENT_DIALECT_DROID: _ClassVar[AgentDialect]
    AGENT_DIALECT_CLINE: _ClassVar[AgentDialect]
    AGENT_DIALECT_OPENCODE: _ClassVar[AgentDialect]
    AGENT_DIALECT_PI: _ClassVar[AgentDialect]

class FailurePolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FAILURE_POLICY_UNSPECIFIED: _ClassVar[FailurePolicy]
    FAILURE_POLICY_FAIL_CLOSED: _ClassVar[FailurePolicy]
    FAILURE_POLICY_FAIL_OPEN: _ClassVar[FailurePolicy]

class Role(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROLE_UNSPECIFIED: _ClassVar[Role]
    ROLE_USER: _ClassVar[Role]
    ROLE_ASSISTANT: _ClassVar[Role]

class SessionSource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SESSION_SOURCE_UNSPECIFIED: _ClassVar[SessionSource]
    SESSION_SOURCE_STARTUP: _ClassVar[SessionSource]
    SESSION_SOURCE_RESUME: _ClassVar[SessionSource]
    SESSION_SOURCE_CLEAR: _ClassVar[SessionSource]
    SESSION_SOURCE_COMPACT: _ClassVar[SessionSource]
    SESSION_SOURCE_SUBAGENT: _ClassVar[SessionSource]

class SessionEndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SESSION_END_REASON_UNSPECIFIED: _ClassVar[SessionEndReason]
    SESSION_END_REASON_CLOSED: _ClassVar[SessionEndReason]
    SESSION_END_REASON_CLEARED: _ClassVar[SessionEndReason]
    SESSION_END_REASON_DISCONNECTED: _ClassVar[SessionEndReason]
    SESSION_END_REASON_EXPIRED: _ClassVar[SessionEndReason]
    SESSION_END_REASON_DAEMON_STOPPING: _ClassVar[SessionEndReason]
POINT_UNSPECIFIED: Point
POINT_SESSION_START: Point
POINT_PRE_STEP: Point
POINT_PRE_TOOL: Point
POINT_GUARD: Point
POINT_EXECUTE: Point
POINT_POST_TOOL: Point
POINT_TOOL_RESULT: Point
POINT_TURN_STOPPING: Point
POINT_REWRITE: Point
POINT_APPROVAL: Point
POINT_SESSION_END: Point
POINT_TURN_END: Point
POINT_AGENT_EVENT: Point
AGENT_DIALECT_UNSPECIFIED: AgentDialect
AGENT_DIALECT_CLAUDE_CODE: AgentDialect
AGENT_DIALECT_CODEX: AgentDialect
AGENT_DIALECT_GEMINI: AgentDialect
AGENT_DIALECT_QWEN_CODE: AgentDialect
AGENT_DIALECT_COPILOT_CLI: AgentDialect
AGENT_DIALECT_DROID: AgentDialect
AGENT_DIALECT_CLINE: AgentDialect
AGENT_DIALECT_OPENCODE: AgentDialect
AGENT_DIALECT_PI: AgentDialect
FAILURE_POLICY_UNSPECIFIED: FailurePolicy
FAILURE_POLICY_FAIL_CLOSED: FailurePolicy
FAILURE_POLICY_FAIL_OPEN: FailurePolicy
ROLE_UNSPECIFIED: Role
ROLE_USER: Role
ROLE_ASSISTANT: Role
SESSION_SOURCE_UNSPECIFIED: SessionSource
SESSION_SOURCE_STARTUP: SessionSource
SESSION_SOURCE_RESUME: SessionSource
SESSION_SOURCE_CLEAR: SessionSource
SESSION_SOURCE_COMPACT: SessionSource
SESSION_SOURCE_SUBAGENT: SessionSource
SESSION_END_REASON_UNSPECIFIED: SessionEndReason
SESSION_END_REASON_CLOSED: SessionEndReason
SESSION_END_REASON_CLEARED: SessionEndReason
SESSION_END_REASON_DISCONNECTED: SessionEndReason
SESSION_END_REASON_EXPIRED: SessionEndReason
SESSION_END_REASON_DAEMON_STOPPING: SessionEndReason

class ContentBlock(_message.Message):
    __slots__ = ("text", "json", "image")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    IMAGE_FIELD_NUMBER: _ClassVar[int]
    text: str
    json: str
    image: ImageRef
    def __init__(self, text: _Optional[str] = ..., json: _Optional[str] = ..., image: _Optional[_Union[ImageRef, _Mapping]] = ...) -> None: ...

class ImageRef(_message.Message):
    __slots__ = ("uri", "media_type")
    URI_FIELD_NUMBER: _ClassVar[int]
    MEDIA_TYPE_FIELD_NUMBER: _ClassVar[int]
    uri: str
    media_type: str
    def __init__(self, uri: _Optional[str] = ..., media_type: _Optional[str] = ...) -> None: ...

class MessageSource(_message.Message):
    __slots__ = ("user", "plugin", "tool", "model")
    USER_FIELD_NUMBER: _ClassVar[int]
    PLUGIN_FIELD_NUMBER: _ClassVar[int]
    TOOL_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    user: UserSource
    plugin: PluginSource
    tool: ToolSource
    model: ModelSource
    def __init__(self, user: _Optional[_Union[UserSource, _Mapping]] = ..., plugin: _Optional[_Union[PluginSource, _Mapping]] = ..., tool: _Optional[_Union[ToolSource, _Mapping]] = ..., model: _Optional[_Union[ModelSource, _Mapping]] = ...) -> None: ...

class UserSource(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PluginSource(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class ToolSource(_message.Message):
    __slots__ = ("call_id",)
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    def __init__(self, call_id: _Optional[str] = ...) -> None: ...

class ModelSource(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Message(_message.Message):
    __slots__ = ("id", "role", "content", "source")
    ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    id: str
    role: Role
    content: _containers.RepeatedCompositeFieldContainer[ContentBlock]
    source: MessageSource
    def __init__(self, id: _Optional[str] = ..., role: _Optional[_Union[Role, str]] = ..., content: _Optional[_Iterable[_Union[ContentBlock, _Mapping]]] = ..., source: _Optional[_Union[MessageSource, _Mapping]] = ...) -> None: ...

class ToolDefinition(_message.Message):
    __slots__ = ("name", "description", "input_schema_json", "concurrency_safe", "finalizes_content")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    INPUT_SCHEMA_JSON_FIELD_NUMBER: _ClassVar[int]
    CONCURRENCY_SAFE_FIELD_NUMBER: _ClassVar[int]
    FINALIZES_CONTENT_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    input_schema_json: str
    concurrency_safe: bool
    finalizes_content: bool
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., input_schema_json: _Optional[str] = ..., concurrency_safe: _Optional[bool] = ..., finalizes_content: _Optional[bool] = ...) -> None: ...

class ProposedToolCall(_message.Message):
    __slots__ = ("call_id", "tool_name", "arguments_json")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_JSON_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    tool_name: str
    arguments_json: str
    def __init__(self, call_id: _Optional[str] = ..., tool_name: _Optional[str] = ..., arguments_json: _Optional[str] = ...) -> None: ...

class ToolCall(_message.Message):
    __slots__ = ("call_id", "root_call_id", "parent_call_id", "tool_name", "arguments_json", "session_id", "turn", "step", "original_arguments_json", "rewritten_by")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    ROOT_CALL_ID_FIELD_NUMBER: _ClassVar[int]
    PARENT_CALL_ID_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_JSON_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    ORIGINAL_ARGUMENTS_JSON_FIELD_NUMBER: _ClassVar[int]
    REWRITTEN_BY_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    root_call_id: str
    parent_call_id: str
    tool_name: str
    arguments_json: str
    session_id: str
    turn: int
    step: int
    original_arguments_json: str
    rewritten_by: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, call_id: _Optional[str] = ..., root_call_id: _Optional[str] = ..., parent_call_id: _Optional[str] = ..., tool_name: _Optional[str] = ..., arguments_json: _Optional[str] = ..., session_id: _Optional[str] = ..., turn: _Optional[int] = ..., step: _Optional[int] = ..., original_arguments_json: _Optional[str] = ..., rewritten_by: _Optional[_Iterable[str]] = ...) -> None: ...

class ToolResult(_message.Message):
    __slots__ = ("success", "failure", "contexts")
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    CONTEXTS_FIELD_NUMBER: _ClassVar[int]
    success: ToolSuccess
    failure: ToolFailure
    contexts: _containers.RepeatedCompositeFieldContainer[Message]
    def __init__(self, success: _Optional[_Union[ToolSuccess, _Mapping]] = ..., failure: _Optional[_Union[ToolFailure, _Mapping]] = ..., contexts: _Optional[_Iterable[_Union[Message, _Mapping]]] = ...) -> None: ...

class ToolSuccess(_message.Message):
    __slots__ = ("value_json", "content", "metadata_json")
    VALUE_JSON_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    METADATA_JSON_FIELD_NUMBER: _ClassVar[int]
    value_json: str
    content: _containers.RepeatedCompositeFieldContainer[ContentBlock]
    metadata_json: str
    def __init__(self, value_json: _Optional[str] = ..., content: _Optional[_Iterable[_Union[ContentBlock, _Mapping]]] = ..., metadata_json: _Optional[str] = ...) -> None: ...

class ToolFailure(_message.Message):
    __slots__ = ("message", "code", "name", "content")
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    message: str
    code: str
    name: str
    content: _containers.RepeatedCompositeFieldContainer[ContentBlock]
    def __init__(self, message: _Optional[str] = ..., code: _Optional[str] = ..., name: _Optional[str] = ..., content: _Optional[_Iterable[_Union[ContentBlock, _Mapping]]] = ...) -> None: ...

class SessionInfo(_message.Message):
    __slots__ = ("session_id", "agent_id", "cwd", "parent_session_id", "agent_type")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    CWD_FIELD_NUMBER: _ClassVar[int]
    PARENT_SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    agent_id: str
    cwd: str
    parent_session_id: str
    agent_type: str
    def __init__(self, session_id: _Optional[str] = ..., agent_id: _Optional[str] = ..., cwd: _Optional[str] = ..., parent_session_id: _Optional[str] = ..., agent_type: _Optional[str] = ...) -> None: ...

class CallError(_message.Message):
    __slots__ = ("code", "message")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    code: int
    message: str
    def __init__(self, code: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

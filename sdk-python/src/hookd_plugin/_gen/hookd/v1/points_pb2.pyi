from hookd_plugin._gen.hookd.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TurnEndOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TURN_END_OUTCOME_UNSPECIFIED: _ClassVar[TurnEndOutcome]
    TURN_END_OUTCOME_COMPLETED: _ClassVar[TurnEndOutcome]
    TURN_END_OUTCOME_BLOCKED: _ClassVar[TurnEndOutcome]
    TURN_END_OUTCOME_CONTINUATION_CAP: _ClassVar[TurnEndOutcome]
    TURN_END_OUTCOME_CANCELLED: _ClassVar[TurnEndOutcome]
    TURN_END_OUTCOME_ERROR: _ClassVar[TurnEndOutcome]
TURN_END_OUTCOME_UNSPECIFIED: TurnEndOutcome
TURN_END_OUTCOME_COMPLETED: TurnEndOutcome
TURN_END_OUTCOME_BLOCKED: TurnEndOutcome
TURN_END_OUTCOME_CONTINUATION_CAP: TurnEndOutcome
TURN_END_OUTCOME_CANCELLED: TurnEndOutcome
TURN_END_OUTCOME_ERROR: TurnEndOutcome

class Pass(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class StopAgent(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class SessionStartEvent(_message.Message):
    __slots__ = ("session", "source", "tools")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    session: _types_pb2.SessionInfo
    source: _types_pb2.SessionSource
    tools: _containers.RepeatedCompositeFieldContainer[_types_pb2.ToolDefinition]
    def __init__(self, session: _Optional[_Union[_types_pb2.SessionInfo, _Mapping]] = ..., source: _Optional[_Union[_types_pb2.SessionSource, str]] = ..., tools: _Optional[_Iterable[_Union[_types_pb2.ToolDefinition, _Mapping]]] = ...) -> None: ...

class SessionStartDecision(_message.Message):
    __slots__ = ("inject", "user_message", "stop_agent")
    PASS_FIELD_NUMBER: _ClassVar[int]
    INJECT_FIELD_NUMBER: _ClassVar[int]
    USER_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    STOP_AGENT_FIELD_NUMBER: _ClassVar[int]
    inject: Inject
    user_message: str
    stop_agent: StopAgent
    def __init__(self, inject: _Optional[_Union[Inject, _Mapping]] = ..., user_message: _Optional[str] = ..., stop_agent: _Optional[_Union[StopAgent, _Mapping]] = ..., **kwargs) -> None: ...

class Inject(_message.Message):
    __slots__ = ("messages",)
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedCompositeFieldContainer[_types_pb2.Message]
    def __init__(self, messages: _Optional[_Iterable[_Union[_types_pb2.Message, _Mapping]]] = ...) -> None: ...

class PreStepEvent(_message.Message):
    __slots__ = ("session", "turn", "step", "messages")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    session: _types_pb2.SessionInfo
    turn: int
    step: int
    messages: _containers.RepeatedCompositeFieldContainer[_types_pb2.Message]
    def __init__(self, session: _Optional[_Union[_types_pb2.SessionInfo, _Mapping]] = ..., turn: _Optional[int] = ..., step: _Optional[int] = ..., messages: _Optional[_Iterable[_Union[_types_pb2.Message, _Mapping]]] = ...) -> None: ...

class PreStepDecision(_message.Message):
    __slots__ = ("enter", "reject", "user_message", "stop_agent")
    PASS_FIELD_NUMBER: _ClassVar[int]
    ENTER_FIELD_NUMBER: _ClassVar[int]
    REJECT_FIELD_NUMBER: _ClassVar[int]
    USER_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    STOP_AGENT_FIELD_NUMBER: _ClassVar[int]
    enter: Enter
    reject: Reject
    user_message: str
    stop_agent: StopAgent
    def __init__(self, enter: _Optional[_Union[Enter, _Mapping]] = ..., reject: _Optional[_Union[Reject, _Mapping]] = ..., user_message: _Optional[str] = ..., stop_agent: _Optional[_Union[StopAgent, _Mapping]] = ..., **kwargs) -> None: ...

class Enter(_message.Message):
    __slots__ = ("messages",)
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedCompositeFieldContainer[_types_pb2.Message]
    def __init__(self, messages: _Optional[_Iterable[_Union[_types_pb2.Message, _Mapping]]] = ...) -> None: ...

class Reject(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class PreToolEvent(_message.Message):
    __slots__ = ("session", "call")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    session: _types_pb2.SessionInfo
    call: _types_pb2.ToolCall
    def __init__(self, session: _Optional[_Union[_types_pb2.SessionInfo, _Mapping]] = ..., call: _Optional[_Union[_types_pb2.ToolCall, _Mapping]] = ...) -> None: ...

class PreToolDecision(_message.Message):
    __slots__ = ("allow", "deny", "ask", "user_message", "stop_agent")
    PASS_FIELD_NUMBER: _ClassVar[int]
    ALLOW_FIELD_NUMBER: _ClassVar[int]
    DENY_FIELD_NUMBER: _ClassVar[int]
    ASK_FIELD_NUMBER: _ClassVar[int]
    USER_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    STOP_AGENT_FIELD_NUMBER: _ClassVar[int]
    allow: Allow
    deny: Deny
    ask: Ask
    user_message: str
    stop_agent: StopAgent
    def __init__(self, allow: _Optional[_Union[Allow, _Mapping]] = ..., deny: _Optional[_Union[Deny, _Mapping]] = ..., ask: _Optional[_Union[Ask, _Mapping]] = ..., user_message: _Optional[str] = ..., stop_agent: _Optional[_Union[StopAgent, _Mapping]] = ..., **kwargs) -> None: ...

class Allow(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Deny(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class Ask(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class GuardEvent(_message.Message):
    __slots__ = ("session", "call")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    session: _types_pb2.SessionInfo
    call: _types_pb2.ToolCall
    def __init__(self, session: _Optional[_Union[_types_pb2.SessionInfo, _Mapping]] = ..., call: _Optional[_Union[_types_pb2.ToolCall, _Mapping]] = ...) -> None: ...

class GuardDecision(_message.Message):
    __slots__ = ("abstain", "deny")
    ABSTAIN_FIELD_NUMBER: _ClassVar[int]
    DENY_FIELD_NUMBER: _ClassVar[int]
    abstain: Abstain
    deny: Deny
    def __init__(self, abstain: _Optional[_Union[Abstain, _Mapping]] = ..., deny: _Optional[_Union[Deny, _Mapping]] = ...) -> None: ...

class Abstain(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ExecuteEvent(_message.Message):
    __slots__ = ("session", "call")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    session: _types_pb2.SessionInfo
    call: _types_pb2.ToolCall
    def __init__(self, session: _Optional[_Union[_types_pb2.SessionInfo, _Mapping]] = ..., call: _Optional[_Union[_types_pb2.ToolCall, _Mapping]] = ...) -> None: ...

class ExecuteDecision(_message.Message):
    __slots__ = ("result",)
    PASS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _types_pb2.ToolResult
    def __init__(self, result: _Optional[_Union[_types_pb2.ToolResult, _Mapping]] = ..., **kwargs) -> None: ...

class PostToolEvent(_message.Message):
    __slots__ = ("session", "call", "result")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    session: _types_pb2.SessionInfo
    call: _types_pb2.ToolCall
    result: _types_pb2.ToolResult
    def __init__(self, session: _Optional[_Union[_types_pb2.SessionInfo, _Mapping]] = ..., call: _Optional[_Union[_types_pb2.ToolCall, _Mapping]] = ..., result: _Optional[_Union[_types_pb2.ToolResult, _Mapping]] = ...) -> None: ...

class PostToolDecision(_message.Message):
    __slots__ = ("accept", "block", "user_message", "stop_agent")
    PASS_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_FIELD_NUMBER: _ClassVar[int]
    BLOCK_FIELD_NUMBER: _ClassVar[int]
    USER_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    STOP_AGENT_FIELD_NUMBER: _ClassVar[int]
    accept: Accept
    block: Block
    user_message: str
    stop_agent: StopAgent
    def __init__(self, accept: _Optional[_Union[Accept, _Mapping]] = ..., block: _Optional[_Union[Block, _Mapping]] = ..., user_message: _Optional[str] = ..., stop_agent: _Optional[_Union[StopAgent, _Mapping]] = ..., **kwargs) -> None: ...

class Accept(_message.Message):
    __slots__ = ("content", "value_json", "additional_contexts")
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    VALUE_JSON_FIELD_NUMBER: _ClassVar[int]
    ADDITIONAL_CONTEXTS_FIELD_NUMBER: _ClassVar[int]
    content: ContentReplacement
    value_json: str
    additional_contexts: _containers.RepeatedCompositeFieldContainer[_types_pb2.Message]
    def __init__(self, content: _Optional[_Union[ContentReplacement, _Mapping]] = ..., value_json: _Optional[str] = ..., additional_contexts: _Optional[_Iterable[_Union[_types_pb2.Message, _Mapping]]] = ...) -> None: ...

class ContentReplacement(_message.Message):
    __slots__ = ("blocks",)
    BLOCKS_FIELD_NUMBER: _ClassVar[int]
    blocks: _containers.RepeatedCompositeFieldContainer[_types_pb2.ContentBlock]
    def __init__(self, blocks: _Optional[_Iterable[_Union[_types_pb2.ContentBlock, _Mapping]]] = ...) -> None: ...

class Block(_message.Message):
    __slots__ = ("feedback", "additional_contexts")
    FEEDBACK_FIELD_NUMBER: _ClassVar[int]
    ADDITIONAL_CONTEXTS_FIELD_NUMBER: _ClassVar[int]
    feedback: str
    additional_contexts: _containers.RepeatedCompositeFieldContainer[_types_pb2.Message]
    def __init__(self, feedback: _Optional[str] = ..., additional_contexts: _Optional[_Iterable[_Union[_types_pb2.Message, _Mapping]]] = ...) -> None: ...

class ToolResultEvent(_message.Message):
    __slots__ = ("session", "call", "result")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    session: _types_pb2.SessionInfo
    call: _types_pb2.ToolCall
    result: _types_pb2.ToolResult
    def __init__(self, session: _Optional[_Union[_types_pb2.SessionInfo, _Mapping]] = ..., call: _Optional[_Union[_types_pb2.ToolCall, _Mapping]] = ..., result: _Optional[_Union[_types_pb2.ToolResult, _Mapping]] = ...) -> None: ...

class TurnStoppingEvent(_message.Message):
    __slots__ = ("session", "turn", "step", "stop_hook_active", "steered_continuations", "last_assistant_message")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    STOP_HOOK_ACTIVE_FIELD_NUMBER: _ClassVar[int]
    STEERED_CONTINUATIONS_FIELD_NUMBER: _ClassVar[int]
    LAST_ASSISTANT_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    session: _types_pb2.SessionInfo
    turn: int
    step: int
    stop_hook_active: bool
    steered_continuations: int
    last_assistant_message: _types_pb2.Message
    def __init__(self, session: _Optional[_Union[_types_pb2.SessionInfo, _Mapping]] = ..., turn: _Optional[int] = ..., step: _Optional[int] = ..., stop_hook_active: _Optional[bool] = ..., steered_continuations: _Optional[int] = ..., last_assistant_message: _Optional[_Union[_types_pb2.Message, _Mapping]] = ...) -> None: ...

class TurnStoppingDecision(_message.Message):
    __slots__ = ("steer", "user_message", "stop_agent")
    PASS_FIELD_NUMBER: _ClassVar[int]
    STEER_FIELD_NUMBER: _ClassVar[int]
    USER_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    STOP_AGENT_FIELD_NUMBER: _ClassVar[int]
    steer: Steer
    user_message: str
    stop_agent: StopAgent
    def __init__(self, steer: _Optional[_Union[Steer, _Mapping]] = ..., user_message: _Optional[str] = ..., stop_agent: _Optional[_Union[StopAgent, _Mapping]] = ..., **kwargs) -> None: ...

class Steer(_message.Message):
    __slots__ = ("messages",)
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedCompositeFieldContainer[_types_pb2.Message]
    def __init__(self, messages: _Optional[_Iterable[_Union[_types_pb2.Message, _Mapping]]] = ...) -> None: ...

class RewriteEvent(_message.Message):
    __slots__ = ("session", "call")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    session: _types_pb2.SessionInfo
    call: _types_pb2.ToolCall
    def __init__(self, session: _Optional[_Union[_types_pb2.SessionInfo, _Mapping]] = ..., call: _Optional[_Union[_types_pb2.ToolCall, _Mapping]] = ...) -> None: ...

class RewriteDecision(_message.Message):
    __slots__ = ("replace", "patch")
    PASS_FIELD_NUMBER: _ClassVar[int]
    REPLACE_FIELD_NUMBER: _ClassVar[int]
    PATCH_FIELD_NUMBER: _ClassVar[int]
    replace: Replace
    patch: Patch
    def __init__(self, replace: _Optional[_Union[Replace, _Mapping]] = ..., patch: _Optional[_Union[Patch, _Mapping]] = ..., **kwargs) -> None: ...

class Replace(_message.Message):
    __slots__ = ("arguments_json",)
    ARGUMENTS_JSON_FIELD_NUMBER: _ClassVar[int]
    arguments_json: str
    def __init__(self, arguments_json: _Optional[str] = ...) -> None: ...

class Patch(_message.Message):
    __slots__ = ("merge_patch_json",)
    MERGE_PATCH_JSON_FIELD_NUMBER: _ClassVar[int]
    merge_patch_json: str
    def __init__(self, merge_patch_json: _Optional[str] = ...) -> None: ...

class ApprovalEvent(_message.Message):
    __slots__ = ("session", "call", "reason", "asked_by")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ASKED_BY_FIELD_NUMBER: _ClassVar[int]
    session: _types_pb2.SessionInfo
    call: _types_pb2.ToolCall
    reason: str
    asked_by: str
    def __init__(self, session: _Optional[_Union[_types_pb2.SessionInfo, _Mapping]] = ..., call: _Optional[_Union[_types_pb2.ToolCall, _Mapping]] = ..., reason: _Optional[str] = ..., asked_by: _Optional[str] = ...) -> None: ...

class ApprovalDecision(_message.Message):
    __slots__ = ("approve", "reject", "user_message", "stop_agent")
    PASS_FIELD_NUMBER: _ClassVar[int]
    APPROVE_FIELD_NUMBER: _ClassVar[int]
    REJECT_FIELD_NUMBER: _ClassVar[int]
    USER_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    STOP_AGENT_FIELD_NUMBER: _ClassVar[int]
    approve: Approve
    reject: Reject
    user_message: str
    stop_agent: StopAgent
    def __init__(self, approve: _Optional[_Union[Approve, _Mapping]] = ..., reject: _Optional[_Union[Reject, _Mapping]] = ..., user_message: _Optional[str] = ..., stop_agent: _Optional[_Union[StopAgent, _Mapping]] = ..., **kwargs) -> None: ...

class Approve(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SessionEndEvent(_message.Message):
    __slots__ = ("session", "reason", "detail", "turns")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    session: _types_pb2.SessionInfo
    reason: _types_pb2.SessionEndReason
    detail: str
    turns: int
    def __init__(self, session: _Optional[_Union[_types_pb2.SessionInfo, _Mapping]] = ..., reason: _Optional[_Union[_types_pb2.SessionEndReason, str]] = ..., detail: _Optional[str] = ..., turns: _Optional[int] = ...) -> None: ...

class TurnEndEvent(_message.Message):
    __slots__ = ("session", "turn", "outcome", "detail", "steps")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    session: _types_pb2.SessionInfo
    turn: int
    outcome: TurnEndOutcome
    detail: str
    steps: int
    def __init__(self, session: _Optional[_Union[_types_pb2.SessionInfo, _Mapping]] = ..., turn: _Optional[int] = ..., outcome: _Optional[_Union[TurnEndOutcome, str]] = ..., detail: _Optional[str] = ..., steps: _Optional[int] = ...) -> None: ...

class AgentEventEvent(_message.Message):
    __slots__ = ("session", "dialect", "event_name", "payload_json")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    DIALECT_FIELD_NUMBER: _ClassVar[int]
    EVENT_NAME_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_JSON_FIELD_NUMBER: _ClassVar[int]
    session: _types_pb2.SessionInfo
    dialect: _types_pb2.AgentDialect
    event_name: str
    payload_json: str
    def __init__(self, session: _Optional[_Union[_types_pb2.SessionInfo, _Mapping]] = ..., dialect: _Optional[_Union[_types_pb2.AgentDialect, str]] = ..., event_name: _Optional[str] = ..., payload_json: _Optional[str] = ...) -> None: ...

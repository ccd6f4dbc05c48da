from hookd_plugin._gen.hookd.v1 import points_pb2 as _points_pb2
from hookd_plugin._gen.hookd.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PromptKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PROMPT_KIND_UNSPECIFIED: _ClassVar[PromptKind]
    PROMPT_KIND_FOLLOW_UP: _ClassVar[PromptKind]
    PROMPT_KIND_STEER: _ClassVar[PromptKind]
    PROMPT_KIND_INJECT: _ClassVar[PromptKind]

class ApprovalOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    APPROVAL_OUTCOME_UNSPECIFIED: _ClassVar[ApprovalOutcome]
    APPROVAL_OUTCOME_ALLOWED_ONCE: _ClassVar[ApprovalOutcome]
    APPROVAL_OUTCOME_REJECTED: _ClassVar[ApprovalOutcome]
    APPROVAL_OUTCOME_CANCELLED: _ClassVar[ApprovalOutcome]

class TurnEndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TURN_END_REASON_UNSPECIFIED: _ClassVar[TurnEndReason]
    TURN_END_REASON_COMPLETED: _ClassVar[TurnEndReason]
    TURN_END_REASON_BLOCKED: _ClassVar[TurnEndReason]
    TURN_END_REASON_ERROR: _ClassVar[TurnEndReason]
    TURN_END_REASON_ABORTED: _ClassVar[TurnEndReason]
    TURN_END_REASON_CONTINUATION_CAP: _ClassVar[TurnEndReason]
PROMPT_KIND_UNSPECIFIED: PromptKind
PROMPT_KIND_FOLLOW_UP: PromptKind
PROMPT_KIND_STEER: PromptKind
PROMPT_KIND_INJECT: PromptKind
APPROVAL_OUTCOME_UNSPECIFIED: ApprovalOutcome
APPROVAL_OUTCOME_ALLOWED_ONCE: ApprovalOutcome
APPROVAL_OUTCOME_REJECTED: ApprovalOutcome
APPROVAL_OUTCOME_CANCELLED: ApprovalOutcome
TURN_END_REASON_UNSPECIFIED: TurnEndReason
TURN_END_REASON_COMPLETED: TurnEndReason
TURN_END_REASON_BLOCKED: TurnEndReason
TURN_END_REASON_ERROR: TurnEndReason
TURN_END_REASON_ABORTED: TurnEndReason
TURN_END_REASON_CONTINUATION_CAP: TurnEndReason

class SessionRequest(_message.Message):
    __slots__ = ("open", "prompt", "cancel", "step_reply", "dispatch_reply", "approval_reply", "close", "finalize_reply", "heartbeat")
    OPEN_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    CANCEL_FIELD_NUMBER: _ClassVar[int]
    STEP_REPLY_FIELD_NUMBER: _ClassVar[int]
    DISPATCH_REPLY_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_REPLY_FIELD_NUMBER: _ClassVar[int]
    CLOSE_FIELD_NUMBER: _ClassVar[int]
    FINALIZE_REPLY_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    open: OpenSession
    prompt: Prompt
    cancel: CancelTurn
    step_reply: StepReply
    dispatch_reply: DispatchReply
    approval_reply: ApprovalReply
    close: CloseSession
    finalize_reply: FinalizeReply
    heartbeat: Heartbeat
    def __init__(self, open: _Optional[_Union[OpenSession, _Mapping]] = ..., prompt: _Optional[_Union[Prompt, _Mapping]] = ..., cancel: _Optional[_Union[CancelTurn, _Mapping]] = ..., step_reply: _Optional[_Union[StepReply, _Mapping]] = ..., dispatch_reply: _Optional[_Union[DispatchReply, _Mapping]] = ..., approval_reply: _Optional[_Union[ApprovalReply, _Mapping]] = ..., close: _Optional[_Union[CloseSession, _Mapping]] = ..., finalize_reply: _Optional[_Union[FinalizeReply, _Mapping]] = ..., heartbeat: _Optional[_Union[Heartbeat, _Mapping]] = ...) -> None: ...

class Heartbeat(_message.Message):
    __slots__ = ("sequence",)
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    def __init__(self, sequence: _Optional[int] = ...) -> None: ...

class OpenSession(_message.Message):
    __slots__ = ("session_id", "source", "cwd", "tools", "agent_id", "parent_session_id", "agent_type")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    CWD_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    PARENT_SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    source: _types_pb2.SessionSource
    cwd: str
    tools: _containers.RepeatedCompositeFieldContainer[_types_pb2.ToolDefinition]
    agent_id: str
    parent_session_id: str
    agent_type: str
    def __init__(self, session_id: _Optional[str] = ..., source: _Optional[_Union[_types_pb2.SessionSource, str]] = ..., cwd: _Optional[str] = ..., tools: _Optional[_Iterable[_Union[_types_pb2.ToolDefinition, _Mapping]]] = ..., agent_id: _Optional[str] = ..., parent_session_id: _Optional[str] = ..., agent_type: _Optional[str] = ...) -> None: ...

class Prompt(_message.Message):
    __slots__ = ("kind", "content")
    KIND_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    kind: PromptKind
    content: _containers.RepeatedCompositeFieldContainer[_types_pb2.ContentBlock]
    def __init__(self, kind: _Optional[_Union[PromptKind, str]] = ..., content: _Optional[_Iterable[_Union[_types_pb2.ContentBlock, _Mapping]]] = ...) -> None: ...

class CancelTurn(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class StepReply(_message.Message):
    __slots__ = ("request_id", "assistant_message", "tool_calls", "error")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ASSISTANT_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALLS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    assistant_message: _types_pb2.Message
    tool_calls: _containers.RepeatedCompositeFieldContainer[_types_pb2.ProposedToolCall]
    error: str
    def __init__(self, request_id: _Optional[str] = ..., assistant_message: _Optional[_Union[_types_pb2.Message, _Mapping]] = ..., tool_calls: _Optional[_Iterable[_Union[_types_pb2.ProposedToolCall, _Mapping]]] = ..., error: _Optional[str] = ...) -> None: ...

class DispatchReply(_message.Message):
    __slots__ = ("request_id", "result")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    result: _types_pb2.ToolResult
    def __init__(self, request_id: _Optional[str] = ..., result: _Optional[_Union[_types_pb2.ToolResult, _Mapping]] = ...) -> None: ...

class ApprovalReply(_message.Message):
    __slots__ = ("request_id", "outcome", "note")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    outcome: ApprovalOutcome
    note: str
    def __init__(self, request_id: _Optional[str] = ..., outcome: _Optional[_Union[ApprovalOutcome, str]] = ..., note: _Optional[str] = ...) -> None: ...

class CloseSession(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: _types_pb2.SessionEndReason
    def __init__(self, reason: _Optional[_Union[_types_pb2.SessionEndReason, str]] = ...) -> None: ...

class FinalizeReply(_message.Message):
    __slots__ = ("request_id", "content")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    content: _points_pb2.ContentReplacement
    def __init__(self, request_id: _Optional[str] = ..., content: _Optional[_Union[_points_pb2.ContentReplacement, _Mapping]] = ...) -> None: ...

class SessionResponse(_message.Message):
    __slots__ = ("opened", "turn_started", "step_request", "dispatch_request", "approval_request", "tool_result", "context", "turn_ended", "problem", "finalize_request", "heartbeat")
    OPENED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    STEP_REQUEST_FIELD_NUMBER: _ClassVar[int]
    DISPATCH_REQUEST_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_REQUEST_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESULT_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    TURN_ENDED_FIELD_NUMBER: _ClassVar[int]
    PROBLEM_FIELD_NUMBER: _ClassVar[int]
    FINALIZE_REQUEST_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    opened: SessionOpened
    turn_started: TurnStarted
    step_request: StepRequest
    dispatch_request: DispatchRequest
    approval_request: ApprovalRequest
    tool_result: ToolResultNotice
    context: ContextNotice
    turn_ended: TurnEnded
    problem: Problem
    finalize_request: FinalizeRequest
    heartbeat: Heartbeat
    def __init__(self, opened: _Optional[_Union[SessionOpened, _Mapping]] = ..., turn_started: _Optional[_Union[TurnStarted, _Mapping]] = ..., step_request: _Optional[_Union[StepRequest, _Mapping]] = ..., dispatch_request: _Optional[_Union[DispatchRequest, _Mapping]] = ..., approval_request: _Optional[_Union[ApprovalRequest, _Mapping]] = ..., tool_result: _Optional[_Union[ToolResultNotice, _Mapping]] = ..., context: _Optional[_Union[ContextNotice, _Mapping]] = ..., turn_ended: _Optional[_Union[TurnEnded, _Mapping]] = ..., problem: _Optional[_Union[Problem, _Mapping]] = ..., finalize_request: _Optional[_Union[FinalizeRequest, _Mapping]] = ..., heartbeat: _Optional[_Union[Heartbeat, _Mapping]] = ...) -> None: ...

class SessionOpened(_message.Message):
    __slots__ = ("session_id", "resumed", "contexts", "heartbeat_interval_ms", "instance_id")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    RESUMED_FIELD_NUMBER: _ClassVar[int]
    CONTEXTS_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_INTERVAL_MS_FIELD_NUMBER: _ClassVar[int]
    INSTANCE_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    resumed: bool
    contexts: _containers.RepeatedCompositeFieldContainer[_types_pb2.Message]
    heartbeat_interval_ms: int
    instance_id: str
    def __init__(self, session_id: _Optional[str] = ..., resumed: _Optional[bool] = ..., contexts: _Optional[_Iterable[_Union[_types_pb2.Message, _Mapping]]] = ..., heartbeat_interval_ms: _Optional[int] = ..., instance_id: _Optional[str] = ...) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ("turn",)
    TURN_FIELD_NUMBER: _ClassVar[int]
    turn: int
    def __init__(self, turn: _Optional[int] = ...) -> None: ...

class StepRequest(_message.Message):
    __slots__ = ("request_id", "turn", "step", "messages")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    turn: int
    step: int
    messages: _containers.RepeatedCompositeFieldContainer[_types_pb2.Message]
    def __init__(self, request_id: _Optional[str] = ..., turn: _Optional[int] = ..., step: _Optional[int] = ..., messages: _Optional[_Iterable[_Union[_types_pb2.Message, _Mapping]]] = ...) -> None: ...

class DispatchRequest(_message.Message):
    __slots__ = ("request_id", "call")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    call: _types_pb2.ToolCall
    def __init__(self, request_id: _Optional[str] = ..., call: _Optional[_Union[_types_pb2.ToolCall, _Mapping]] = ...) -> None: ...

class ApprovalRequest(_message.Message):
    __slots__ = ("request_id", "call", "reason", "asked_by", "deadline_ms")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ASKED_BY_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    call: _types_pb2.ToolCall
    reason: str
    asked_by: str
    deadline_ms: int
    def __init__(self, request_id: _Optional[str] = ..., call: _Optional[_Union[_types_pb2.ToolCall, _Mapping]] = ..., reason: _Optional[str] = ..., asked_by: _Optional[str] = ..., deadline_ms: _Optional[int] = ...) -> None: ...

class FinalizeRequest(_message.Message):
    __slots__ = ("request_id", "call", "candidate", "deadline_ms")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    call: _types_pb2.ToolCall
    candidate: _types_pb2.ToolResult
    deadline_ms: int
    def __init__(self, request_id: _Optional[str] = ..., call: _Optional[_Union[_types_pb2.ToolCall, _Mapping]] = ..., candidate: _Optional[_Union[_types_pb2.ToolResult, _Mapping]] = ..., deadline_ms: _Optional[int] = ...) -> None: ...

class ToolResultNotice(_message.Message):
    __slots__ = ("call", "result", "trace")
    CALL_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    TRACE_FIELD_NUMBER: _ClassVar[int]
    call: _types_pb2.ToolCall
    result: _types_pb2.ToolResult
    trace: DecisionTrace
    def __init__(self, call: _Optional[_Union[_types_pb2.ToolCall, _Mapping]] = ..., result: _Optional[_Union[_types_pb2.ToolResult, _Mapping]] = ..., trace: _Optional[_Union[DecisionTrace, _Mapping]] = ...) -> None: ...

class ContextNotice(_message.Message):
    __slots__ = ("messages",)
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedCompositeFieldContainer[_types_pb2.Message]
    def __init__(self, messages: _Optional[_Iterable[_Union[_types_pb2.Message, _Mapping]]] = ...) -> None: ...

class TurnEnded(_message.Message):
    __slots__ = ("turn", "reason", "detail", "steps")
    TURN_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    turn: int
    reason: TurnEndReason
    detail: str
    steps: int
    def __init__(self, turn: _Optional[int] = ..., reason: _Optional[_Union[TurnEndReason, str]] = ..., detail: _Optional[str] = ..., steps: _Optional[int] = ...) -> None: ...

class Problem(_message.Message):
    __slots__ = ("code", "message", "request_id")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    code: str
    message: str
    request_id: str
    def __init__(self, code: _Optional[str] = ..., message: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class DecisionTrace(_message.Message):
    __slots__ = ("decided_by", "failure_cause", "duration_us")
    DECIDED_BY_FIELD_NUMBER: _ClassVar[int]
    FAILURE_CAUSE_FIELD_NUMBER: _ClassVar[int]
    DURATION_US_FIELD_NUMBER: _ClassVar[int]
    decided_by: str
    failure_cause: str
    duration_us: int
    def __init__(self, decided_by: _Optional[str] = ..., failure_cause: _Optional[str] = ..., duration_us: _Optional[int] = ...) -> None: ...

class EvaluateSessionStartRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.SessionStartEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.SessionStartEvent, _Mapping]] = ...) -> None: ...

class EvaluateSessionStartResponse(_message.Message):
    __slots__ = ("contexts", "user_message", "stop_agent")
    CONTEXTS_FIELD_NUMBER: _ClassVar[int]
    USER_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    STOP_AGENT_FIELD_NUMBER: _ClassVar[int]
    contexts: _containers.RepeatedCompositeFieldContainer[_types_pb2.Message]
    user_message: str
    stop_agent: _points_pb2.StopAgent
    def __init__(self, contexts: _Optional[_Iterable[_Union[_types_pb2.Message, _Mapping]]] = ..., user_message: _Optional[str] = ..., stop_agent: _Optional[_Union[_points_pb2.StopAgent, _Mapping]] = ...) -> None: ...

class EvaluatePreStepRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.PreStepEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.PreStepEvent, _Mapping]] = ...) -> None: ...

class EvaluatePreStepResponse(_message.Message):
    __slots__ = ("decision", "trace")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    TRACE_FIELD_NUMBER: _ClassVar[int]
    decision: _points_pb2.PreStepDecision
    trace: DecisionTrace
    def __init__(self, decision: _Optional[_Union[_points_pb2.PreStepDecision, _Mapping]] = ..., trace: _Optional[_Union[DecisionTrace, _Mapping]] = ...) -> None: ...

class EvaluatePreToolRequest(_message.Message):
    __slots__ = ("event", "agent_resolves_ask")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    AGENT_RESOLVES_ASK_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.PreToolEvent
    agent_resolves_ask: bool
    def __init__(self, event: _Optional[_Union[_points_pb2.PreToolEvent, _Mapping]] = ..., agent_resolves_ask: _Optional[bool] = ...) -> None: ...

class EvaluatePreToolResponse(_message.Message):
    __slots__ = ("decision", "trace")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    TRACE_FIELD_NUMBER: _ClassVar[int]
    decision: _points_pb2.PreToolDecision
    trace: DecisionTrace
    def __init__(self, decision: _Optional[_Union[_points_pb2.PreToolDecision, _Mapping]] = ..., trace: _Optional[_Union[DecisionTrace, _Mapping]] = ...) -> None: ...

class EvaluatePostToolRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.PostToolEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.PostToolEvent, _Mapping]] = ...) -> None: ...

class EvaluatePostToolResponse(_message.Message):
    __slots__ = ("decision", "result", "trace")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    TRACE_FIELD_NUMBER: _ClassVar[int]
    decision: _points_pb2.PostToolDecision
    result: _types_pb2.ToolResult
    trace: DecisionTrace
    def __init__(self, decision: _Optional[_Union[_points_pb2.PostToolDecision, _Mapping]] = ..., result: _Optional[_Union[_types_pb2.ToolResult, _Mapping]] = ..., trace: _Optional[_Union[DecisionTrace, _Mapping]] = ...) -> None: ...

class EvaluateToolResultRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.ToolResultEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.ToolResultEvent, _Mapping]] = ...) -> None: ...

class EvaluateToolResultResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class EvaluateTurnStoppingRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.TurnStoppingEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.TurnStoppingEvent, _Mapping]] = ...) -> None: ...

class EvaluateTurnStoppingResponse(_message.Message):
    __slots__ = ("decision", "capped", "trace")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    CAPPED_FIELD_NUMBER: _ClassVar[int]
    TRACE_FIELD_NUMBER: _ClassVar[int]
    decision: _points_pb2.TurnStoppingDecision
    capped: bool
    trace: DecisionTrace
    def __init__(self, decision: _Optional[_Union[_points_pb2.TurnStoppingDecision, _Mapping]] = ..., capped: _Optional[bool] = ..., trace: _Optional[_Union[DecisionTrace, _Mapping]] = ...) -> None: ...

class EvaluateRewriteRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.RewriteEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.RewriteEvent, _Mapping]] = ...) -> None: ...

class EvaluateRewriteResponse(_message.Message):
    __slots__ = ("call", "deny", "trace")
    CALL_FIELD_NUMBER: _ClassVar[int]
    DENY_FIELD_NUMBER: _ClassVar[int]
    TRACE_FIELD_NUMBER: _ClassVar[int]
    call: _types_pb2.ToolCall
    deny: _points_pb2.Deny
    trace: DecisionTrace
    def __init__(self, call: _Optional[_Union[_types_pb2.ToolCall, _Mapping]] = ..., deny: _Optional[_Union[_points_pb2.Deny, _Mapping]] = ..., trace: _Optional[_Union[DecisionTrace, _Mapping]] = ...) -> None: ...

class EvaluateApprovalRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.ApprovalEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.ApprovalEvent, _Mapping]] = ...) -> None: ...

class EvaluateApprovalResponse(_message.Message):
    __slots__ = ("decision", "trace")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    TRACE_FIELD_NUMBER: _ClassVar[int]
    decision: _points_pb2.ApprovalDecision
    trace: DecisionTrace
    def __init__(self, decision: _Optional[_Union[_points_pb2.ApprovalDecision, _Mapping]] = ..., trace: _Optional[_Union[DecisionTrace, _Mapping]] = ...) -> None: ...

class EvaluateSessionEndRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.SessionEndEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.SessionEndEvent, _Mapping]] = ...) -> None: ...

class EvaluateSessionEndResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class EvaluateTurnEndRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.TurnEndEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.TurnEndEvent, _Mapping]] = ...) -> None: ...

class EvaluateTurnEndResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class EvaluateAgentEventRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _points_pb2.AgentEventEvent
    def __init__(self, event: _Optional[_Union[_points_pb2.AgentEventEvent, _Mapping]] = ...) -> None: ...

class EvaluateAgentEventResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class EvaluateRequest(_message.Message):
    __slots__ = ("request_id", "deadline_ms", "cancel", "session_start", "pre_step", "pre_tool", "post_tool", "tool_result", "turn_stopping", "rewrite", "approval", "session_end", "turn_end", "agent_event")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    CANCEL_FIELD_NUMBER: _ClassVar[int]
    SESSION_START_FIELD_NUMBER: _ClassVar[int]
    PRE_STEP_FIELD_NUMBER: _ClassVar[int]
    PRE_TOOL_FIELD_NUMBER: _ClassVar[int]
    POST_TOOL_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESULT_FIELD_NUMBER: _ClassVar[int]
    TURN_STOPPING_FIELD_NUMBER: _ClassVar[int]
    REWRITE_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_FIELD_NUMBER: _ClassVar[int]
    SESSION_END_FIELD_NUMBER: _ClassVar[int]
    TURN_END_FIELD_NUMBER: _ClassVar[int]
    AGENT_EVENT_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    deadline_ms: int
    cancel: EvaluateCancel
    session_start: EvaluateSessionStartRequest
    pre_step: EvaluatePreStepRequest
    pre_tool: EvaluatePreToolRequest
    post_tool: EvaluatePostToolRequest
    tool_result: EvaluateToolResultRequest
    turn_stopping: EvaluateTurnStoppingRequest
    rewrite: EvaluateRewriteRequest
    approval: EvaluateApprovalRequest
    session_end: EvaluateSessionEndRequest
    turn_end: EvaluateTurnEndRequest
    agent_event: EvaluateAgentEventRequest
    def __init__(self, request_id: _Optional[int] = ..., deadline_ms: _Optional[int] = ..., cancel: _Optional[_Union[EvaluateCancel, _Mapping]] = ..., session_start: _Optional[_Union[EvaluateSessionStartRequest, _Mapping]] = ..., pre_step: _Optional[_Union[EvaluatePreStepRequest, _Mapping]] = ..., pre_tool: _Optional[_Union[EvaluatePreToolRequest, _Mapping]] = ..., post_tool: _Optional[_Union[EvaluatePostToolRequest, _Mapping]] = ..., tool_result: _Optional[_Union[EvaluateToolResultRequest, _Mapping]] = ..., turn_stopping: _Optional[_Union[EvaluateTurnStoppingRequest, _Mapping]] = ..., rewrite: _Optional[_Union[EvaluateRewriteRequest, _Mapping]] = ..., approval: _Optional[_Union[EvaluateApprovalRequest, _Mapping]] = ..., session_end: _Optional[_Union[EvaluateSessionEndRequest, _Mapping]] = ..., turn_end: _Optional[_Union[EvaluateTurnEndRequest, _Mapping]] = ..., agent_event: _Optional[_Union[EvaluateAgentEventRequest, _Mapping]] = ...) -> None: ...

class EvaluateCancel(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class EvaluateResponse(_message.Message):
    __slots__ = ("request_id", "error", "session_start", "pre_step", "pre_tool", "post_tool", "tool_result", "turn_stopping", "rewrite", "approval", "session_end", "turn_end", "agent_event")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    SESSION_START_FIELD_NUMBER: _ClassVar[int]
    PRE_STEP_FIELD_NUMBER: _ClassVar[int]
    PRE_TOOL_FIELD_NUMBER: _ClassVar[int]
    POST_TOOL_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESULT_FIELD_NUMBER: _ClassVar[int]
    TURN_STOPPING_FIELD_NUMBER: _ClassVar[int]
    REWRITE_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_FIELD_NUMBER: _ClassVar[int]
    SESSION_END_FIELD_NUMBER: _ClassVar[int]
    TURN_END_FIELD_NUMBER: _ClassVar[int]
    AGENT_EVENT_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    error: _types_pb2.CallError
    session_start: EvaluateSessionStartResponse
    pre_step: EvaluatePreStepResponse
    pre_tool: EvaluatePreToolResponse
    post_tool: EvaluatePostToolResponse
    tool_result: EvaluateToolResultResponse
    turn_stopping: EvaluateTurnStoppingResponse
    rewrite: EvaluateRewriteResponse
    approval: EvaluateApprovalResponse
    session_end: EvaluateSessionEndResponse
    turn_end: EvaluateTurnEndResponse
    agent_event: EvaluateAgentEventResponse
    def __init__(self, request_id: _Optional[int] = ..., error: _Optional[_Union[_types_pb2.CallError, _Mapping]] = ..., session_start: _Optional[_Union[EvaluateSessionStartResponse, _Mapping]] = ..., pre_step: _Optional[_Union[EvaluatePreStepResponse, _Mapping]] = ..., pre_tool: _Optional[_Union[EvaluatePreToolResponse, _Mapping]] = ..., post_tool: _Optional[_Union[EvaluatePostToolResponse, _Mapping]] = ..., tool_result: _Optional[_Union[EvaluateToolResultResponse, _Mapping]] = ..., turn_stopping: _Optional[_Union[EvaluateTurnStoppingResponse, _Mapping]] = ..., rewrite: _Optional[_Union[EvaluateRewriteResponse, _Mapping]] = ..., approval: _Optional[_Union[EvaluateApprovalResponse, _Mapping]] = ..., session_end: _Optional[_Union[EvaluateSessionEndResponse, _Mapping]] = ..., turn_end: _Optional[_Union[EvaluateTurnEndResponse, _Mapping]] = ..., agent_event: _Optional[_Union[EvaluateAgentEventResponse, _Mapping]] = ...) -> None: ...

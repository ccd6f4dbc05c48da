"""Typed events for tests, with defaults for everything a test does not care about."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hookd_plugin._gen.hookd.v1 import points_pb2 as ev
from hookd_plugin._gen.hookd.v1 import types_pb2 as types
from hookd_plugin.json_values import JsonValue, dump_json
from hookd_plugin.messages import Content, MessageLike, to_blocks

DEFAULT_SESSION = "test-session"
DEFAULT_AGENT = "test-agent"


def session(session_id: str = DEFAULT_SESSION, agent_id: str = DEFAULT_AGENT, *, cwd: str = "/",
            parent_session_id: str = "", agent_type: str = "") -> types.SessionInfo:
    return types.SessionInfo(session_id=session_id, agent_id=agent_id, cwd=cwd,
                             parent_session_id=parent_session_id, agent_type=agent_type)


def tool_call(tool: str = "Bash", arguments: Mapping[str, JsonValue] | None = None, *,
              call_id: str = "call-1", session_id: str = DEFAULT_SESSION, turn: int = 1,
              step: int = 1) -> types.ToolCall:
    """A sealed call; ``arguments`` become its canonical JSON text (integers exact)."""
    return types.ToolCall(call_id=call_id, root_call_id=call_id, tool_name=tool,
                          arguments_json=dump_json(dict(arguments or {})), session_id=session_id,
                          turn=turn, step=step)


def success(value: JsonValue = None, content: Content | None = None) -> types.ToolResult:
    """A successful result; its content defaults to the value's JSON text."""
    blocks = to_blocks(dump_json(value) if content is None else content)
    return types.ToolResult(success=types.ToolSuccess(value_json=dump_json(value),
                                                      content=list(blocks)))


def failure(message: str, code: str = "tool_error") -> types.ToolResult:
    return types.ToolResult(failure=types.ToolFailure(message=message, code=code,
                                                      content=list(to_blocks(message))))


def user_message(content: Content) -> types.Message:
    return types.Message(role=types.ROLE_USER, content=list(to_blocks(content)),
                         source=types.MessageSource(user=types.UserSource()))


def assistant_message(content: Content) -> types.Message:
    return types.Message(role=types.ROLE_ASSISTANT, content=list(to_blocks(content)),
                         source=types.MessageSource(model=types.ModelSource()))


def pre_tool(tool: str = "Bash", arguments: Mapping[str, JsonValue] | None = None,
             *, call: types.ToolCall | None = None) -> ev.PreToolEvent:
    return ev.PreToolEvent(session=session(), call=call or tool_call(tool, arguments))


def guard(tool: str = "Bash", arguments: Mapping[str, JsonValue] | None = None) -> ev.GuardEvent:
    return ev.GuardEvent(session=session(), call=tool_call(tool, arguments))


def execute(tool: str = "Bash", arguments: Mapping[str, JsonValue] | None = None) -> ev.ExecuteEvent:
    return ev.ExecuteEvent(session=session(), call=tool_call(tool, arguments))


def rewrite(tool: str = "Bash", arguments: Mapping[str, JsonValue] | None = None) -> ev.RewriteEvent:
    return ev.RewriteEvent(session=session(), call=tool_call(tool, arguments))


def approval(tool: str = "Bash", arguments: Mapping[str, JsonValue] | None = None, *,
             reason: str = "may this run?", asked_by: str = "asker") -> ev.ApprovalEvent:
    return ev.ApprovalEvent(session=session(), call=tool_call(tool, arguments), reason=reason,
                            asked_by=asked_by)


def post_tool(tool: str = "Bash", arguments: Mapping[str, JsonValue] | None = None, *,
              result: types.ToolResult | None = None) -> ev.PostToolEvent:
    return ev.PostToolEvent(session=session(), call=tool_call(tool, arguments),
                            result=result or success())


def tool_result(tool: str = "Bash", arguments: Mapping[str, JsonValue] | None = None, *,
                result: types.ToolResult | None = None) -> ev.ToolResultEvent:
    return ev.ToolResultEvent(session=session(), call=tool_call(tool, arguments),
                              result=result or success())


def pre_step(messages: Sequence[MessageLike] = (), *, turn: int = 1, step: int = 1) -> ev.PreStepEvent:
    """Plain strings become user messages (sourced to the user, as an agent sends them)."""
    batch = [user_message(m) if isinstance(m, str) else m for m in messages]
    return ev.PreStepEvent(session=session(), turn=turn, step=step, messages=batch)


def turn_stopping(last_assistant_message: str | None = None, *, turn: int = 1, step: int = 1,
                  stop_hook_active: bool = False) -> ev.TurnStoppingEvent:
    event = ev.TurnStoppingEvent(session=session(), turn=turn, step=step,
                                 stop_hook_active=stop_hook_active)
    if last_assistant_message is not None:
        event.last_assistant_message.CopyFrom(assistant_message(last_assistant_message))
    return event


def session_start(*tools: str) -> ev.SessionStartEvent:
    return ev.SessionStartEvent(session=session(), source=types.SESSION_SOURCE_STARTUP,
                                tools=[types.ToolDefinition(name=name) for name in tools])


def session_end(reason: int = types.SESSION_END_REASON_CLOSED, detail: str = "",
                turns: int = 1) -> ev.SessionEndEvent:
    return ev.SessionEndEvent(session=session(), reason=reason,  # type: ignore[arg-type]
                              detail=detail, turns=turns)


def turn_end(outcome: int = ev.TURN_END_OUTCOME_COMPLETED, *, turn: int = 1, steps: int = 1,
             detail: str = "") -> ev.TurnEndEvent:
    return ev.TurnEndEvent(session=session(), turn=turn, steps=steps, detail=detail,
                           outcome=outcome)  # type: ignore[arg-type]


def agent_event(event_name: str, payload: JsonValue = None, *,
                dialect: int = types.AGENT_DIALECT_CLAUDE_CODE) -> ev.AgentEventEvent:
    return ev.AgentEventEvent(session=session(), event_name=event_name,
                              payload_json=dump_json(payload),
                              dialect=dialect)  # type: ignore[arg-type]


__all__ = [
    "agent_event", "approval", "assistant_message", "execute", "failure", "guard", "post_tool",
    "pre_step", "pre_tool", "rewrite", "session", "session_end", "session_start", "success",
    "tool_call", "tool_result", "turn_end", "turn_stopping", "user_message",
]

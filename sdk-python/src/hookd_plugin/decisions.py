"""Typed decisions: one small immutable value per kind of answer, built by the constructors below.

A handler returns one of these and the SDK writes it into the right oneof of the point's
response, so no plugin sets ``pass`` (a Python keyword) by hand. Each point takes only its own
kinds (the ``*Answer`` unions, which mypy checks); a kind a point does not take is refused at run
time with a clear error, never sent. Required fields are checked when the value is built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Union

from hookd_plugin._gen.hookd.v1.types_pb2 import ContentBlock, Message
from hookd_plugin.json_values import JsonValue, dump_json
from hookd_plugin.messages import Content, MessageLike, to_blocks, to_messages


@dataclass(frozen=True)
class Pass:
    """Defer to the next plugin (waterfalls), contribute nothing (notifications), abstain (guard)."""


@dataclass(frozen=True)
class Allow:
    """pre-tool: let the call proceed to the guards and dispatch."""


@dataclass(frozen=True)
class Deny:
    """pre-tool, guard: refuse the call; the model sees ``Error: <reason>``."""

    reason: str


@dataclass(frozen=True)
class Ask:
    """pre-tool: ask the approval seam; only an allowed-once answer continues."""

    reason: str


@dataclass(frozen=True)
class Abstain:
    """guard: no objection."""


@dataclass(frozen=True)
class Accept:
    """post-tool: accept the result, optionally replacing its content or its canonical value."""

    content: tuple[ContentBlock, ...] | None = None
    value_json: str | None = None
    additional_contexts: tuple[Message, ...] = ()


@dataclass(frozen=True)
class Block:
    """post-tool: turn the result into a failure whose content is ``feedback``."""

    feedback: str = ""
    additional_contexts: tuple[Message, ...] = ()


@dataclass(frozen=True)
class Enter:
    """pre-step: open the step with exactly these messages (the complete batch)."""

    messages: tuple[Message, ...]


@dataclass(frozen=True)
class Reject:
    """pre-step: close the turn as blocked; approval: deny the call."""

    reason: str


@dataclass(frozen=True)
class Replace:
    """rewrite: replace the arguments as a whole (a JSON object, as text)."""

    arguments_json: str


@dataclass(frozen=True)
class Patch:
    """rewrite: merge an RFC 7386 merge patch (JSON text) into the arguments."""

    merge_patch_json: str


@dataclass(frozen=True)
class Approve:
    """approval: allow this one call (allowed-once)."""


@dataclass(frozen=True)
class Steer:
    """turn-stopping: run another step with these steering messages."""

    messages: tuple[Message, ...]


@dataclass(frozen=True)
class Inject:
    """session-start: context messages to inject before the first turn."""

    messages: tuple[Message, ...]


@dataclass(frozen=True)
class Succeed:
    """execute: answer the call yourself with a successful result."""

    value_json: str
    content: tuple[ContentBlock, ...] = ()


@dataclass(frozen=True)
class Fail:
    """execute: answer the call yourself with a failed result."""

    message: str
    code: str = "tool_error"
    content: tuple[ContentBlock, ...] = ()


SessionStartAnswer = Union[Pass, Inject]
PreStepAnswer = Union[Pass, Enter, Reject]
PreToolAnswer = Union[Pass, Allow, Deny, Ask]
GuardAnswer = Union[Abstain, Deny, Pass]
ExecuteAnswer = Union[Pass, Succeed, Fail]
PostToolAnswer = Union[Pass, Accept, Block]
TurnStoppingAnswer = Union[Pass, Steer]
RewriteAnswer = Union[Pass, Replace, Patch]
ApprovalAnswer = Union[Pass, Approve, Reject]
Decision = Union[
    Pass, Allow, Deny, Ask, Abstain, Accept, Block, Enter, Reject, Replace, Patch, Approve, Steer,
    Inject, Succeed, Fail,
]


def _required(value: str, what: str) -> str:
    if not isinstance(value, str) or value.strip() == "":
        raise ValueError(f"{what}: required (a non-empty string)")
    return value


_PASS = Pass()


def passes() -> Pass:
    """Defer: the next plugin decides, or the point's default applies."""
    return _PASS


pass_ = passes


def allow() -> Allow:
    return Allow()


def deny(reason: str) -> Deny:
    return Deny(_required(reason, "deny(reason)"))


def ask(reason: str) -> Ask:
    return Ask(_required(reason, "ask(reason)"))


def abstain() -> Abstain:
    return Abstain()


class _Unset:
    pass


_UNSET = _Unset()


def accept(
    *,
    content: Content | None = None,
    value: JsonValue | _Unset = _UNSET,
    contexts: Sequence[MessageLike] = (),
) -> Accept:
    """Accept the result; ``content`` replaces what the model sees, OR ``value`` the canonical value."""
    if content is not None and not isinstance(value, _Unset):
        raise ValueError("accept(): give content or value, not both (the daemon refuses both)")
    return Accept(
        content=None if content is None else to_blocks(content),
        value_json=None if isinstance(value, _Unset) else dump_json(value),
        additional_contexts=to_messages(contexts),
    )


def block(feedback: str = "", *, contexts: Sequence[MessageLike] = ()) -> Block:
    return Block(feedback, to_messages(contexts))


def enter(messages: Sequence[MessageLike]) -> Enter:
    return Enter(to_messages(messages))


def reject(reason: str) -> Reject:
    return Reject(_required(reason, "reject(reason)"))


def replace(arguments: Mapping[str, JsonValue]) -> Replace:
    if not isinstance(arguments, Mapping):
        raise ValueError("replace(arguments): expected a JSON object (a mapping)")
    return Replace(dump_json(dict(arguments)))


def patch(merge_patch: Mapping[str, JsonValue]) -> Patch:
    if not isinstance(merge_patch, Mapping):
        raise ValueError("patch(merge_patch): expected a JSON object (a mapping)")
    return Patch(dump_json(dict(merge_patch)))


def approve() -> Approve:
    return Approve()


def steer(*messages: MessageLike) -> Steer:
    if not messages:
        raise ValueError("steer(): at least one message is required")
    return Steer(to_messages(messages))


def inject(*messages: MessageLike) -> Inject:
    return Inject(to_messages(messages))


def succeed(value: JsonValue, content: Content = ()) -> Succeed:
    return Succeed(dump_json(value), to_blocks(content))


def fail(message: str, code: str = "tool_error") -> Fail:
    return Fail(_required(message, "fail(message)"), code)


__all__ = [
    "Abstain", "Accept", "Allow", "ApprovalAnswer", "Approve", "Ask", "Block", "Decision", "Deny",
    "Enter", "ExecuteAnswer", "Fail", "GuardAnswer", "Inject", "Pass", "Patch", "PostToolAnswer",
    "PreStepAnswer", "PreToolAnswer", "Reject", "Replace", "RewriteAnswer", "SessionStartAnswer",
    "Steer", "Succeed", "TurnStoppingAnswer", "abstain", "accept", "allow", "approve", "ask",
    "block", "deny", "enter", "fail", "inject", "pass_", "passes", "patch", "reject", "replace",
    "steer", "succeed",
]

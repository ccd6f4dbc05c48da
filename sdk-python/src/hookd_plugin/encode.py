"""Writes a handler's typed answer into its point's response message, refusing what the point
does not take (with the kinds it does take in the error)."""

from __future__ import annotations

from collections.abc import Iterable

from google.protobuf.message import Message as ProtoMessage

from hookd_plugin._gen.hookd.v1 import points_pb2 as points
from hookd_plugin._gen.hookd.v1 import types_pb2 as types
from hookd_plugin.decisions import (
    Abstain, Accept, Allow, Approve, Ask, Block, Deny, Enter, Fail, Inject, Pass, Patch, Reject,
    Replace, Steer, Succeed,
)
from hookd_plugin.points import PointSpec

#: The kinds each point takes, for the error that names them.
TAKES: dict[str, tuple[type, ...]] = {
    "session-start": (Pass, Inject),
    "pre-step": (Pass, Enter, Reject),
    "pre-tool": (Pass, Allow, Deny, Ask),
    "guard": (Abstain, Deny, Pass),
    "execute": (Pass, Succeed, Fail),
    "post-tool": (Pass, Accept, Block),
    "turn-stopping": (Pass, Steer),
    "rewrite": (Pass, Replace, Patch),
    "approval": (Pass, Approve, Reject),
}


class InvalidAnswer(Exception):
    """A handler answered something its point does not take."""


def _sourced(messages: Iterable[types.Message], plugin_name: str) -> list[types.Message]:
    """Copies of messages, each without a source given the plugin's (the daemon re-sources them
    anyway; a message must carry one)."""
    out = []
    for message in messages:
        copy = types.Message()
        copy.CopyFrom(message)
        if copy.source.WhichOneof("kind") is None:
            copy.source.plugin.name = plugin_name
        out.append(copy)
    return out


def _with_pass(decision: ProtoMessage) -> ProtoMessage:
    getattr(decision, "pass").SetInParent()  # `pass` is a Python keyword: no pass_= in protobuf
    return decision


def encode(spec: PointSpec, answer: object, plugin_name: str) -> ProtoMessage:
    """The point's response message for ``answer``; raises InvalidAnswer."""
    response = spec.response()
    if spec.observer:
        if answer is not None and not isinstance(answer, Pass):
            raise InvalidAnswer(f"{spec.name} is observe-only: return None, got {_kind(answer)}")
        return response
    takes = TAKES[spec.name]
    if not isinstance(answer, takes):
        names = ", ".join(kind.__name__ for kind in takes)
        raise InvalidAnswer(f"{spec.name} takes {names}; the handler answered {_kind(answer)}")
    decision = getattr(response, "decision")
    _fill(decision, answer, plugin_name)
    return response


def _kind(answer: object) -> str:
    return "None" if answer is None else type(answer).__name__


def _fill(decision: ProtoMessage, answer: object, name: str) -> None:  # noqa: C901 - one case each
    if isinstance(answer, Pass):
        if isinstance(decision, points.GuardDecision):
            decision.abstain.SetInParent()
        else:
            _with_pass(decision)
    elif isinstance(answer, Abstain):
        getattr(decision, "abstain").SetInParent()
    elif isinstance(answer, Allow):
        getattr(decision, "allow").SetInParent()
    elif isinstance(answer, Deny):
        getattr(decision, "deny").reason = answer.reason
    elif isinstance(answer, Ask):
        getattr(decision, "ask").reason = answer.reason
    elif isinstance(answer, Accept):
        accept = getattr(decision, "accept")
        accept.SetInParent()
        if answer.content is not None:
            accept.content.SetInParent()
            accept.content.blocks.extend(answer.content)
        if answer.value_json is not None:
            accept.value_json = answer.value_json
        accept.additional_contexts.extend(_sourced(answer.additional_contexts, name))
    elif isinstance(answer, Block):
        blocked = getattr(decision, "block")
        blocked.SetInParent()
        blocked.feedback = answer.feedback
        blocked.additional_contexts.extend(_sourced(answer.additional_contexts, name))
    elif isinstance(answer, Enter):
        entered = getattr(decision, "enter")
        entered.SetInParent()
        entered.messages.extend(_sourced(answer.messages, name))
    elif isinstance(answer, Reject):
        getattr(decision, "reject").reason = answer.reason
    elif isinstance(answer, Replace):
        getattr(decision, "replace").arguments_json = answer.arguments_json
    elif isinstance(answer, Patch):
        getattr(decision, "patch").merge_patch_json = answer.merge_patch_json
    elif isinstance(answer, Approve):
        getattr(decision, "approve").SetInParent()
    elif isinstance(answer, Steer):
        steered = getattr(decision, "steer")
        steered.messages.extend(_sourced(answer.messages, name))
    elif isinstance(answer, Inject):
        injected = getattr(decision, "inject")
        injected.SetInParent()
        injected.messages.extend(_sourced(answer.messages, name))
    elif isinstance(answer, Succeed):
        result = getattr(decision, "result")
        result.success.value_json = answer.value_json
        result.success.content.extend(answer.content)
    elif isinstance(answer, Fail):
        result = getattr(decision, "result")
        result.failure.message = answer.message
        result.failure.code = answer.code
        result.failure.content.extend(answer.content)


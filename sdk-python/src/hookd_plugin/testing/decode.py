"""The inverse of the SDK's encoding: a decision message (as the daemon answers an evaluation)
back to the typed decision values, so tests compare ``decision_of(resp) == deny("...")``."""

from __future__ import annotations

from google.protobuf.message import Message as ProtoMessage

from hookd_plugin.decisions import (
    Abstain, Accept, Allow, Approve, Ask, Block, Decision, Deny, Enter, Fail, Inject, Pass, Patch,
    Reject, Replace, Steer, Succeed,
)


def decision_of(response: ProtoMessage) -> Decision | None:
    """The typed decision in ``response.decision`` (or in a decision message itself); None when
    no decision is set."""
    decision = getattr(response, "decision", response)
    kind = decision.WhichOneof("decision")
    if kind is None:
        return None
    value = getattr(decision, kind)
    simple: dict[str, Decision] = {
        "pass": Pass(), "allow": Allow(), "abstain": Abstain(), "approve": Approve(),
    }
    if kind in simple:
        return simple[kind]
    if kind == "deny":
        return Deny(value.reason)
    if kind == "ask":
        return Ask(value.reason)
    if kind == "reject":
        return Reject(value.reason)
    if kind == "accept":
        return Accept(
            content=tuple(value.content.blocks) if value.HasField("content") else None,
            value_json=value.value_json if value.HasField("value_json") else None,
            additional_contexts=tuple(value.additional_contexts),
        )
    if kind == "block":
        return Block(value.feedback, tuple(value.additional_contexts))
    if kind == "enter":
        return Enter(tuple(value.messages))
    if kind == "replace":
        return Replace(value.arguments_json)
    if kind == "patch":
        return Patch(value.merge_patch_json)
    if kind == "steer":
        return Steer(tuple(value.messages))
    if kind == "inject":
        return Inject(tuple(value.messages))
    if kind == "result":
        if value.HasField("failure"):
            return Fail(value.failure.message, value.failure.code, tuple(value.failure.content))
        return Succeed(value.success.value_json, tuple(value.success.content))
    raise ValueError(f"unknown decision kind {kind!r}")

"""hookd_plugin.testing.Harness: handlers called with typed events and test contexts."""

from __future__ import annotations

import asyncio

import pytest

from hookd_plugin import Context, Plugin, allow, approve, deny, passes, pb
from hookd_plugin.decisions import PreToolAnswer, TurnStoppingAnswer
from hookd_plugin.encode import InvalidAnswer
from hookd_plugin.testing import Harness, NotHandled, events


def plugin() -> Plugin:
    built = Plugin("h")

    @built.pre_tool
    def pre_tool(event: pb.PreToolEvent, ctx: Context) -> PreToolAnswer:
        if ctx.cancelled:
            return deny(f"over: {ctx.cancel_reason}")
        return allow() if event.call.tool_name == "Read" else approve()  # type: ignore[return-value]

    @built.turn_stopping
    async def stopping(event: pb.TurnStoppingEvent, ctx: Context) -> TurnStoppingAnswer:
        await asyncio.sleep(0)
        return passes()

    return built


def test_typed_events_in_typed_decisions_out() -> None:
    harness = Harness(plugin())
    assert harness.pre_tool(events.pre_tool("Read")) == allow()
    assert harness.turn_stopping(events.turn_stopping("done")) == passes()


def test_the_context_can_be_cancelled_or_out_of_time() -> None:
    harness = Harness(plugin())
    assert harness.call("pre-tool", events.pre_tool("Read"), cancelled=True) == deny("over: cancelled")
    assert harness.pre_tool(events.pre_tool("Read"), deadline=0) == deny("over: deadline")


def test_an_answer_the_point_does_not_take_fails_the_test() -> None:
    with pytest.raises(InvalidAnswer, match="pre-tool takes Pass, Allow, Deny, Ask"):
        Harness(plugin()).pre_tool(events.pre_tool("Bash"))


def test_a_point_without_a_handler() -> None:
    with pytest.raises(NotHandled, match="h has no post-tool handler"):
        Harness(plugin()).post_tool(events.post_tool())


def test_from_an_async_test() -> None:
    async def run() -> object:
        return await Harness(plugin()).call_async("turn-stopping", events.turn_stopping())

    assert asyncio.run(run()) == passes()

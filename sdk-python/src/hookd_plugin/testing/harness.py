"""Calling a plugin's handlers directly, as the SDK's server calls them, with typed events and
typed decisions: ``Harness(plugin).pre_tool(events.pre_tool("Bash", {...})) == deny("...")``.

Each call runs the registered handler (sync or async) with a test Context, then checks that its
answer is one the point takes and that the SDK can encode it (what the daemon would receive), so
a test fails on exactly what would fail in production."""

from __future__ import annotations

import asyncio
import time
from typing import cast

from hookd_plugin._gen.hookd.v1 import points_pb2 as ev
from hookd_plugin._gen.hookd.v1.plugin_pb2 import PluginManifest
from hookd_plugin.context import Context
from hookd_plugin.decisions import (
    ApprovalAnswer, ExecuteAnswer, GuardAnswer, PostToolAnswer, PreStepAnswer, PreToolAnswer,
    RewriteAnswer, SessionStartAnswer, TurnStoppingAnswer,
)
from hookd_plugin.encode import encode
from hookd_plugin.plugin import Plugin
from hookd_plugin.points import PointName


class NotHandled(AssertionError):
    """The plugin has no handler for the point the test called."""


class Harness:
    """Runs one plugin's handlers. ``deadline`` (seconds) gives each call a deadline;
    ``cancelled=True`` hands the handler a context that is already cancelled."""

    def __init__(self, plugin: Plugin, *, plugin_name: str | None = None) -> None:
        self.plugin = plugin
        self.plugin_name = plugin_name or plugin.name

    def manifest(self) -> PluginManifest:
        return self.plugin.manifest()

    def context(self, point: PointName, *, deadline: float | None = None,
                cancelled: bool = False) -> Context:
        ctx = Context(point, plugin_name=self.plugin_name, transport="test",
                      deadline=None if deadline is None else time.monotonic() + deadline)
        if cancelled:
            ctx._cancel("cancelled")
        return ctx

    def call(self, point: PointName, event: object, *, deadline: float | None = None,
             cancelled: bool = False) -> object:
        """The handler's answer for ``event``; raises what the handler raises. An async handler
        runs on a loop of its own (from an async test, await ``call_async`` instead)."""
        answer = self._start(point, event, deadline, cancelled)
        if asyncio.iscoroutine(answer):
            answer = asyncio.run(answer)
        return self._checked(point, answer)

    async def call_async(self, point: PointName, event: object, *, deadline: float | None = None,
                         cancelled: bool = False) -> object:
        """``call`` on the running event loop."""
        answer = self._start(point, event, deadline, cancelled)
        if asyncio.iscoroutine(answer):
            answer = await answer
        return self._checked(point, answer)

    def _start(self, point: PointName, event: object, deadline: float | None,
               cancelled: bool) -> object:
        entry = self.plugin.handlers.get(point)
        if entry is None:
            raise NotHandled(f"{self.plugin.name} has no {point} handler")
        return entry.handler(event, self.context(point, deadline=deadline, cancelled=cancelled))

    def _checked(self, point: PointName, answer: object) -> object:
        # Raises InvalidAnswer (or ValueError) exactly where the server would refuse to send it.
        encode(self.plugin.handlers[point].spec, answer, self.plugin_name)
        return answer

    def session_start(self, event: ev.SessionStartEvent, *,
                      deadline: float | None = None) -> SessionStartAnswer:
        return cast(SessionStartAnswer, self.call("session-start", event, deadline=deadline))

    def pre_step(self, event: ev.PreStepEvent, *, deadline: float | None = None) -> PreStepAnswer:
        return cast(PreStepAnswer, self.call("pre-step", event, deadline=deadline))

    def pre_tool(self, event: ev.PreToolEvent, *, deadline: float | None = None) -> PreToolAnswer:
        return cast(PreToolAnswer, self.call("pre-tool", event, deadline=deadline))

    def guard(self, event: ev.GuardEvent, *, deadline: float | None = None) -> GuardAnswer:
        return cast(GuardAnswer, self.call("guard", event, deadline=deadline))

    def execute(self, event: ev.ExecuteEvent, *, deadline: float | None = None) -> ExecuteAnswer:
        return cast(ExecuteAnswer, self.call("execute", event, deadline=deadline))

    def post_tool(self, event: ev.PostToolEvent, *, deadline: float | None = None) -> PostToolAnswer:
        return cast(PostToolAnswer, self.call("post-tool", event, deadline=deadline))

    def turn_stopping(self, event: ev.TurnStoppingEvent, *,
                      deadline: float | None = None) -> TurnStoppingAnswer:
        return cast(TurnStoppingAnswer, self.call("turn-stopping", event, deadline=deadline))

    def rewrite(self, event: ev.RewriteEvent, *, deadline: float | None = None) -> RewriteAnswer:
        return cast(RewriteAnswer, self.call("rewrite", event, deadline=deadline))

    def approval(self, event: ev.ApprovalEvent, *, deadline: float | None = None) -> ApprovalAnswer:
        return cast(ApprovalAnswer, self.call("approval", event, deadline=deadline))

    def tool_result(self, event: ev.ToolResultEvent) -> None:
        self.call("tool-result", event)

    def session_end(self, event: ev.SessionEndEvent) -> None:
        self.call("session-end", event)

    def turn_end(self, event: ev.TurnEndEvent) -> None:
        self.call("turn-end", event)

    def agent_event(self, event: ev.AgentEventEvent) -> None:
        self.call("agent-event", event)

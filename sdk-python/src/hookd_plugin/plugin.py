"""Plugin: a name, a version and one handler per point, registered with decorators; the manifest
the daemon reads from Describe is derived from the handlers."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar, Union, overload

from hookd_plugin._gen.hookd.v1 import plugin_pb2 as plugin_pb
from hookd_plugin._gen.hookd.v1 import points_pb2 as ev
from hookd_plugin._gen.hookd.v1 import types_pb2 as types
from hookd_plugin.context import Context
from hookd_plugin.decisions import (
    ApprovalAnswer, ExecuteAnswer, GuardAnswer, PostToolAnswer, PreStepAnswer, PreToolAnswer,
    RewriteAnswer, SessionStartAnswer, TurnStoppingAnswer,
)
from hookd_plugin.points import BY_NAME, PointName, PointSpec

FailurePolicyName = Literal["fail-closed", "fail-open"]
TransportPreference = Literal["auto", "unary", "stream"]

E = TypeVar("E")
A = TypeVar("A")
#: A handler: ``(event, ctx) -> answer``, a plain function or an ``async def``.
Handler = Callable[[E, Context], Union[A, Awaitable[A]]]

_POLICIES = {
    None: types.FAILURE_POLICY_UNSPECIFIED,
    "fail-closed": types.FAILURE_POLICY_FAIL_CLOSED,
    "fail-open": types.FAILURE_POLICY_FAIL_OPEN,
}
_TRANSPORTS = {
    "auto": plugin_pb.PLUGIN_TRANSPORT_UNSPECIFIED,
    "unary": plugin_pb.PLUGIN_TRANSPORT_UNARY,
    "stream": plugin_pb.PLUGIN_TRANSPORT_STREAM,
}


class PluginError(ValueError):
    """A plugin definition the daemon would refuse, named before it is served."""


@dataclass(frozen=True)
class Registered:
    spec: PointSpec
    handler: Callable[..., object]
    is_async: bool
    subscription: plugin_pb.Subscription


class On(Generic[E, A]):
    """Registers the handler of one point: ``@plugin.pre_tool`` or ``@plugin.pre_tool(tools=[...])``."""

    def __init__(self, owner: Plugin, point: PointName) -> None:
        self._owner = owner
        self._point = point

    @overload
    def __call__(self, handler: Handler[E, A], /) -> Handler[E, A]: ...

    @overload
    def __call__(
        self,
        *,
        tools: Sequence[str] = ...,
        priority: int = ...,
        deadline_ms: int = ...,
        failure_policy: FailurePolicyName | None = ...,
    ) -> Callable[[Handler[E, A]], Handler[E, A]]: ...

    def __call__(
        self,
        handler: Callable[[E, Context], A | Awaitable[A]] | None = None,
        *,
        tools: Sequence[str] = (),
        priority: int = 0,
        deadline_ms: int = 0,
        failure_policy: FailurePolicyName | None = None,
    ) -> Handler[E, A] | Callable[[Handler[E, A]], Handler[E, A]]:
        def register(fn: Handler[E, A]) -> Handler[E, A]:
            self._owner.add(self._point, fn, tools=tools, priority=priority,
                            deadline_ms=deadline_ms, failure_policy=failure_policy)
            return fn

        return register if handler is None else register(handler)


class Plugin:
    """A hook plugin. Register handlers with the per-point decorators, then ``serve(plugin)``."""

    def __init__(
        self,
        name: str,
        *,
        version: str = "0.0.0",
        side_effect_free: bool = False,
        transport: TransportPreference = "auto",
    ) -> None:
        if not isinstance(name, str) or name.strip() == "":
            raise PluginError("Plugin(name): required (a non-empty string)")
        if transport not in _TRANSPORTS:
            raise PluginError(f"Plugin(transport): expected auto, unary or stream, got {transport!r}")
        self.name = name
        self.version = version
        self.side_effect_free = side_effect_free
        self.transport: TransportPreference = transport
        self.handlers: dict[PointName, Registered] = {}
        self.session_start: On[ev.SessionStartEvent, SessionStartAnswer] = On(self, "session-start")
        self.pre_step: On[ev.PreStepEvent, PreStepAnswer] = On(self, "pre-step")
        self.pre_tool: On[ev.PreToolEvent, PreToolAnswer] = On(self, "pre-tool")
        self.guard: On[ev.GuardEvent, GuardAnswer] = On(self, "guard")
        self.execute: On[ev.ExecuteEvent, ExecuteAnswer] = On(self, "execute")
        self.post_tool: On[ev.PostToolEvent, PostToolAnswer] = On(self, "post-tool")
        self.tool_result: On[ev.ToolResultEvent, None] = On(self, "tool-result")
        self.turn_stopping: On[ev.TurnStoppingEvent, TurnStoppingAnswer] = On(self, "turn-stopping")
        self.rewrite: On[ev.RewriteEvent, RewriteAnswer] = On(self, "rewrite")
        self.approval: On[ev.ApprovalEvent, ApprovalAnswer] = On(self, "approval")
        self.session_end: On[ev.SessionEndEvent, None] = On(self, "session-end")
        self.turn_end: On[ev.TurnEndEvent, None] = On(self, "turn-end")
        self.agent_event: On[ev.AgentEventEvent, None] = On(self, "agent-event")

    def add(
        self,
        point: PointName,
        handler: Callable[..., object],
        *,
        tools: Sequence[str] = (),
        priority: int = 0,
        deadline_ms: int = 0,
        failure_policy: FailurePolicyName | None = None,
    ) -> None:
        """Registers ``handler`` for ``point`` (what the decorators call)."""
        spec = BY_NAME.get(point)
        where = f"{self.name} {point}"
        if spec is None:
            raise PluginError(f"{self.name}: unknown point {point!r}")
        if point in self.handlers:
            raise PluginError(f"{where}: a handler is registered already (one per point)")
        if not callable(handler):
            raise PluginError(f"{where}: the handler must be callable")
        if isinstance(tools, str) or not all(isinstance(t, str) and t for t in tools):
            raise PluginError(f"{where}: tools must be a list of non-empty matchers")
        if tools and not spec.matchers:
            raise PluginError(f"{where}: this point takes no matchers (tools)")
        if not isinstance(priority, int) or not -(2**31) <= priority < 2**31:
            raise PluginError(f"{where}: priority must be a 32-bit integer")
        if not isinstance(deadline_ms, int) or not 0 <= deadline_ms < 2**32:
            raise PluginError(f"{where}: deadline_ms must be a non-negative integer (0: the default)")
        if failure_policy not in _POLICIES:
            raise PluginError(f"{where}: failure_policy must be fail-closed or fail-open")
        subscription = plugin_pb.Subscription(
            point=spec.value,  # type: ignore[arg-type]  # an int is a valid enum value
            tools=list(tools), priority=priority, deadline_ms=deadline_ms,
            failure_policy=_POLICIES[failure_policy],
        )
        target = inspect.unwrap(handler)
        is_async = inspect.iscoroutinefunction(target) or inspect.iscoroutinefunction(
            getattr(target, "__call__", None)
        )
        self.handlers[point] = Registered(spec, handler, is_async, subscription)

    def manifest(self) -> plugin_pb.PluginManifest:
        """The manifest Describe answers; refuses a plugin without handlers."""
        if not self.handlers:
            raise PluginError(
                f"{self.name}: no handlers; register at least one (e.g. @plugin.pre_tool)"
            )
        ordered = sorted(self.handlers.values(), key=lambda entry: entry.spec.value)
        return plugin_pb.PluginManifest(
            name=self.name,
            version=self.version,
            subscriptions=[entry.subscription for entry in ordered],
            side_effect_free=self.side_effect_free,
            transport=_TRANSPORTS[self.transport],
        )
